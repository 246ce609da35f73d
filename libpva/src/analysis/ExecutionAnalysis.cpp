// pva::analyseExecution: per-program and per-compute-set cycles, tile balance, parallel
// efficiency and IPU traffic, for each run and for all runs, in one streamed pass over the steps.
#include "../model/Access.hpp"
#include "../model/Saturating.hpp"
#include "AnalysisCache.hpp"
#include "DecodedSteps.hpp"

#include <algorithm>
#include <atomic>
#include <initializer_list>
#include <mutex>
#include <pva/Analysis.hpp>
#include <pva/Exception.hpp>
#include <pva/Program.hpp>
#include <set>
#include <string>

namespace pva {

namespace {

/// What a step's program is, by program id, read once before the steps.
struct ProgramKinds {
  enum class Traffic : std::uint8_t { None, StreamCopy, GlobalExchange };
  std::vector<Traffic> traffic;
  std::vector<std::int64_t> computeSet; ///< -1: not an OnTileExecute
  std::vector<Program::StreamCopyDestination> destination;
};

ProgramKinds programKinds(const CompilationReport& c) {
  ProgramKinds k;
  const auto programs = c.programs();
  k.traffic.assign(programs.size(), ProgramKinds::Traffic::None);
  k.computeSet.assign(programs.size(), -1);
  k.destination.assign(programs.size(), Program::StreamCopyDestination::None);
  for (std::size_t i = 0; i < programs.size(); ++i) {
    const Program& p = *programs[i];
    k.destination[i] = p.streamCopyDestination();
    switch (p.type()) {
    case Program::Type::StreamCopyBegin:
    case Program::Type::StreamCopyMid:
    case Program::Type::StreamCopyEnd:
      k.traffic[i] = ProgramKinds::Traffic::StreamCopy;
      break;
    case Program::Type::GlobalExchange:
      k.traffic[i] = ProgramKinds::Traffic::GlobalExchange;
      break;
    case Program::Type::OnTileExecute:
      k.computeSet[i] = std::int64_t(static_cast<const OnTileExecuteProgram&>(p).computeSet().id());
      break;
    default:
      break;
    }
  }
  return k;
}

/// Sums kept while the steps stream by; the weighted averages are divided out at the end.
struct Weighted {
  double balance = 0, efficiency = 0, weight = 0;
  void add(double activeBalance, double allBalance, std::uint64_t cycles) {
    balance += activeBalance * double(cycles);
    efficiency += allBalance * double(cycles);
    weight += double(cycles);
  }
  void into(double& tileBalance, double& parallelEfficiency) const {
    tileBalance = weight > 0 ? balance / weight : 0.0;
    parallelEfficiency = weight > 0 ? efficiency / weight : 0.0;
  }
};

struct SpanBuilder {
  SpanFigures figures;
  Weighted all;
  std::vector<Weighted> programs, computeSets;

  SpanBuilder(Scope scope, std::size_t numPrograms, std::size_t numComputeSets, unsigned numIpus) {
    figures.scope = std::move(scope);
    figures.programs.resize(numPrograms);
    figures.computeSets.resize(numComputeSets);
    programs.resize(numPrograms);
    computeSets.resize(numComputeSets);
    figures.ipus.resize(numIpus);
    figures.cyclesByIpu.resize(numIpus);
    for (unsigned i = 0; i < numIpus; ++i)
      figures.ipus[i].ipu = i;
  }

  void addIpuCycles(unsigned i, std::uint64_t cycles) {
    if (figures.cyclesByIpu.size() <= i) figures.cyclesByIpu.resize(std::size_t(i) + 1);
    figures.cyclesByIpu[i] += cycles;
  }

  IpuTraffic& ipu(unsigned i) {
    while (figures.ipus.size() <= i) {
      figures.ipus.emplace_back();
      figures.ipus.back().ipu = unsigned(figures.ipus.size() - 1);
    }
    return figures.ipus[i];
  }

