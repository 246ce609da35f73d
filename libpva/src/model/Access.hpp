// Builds public objects from storage rows: the one friend of every public class.
#pragma once

#include "ReportState.hpp"

namespace pva::detail {

struct Access {
  static Report report(std::shared_ptr<ReportState> s);
  static PoplarVersion poplarVersion(unsigned major, unsigned minor, unsigned point,
                                     const std::string& hash);
  static ProfileReportVersion formatVersion(unsigned major, unsigned minor, unsigned point);
  static InstrumentationSettings instrumentation(const std::string& compute,
                                                 const std::string& external);
  static std::shared_ptr<ReportState> state(const Report& r) { return r.s_; }
  static CompilationReport compilation(std::shared_ptr<ReportState> s);
  static ExecutionReport execution(std::shared_ptr<ReportState> s);

  static Target target(const storage::TargetRow& row);
  static Graph graph(const storage::GraphRow& row);
  /// Fills a tile the report keeps for itself: it borrows the report (see detail::StateRef).
  static void initBorrowedTile(Tile& t, ReportState* s, unsigned number, unsigned ipu,
                               unsigned replicaTile);
  /// tiles[0, n) of the report's own tiles, as a list that owns the report.
  static Tiles tiles(const std::shared_ptr<ReportState>& s, const Tile* tiles, std::size_t n);
  static Ipu ipu(unsigned id, Tiles tiles);
  static void setCategory(MemoryCategories& m, unsigned category,
                          const std::uint64_t (&bytes)[3][2]);
  static VertexType vertexType(const storage::VertexTypeRow& row);
  static TileVertexType tileVertexType(const VertexType& t, std::uint64_t count);
  static ComputeSet computeSet(const std::shared_ptr<ReportState>& s,
                               const storage::ComputeSetRow& row);
  static ComputeSetVertices computeSetVertices(const std::shared_ptr<ReportState>& s,
                                               unsigned computeSet, std::uint64_t typeId,
                                               const VertexType& type, std::uint64_t count);
  static Variable variable(const std::shared_ptr<ReportState>& s, const storage::VariableRow& row);
  /// The variable with its size on one tile or IPU.
  static Variable withBytes(Variable v, std::uint64_t bytes) {
    v.bytes_ = bytes;
    return v;
  }
  static Variable pseudoVariable(const std::string& category, std::uint64_t bytes);
  static NotAlwaysLiveMemory notAlwaysLive(std::uint64_t bytes, std::vector<Variable> vars);
  static ProgramStep programStep(const std::shared_ptr<ReportState>& s,
                                 const storage::LivenessRow& row);
  static BriefVar briefVar(const storage::LoweredRow& row, std::uint64_t classId,
                           std::uint64_t from, std::uint64_t to);
  static LoweredVariable loweredVariable(const storage::LoweredRow& row, const Variable* var);
  static LoweredVariables loweredVariables(std::shared_ptr<ReportState> s);

  static std::unique_ptr<Program> program(ReportState* s, const storage::ProgramRow& row);
  static ProgramVariable programVariable(const storage::VariableRow& var,
                                         const std::string& access);
  static std::int64_t computeSetOf(const Program& p) { return p.computeSet_; }
  static const ReportState* stateOf(const Program& p) { return p.s_; }
  static std::int64_t debugOf(const Program& p) { return p.debug_; }

  static ExecutionSteps steps(std::shared_ptr<ReportState> s, std::uint64_t begin,
                              std::uint64_t end);
  /// Step `row` of a chunk (StepBytes::steps[row]).
  static ExecutionStep step(const std::shared_ptr<const StepBytes>& chunk, std::uint32_t row);
  static IpuExecution ipuExecution(const struct StepIpuView& v);
  /// Sets every field of `e` from a decoded entry (profiler::StepIpu, or anything with its
  /// fields), in place: no temporary per entry on a pass over every step.
  template <class Entry> static void setIpuExecution(IpuExecution& e, const Entry& d) {
    e.ipu_ = d.ipu;
    e.activeTiles_ = d.activeTiles;
    e.cycles_ = d.cycles;
    e.dataIn_ = d.dataIn;
    e.dataOut_ = d.dataOut;
    e.active_.from_.min_ = d.activeFromMin;
    e.active_.from_.max_ = d.activeFromMax;
    e.active_.to_.min_ = d.activeToMin;
    e.active_.to_.max_ = d.activeToMax;
    e.all_.from_.min_ = d.allFromMin;
    e.all_.from_.max_ = d.allFromMax;
    e.all_.to_.min_ = d.allToMin;
    e.all_.to_.max_ = d.allToMax;
    e.tileBalance_ = d.tileBalance;
    e.activeTileBalance_ = d.activeTileBalance;
  }
  /// The IPU list of step `row` of a chunk.
  static IpuExecutions ipuExecutions(const std::shared_ptr<const StepBytes>& chunk,
                                     std::uint32_t row);
  /// Every entry of `list` into `out` (replacing its contents), decoded in one sweep of the
  /// packed stream: what a pass over all steps reads (no iterator state, no copy per entry).
  static void decodeAll(const IpuExecutions& list, std::vector<IpuExecution>& out);
  /// decodeAll, appending to `out` (a batch of steps' entries decoded in place, without a copy).
  static void decodeAppend(const IpuExecutions& list, std::vector<IpuExecution>& out);
  static ComputeSetExecution computeSetExecution(const std::shared_ptr<const StepBytes>& chunk,
                                                 std::uint32_t row, std::uint64_t program,
                                                 std::uint64_t computeSet);
  static Run run(const std::shared_ptr<ReportState>& s, const storage::RunRow& row);
  static std::uint64_t firstStep(const Run& r) { return r.firstStep_; }
  static TileCycleTotals
  tileCycleTotals(std::vector<std::vector<std::uint64_t>> byKind,
                  std::optional<std::vector<std::uint64_t>> excludingIdle = std::nullopt);
  static TotalCycles totalCycles(std::uint64_t total);
  static Block block(const std::shared_ptr<ReportState>& s, const storage::BlockRow& row);

  static std::unique_ptr<DebugContext> debugContext(const ReportState* s,
                                                    const storage::DebugContextRow& row);
  static Operation operation(const std::shared_ptr<ReportState>& s,
                             std::shared_ptr<const DebugContext> context,
                             std::vector<std::uint64_t> programs, std::vector<Variable> vars,
                             StepIndex first, StepIndex last, std::uint64_t cycles);
  static std::int64_t parentOf(const DebugContext& c) { return c.parent_; }
};

/// One IPU's part of a step, decoded (mirrors tessera::profiler::StepIpu without exposing it).
struct StepIpuView {
  unsigned ipu, activeTiles;
  std::uint64_t cycles, activeFromMin, activeFromMax, activeToMin, activeToMax;
  std::uint64_t allFromMin, allFromMax, allToMin, allToMax, dataIn, dataOut;
  double tileBalance, activeTileBalance;
};

} // namespace pva::detail
