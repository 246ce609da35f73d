// What happened when the engine ran: runs, every executed step with per-IPU and per-tile cycles,
// cycle totals by kind, and lightweight-profiling blocks (report.execution()).
#pragma once

#include <iterator>
#include <pva/Fwd.hpp>
#include <pva/Program.hpp>
#include <string>

namespace pva {

/// Minimum and maximum of a cycle counter over tiles.
class CycleRange {
public:
  std::uint64_t min() const { return min_; }
  std::uint64_t max() const { return max_; }

private:
  friend struct detail::Access;
  std::uint64_t min_ = 0, max_ = 0;
};

/// When a step started and ended on an IPU's tiles, in absolute cycle counts.
class CycleInterval {
public:
  const CycleRange& from() const { return from_; }
  const CycleRange& to() const { return to_; }

private:
  friend struct detail::Access;
  CycleRange from_, to_;
};

/// One IPU's part of a step.
class IpuExecution {
public:
  unsigned ipu() const { return ipu_; }
  /// Cycles the step took on this IPU, waiting for other IPUs included.
  std::uint64_t cycles() const { return cycles_; }
  /// Over the tiles that did work, and over all the IPU's tiles.
  const CycleInterval& activeCycles() const { return active_; }
  const CycleInterval& allCycles() const { return all_; }
  unsigned activeTiles() const { return activeTiles_; }
  /// Bytes into and out of the IPU (stream copies, global exchanges).
  std::uint64_t dataIn() const { return dataIn_; }
  std::uint64_t dataOut() const { return dataOut_; }
  /// Mean over max of the tiles' cycles: over all tiles, and over the active tiles.
  double tileBalance() const { return tileBalance_; }
  double activeTileBalance() const { return activeTileBalance_; }

private:
  friend struct detail::Access;
  unsigned ipu_ = 0, activeTiles_ = 0;
  std::uint64_t cycles_ = 0, dataIn_ = 0, dataOut_ = 0;
  CycleInterval active_, all_;
  double tileBalance_ = 0, activeTileBalance_ = 0;
};

/// A compute set executed by a step.
class ComputeSetExecution {
public:
  const std::string& name() const;
  /// Measured and estimated cycles on each tile of one replica (Target::tilesPerReplica()
  /// entries, 0: the tile did nothing).
  std::vector<std::uint64_t> cyclesByTile() const;
  std::vector<std::uint64_t> estimatedCyclesByTile() const;

private:
  friend struct detail::Access;
  std::shared_ptr<const detail::StepBytes> chunk_; ///< the step's chunk (see ExecutionStep)
  std::uint32_t row_ = 0;                          ///< the step's place in it
  std::uint64_t program_ = 0, computeSet_ = 0;
};

/// The IPUs that took part in a step (ExecutionStep::ipus()), decoded from the step's data one
/// entry at a time as they are read: `step.ipus()[0].cycles()` decodes IPU 0's entry and no other.
/// The list keeps the step's data and the report alive, so it can be kept like any handle.
/// Damage in an entry is found when that entry is read (InvalidReportError naming the step).
class IpuExecutions {
public:
  /// Decodes the entries in order, each once.
  class iterator {
  public:
    using iterator_category = std::input_iterator_tag;
    using value_type = IpuExecution;
    using difference_type = std::ptrdiff_t;
    using pointer = const IpuExecution*;
    using reference = const IpuExecution&;
    const IpuExecution& operator*() const;
    const IpuExecution* operator->() const { return &**this; }
    iterator& operator++();
    bool operator==(const iterator& o) const { return index_ == o.index_; }
    bool operator!=(const iterator& o) const { return index_ != o.index_; }

