// pva::analyseBlocks: a report's lightweight-profiling blocks (docs/profiling.md, "Lightweight
// profiling") gathered once, as the viewer's Execution trace and scripts read them: each IPU's
// recording tile (engine option profiler.blocks.tile) with its Block programs, flushes and
// control copies; the stream-copy records of the tiles doing host I/O, one per copy however
// many tiles hold its data; and per block program how often it ran and for how many cycles.
//
//   const pva::BlockFigures b = pva::analyseBlocks(report);
//   if (!b.any()) std::cout << "no lightweight profiling\n";
//   for (const auto& p : b.programs) std::cout << p.name << ": " << p.cycles << " cycles\n";
#pragma once

#include <cstdint>
#include <pva/Execution.hpp>
#include <pva/Report.hpp>
#include <string>
#include <vector>

namespace pva {

/// A stream-copy record found at the same cycles on several I/O tiles: one copy.
struct IoBlock {
  Block block;        ///< the record of its lowest tile
  unsigned tiles = 0; ///< how many tiles recorded it
};

/// Every record of one block program.
struct BlockProgramFigures {
  std::string name;
  enum class Kind { Common, StreamCopy, BlockFlush, Overflow } kind = Kind::Common;
  /// Executions: records of the recording tiles, plus stream copies counted once per copy.
  std::uint64_t count = 0;
  /// Cycles of those executions (to - from), summed, and the shortest and longest.
  std::uint64_t cycles = 0, minCycles = 0, maxCycles = 0;
};

struct BlockFigures {
  unsigned recordingTile = 0; ///< profiler.blocks.tile: that tile of each IPU records blocks
  /// Per IPU of one replica: its recording tile's records, in time order.
  std::vector<std::vector<Block>> recorded;
  /// Per IPU of one replica: the stream copies other tiles recorded, in time order.
  std::vector<std::vector<IoBlock>> io;
  /// Each block program once, in order of first record.
  std::vector<BlockProgramFigures> programs;
  std::uint64_t numRecords = 0; ///< every record of every tile
  unsigned numTiles = 0;        ///< tiles holding at least one record
  bool any() const { return numRecords > 0; }
};

/// Reads every tile's blocks once (a report without lightweight profiling has none).
BlockFigures analyseBlocks(const Report& report);

} // namespace pva