  SpanFigures finish() {
    all.into(figures.tileBalance, figures.parallelEfficiency);
    // A run's (or a stretch's) length: its slowest IPU timeline; analyseExecution sets all runs'.
    if (!figures.lengthCycles)
      for (std::uint64_t c : figures.cyclesByIpu)
        figures.lengthCycles = std::max(figures.lengthCycles, c);
    for (std::size_t i = 0; i < programs.size(); ++i)
      programs[i].into(figures.programs[i].tileBalance, figures.programs[i].parallelEfficiency);
    for (std::size_t i = 0; i < computeSets.size(); ++i)
      computeSets[i].into(figures.computeSets[i].tileBalance,
                          figures.computeSets[i].parallelEfficiency);
    return std::move(figures);
  }
};

/// Tile cycles by kind per IPU, from the stored per-tile totals of one replica.
std::vector<CycleKinds> kindsByIpu(const TileCycleTotals& totals, unsigned tilesPerIpu,
                                   unsigned numIpus) {
  std::vector<CycleKinds> out(numIpus);
  for (std::size_t k = 0; k < CycleKinds::numKinds; ++k) {
    const auto& byTile = totals.byTile(static_cast<TileCycleTotals::Kind>(k));
    for (std::size_t t = 0; t < byTile.size(); ++t) {
      const std::size_t ipu = tilesPerIpu ? t / tilesPerIpu : 0;
      if (ipu >= out.size()) out.resize(ipu + 1);
      detail::addTo(out[ipu].cycles[k], byTile[t]);
    }
  }
  return out;
}

/// The numbers a step's IPU entries name, checked against the report's target before any figure
/// is sized or weighed by them: an IPU number of 4,294,967,295 made the per-IPU traffic list grow
/// to that size (a hang, then std::bad_alloc), so the cost of an analysis was not bounded by the
/// file. The object model hands entries out as stored (ExecutionStep::ipus()); the analysis,
/// whose figures promise ranges, refuses a step that breaks them, naming the file and the step.
class StepChecker {
public:
  explicit StepChecker(const Report& report)
      : state_(detail::Access::state(report)),
        ipus_(report.compilation().target().ipusPerReplica()),
        tilesPerIpu_(report.compilation().target().tilesPerIpu()) {}

  void check(const ExecutionStep& step, const IpuExecution& ipu) const {
    if (ipu.ipu() < ipus_ && ipu.activeTiles() <= tilesPerIpu_ && balanced(ipu.tileBalance()) &&
        balanced(ipu.activeTileBalance()))
      return;
    // Only a broken entry pays for its message: formatting it for every (step, IPU) pair cost
    // a heap allocation each, 16 M of them on the bench's 1 M-step, 16-IPU report.
    const std::string at = "corrupted step " + std::to_string(step.index()) + ": ";
    if (ipu.ipu() >= ipus_)
      state_->store.corrupt(at + "it names IPU " + std::to_string(ipu.ipu()) +
                            ", but the target has " + std::to_string(ipus_) + " IPU" +
                            (ipus_ == 1 ? "" : "s") + " per replica");
    if (ipu.activeTiles() > tilesPerIpu_)
      state_->store.corrupt(
          at + "IPU " + std::to_string(ipu.ipu()) + " has " + std::to_string(ipu.activeTiles()) +
          " active tiles, but the target has " + std::to_string(tilesPerIpu_) + " tiles per IPU");
    // Balances are a mean over a max, stored as float: a hair above 1 is rounding, NaN is damage.
    if (!balanced(ipu.tileBalance()) || !balanced(ipu.activeTileBalance()))
      state_->store.corrupt(at + "IPU " + std::to_string(ipu.ipu()) +
                            "'s tile balance is not a fraction between 0 and 1");
  }

  static constexpr double kMaxBalance = 1.0 + 1e-6;

private:
  static bool balanced(double b) { return b >= 0 && b <= kMaxBalance; } // false for NaN

