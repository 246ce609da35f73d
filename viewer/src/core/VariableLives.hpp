// Each variable's life in liveness steps, for drawing chosen variables' lifetimes on the Liveness
// chart: libpva's Variable::liveFrom()/liveTo() ([from, to) in CompilationReport::
// livenessProgramSteps()) and its bytes over one replica, read once. Always-live variables live
// at every step. Picking which to draw is presentation; the steps and bytes are libpva's.
//
// Threads: loadVariableLives() runs off the GUI thread with its own pva::Report; the result is
// immutable. Cost: one pass over the report's variables (a few thousand on the samples).
#pragma once

#include "core/Background.hpp"
#include "core/Document.hpp"

#include <QString>
#include <QStringList>
#include <cstdint>
#include <vector>

namespace tessera::viewer {

struct VariableLife {
  QString name;
  std::uint64_t from = 0, to = 0; ///< live steps [from, to); every step when always live
  std::uint64_t bytes = 0;        ///< over all tiles of one replica
  bool alwaysLive = false;
};

struct VariableLives {
  std::uint64_t steps = 0; ///< liveness steps of the schedule
  std::vector<VariableLife> variables;
  /// The variables whose name contains any of the terms (core/NameTerms), largest first (then
  /// by name); no term matches nothing. `matched` gets how many matched in all.
  std::vector<std::size_t> matching(const QStringList& terms, std::size_t* matched = nullptr) const;
};

/// Reads every variable's life. Throws pva::Exception; Cancelled when progress is cancelled.
VariableLives loadVariableLives(const Document& doc, Progress& progress);

} // namespace tessera::viewer
