// A report is read once per process: analyseExecution and OperationAnalysis keep what they
// derive with the open report (shared by every copy of the handle, across threads), and
// pva::RunBasis, the one rule for comparing figures summed over all runs.
#include "PvaTestUtil.hpp"
#include "common/RawDb.hpp"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <pva/Analysis.hpp>
#include <pva/Compare.hpp>
#include <pva/Debug.hpp>
#include <pva/ProgramTotals.hpp>
#include <stdexcept>
#include <thread>

namespace {

pva::Report openMlp() {
  const auto profile = test::sampleReport("mlp");
  return pva::openReport(profile.string(), (profile.parent_path() / "debug.cbor").string());
}

void requireSame(const pva::ExecutionAnalysis& a, const pva::ExecutionAnalysis& b) {
  REQUIRE(a.runs.size() == b.runs.size());
  REQUIRE(a.allRuns.cycles == b.allRuns.cycles);
  REQUIRE(a.allRuns.lengthCycles == b.allRuns.lengthCycles);
  REQUIRE(a.allRuns.programs.size() == b.allRuns.programs.size());
  for (std::size_t p = 0; p < a.allRuns.programs.size(); ++p) {
    REQUIRE(a.allRuns.programs[p].cycles == b.allRuns.programs[p].cycles);
    REQUIRE(a.allRuns.programs[p].executions == b.allRuns.programs[p].executions);
  }
  REQUIRE(a.allRuns.streamCopyCycles.host == b.allRuns.streamCopyCycles.host);
}

} // namespace

TEST_CASE("analyseExecution reads every step once per open report", "[pva][cache]") {
  const pva::Report report = openMlp();
  const std::uint64_t before = pva::detail::executionPasses();
  const pva::ExecutionAnalysis first = pva::analyseExecution(report);
  REQUIRE(pva::detail::executionPasses() == before + 1);
  REQUIRE(first.allRuns.steps == report.execution().steps().size());

  // A copy of the handle is the same open report: no step is read again, progress ends at 1.
  const pva::Report copy = report;
  double last = 0;
  const pva::ExecutionAnalysis second = pva::analyseExecution(copy, [&](double d) { last = d; });
  REQUIRE(pva::detail::executionPasses() == before + 1);
  REQUIRE(last == 1.0);
  requireSame(first, second);

  // Opening the file again is another report: read again, with the same figures.
  const pva::ExecutionAnalysis reopened = pva::analyseExecution(openMlp());
  REQUIRE(pva::detail::executionPasses() == before + 2);
  requireSame(first, reopened);
}

TEST_CASE("the shared analyses are the kept values and keep the report open", "[pva][cache]") {
  std::shared_ptr<const pva::ExecutionAnalysis> execution;
  std::shared_ptr<const pva::ReportSummary> summary;
  std::uint64_t steps = 0, before = 0;
  {
    const pva::Report report = openMlp();
    steps = report.execution().steps().size();
    before = pva::detail::executionPasses();
    execution = pva::sharedExecutionAnalysis(report);
    summary = pva::sharedSummary(report);
    // The same value each time, not a copy, and the steps read once for both kinds of call.
    REQUIRE(pva::sharedExecutionAnalysis(report, [](double) {}) == execution);
    REQUIRE(pva::sharedSummary(report) == summary);
    requireSame(pva::analyseExecution(report), *execution);
    REQUIRE(pva::detail::executionPasses() == before + 1);
  }
  // The Report handle is gone; the pointers still hold the open report's values.
  REQUIRE(execution->allRuns.steps == steps);
  REQUIRE(summary->execution.steps == steps);
}

TEST_CASE("a progress callback that throws stops the call; later calls give the right figures",
          "[pva][cache]") {
  const pva::Report report = openMlp();
  REQUIRE_THROWS_AS(pva::analyseExecution(report, [](double) { throw std::runtime_error("stop"); }),
                    std::runtime_error);
  const pva::ExecutionAnalysis after = pva::analyseExecution(report);
  requireSame(after, pva::analyseExecution(openMlp()));
}

TEST_CASE("threads asking for the execution analysis at once share one pass", "[pva][cache]") {
  const pva::Report report = openMlp();
  const std::uint64_t before = pva::detail::executionPasses();
  pva::ExecutionAnalysis a, b;
  std::thread one([&] { a = pva::analyseExecution(report); });
  std::thread two([&] { b = pva::analyseExecution(report); });
  one.join();
  two.join();
  REQUIRE(pva::detail::executionPasses() == before + 1);
  requireSame(a, b);
}

