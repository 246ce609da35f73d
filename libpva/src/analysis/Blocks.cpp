// analyseBlocks: every tile's lightweight-profiling records, read once and grouped by IPU and by
// block program, so the viewer, the CLI and Python show the same counts and cycles.
#include "../model/Access.hpp"
#include "../model/ReportState.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <pva/Blocks.hpp>
#include <pva/Compilation.hpp>
#include <pva/Program.hpp>
#include <tuple>

namespace pva {
namespace {

BlockProgramFigures::Kind kindOf(const Block& b) {
  using K = BlockProgramFigures::Kind;
  return b.isStreamCopy()   ? K::StreamCopy
         : b.isBlockFlush() ? K::BlockFlush
         : b.isOverflow()   ? K::Overflow
                            : K::Common;
}

} // namespace

BlockFigures analyseBlocks(const Report& report) {
  BlockFigures out;
  const auto options = report.engineOptions();
  const auto tile = options.find("profiler.blocks.tile");
  if (tile != options.end())
    out.recordingTile = unsigned(std::strtoul(tile->second.c_str(), nullptr, 10));
  const Target target = report.compilation().target();
  const unsigned perIpu = std::max(1u, target.tilesPerIpu()), ipus = target.ipusPerReplica();
  out.recorded.resize(ipus);
  out.io.resize(ipus);
  const ExecutionReport execution = report.execution();

  std::map<std::string, std::size_t> programIndex;
  auto count = [&](const Block& b) {
    const ProgramPtr p = b.program();
    const std::string name = p ? p->name() : std::string("(unknown)");
    auto [it, inserted] = programIndex.emplace(name, out.programs.size());
    if (inserted) {
      BlockProgramFigures f;
      f.name = name;
      f.kind = kindOf(b);
      f.minCycles = ~std::uint64_t(0);
      out.programs.push_back(f);
    }
    BlockProgramFigures& f = out.programs[it->second];
    const std::uint64_t cycles = b.to() > b.from() ? b.to() - b.from() : 0;
    ++f.count;
    f.cycles += cycles;
    f.minCycles = std::min(f.minCycles, cycles);
    f.maxCycles = std::max(f.maxCycles, cycles);
  };

  // Only the tiles that hold records are read (one indexed query for the list): a report
  // without lightweight profiling costs one query, not one per tile.
  const std::vector<unsigned> tiles = detail::Access::state(report)->store.blockTiles();
  for (unsigned ipu = 0; ipu < ipus; ++ipu) {
    // One stream copy recorded by many I/O tiles: keyed by its program and cycles.
    std::map<std::tuple<std::uint64_t, std::uint64_t, std::uint64_t>, std::size_t> copies;
    const auto first = std::lower_bound(tiles.begin(), tiles.end(), ipu * perIpu);
    for (auto tileIt = first; tileIt != tiles.end() && *tileIt < (ipu + 1) * perIpu; ++tileIt) {
      const unsigned deviceTile = *tileIt, t = deviceTile - ipu * perIpu;
      const std::vector<Block> blocks = execution.blocks(deviceTile);
      if (blocks.empty()) continue;
      ++out.numTiles;
      out.numRecords += blocks.size();
      for (const Block& b : blocks) {
        if (t == out.recordingTile) {
          out.recorded[ipu].push_back(b);
          count(b);
          continue;
        }
        const ProgramPtr p = b.program();
        const auto key = std::make_tuple(p ? p->_id() : ~std::uint64_t(0), b.from(), b.to());
        const auto [copy, inserted] = copies.emplace(key, out.io[ipu].size());
        if (inserted) {
          out.io[ipu].push_back({b, 0});
          count(b);
        }
        ++out.io[ipu][copy->second].tiles;
      }
    }
    auto byStart = [](const Block& a, const Block& b) { return a.from() < b.from(); };
    std::stable_sort(out.recorded[ipu].begin(), out.recorded[ipu].end(), byStart);
    std::stable_sort(out.io[ipu].begin(), out.io[ipu].end(),
                     [&](const IoBlock& a, const IoBlock& b) { return byStart(a.block, b.block); });
  }
  for (BlockProgramFigures& f : out.programs)
    if (f.count == 0) f.minCycles = 0;
  return out;
}

} // namespace pva
