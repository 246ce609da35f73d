// Reading what lives on the selected tiles: lowered variables, vertex types, compute sets and
// exchange programs, aggregated over the selection.
#include "core/TileDetailsData.hpp"

#include <algorithm>
#include <map>

namespace tessera::viewer {

namespace {

QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

bool isExchange(pva::Program::Type t) {
  using T = pva::Program::Type;
  return t == T::DoExchange || t == T::GlobalExchange || t == T::StreamCopyBegin ||
         t == T::StreamCopyMid || t == T::StreamCopyEnd;
}

void checkCancelled(Progress& progress) {
  if (progress.cancelled()) throw Cancelled{};
}

} // namespace

TileDetailsData loadTileDetails(const Document& doc, std::vector<unsigned> tiles,
                                Progress& progress) {
  const pva::Report& report = doc.report();
  const pva::CompilationReport compilation = report.compilation();
  const pva::Target target = compilation.target();
  TileDetailsData d;
  d.bytesPerTile = target.bytesPerTile();
  d.interleavedStart = target.interleavedMemoryStart();
  std::sort(tiles.begin(), tiles.end());
  tiles.erase(std::unique(tiles.begin(), tiles.end()), tiles.end());
  for (unsigned t : tiles)
    if (t >= target.numTiles())
      throw pva::InvalidArgumentError("no tile " + std::to_string(t) + " in " +
                                      report.profilePath());
  d.tiles = tiles;
  const unsigned perReplica = std::max(1u, target.tilesPerReplica());
  // Which replica tiles are selected (per-tile arrays in the report are per replica).
  std::vector<unsigned char> selected(perReplica, d.allTiles() ? 1 : 0);
  for (unsigned t : tiles)
    selected[t % perReplica] = 1;

  // Variables.
  if (d.allTiles()) {
    for (const pva::Variable& v : compilation.variables())
      d.variables.push_back({qs(v.name()), qs(v.category()), v.bytes(), 0, 0, 0, v.alwaysLive()});
    // Code and state: pseudo-variables named after their category, summed over tiles.
    for (const pva::Variable& v : compilation.alwaysLiveVariables())
      if (v.id() == ~std::uint64_t(0))
        d.variables.push_back({qs(v.name()), qs(v.category()), v.bytes(), 0, 0, 0, true});
  } else {
    const pva::LoweredVariables lowered = compilation.loweredVariables();
    for (std::size_t i = 0; i < tiles.size(); ++i) {
      checkCancelled(progress);
      progress.report(0.5 * double(i) / double(tiles.size()));
      for (const pva::LoweredVariable& v : lowered.forTile(tiles[i]))
        d.variables.push_back({qs(v.name()), qs(v.category()), v.bytes(), v.offset(), v.alignment(),
                               tiles[i], v.alwaysLive()});
    }
  }
  progress.report(0.5);

  // Compute sets and vertex types, from each compute set's per-tile instance counts.
  std::map<std::string, TileVertexRow> types;
  std::map<std::string, std::vector<unsigned char>> typeTiles; // replica tiles holding the type
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>>
      typeSizes; // state size, code bytes
  const std::vector<pva::ComputeSet> computeSets = compilation.computeSets();
  for (std::size_t c = 0; c < computeSets.size(); ++c) {
    checkCancelled(progress);
    progress.report(0.5 + 0.4 * double(c) / double(std::max<std::size_t>(1, computeSets.size())));
    TileComputeSetRow row;
    row.name = qs(computeSets[c].name());
    std::vector<unsigned char> csTiles(perReplica, 0);
    for (const pva::ComputeSetVertices& cv : computeSets[c].vertices()) {
      const std::vector<std::uint64_t> counts = cv.countByTile();
      const std::string& name = cv.type().name();
      auto& holders = typeTiles[name];
      if (holders.empty()) holders.assign(perReplica, 0);
      typeSizes[name] = {cv.type().size(), cv.type().codeBytes()};
      std::uint64_t onSelection = 0;
      for (std::size_t t = 0; t < counts.size() && t < perReplica; ++t) {
        if (!selected[t] || counts[t] == 0) continue;
        // With replicas, a replica tile stands for every selected copy of it.
        const std::uint64_t copies =
            d.allTiles() ? target.numReplicas()
                         : std::uint64_t(std::count_if(tiles.begin(), tiles.end(), [&](unsigned s) {
                             return s % perReplica == t;
                           }));
        onSelection += counts[t] * copies;
        holders[t] = 1;
        csTiles[t] = 1;
      }
      if (onSelection == 0) continue;
      ++row.types;
      row.vertices += onSelection;
      TileVertexRow& vr = types[name];
      vr.name = qs(name);
      vr.count += onSelection;
    }
    if (row.vertices == 0) continue;
    row.tiles = unsigned(std::count(csTiles.begin(), csTiles.end(), 1));
    d.computeSets.push_back(row);
  }
  for (auto& [name, vr] : types) {
    const auto& holders = typeTiles[name];
    vr.tiles = unsigned(std::count(holders.begin(), holders.end(), 1));
    vr.stateBytes = vr.count * typeSizes[name].first;
    vr.codeBytes = std::uint64_t(vr.tiles) * typeSizes[name].second;
    d.vertices.push_back(vr);
  }

  // Exchange programs with code on the selection.
  for (const pva::ProgramPtr& p : compilation.programs()) {
    if (!isExchange(p->type())) continue;
    checkCancelled(progress);
    const std::vector<std::uint64_t> code = p->codeBytesByTile();
    TileExchangeRow row;
    for (std::size_t t = 0; t < code.size() && t < perReplica; ++t) {
      if (!selected[t] || code[t] == 0) continue;
      row.codeBytes += code[t];
      ++row.tiles;
    }
    if (row.codeBytes == 0) continue;
    row.name = qs(p->name());
    row.type = qs(pva::Program::typeName(p->type()));
    row.dataBytes = p->dataBytes();
    d.exchanges.push_back(row);
  }
  progress.report(1.0);
  return d;
}

} // namespace tessera::viewer