TEST_CASE("threads asking for every analysis at once derive each once per open report",
          "[pva][cache]") {
  // The summary, the pass over the steps, the program tree's totals and the operations'
  // grouping: what the CLI, Python and the viewer's pages ask of one open report, here from
  // eight threads at once, each asking for all of them in its own order.
  using pva::detail::Derivation;
  const Derivation kinds[] = {Derivation::Summary, Derivation::Execution, Derivation::ProgramTotals,
                              Derivation::OperationGroups};
  const pva::Report report = openMlp();
  std::uint64_t before[4];
  for (int k = 0; k < 4; ++k)
    before[k] = pva::detail::derivations(kinds[k]);
  const std::uint64_t passes = pva::detail::executionPasses();
  constexpr int kThreads = 8;
  struct Seen {
    std::shared_ptr<const pva::ReportSummary> summary;
    std::shared_ptr<const pva::ExecutionAnalysis> execution;
    std::shared_ptr<const std::vector<pva::ProgramTotals>> totals;
    std::size_t operations = 0;
    pva::StreamCopyCycles streamCopies;
  };
  std::vector<Seen> seen(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      const pva::Report copy = report; // a copy of the handle: the same open report
      Seen& s = seen[std::size_t(t)];
      for (int i = 0; i < 4; ++i)
        switch ((t + i) % 4) {
        case 0:
          s.summary = pva::sharedSummary(copy);
          break;
        case 1:
          s.execution = pva::sharedExecutionAnalysis(copy);
          break;
        case 2:
          s.totals = pva::sharedProgramTotals(copy);
          break;
        default:
          s.operations = pva::OperationAnalysis(copy).operations().size();
          s.streamCopies = pva::summarizeStreamCopies(copy).allRuns;
          break;
        }
    });
  for (std::thread& t : threads)
    t.join();
  for (int k = 0; k < 4; ++k) {
    INFO("derivation " << k);
    CHECK(pva::detail::derivations(kinds[k]) == before[k] + 1);
  }
  CHECK(pva::detail::executionPasses() == passes + 1);
  for (const Seen& s : seen) {
    // Every thread got the one kept value, not a copy of its own.
    CHECK(s.summary == seen[0].summary);
    CHECK(s.execution == seen[0].execution);
    CHECK(s.totals == seen[0].totals);
    CHECK(s.operations == seen[0].operations);
    CHECK(s.streamCopies.host == seen[0].execution->allRuns.streamCopyCycles.host);
  }
  REQUIRE(seen[0].operations > 0);
  // The kept totals are programTotals over all runs.
  const auto fresh = pva::programTotals(report, seen[0].execution->allRuns);
  REQUIRE(fresh.size() == seen[0].totals->size());
  for (std::size_t p = 0; p < fresh.size(); ++p) {
    CHECK(fresh[p].cycles == (*seen[0].totals)[p].cycles);
    CHECK(fresh[p].ipuMask == (*seen[0].totals)[p].ipuMask);
  }
  // Asking again, from this thread, derives nothing more.
  pva::summarize(report);
  pva::sharedProgramTotals(report);
  CHECK(pva::detail::derivations(Derivation::ProgramTotals) == before[2] + 1);
  CHECK(pva::detail::derivations(Derivation::Summary) == before[0] + 1);
  // Another open of the file is another report: derived again.
  pva::sharedProgramTotals(openMlp());
  CHECK(pva::detail::derivations(Derivation::ProgramTotals) == before[2] + 2);
}

TEST_CASE("OperationAnalysis groups once and hands out equal operations each time",
          "[pva][cache]") {
  const pva::Report report = openMlp();
  const pva::OperationAnalysis first(report), second(report);
  const auto a = first.operations(), b = second.operations();
  REQUIRE(!a.empty());
  REQUIRE(a.size() == b.size());
  REQUIRE(first.operationOfProgram() == second.operationOfProgram());
  for (std::size_t i = 0; i < a.size(); ++i) {
    REQUIRE(a[i].name() == b[i].name());
    REQUIRE(a[i].estimatedCycles() == b[i].estimatedCycles());
    REQUIRE(a[i].vars().size() == b[i].vars().size());
    REQUIRE(a[i].programs().size() == b[i].programs().size());
    for (std::size_t v = 0; v < a[i].vars().size(); ++v)
      REQUIRE(a[i].vars()[v].id() == b[i].vars()[v].id());
  }
  // The handles keep working after the analysis objects are gone.
  std::vector<pva::Operation> kept;
  { kept = pva::OperationAnalysis(report).operations(); }
  REQUIRE(kept.front().debugContext() != nullptr);
}

