// A compact index of a report's execution for the Execution page: per IPU, the begin cycle,
// duration, step number, kind and tile balance of every step the IPU took part in, in arrays
// of plain numbers (15 to 19 bytes per (step, IPU) pair: 16 M pairs take 240-300 MiB), plus
// prefix sums per block of 64 entries so that any range's cycles by kind are answered in
// O(log n + 128) without a pass over the range.
//
// Loading is staged: readExecutionHeader() reads what is small (programs, runs, target, LWP
// blocks) and fillExecutionIndex() then streams every step into the index on a background
// thread. The GUI may read the index WHILE it fills: each lane's entry count is published with
// release/acquire ordering after its entries are written, arrays never move (allocated once at
// the step count), so readers see a consistent prefix and paint what has loaded so far.
//
// Times are in cycles relative to the execution's origin (the first step's earliest tile).
#pragma once

#include "core/Background.hpp"
#include "core/Document.hpp"

#include <QString>
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <pva/Blocks.hpp>
#include <pva/Program.hpp>
#include <vector>

namespace tessera::viewer {

/// What a step spends its cycles on, as the execution trace colours it.
enum class StepKind : std::uint8_t {
  Compute,
  InternalExchange,
  GlobalExchange,
  StreamCopy,
  Sync,
  Other
};
constexpr int kStepKinds = 6;
StepKind stepKindOf(pva::Program::Type type);
QString stepKindName(StepKind kind);

constexpr std::uint32_t kNoProgram = 0xffffffffu;

struct ExecProgramInfo {
  QString name;
  pva::Program::Type type = pva::Program::Type::Sequence;
  StepKind kind = StepKind::Other;
  bool isStep = false;               ///< pva::Program::isStep(): a step of the schedule
  std::uint32_t parent = kNoProgram; ///< the first parent met walking from the entry points
  std::uint16_t depth = 0;           ///< 0: a root
};

struct ExecRunInfo {
  QString name;
  std::uint64_t firstStep = 0, numSteps = 0, cycles = 0;
};

/// A lightweight-profiling block, in cycles relative to the origin.
struct ExecBlockInfo {
  std::uint64_t from = 0, to = 0;
  std::uint64_t cycles = 0; ///< libpva's record: to - from on the IPU's counter
  std::uint32_t program = kNoProgram;
  std::uint32_t figures = kNoProgram; ///< its program's index in ExecutionHeader::blockPrograms
  unsigned tiles = 1;                 ///< tiles that recorded it (a stream copy's I/O tiles)
  enum Kind : std::uint8_t { Common, StreamCopy, BlockFlush, Overflow } kind = Common;
};

constexpr std::uint32_t kNoOperation = 0xffffffffu;

/// An operation of debug.cbor (pva::OperationAnalysis), as the flame view names its steps.
struct ExecOperationInfo {
  QString name;                      ///< its debug-context path: "fwd/layer1/matmul/MatMul"
  QString layer, type;               ///< "poplibs", "MatMul"
  std::uint32_t node = kNoOperation; ///< its path's node (ExecutionHeader::pathNodes)
};

/// One level of the operations' paths, each distinct prefix once: "fwd", "fwd/layer1", ...
/// The flame view draws level d of a step's operation path in its d-th lane above the steps.
struct ExecPathNode {
  QString label; ///< the last component: "layer1"
  QString path;  ///< from the root: "fwd/layer1"
  std::uint32_t parent = kNoOperation;
  std::uint16_t depth = 0;                ///< 0: a first component
  std::uint32_t operation = kNoOperation; ///< the operation whose whole path this is, if one is
  float hue = 0; ///< from a hash of the path: the same operation, the same colour
};

/// The small part of an execution, read at once.
struct ExecutionHeader {
  bool hasExecution = false;
  QString noExecutionReason; ///< why there is nothing to show (out of memory, no runs)
  /// The IPUs of one replica: the execution profile records replica 0 (a replicated report's
  /// other replicas ran the same steps), so a lane per IPU of the device would leave all but
  /// the first replica's empty.
  unsigned numIpus = 0, tilesPerIpu = 0;
  unsigned replicas = 1; ///< of the target; lanes show replica 0
  double clockHz = 0;
  std::uint64_t numSteps = 0;
  std::uint64_t origin = 0;              ///< absolute cycle counter of time 0
  std::vector<ExecProgramInfo> programs; ///< by program id
  std::vector<ExecRunInfo> runs;
  /// Lightweight profiling (pva::analyseBlocks), per IPU: the recording tile's blocks and the
  /// stream copies its I/O tiles recorded (one per copy). Both empty without blocks.
  std::vector<std::vector<ExecBlockInfo>> blocks, ioBlocks;
  unsigned blocksTile = 0;        ///< the tile of each IPU that recorded blocks
  std::uint64_t blockRecords = 0; ///< every record of every tile
  unsigned blockTiles = 0;        ///< tiles holding a record
  std::vector<pva::BlockProgramFigures> blockPrograms; ///< each block program's count and cycles
  bool hasBlocks() const { return blockRecords > 0; }
  /// Operations, when debug.cbor is beside the report (else all empty). Programs whose debug
  /// context names no operation (an unnamed context: the samples' host copies) map to none.
  /// Filled by fillExecutionIndex (not readExecutionHeader: reading them takes as long as
  /// reading every program and variable) before it publishes the first step: read them only
  /// once ExecutionIndex::loadedSteps() > 0.
  std::vector<ExecOperationInfo> operations;
  std::vector<std::uint32_t>
      programOperation; ///< by program id: an index into operations, or kNoOperation
  std::vector<ExecPathNode> pathNodes;
  unsigned operationDepth = 0; ///< levels of the deepest operation path (capped at kMaxFlameDepth)
};

/// Reads programs, runs, target and blocks (not the operations: fillExecutionIndex reads them).
/// Cost: one pass over the programs. Throws pva errors.
ExecutionHeader readExecutionHeader(const Document& doc, Progress& progress);

/// Sums over a range of entries of one lane.
struct LaneTotals {
  std::array<std::uint64_t, kStepKinds> cycles{};
  std::uint64_t count = 0;
  std::uint64_t total() const;
};

class ExecutionIndex {
public:
  static constexpr std::size_t kBlock = 64; ///< entries per prefix-sum block

