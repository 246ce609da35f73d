// Reading the lowered variables of every tile, and the bytes per tile of the names a filter picks.
#include "core/VariableTiles.hpp"

#include "core/NameTerms.hpp"

#include <QHash>
#include <algorithm>

namespace tessera::viewer {

std::vector<std::uint32_t> VariableTiles::matching(const QString& text) const {
  std::vector<std::uint32_t> out;
  const QString needle = text.trimmed();
  for (int i = 0; i < names.size(); ++i)
    if (needle.isEmpty() || names[i].contains(needle, Qt::CaseInsensitive))
      out.push_back(std::uint32_t(i));
  return out;
}

std::vector<std::uint32_t> VariableTiles::matching(const QStringList& terms) const {
  std::vector<std::uint32_t> out;
  for (int i = 0; i < names.size(); ++i)
    if (matchesAnyTerm(names[i], terms)) out.push_back(std::uint32_t(i));
  return out;
}

std::vector<std::uint64_t>
VariableTiles::bytesPerTile(const std::vector<std::uint32_t>& picked) const {
  std::vector<char> wanted(std::size_t(names.size()), 0);
  for (std::uint32_t n : picked)
    if (n < wanted.size()) wanted[n] = 1;
  const unsigned perReplica = std::max(1u, tilesPerReplica);
  std::vector<std::uint64_t> replica(perReplica, 0);
  for (const Piece& p : pieces)
    if (wanted[p.name] && p.tile < perReplica) replica[p.tile] += p.bytes;
  std::vector<std::uint64_t> out(numTiles, 0);
  for (unsigned t = 0; t < numTiles; ++t)
    out[t] = replica[t % perReplica];
  return out;
}

VariableTiles loadVariableTiles(const Document& doc, Progress& progress) {
  const pva::Report& report = doc.report();
  const pva::CompilationReport compilation = report.compilation();
  const pva::Target target = compilation.target();
  VariableTiles d;
  d.numTiles = target.numTiles();
  d.tilesPerReplica = std::max(1u, target.tilesPerReplica());
  QHash<QString, std::uint32_t> index;
  const pva::LoweredVariables lowered = compilation.loweredVariables();
  for (unsigned t = 0; t < d.tilesPerReplica && t < d.numTiles; ++t) {
    if ((t & 63) == 0) {
      if (progress.cancelled()) throw Cancelled{};
      progress.report(double(t) / double(d.tilesPerReplica));
    }
    for (const pva::LoweredVariable& v : lowered.forTile(t)) {
      const QString name = QString::fromStdString(v.name());
      auto it = index.find(name);
      if (it == index.end()) {
        it = index.insert(name, std::uint32_t(d.names.size()));
        d.names << name;
      }
      d.pieces.push_back({*it, t, v.bytes()});
    }
  }
  progress.report(1.0);
  return d;
}

} // namespace tessera::viewer