  private:
    friend class IpuExecutions;
    const IpuExecutions* list_ = nullptr;
    std::size_t index_ = 0;
    // The entry last decoded, and where the one after it starts, so that reading in order
    // continues from there (the position is libpva's own token, meaningless outside it).
    mutable std::size_t decoded_ = static_cast<std::size_t>(-1);
    mutable IpuExecution current_;
    mutable std::uint64_t next_ = 0;
  };
  iterator begin() const;
  iterator end() const;
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  /// Entry i; both throw InvalidArgumentError when i >= size().
  IpuExecution operator[](std::size_t i) const;
  IpuExecution at(std::size_t i) const;
  /// Every entry, decoded (for code that keeps a vector).
  operator std::vector<IpuExecution>() const;

private:
  friend struct detail::Access;
  /// Decodes the entry at position `at` (a token from the source) and moves `at` to the next.
  IpuExecution decode(std::uint64_t& at) const;
  std::shared_ptr<const detail::StepBytes> chunk_; ///< the step's chunk (see ExecutionStep)
  std::uint32_t row_ = 0;                          ///< the step's place in it
  std::uint32_t size_ = 0;
  /// Entries decoded all at once, when the step's data cannot be read one entry at a time.
  std::shared_ptr<const std::vector<IpuExecution>> decoded_;
};

/// One executed program step.
class ExecutionStep {
public:
  std::uint64_t index() const { return index_; }
  unsigned run() const { return run_; }
  ProgramPtr program() const;
  /// Only the IPUs that took part, decoded as they are read (see IpuExecutions).
  IpuExecutions ipus() const;
  /// Cycles on each tile of one replica: Target::tilesPerReplica() entries, 0 where the tile did
  /// nothing (every step type, exchanges and syncs included).
  std::vector<std::uint64_t> cyclesByTile() const;
  /// OnTileExecute steps: the compute set they ran; empty for other steps.
  std::vector<ComputeSetExecution> computeSets() const;

private:
  friend struct detail::Access;
  /// The chunk of steps this one was read with (one shared allocation per chunk, holding the
  /// report and the steps' data, read by ipus() and cyclesByTile()), and its place in it.
  std::shared_ptr<const detail::StepBytes> chunk_;
  std::uint64_t index_ = 0, program_ = 0;
  unsigned run_ = 0;
  std::uint32_t row_ = 0;
};

/// A range of steps read from the report in chunks: iterating a million steps keeps only one
/// chunk in memory.
class ExecutionSteps {
public:
  class iterator {
  public:
    using iterator_category = std::input_iterator_tag;
    using value_type = ExecutionStep;
    using difference_type = std::ptrdiff_t;
    using pointer = const ExecutionStep*;
    using reference = const ExecutionStep&;
    const ExecutionStep& operator*() const;
    const ExecutionStep* operator->() const { return &**this; }
    iterator& operator++();
    bool operator==(const iterator& o) const { return index_ == o.index_; }
    bool operator!=(const iterator& o) const { return index_ != o.index_; }