  /// Allocates the arrays (untouched pages cost no resident memory until filled).
  explicit ExecutionIndex(ExecutionHeader header);
  ExecutionIndex(const ExecutionIndex&) = delete;
  ExecutionIndex& operator=(const ExecutionIndex&) = delete;

  const ExecutionHeader& header() const { return header_; }
  unsigned numLanes() const { return unsigned(lanes_.size()); }
  std::uint64_t numSteps() const { return header_.numSteps; }

  // Readable from any thread, consistent with each other up to the published counts.
  std::uint64_t loadedSteps() const { return loadedSteps_.load(std::memory_order_acquire); }
  bool complete() const { return loadedSteps() == header_.numSteps; }
  std::size_t entries(unsigned lane) const {
    return lanes_[lane].count.load(std::memory_order_acquire);
  }
  std::uint64_t begin(unsigned lane, std::size_t i) const { return lanes_[lane].begin[i]; }
  std::uint32_t duration(unsigned lane, std::size_t i) const { return lanes_[lane].duration[i]; }
  std::uint64_t end(unsigned lane, std::size_t i) const {
    return begin(lane, i) + duration(lane, i);
  }
  /// The step of entry i. A lane holding every step so far (each IPU takes part in each step,
  /// as on the bench's 1 M-step report) stores no step numbers: entry i is step i.
  std::uint32_t step(unsigned lane, std::size_t i) const {
    const Lane& l = lanes_[lane];
    return l.dense.load(std::memory_order_acquire) ? std::uint32_t(i) : l.step[i];
  }
  StepKind kind(unsigned lane, std::size_t i) const { return StepKind(lanes_[lane].kind[i]); }
  double tileBalance(unsigned lane, std::size_t i) const {
    return lanes_[lane].balance[i] / 65535.0;
  }
  /// Per step (below loadedSteps()).
  std::uint32_t stepProgram(std::uint64_t step) const { return stepProgram_[step]; }
  unsigned stepRun(std::uint64_t step) const { return stepRun_[step]; }
  /// The operation owning the step's program (header().operations), or kNoOperation.
  std::uint32_t stepOperation(std::uint64_t step) const { return stepOperation_[step]; }