TEST_CASE("RunBasis compares all-runs totals per run only when the run counts differ",
          "[pva][cache]") {
  const pva::ComparedValue v{1'324'160, 324'864}; // issue 37: 10 runs against 2
  const pva::RunBasis perRun{10, 2};
  REQUIRE(perRun.perRun());
  REQUIRE(perRun.base(v) == Approx(132'416.0));
  REQUIRE(perRun.current(v) == Approx(162'432.0));
  REQUIRE(perRun.delta(v) == Approx(30'016.0));
  REQUIRE(perRun.relative(v) == Approx(0.2267).margin(0.0001)); // 23 % slower per run,
  REQUIRE(v.delta() < 0);                                       // while the totals fell
  REQUIRE(perRun.describe() == "per run (10 vs 2 runs)");

  const pva::RunBasis same{2, 2};
  REQUIRE(!same.perRun());
  REQUIRE(same.delta(v) == double(v.delta()));
  REQUIRE(same.relative(v) == v.relative());
  REQUIRE(same.describe() == "all runs");
  // A report that did not run has nothing to divide: totals as they are.
  REQUIRE(!pva::RunBasis{0, 3}.perRun());
  REQUIRE(pva::RunBasis{4, 2}.relative({0, 0}) == 0.0);
  REQUIRE(std::isinf(pva::RunBasis{4, 2}.relative({0, 8})));

  const pva::Report report = openMlp();
  const pva::RunBasis fromReports = pva::runBasis(report, report);
  REQUIRE(fromReports.baseRuns == report.execution().runs().size());
  REQUIRE(!fromReports.perRun());
}

namespace {

/// Keeps what a StepObserver is handed, and may stop the pass at a given step.
struct RecordingObserver final : pva::StepObserver {
  struct Seen {
    std::uint64_t index, program;
    unsigned run;
    std::vector<pva::IpuExecution> ipus;
  };
  std::vector<Seen> steps;
  std::uint64_t throwAt = ~std::uint64_t(0);
  void step(const pva::ExecutionStep& step, std::uint64_t program, const pva::IpuExecution* ipus,
            std::size_t numIpus) override {
    if (step.index() == throwAt) throw std::runtime_error("observer stops");
    steps.push_back({step.index(), program, step.run(), {ipus, ipus + numIpus}});
  }
};

/// What the observer saw is every step of the report, in order, as step.ipus() decodes it.
void requireEveryStep(const pva::Report& report, const RecordingObserver& o) {
  const pva::ExecutionSteps steps = report.execution().steps();
  REQUIRE(o.steps.size() == steps.size());
  std::size_t i = 0;
  for (const pva::ExecutionStep& step : steps) {
    const auto& seen = o.steps[i];
    REQUIRE(seen.index == i);
    REQUIRE(seen.run == step.run());
    const pva::ProgramPtr program = step.program();
    REQUIRE(seen.program == (program ? program->_id() : pva::StepObserver::kNoProgram));
    const std::vector<pva::IpuExecution> ipus = step.ipus();
    REQUIRE(seen.ipus.size() == ipus.size());
    for (std::size_t k = 0; k < ipus.size(); ++k) {
      REQUIRE(seen.ipus[k].ipu() == ipus[k].ipu());
      REQUIRE(seen.ipus[k].cycles() == ipus[k].cycles());
      REQUIRE(seen.ipus[k].activeTiles() == ipus[k].activeTiles());
      REQUIRE(seen.ipus[k].allCycles().from().min() == ipus[k].allCycles().from().min());
      REQUIRE(seen.ipus[k].allCycles().to().max() == ipus[k].allCycles().to().max());
      REQUIRE(seen.ipus[k].activeCycles().to().min() == ipus[k].activeCycles().to().min());
      REQUIRE(seen.ipus[k].dataIn() == ipus[k].dataIn());
      REQUIRE(seen.ipus[k].dataOut() == ipus[k].dataOut());
      REQUIRE(seen.ipus[k].tileBalance() == ipus[k].tileBalance());
      REQUIRE(seen.ipus[k].activeTileBalance() == ipus[k].activeTileBalance());
    }
    ++i;
  }
}

} // namespace

// [steps]: pva_tests_portable_decoder runs this with the portable decoder too.
TEST_CASE("a StepObserver rides on the pass: every step decoded once for both",
          "[pva][cache][steps]") {
  const pva::Report report = openMlp();
  REQUIRE(report.execution().steps().size() > 0);
  const std::uint64_t passes = pva::detail::executionPasses(),
                      alone = pva::detail::observerOnlyPasses();
  RecordingObserver first;
  double last = 0;
  const auto kept = pva::sharedExecutionAnalysis(report, first, [&](double d) { last = d; });
  REQUIRE(last == 1.0);
  // One pass made the figures and fed the observer; they are the kept figures.
  REQUIRE(pva::detail::executionPasses() == passes + 1);
  REQUIRE(pva::detail::observerOnlyPasses() == alone);
  requireEveryStep(report, first);
  REQUIRE(pva::sharedExecutionAnalysis(report) == kept);
  requireSame(*kept, pva::analyseExecution(openMlp())); // the same figures as without observer

  // The figures are kept now: a second observer gets every step from a reading of its own.
  RecordingObserver second;
  REQUIRE(pva::sharedExecutionAnalysis(report, second, [](double) {}) == kept);
  REQUIRE(pva::detail::executionPasses() == passes + 2); // the reopened report's pass above
  REQUIRE(pva::detail::observerOnlyPasses() == alone + 1);
  requireEveryStep(report, second);
}

TEST_CASE("an observer that throws stops the pass and nothing is kept", "[pva][cache]") {
  const pva::Report report = openMlp();
  RecordingObserver stopping;
  stopping.throwAt = report.execution().steps().size() / 2;
  REQUIRE_THROWS_WITH(pva::sharedExecutionAnalysis(report, stopping, [](double) {}),
                      "observer stops");
  REQUIRE(stopping.steps.size() == stopping.throwAt);
  // The next call reads the steps afresh (nothing half-done was kept) and feeds its observer.
  const std::uint64_t passes = pva::detail::executionPasses();
  RecordingObserver again;
  const auto figures = pva::sharedExecutionAnalysis(report, again, [](double) {});
  REQUIRE(pva::detail::executionPasses() == passes + 1);
  requireEveryStep(report, again);
  requireSame(*figures, pva::analyseExecution(openMlp()));
}

TEST_CASE("an observer does not wait for another thread's pass to read the steps", "[pva][cache]") {
  // Thread A's pass is held at its second step (its observer waits); thread B's observer must
  // still see every step, read beside A's pass instead of after it, then get A's figures.
  const pva::Report report = openMlp();
  std::atomic<bool> aStarted{false}, bDone{false};
  struct Holding final : pva::StepObserver {
    std::atomic<bool>* started;
    std::atomic<bool>* release;
    bool sawRelease = false;
    void step(const pva::ExecutionStep& step, std::uint64_t, const pva::IpuExecution*,
              std::size_t) override {
      if (step.index() != 1) return;
      started->store(true);
      for (int i = 0; i < 2000 && !release->load(); ++i) // 20 s at most: never a hang
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      sawRelease = release->load();
    }
  } holding;
  holding.started = &aStarted;
  holding.release = &bDone;
  const std::uint64_t alone = pva::detail::observerOnlyPasses();
  std::shared_ptr<const pva::ExecutionAnalysis> a, b;
  std::thread first([&] { a = pva::sharedExecutionAnalysis(report, holding, [](double) {}); });
  while (!aStarted.load())
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  RecordingObserver beside;
  std::thread second([&] {
    // Reads the steps for its observer while A's pass is held, then waits for A's figures.
    struct Signal final : pva::StepObserver {
      RecordingObserver* inner;
      std::atomic<bool>* done;
      std::size_t total = 0;
      void step(const pva::ExecutionStep& s, std::uint64_t p, const pva::IpuExecution* ipus,
                std::size_t n) override {
        inner->step(s, p, ipus, n);
        if (inner->steps.size() == total) done->store(true);
      }
    } signal;
    signal.inner = &beside;
    signal.done = &bDone;
    signal.total = report.execution().steps().size();
    b = pva::sharedExecutionAnalysis(report, signal, [](double) {});
  });
  first.join();
  second.join();
  REQUIRE(holding.sawRelease); // B read every step while A's pass was still held
  REQUIRE(pva::detail::observerOnlyPasses() == alone + 1);
  REQUIRE(a == b); // A's figures, shared
  requireEveryStep(report, beside);
}

namespace {

/// Sets TESSERA_PVA_PASS_READER for the passes made while it lives ("inline": the pass reads
/// and decodes the steps itself; "thread": a thread reads ahead, whatever the report's size).
struct PassReader {
  explicit PassReader(const char* mode) { ::setenv("TESSERA_PVA_PASS_READER", mode, 1); }
  ~PassReader() { ::unsetenv("TESSERA_PVA_PASS_READER"); }
};

void requireSameSpan(const pva::SpanFigures& a, const pva::SpanFigures& b) {
  REQUIRE(a.scope.runName == b.scope.runName);
  REQUIRE(a.steps == b.steps);
  REQUIRE(a.cycles == b.cycles);
  REQUIRE(a.lengthCycles == b.lengthCycles);
  REQUIRE(a.cyclesByIpu == b.cyclesByIpu);
  REQUIRE(a.tileBalance == b.tileBalance); // the same sums in the same order: the same bits
  REQUIRE(a.parallelEfficiency == b.parallelEfficiency);
  REQUIRE(a.programs.size() == b.programs.size());
  for (std::size_t p = 0; p < a.programs.size(); ++p) {
    REQUIRE(a.programs[p].cycles == b.programs[p].cycles);
    REQUIRE(a.programs[p].executions == b.programs[p].executions);
  }
  REQUIRE(a.computeSets.size() == b.computeSets.size());
  for (std::size_t c = 0; c < a.computeSets.size(); ++c)
    REQUIRE(a.computeSets[c].cycles == b.computeSets[c].cycles);
  REQUIRE(a.ipus.size() == b.ipus.size());
  for (std::size_t i = 0; i < a.ipus.size(); ++i) {
    REQUIRE(a.ipus[i].streamCopyInBytes == b.ipus[i].streamCopyInBytes);
    REQUIRE(a.ipus[i].globalExchangeOutBytes == b.ipus[i].globalExchangeOutBytes);
  }
  REQUIRE(a.streamCopyCycles.host == b.streamCopyCycles.host);
}

} // namespace

// [steps]: pva_tests_portable_decoder runs this with the portable decoder too.
TEST_CASE("The pass reads the steps ahead on a thread of its own: the same figures and steps",
          "[pva][cache][steps]") {
  // The mlp sample's 3,520 steps in two runs are four batches of the reading thread: batches
  // end at run ends and in the middle of runs, and the slots go round.
  pva::ExecutionAnalysis inlineFigures, threadFigures;
  RecordingObserver inlineSteps, threadSteps;
  {
    const PassReader mode("inline");
    inlineFigures = *pva::sharedExecutionAnalysis(openMlp(), inlineSteps, [](double) {});
  }
  {
    const PassReader mode("thread");
    const pva::Report report = openMlp();
    threadFigures = *pva::sharedExecutionAnalysis(report, threadSteps, [](double) {});
    requireEveryStep(report, threadSteps);
  }
  REQUIRE(inlineFigures.runs.size() == 2);
  REQUIRE(threadFigures.runs.size() == inlineFigures.runs.size());
  for (std::size_t r = 0; r < inlineFigures.runs.size(); ++r)
    requireSameSpan(threadFigures.runs[r], inlineFigures.runs[r]);
  requireSameSpan(threadFigures.allRuns, inlineFigures.allRuns);
  REQUIRE(threadSteps.steps.size() == inlineSteps.steps.size());
}

TEST_CASE("A pass that stops while a thread reads ahead ends cleanly and keeps nothing",
          "[pva][cache]") {
  const PassReader mode("thread");
  const pva::Report report = openMlp();
  // The observer stops it in the third batch, the progress near the end; each time the reading
  // thread, maybe waiting for room, is stopped and joined (a hang here is the failure).
  RecordingObserver stopping;
  stopping.throwAt = 2500;
  REQUIRE_THROWS_WITH(pva::sharedExecutionAnalysis(report, stopping, [](double) {}),
                      "observer stops");
  REQUIRE(stopping.steps.size() == 2500);
  REQUIRE_THROWS_WITH(pva::analyseExecution(report,
                                            [](double done) {
                                              if (done > 0.9) throw std::runtime_error("enough");
                                            }),
                      "enough");
  RecordingObserver whole;
  const auto figures = pva::sharedExecutionAnalysis(report, whole, [](double) {});
  requireEveryStep(report, whole);
  requireSame(*figures, pva::analyseExecution(openMlp()));
}

TEST_CASE("A step the reading thread cannot decode is the pass's error, naming the file and step",
          "[pva][cache][hostile]") {
  const test::ScratchDir dir;
  const auto file = dir / "damaged.pop";
  std::filesystem::copy_file(test::sampleReport("mlp"), file);
  test::execSql(file, "UPDATE steps SET ipus = x'ffffffffffffffffffff' WHERE id = 3000");
  std::string message[2];
  int i = 0;
  for (const char* how : {"inline", "thread"}) {
    const PassReader mode(how);
    message[i++] = test::messageOf<pva::InvalidReportError>(
        [&] { pva::analyseExecution(pva::openReport(file.string())); });
  }
  CHECK(message[0].find(file.string()) != std::string::npos);
  CHECK(message[0].find("corrupted step 3000") != std::string::npos);
  CHECK(message[1] == message[0]);
}