  private:
    friend class ExecutionSteps;
    const ExecutionSteps* range_ = nullptr;
    std::uint64_t index_ = 0;
    std::shared_ptr<std::vector<ExecutionStep>> chunk_;
    std::uint64_t chunkBegin_ = 0;
    std::size_t chunkBytes_ = 0; ///< the largest chunk's size so far, to allocate the next at once
  };
  iterator begin() const;
  iterator end() const;
  std::size_t size() const { return static_cast<std::size_t>(end_ - begin_); }
  bool empty() const { return begin_ == end_; }
  /// Random access (reads the one step).
  ExecutionStep operator[](std::size_t i) const;
  ExecutionStep at(std::size_t i) const;
  /// Steps [offset, offset + count) of this range, streamed in chunks like the whole; throws
  /// InvalidArgumentError when they are not all in it.
  ExecutionSteps subrange(std::size_t offset, std::size_t count) const;

private:
  friend struct detail::Access;
  std::shared_ptr<detail::ReportState> s_;
  std::uint64_t begin_ = 0, end_ = 0;
};

/// Cycles by what they were spent on, per tile of one replica.
class TileCycleTotals {
public:
  enum class Kind { Compute, InternalExchange, GlobalExchange, StreamCopy, Sync };
  static constexpr std::size_t numKinds = 5;
  /// As stored in the report: "compute", "internalExchange", "globalExchange", "streamCopy",
  /// "sync".
  static const std::string& kindName(Kind k);
  /// Target::tilesPerReplica() entries for every kind, zeros included.
  const std::vector<std::uint64_t>& byTile(Kind k) const {
    return byKind_[static_cast<std::size_t>(k)];
  }
  /// Sum over tiles of one kind, or of all kinds.
  std::uint64_t total(Kind k) const;
  std::uint64_t total() const;
  /// Compute cycles excluding idle worker contexts (Poplar's "excluding idle threads"): the
  /// contexts' busy thread cycles shared over them, per tile. Not a kind: not in total(). Known
  /// for reports of format 1.2 and later; empty (and has... false) for older ones.
  bool hasComputeExcludingIdleThreads() const { return hasExcludingIdle_; }
  const std::vector<std::uint64_t>& computeExcludingIdleThreadsByTile() const {
    return excludingIdle_;
  }
  std::uint64_t totalComputeExcludingIdleThreads() const;

private:
  friend struct detail::Access;
  std::vector<std::uint64_t> byKind_[numKinds];
  std::vector<std::uint64_t> excludingIdle_;
  bool hasExcludingIdle_ = false;
};

class MicrosecondInterval {
public:
  std::int64_t start() const { return start_; }
  std::int64_t end() const { return end_; }

private:
  friend struct detail::Access;
  std::int64_t start_ = 0, end_ = 0;
};

class Run {
public:
  unsigned index() const { return index_; }
  const std::string& name() const { return name_; }
  /// Which engine program ran.
  unsigned programIndex() const { return programIndex_; }
  ExecutionSteps steps() const;
  /// Host wall-clock bounds, µs since the Unix epoch.
  const MicrosecondInterval& microseconds() const { return us_; }
  /// Cycles of the run: those of its slowest IPU.
  std::uint64_t cycles() const { return cycles_; }
  TileCycleTotals tileCycleTotals() const;

private:
  friend struct detail::Access;
  std::shared_ptr<detail::ReportState> s_;
  unsigned index_ = 0, programIndex_ = 0;
  std::string name_;
  std::uint64_t firstStep_ = 0, numSteps_ = 0, cycles_ = 0;
  MicrosecondInterval us_;
};

class TotalCycles {
public:
  std::uint64_t total() const { return total_; }

private:
  friend struct detail::Access;
  std::uint64_t total_ = 0;
};

/// A lightweight-profiling record on one tile.
class Block {
public:
  /// The Block program (or the stream copy) measured. Non-const as in the SDK's libpva, so code
  /// written for it (`std::shared_ptr<pva::Program> p = block.program();`) compiles; every
  /// member of Program is const, so the report stays read-only all the same.
  std::shared_ptr<Program> program() const;
  unsigned tile() const { return tile_; }
  std::uint64_t from() const { return from_; }
  std::uint64_t to() const { return to_; }
  std::uint64_t cyclesFrom() const { return from_; }
  std::uint64_t cyclesTo() const { return to_; }
  bool isCommon() const { return kind_ == 0; }
  bool isStreamCopy() const { return kind_ == 1; }
  bool isBlockFlush() const { return kind_ == 2; }
  bool isOverflow() const { return kind_ == 3; }
  unsigned run() const { return run_; }

private:
  friend struct detail::Access;
  std::shared_ptr<detail::ReportState> s_;
  std::uint64_t program_ = 0, from_ = 0, to_ = 0;
  unsigned tile_ = 0, run_ = 0, kind_ = 0;
};

class ExecutionReport {
public:
  std::vector<Run> runs() const;
  /// Every step of every run, in order.
  ExecutionSteps steps() const;
  /// Cycles of all runs.
  TotalCycles totalCycles() const;
  /// Per tile, by kind, over all runs.
  TileCycleTotals tileCycleTotals() const;
  /// Blocks recorded by a tile of the whole device, in time order.
  std::vector<Block> blocks(unsigned tile) const;

private:
  friend struct detail::Access;
  std::shared_ptr<detail::ReportState> s_;
};

} // namespace pva
