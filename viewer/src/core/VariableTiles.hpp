// Where each variable's bytes are, tile by tile, for the Memory page's variable filter: libpva's
// lowered variables (one allocation of a variable, or of code or state, on one tile) read once
// and kept as (name, tile, bytes). A filter picks names; the chart then shows, per tile, the
// bytes of the lowered variables with those names. The bytes are libpva's; picking and adding the
// rows a filter shows is presentation.
//
// Threads: loadVariableTiles() runs off the GUI thread with its own pva::Report; the result is
// immutable. Cost: one lowered-variable query per tile of a replica (~0.1 s for the samples);
// 16 bytes per lowered variable (40,599 on the MLP sample).
#pragma once

#include "core/Background.hpp"
#include "core/Document.hpp"

#include <QString>
#include <QStringList>
#include <cstdint>
#include <vector>

namespace tessera::viewer {

struct VariableTiles {
  unsigned numTiles = 0;        ///< of the device
  unsigned tilesPerReplica = 0; ///< lowered variables are per replica; replicas hold the same
  QStringList names;            ///< each distinct name once (variables, and code/state categories)
  struct Piece {
    std::uint32_t name = 0; ///< index into names
    std::uint32_t tile = 0; ///< tile of one replica
    std::uint64_t bytes = 0;
  };
  std::vector<Piece> pieces;

  /// Indices of the names containing `text` (case-insensitive); every name for an empty text.
  std::vector<std::uint32_t> matching(const QString& text) const;
  /// Indices of the names containing any of the terms (core/NameTerms), each once.
  std::vector<std::uint32_t> matching(const QStringList& terms) const;
  /// Bytes per tile of the device (every replica alike) of the pieces of those names.
  std::vector<std::uint64_t> bytesPerTile(const std::vector<std::uint32_t>& names) const;
};

/// Reads every lowered variable. Throws pva::Exception; Cancelled when progress is cancelled.
VariableTiles loadVariableTiles(const Document& doc, Progress& progress);

} // namespace tessera::viewer