  /// The first entry of the lane (among the first `n`) beginning at or after `t`. O(log n).
  std::size_t lowerBound(unsigned lane, std::size_t n, double t) const;
  /// The same, for a `t` known to lie at or after entry `from`'s begin: gallops forward from
  /// there, touching a few cache lines where a fresh search touches a dozen. Falls back to
  /// lowerBound() otherwise.
  std::size_t lowerBoundFrom(unsigned lane, std::size_t n, double t, std::size_t from) const;
  /// The first block (of the first `n` entries) starting at or after `t`, searching forward
  /// from block `from` (galloping; the block starts are cache resident); the block count when
  /// none does.
  std::size_t blockLowerBound(unsigned lane, std::size_t n, double t, std::size_t from) const;
  /// The lane's entry of `step`, or -1 when the IPU did not take part (or it is not loaded).
  std::int64_t entryOfStep(unsigned lane, std::uint64_t step) const;
  /// Sums over entries [first, last) of a lane. O(log n + 2 * kBlock).
  LaneTotals totals(unsigned lane, std::size_t first, std::size_t last) const;
  /// Cycles by kind over about [first, last): exact for short ranges, rounded to whole blocks
  /// of kBlock entries for long ones (two cache lines read instead of a scan). For painting
  /// merged pixel columns, where a share off by a few entries in hundreds cannot be seen.
  std::array<std::uint64_t, kStepKinds> approximateCycles(unsigned lane, std::size_t first,
                                                          std::size_t last) const;
  /// The loaded time span [0, end) over all lanes.
  std::uint64_t loadedEnd() const;
  /// Time span of a run (from its first step's begin to its last step's end over the lanes);
  /// false while the run is not loaded.
  bool runSpan(unsigned run, std::uint64_t* from, std::uint64_t* to) const;

  /// Resident size of the filled arrays, in bytes.
  std::uint64_t memoryBytes() const;

private:
  friend class ExecutionIndexWriter;
  struct Cumulative {
    std::array<std::uint64_t, kStepKinds> cycles{};
  };
  struct Lane {
    std::unique_ptr<std::uint64_t[]> begin;
    std::unique_ptr<std::uint32_t[]> duration, step;
    std::unique_ptr<std::uint16_t[]> balance;
    std::unique_ptr<std::uint8_t[]> kind;
    std::unique_ptr<Cumulative[]> prefix; ///< prefix[b]: sums of entries [0, b * kBlock)
    /// begin[b * kBlock]: a search looks here first (125 KiB per million entries, cache
    /// resident) and then within one block, instead of missing the cache at every halving.
    std::unique_ptr<std::uint64_t[]> blockBegin;
    std::atomic<std::size_t> count{0};
    /// Entry i is step i for every entry so far: `step` is not written (64 MiB less to fault in
    /// on the bench's report). The writer fills it in before the first entry that breaks this,
    /// and clears the flag (release) before publishing that entry.
    std::atomic<bool> dense{true};
  };
  /// The first entry of the lane (among the first n) whose step is >= `step`.
  std::size_t stepLowerBound(unsigned lane, std::size_t n, std::uint64_t step) const;
  ExecutionHeader header_;
  std::vector<Lane> lanes_;
  std::unique_ptr<std::uint32_t[]> stepProgram_;
  std::unique_ptr<std::uint16_t[]> stepRun_;
  std::unique_ptr<std::uint32_t[]> stepOperation_;
  std::atomic<std::uint64_t> loadedSteps_{0};
};

/// What the flame view stacks above each lane's steps, per lane and depth: runs of consecutive
/// entries sharing the same thing at that depth. With operations (debug.cbor read), row d holds
/// the d-th level of the step's operation path (an ExecPathNode id; kNoOperation: the step has
/// no operation, or its path is shorter); without, the step's ancestor at depth d in the program
/// tree (a program id; kNoProgram: not that deep). A run never spans two runs of the execution:
/// the steps of a new run start new runs in every row. Row `depth` of a lane lists runs by
/// first entry.
struct FlameRun {
  std::uint32_t firstEntry = 0;
  std::uint32_t id = kNoProgram; ///< path node or program id, as FlameRows::operations says
};
struct FlameRows {
  unsigned depth = 0;      ///< rows above the steps: the deepest path or program depth (capped)
  bool operations = false; ///< rows are operation path levels (else the program tree)
  bool truncated = false;  ///< too many runs to keep: the flame view shows the steps only
  std::vector<std::vector<std::vector<FlameRun>>> lanes; ///< [lane][depth] -> runs
  /// The entries of run `r` of a row: [runs[r].firstEntry, this).
  static std::size_t runEnd(const std::vector<FlameRun>& runs, std::size_t r, std::size_t loaded) {
    return r + 1 < runs.size() ? std::min<std::size_t>(runs[r + 1].firstEntry, loaded) : loaded;
  }
};
constexpr unsigned kMaxFlameDepth = 24;

/// Reads the operations into the index's header (debug.cbor, when the document has it), then
/// streams every step into `index` (publishing as it goes) and returns the flame rows. The steps
/// come from the session's pass over the execution (Session::execution with an observer): when
/// that pass has not run yet, the run figures are derived from the same decode, so the page
/// reads every step once. Checks progress.cancelled() every few thousand steps (throws
/// Cancelled). Throws pva errors.
FlameRows fillExecutionIndex(const Document& doc, ExecutionIndex& index, Progress& progress);

} // namespace tessera::viewer