  std::shared_ptr<detail::ReportState> state_;
  unsigned ipus_, tilesPerIpu_;
};

/// A checked balance as the figures use it: within [0, 1].
double fractionOf(double balance) {
  return std::min(balance, 1.0);
}

/// A step's program id as StepObserver names it.
std::uint64_t programOf(const ExecutionStep& step) {
  const ProgramPtr program = step.program();
  return program ? std::uint64_t(program->_id()) : StepObserver::kNoProgram;
}

/// A step's IPU entries, decoded once into a buffer reused from step to step.
struct DecodedStep {
  std::vector<IpuExecution> ipus;
  void read(const ExecutionStep& step) { detail::Access::decodeAll(step.ipus(), ipus); }
};

/// Adds one step to each span: its slowest IPU's cycles, balance, program and traffic.
void addStep(const ExecutionStep& step, std::uint64_t programId, const IpuExecution* ipuEntries,
             std::size_t numIpus, const ProgramKinds& kinds, const StepChecker& checker,
             std::initializer_list<SpanBuilder*> spans) {
  const std::size_t numPrograms = kinds.traffic.size();
  const std::size_t id = programId < numPrograms ? std::size_t(programId) : numPrograms;
  std::uint64_t slowest = 0;
  double activeBalance = 0, allBalance = 0, weight = 0;
  for (const IpuExecution* entry = ipuEntries; entry != ipuEntries + numIpus; ++entry) {
    const IpuExecution& ipu = *entry;
    checker.check(step, ipu);
    slowest = std::max(slowest, ipu.cycles());
    activeBalance += fractionOf(ipu.activeTileBalance()) * double(ipu.cycles());
    allBalance += fractionOf(ipu.tileBalance()) * double(ipu.cycles());
    weight += double(ipu.cycles());
    for (SpanBuilder* span : spans)
      span->addIpuCycles(ipu.ipu(), ipu.cycles());
    if (id < numPrograms && kinds.traffic[id] != ProgramKinds::Traffic::None) {
      const bool stream = kinds.traffic[id] == ProgramKinds::Traffic::StreamCopy;
      for (SpanBuilder* span : spans) {
        IpuTraffic& t = span->ipu(ipu.ipu());
        detail::addTo(stream ? t.streamCopyInBytes : t.globalExchangeInBytes, ipu.dataIn());
        detail::addTo(stream ? t.streamCopyOutBytes : t.globalExchangeOutBytes, ipu.dataOut());
      }
    }
  }
  // A step's balance is its IPUs' balances weighted by their cycles; the step then weighs in by
  // its slowest IPU's cycles, as its cycles do.
  const double stepActive = weight > 0 ? activeBalance / weight : 0.0;
  const double stepAll = weight > 0 ? allBalance / weight : 0.0;
  for (SpanBuilder* span : spans) {
    span->figures.steps += 1;
    detail::addTo(span->figures.cycles, slowest);
    span->all.add(stepActive, stepAll, slowest);
    if (id >= numPrograms) continue;
    if (kinds.traffic[id] == ProgramKinds::Traffic::StreamCopy) {
      StreamCopyCycles& sc = span->figures.streamCopyCycles;
      using D = Program::StreamCopyDestination;
      switch (kinds.destination[id]) {
      case D::Host:
        detail::addTo(sc.host, slowest);
        break;
      case D::RemoteBuffer:
        detail::addTo(sc.remoteBuffer, slowest);
        break;
      case D::Mixed:
        detail::addTo(sc.mixed, slowest);
        break;
      default:
        detail::addTo(sc.unknown, slowest);
        break;
      }
    }
    ProgramFigures& p = span->figures.programs[id];
    if (!p.executions) p.firstStep = step.index();
    detail::addTo(p.cycles, slowest);
    ++p.executions;
    span->programs[id].add(stepActive, stepAll, slowest);
    const std::int64_t cs = kinds.computeSet[id];
    if (cs >= 0 && std::size_t(cs) < span->figures.computeSets.size()) {
      ProgramFigures& f = span->figures.computeSets[std::size_t(cs)];
      if (!f.executions) f.firstStep = step.index();
      detail::addTo(f.cycles, slowest);
      ++f.executions;
      span->computeSets[std::size_t(cs)].add(stepActive, stepAll, slowest);
    }
  }
}

} // namespace

ExecutionAnalysis analyseExecution(const Report& report) {
  return detail::analyseExecution(report, nullptr, nullptr);
}

std::shared_ptr<const ExecutionAnalysis> sharedExecutionAnalysis(const Report& report) {
  return detail::sharedExecutionAnalysis(report, nullptr, nullptr);
}

SpanFigures analyseSteps(const Report& report, std::uint64_t firstStep, std::uint64_t count) {
  const CompilationReport c = report.compilation();
  const ExecutionReport e = report.execution();
  const std::uint64_t total = e.steps().size();
  if (firstStep > total || count > total - firstStep)
    throw InvalidArgumentError("analyseSteps: steps [" + std::to_string(firstStep) + ", " +
                               std::to_string(firstStep + count) +
                               ") are not all in the execution, which has " +
                               std::to_string(total) + " steps");
  const ProgramKinds kinds = programKinds(c);
  // The scope: the run holding the steps, when one does.
  Scope scope;
  scope.runs = Scope::Runs::AllRuns;
  std::uint64_t runBegin = 0; // runs hold consecutive steps, in order
  for (const Run& run : e.runs()) {
    const std::uint64_t n = run.steps().size();
    if (count > 0 && firstStep >= runBegin && firstStep + count <= runBegin + n) {
      scope.runs = Scope::Runs::OneRun;
      scope.runName = run.name();
    }
    runBegin += n;
  }
  SpanBuilder span(scope, kinds.traffic.size(), c.computeSets().size(),
                   c.target().ipusPerReplica());
  const StepChecker checker(report);
  DecodedStep decoded;
  for (const ExecutionStep& step : e.steps().subrange(std::size_t(firstStep), std::size_t(count))) {
    decoded.read(step);
    addStep(step, programOf(step), decoded.ipus.data(), decoded.ipus.size(), kinds, checker,
            {&span});
  }
  return span.finish();
}

std::uint64_t StreamCopyCycles::of(Program::StreamCopyDestination d) const {
  using D = Program::StreamCopyDestination;
  switch (d) {
  case D::Host:
    return host;
  case D::RemoteBuffer:
    return remoteBuffer;
  case D::Mixed:
    return mixed;
  case D::Unknown:
    return unknown;
  case D::None:
    break;
  }
  return 0;
}

OperationExecution operationExecution(const std::vector<Operation>& operations,
                                      const SpanFigures& span) {
  OperationExecution out;
  std::set<std::uint64_t> seen; // a program owned twice counts once
  for (const Operation& op : operations)
    for (const ProgramPtr& p : op.programs()) {
      const std::uint64_t id = p->_id();
      if (!seen.insert(id).second || id >= span.programs.size()) continue;
      detail::addTo(out.cycles, span.programs[id].cycles);
      detail::addTo(out.steps, span.programs[id].executions);
    }
  return out;
}

namespace detail {

namespace {
std::atomic<std::uint64_t> wholeStepPasses{0};
std::atomic<std::uint64_t> observerPasses{0};
std::atomic<std::uint64_t> derived[4] = {};

/// True when the runs hold every step of the execution once, in order (steps [0, n) run after
/// run): then the pass over the runs hands an observer each step once. A report whose runs
/// overlap or leave gaps is read again for the observer.
bool runsCoverSteps(const std::vector<Run>& runs, std::uint64_t numSteps) {
  std::uint64_t next = 0;
  for (const Run& run : runs) {
    if (detail::Access::firstStep(run) != next) return false;
    next += run.steps().size();
  }
  return next == numSteps;
}

/// analyseExecution's pass; hands each step to `observer` too when the runs cover the steps
/// (`observed` then says so).
ExecutionAnalysis readEveryStep(const Report& report, StepObserver* observer, bool& observed,
                                ProgressFn progress, void* context) {
  // A caller already stopped (its progress throws) reads nothing and keeps nothing; otherwise a
  // report of fewer steps than one progress interval would be read, and kept, whatever it said.
  if (progress) progress(context, 0.0);
  wholeStepPasses.fetch_add(1, std::memory_order_relaxed);
  const CompilationReport c = report.compilation();
  const ExecutionReport e = report.execution();
  const Target target = c.target();
  const ProgramKinds kinds = programKinds(c);
  const std::size_t numPrograms = kinds.traffic.size();
  const std::size_t numComputeSets = c.computeSets().size();
  const unsigned numIpus = target.ipusPerReplica();

  Scope allScope;
  allScope.runs = Scope::Runs::AllRuns;
  SpanBuilder all(allScope, numPrograms, numComputeSets, numIpus);
  const std::vector<Run> runs = e.runs();
  std::uint64_t totalSteps = 0;
  for (const Run& run : runs)
    totalSteps += run.steps().size();
  if (observer && !runsCoverSteps(runs, e.steps().size())) observer = nullptr;
  observed = observer != nullptr;

  const StepChecker checker(report);
  ExecutionAnalysis out;
  std::uint64_t done = 0;
  DecodedSteps decoded(runs); // read and decoded ahead, on a thread of its own when it pays
  for (const Run& run : runs) {
    Scope scope;
    scope.runs = Scope::Runs::OneRun;
    scope.runName = run.name();
    SpanBuilder one(scope, numPrograms, numComputeSets, numIpus);
    for (bool endsRun = false; !endsRun;) {
      const DecodedBatch& batch = decoded.next();
      for (std::size_t i = 0; i < batch.size(); ++i) {
        const ExecutionStep& step = batch.steps[i];
        const std::uint64_t program = programOf(step);
        addStep(step, program, batch.ipusOf(i), batch.numIpusOf(i), kinds, checker, {&one, &all});
        if (observer) observer->step(step, program, batch.ipusOf(i), batch.numIpusOf(i));
        if (progress && ++done % 4096 == 0) progress(context, double(done) / double(totalSteps));
      }
      endsRun = batch.endsRun;
    }
    one.figures.tileCyclesByIpu = kindsByIpu(run.tileCycleTotals(), target.tilesPerIpu(), numIpus);
    out.runs.push_back(one.finish());
    all.figures.lengthCycles += out.runs.back().lengthCycles; // runs follow each other
  }
  if (!runs.empty())
    all.figures.tileCyclesByIpu = kindsByIpu(e.tileCycleTotals(), target.tilesPerIpu(), numIpus);
  out.allRuns = all.finish();
  return out;
}
/// The steps for an observer alone (the analysis is kept already): decoded, no figures.
void observeEveryStep(const Report& report, StepObserver& observer, ProgressFn progress,
                      void* context) {
  if (progress) progress(context, 0.0);
  observerPasses.fetch_add(1, std::memory_order_relaxed);
  const ExecutionSteps steps = report.execution().steps();
  const std::uint64_t total = steps.size();
  DecodedStep decoded;
  std::uint64_t done = 0;
  for (const ExecutionStep& step : steps) {
    decoded.read(step);
    observer.step(step, programOf(step), decoded.ipus.data(), decoded.ipus.size());
    if (progress && ++done % 4096 == 0) progress(context, double(done) / double(total));
  }
}
} // namespace

std::uint64_t executionPasses() {
  return wholeStepPasses.load(std::memory_order_relaxed);
}

std::uint64_t observerOnlyPasses() {
  return observerPasses.load(std::memory_order_relaxed);
}

void countDerivation(Derivation what) {
  derived[std::size_t(what)].fetch_add(1, std::memory_order_relaxed);
}

std::uint64_t derivations(Derivation what) {
  const auto i = std::size_t(what);
  return i < std::size(derived) ? derived[i].load(std::memory_order_relaxed) : 0;
}

std::shared_ptr<const ExecutionAnalysis>
sharedExecutionAnalysis(const Report& report, ProgressFn progress, void* context) {
  return sharedExecutionAnalysis(report, nullptr, progress, context);
}

std::shared_ptr<const ExecutionAnalysis> sharedExecutionAnalysis(const Report& report,
                                                                 StepObserver* observer,
                                                                 ProgressFn progress,
                                                                 void* context) {
  // Once per open report: every handle copied from one openReport() shares the state, and the
  // first caller reads the steps while any other waits for its result. A pass that is stopped
  // (its progress throws) leaves nothing behind, and the next caller starts afresh.
  const std::shared_ptr<ReportState> state = Access::state(report);
  AnalysisCache& cache = analysisCache(*state);
  bool observed = false;
  if (observer && !cache.execution.ready.load(std::memory_order_acquire)) {
    // Another thread's pass under way (it holds the entry's lock): the observer cannot ride on
    // it, and waiting for it first would leave a core idle. Its own reading runs beside it.
    std::unique_lock<std::mutex> probe(cache.execution.mutex, std::try_to_lock);
    if (!probe.owns_lock()) {
      probe = {};
      observeEveryStep(report, *observer, progress, context);
      observed = true;
    }
  }
  const ExecutionAnalysis& kept = cache.execution.get([&] {
    bool rode = false;
    cache.execution.value =
        readEveryStep(report, observed ? nullptr : observer, rode, progress, context);
    observed = observed || rode;
    countDerivation(Derivation::Execution);
  });
  // Kept before this call: the observer still sees every step, from a reading of its own.
  if (observer && !observed) observeEveryStep(report, *observer, progress, context);
  if (progress) progress(context, 1.0);
  return std::shared_ptr<const ExecutionAnalysis>(state, &kept); // shares the report's ownership
}

ExecutionAnalysis analyseExecution(const Report& report, ProgressFn progress, void* context) {
  return *sharedExecutionAnalysis(report, progress, context);
}

} // namespace detail

} // namespace pva
