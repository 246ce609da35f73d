// bench_open_report: a report read once per process (issues 37 and 38). Opening a report in the
// viewer used to run the whole-steps pass (pva::analyseExecution) once per page that needs it
// (Summary, Operations, Program tree, Execution figures), each page on its own pva::Report; now
// every page of a document shares one session (viewer/src/core/Session.hpp) and libpva keeps the
// analysis with the open report.
//
//   bench_open_report [--steps N] [--reps R] [--file PATH] [--report PATH] [--keep] [--window]
//                     [--each-view] [--window-only]
//
// Measures, in one run, on bench_pva_reader's synthetic report (1 M steps, 16 IPUs) or --report:
//   baseline     one pass over the steps: pva::analyseExecution on a freshly opened report
//   per page     the four pages' loaders, each on a document of its own (as before: one report
//                and one pass each)
//   one session  the same loaders on one document (now)
//   --window     the main window: open the report and show every view until each is ready
//   --each-view  per view, a fresh main window opened on that view (as --screenshot --view V
//                does): its time and the process's CPU time until the view is ready
//   --window-only  skips "per page" and "one session" (on the 1 M-step report they take minutes
//                and say nothing about the window)
// with the whole-steps passes each made (pva::detail::executionPasses, plus in the windows the
// readings for a StepObserver alone, observerOnlyPasses: the Execution page's index when it
// could not ride on the pass).
#include "common/CommandLine.hpp"
#include "common/SyntheticReport.hpp"
#include "common/Timing.hpp"
#include "core/Background.hpp"
#include "core/ExecutionFigures.hpp"
#include "core/OperationsData.hpp"
#include "core/ProgramTreeData.hpp"
#include "core/Settings.hpp"
#include "core/SummaryData.hpp"
#include "widgets/MainWindow.hpp"
#include "widgets/Page.hpp"

#include <QApplication>
#include <QEventLoop>
#include <QThreadPool>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <pva/Analysis.hpp>
#include <string>
#include <vector>

using namespace tessera::bench;
using namespace tessera::viewer;

namespace {

struct Options {
  unsigned long long steps = 1000000;
  int reps = 3;
  std::string file =
      (std::filesystem::temp_directory_path() / "tessera-bench-open-report.pop").string();
  std::string report;
  bool keep = false, window = false, eachView = false, windowOnly = false;
  std::string only; ///< --each-view: this view alone
};

/// The loaders of the pages that need the execution analysis, each given `docFor()`'s document.
template <class DocFor> void loadPages(DocFor&& docFor) {
  Progress p = Progress::standalone(QStringLiteral("bench"));
  loadSummary(*docFor(), p);
  loadOperations(*docFor(), p);
  loadProgramTree(*docFor(), p);
  loadProgramCycles(*docFor(), p);
  loadExecutionFigures(*docFor(), p);
}

struct Measured {
  double ms = 0, cpu = 0;
  double passes = 0; ///< whole-steps passes per repetition
};

Measured measure(int reps, const std::function<void()>& f) {
  Measured m;
  const std::uint64_t before = pva::detail::executionPasses();
  m.ms = timeMedian(reps, f, &m.cpu);
  m.passes = double(pva::detail::executionPasses() - before) / reps;
  return m;
}

/// Waits, without spinning, until `page` is ready or `limitMs` have passed since `start`.
/// (processEvents() in a loop returns at once when nothing is pending, so the GUI thread spun
/// and its CPU time swelled the process's figure this bench reports.)
bool waitReady(Page* page, Clock::time_point start, double limitMs) {
  if (page->isReady()) return true;
  QEventLoop loop;
  QObject::connect(page, &Page::readyChanged, &loop, [&loop](bool ready) {
    if (ready) loop.quit();
  });
  QTimer limit;
  limit.setSingleShot(true);
  QObject::connect(&limit, &QTimer::timeout, &loop, &QEventLoop::quit);
  limit.start(int(std::max(0.0, limitMs - ms(start, Clock::now()))));
  loop.exec();
  return page->isReady();
}

/// Opens the report in a main window and shows every view until each is ready: ms, or -1.
/// `cpu` gets the process's CPU time over that, and each view's line says when it was ready
/// (ms after opening) and the CPU time spent by then.
/// Every decode of all steps so far: the passes, and readings for an observer alone.
std::uint64_t stepReadings() {
  return pva::detail::executionPasses() + pva::detail::observerOnlyPasses();
}

double openEveryView(const QString& path, std::uint64_t& passes, double& cpu,
                     std::vector<std::string>& views) {
  MainWindow w;
  w.setRememberRecent(false);
  w.resize(1400, 900);
  w.show();
  QApplication::processEvents();
  const std::uint64_t before = stepReadings();
  const auto start = Clock::now();
  const double cpu0 = processCpuMs();
  if (!w.openPath(path)) return -1;
  double previous = 0; // when the view before was ready: each view's own time is the rest
  for (Page* page : w.pages()) {
    if (!page->accepts(*w.document()) || !w.showView(page->viewKey())) continue;
    if (!waitReady(page, start, 600000)) {
      std::fprintf(stderr, "bench_open_report: the %s view never became ready\n",
                   qPrintable(page->viewKey()));
      return -1;
    }
    char line[200];
    const double readyAt = ms(start, Clock::now());
    std::snprintf(line, sizeof line, "%s ready at %.0f ms (CPU %.0f ms); this view %.0f ms",
                  qPrintable(page->viewKey()), readyAt, processCpuMs() - cpu0, readyAt - previous);
    views.push_back(line);
    previous = readyAt;
  }
  cpu = processCpuMs() - cpu0;
  passes = stepReadings() - before;
  return ms(start, Clock::now());
}

/// Waits until nothing of a closed window's is still running on a pool (Qt's, and the one for
/// the whole-steps pass), so the next view's CPU time is its own (cancelled tasks stop at their
/// next progress check).
void drainPools() {
  QThreadPool::globalInstance()->waitForDone();
  stepsPool()->waitForDone();
  QApplication::processEvents();
}

/// A fresh main window opens the report on `view` (the "Default view" preference set to it, so
/// the view loads alone and the other pages wait until it is ready, as staged opening does for
/// the first view): ms until that view is ready (-1: never, or not shown), `cpu` the process's
/// CPU time over it (all threads), i.e. that view's own cost.
double openOnView(const QString& path, const QString& view, double& cpu, std::uint64_t& passes) {
  drainPools();
  double elapsed = -1;
  {
    MainWindow w;
    w.setRememberRecent(false);
    w.resize(1400, 900);
    w.show();
    QApplication::processEvents();
    w.setSessionEnabled(true); // else a window opens on its first view, whatever the preference
    Settings::instance().setRestoreSession(false);
    Settings::instance().setDefaultView(view);
    const std::uint64_t before = stepReadings();
    const auto start = Clock::now();
    const double cpu0 = processCpuMs();
    const bool opened = w.openPath(path);
    Settings::instance().setDefaultView(QStringLiteral("summary"));
    Page* page = w.page(view);
    if (!opened || !page || w.currentPage() != page) return -1;
    if (waitReady(page, start, 600000)) elapsed = ms(start, Clock::now());
    cpu = processCpuMs() - cpu0;
    passes = stepReadings() - before;
  }
  drainPools();
  return elapsed;
}

} // namespace

int main(int argc, char** argv) {
  Options o;
  tessera::cli::CommandLine cli(
      "bench_open_report",
      "bench_open_report: the viewer's pages reading a report once, against one pass over it.",
      "bench_open_report --steps 2000 --reps 3 --file /tmp/bench-open-small.pop");
  const CLI::Validator& positive = tessera::cli::PositiveNumber;
  cli.add_option("--steps", o.steps, "Steps of the synthetic report")->check(positive);
  cli.add_option("--reps", o.reps, "Timed runs of each (medians are reported)")->check(positive);
  cli.add_option("--file", o.file, "Where bench_pva_reader writes the synthetic report")
      ->type_name("PATH");
  cli.add_option("--report", o.report, "Use this report (a directory or profile.pop) instead")
      ->type_name("PATH");
  cli.add_flag("--keep", o.keep, "Reuse the synthetic report at --file if it exists");
  cli.add_flag("--window", o.window, "Also time the main window showing every view");
  cli.add_flag("--each-view", o.eachView,
               "Also time each view opened first, in a fresh window (as --screenshot --view)");
  cli.add_option("--view", o.only, "With --each-view: only this view (for a profiler)")
      ->type_name("KEY");
  cli.add_flag("--window-only", o.windowOnly,
               "Skip the pages' loaders (per page, one session): only the one pass and windows");
  cli.parseOrExit(argc, argv);
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("Tessera"));
  QApplication::setApplicationName(QStringLiteral("bench_open_report"));

  const std::string report =
      reportToMeasure(o.report, o.file, o.keep, o.steps, "bench_open_report", BENCH_PVA_READER);
  if (report.empty()) return 1;
  const QString path = QString::fromStdString(report);
  std::shared_ptr<const Document> probe;
  try {
    probe = Document::resolve(path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_open_report: %s\n", e.what());
    return 1;
  }
  const std::string profile = probe->profilePath().toStdString();

  const Measured onePass =
      measure(o.reps, [&] { pva::analyseExecution(pva::openReport(profile)); });
  Measured perPage, session;
  if (!o.windowOnly) {
    perPage = measure(o.reps, [&] { loadPages([&] { return Document::resolve(path); }); });
    session = measure(o.reps, [&] {
      const auto doc = Document::resolve(path);
      loadPages([&] { return doc; });
    });
  }

  std::printf("\nreport %s: %llu steps; load average %.1f\n", report.c_str(),
              static_cast<unsigned long long>(probe->report().execution().steps().size()),
              loadAverage());
  std::printf("| measure | median | whole-steps passes | vs one pass (same run) |\n"
              "|---|---|---|---|\n");
  auto row = [&](const char* what, const Measured& m) {
    std::printf("| %s | %.0f ms (CPU %.0f ms) | %.0f | %.2fx |\n", what, m.ms, m.cpu, m.passes,
                m.ms / onePass.ms);
  };
  row("one pass: pva::analyseExecution (open + all)", onePass);
  if (!o.windowOnly) {
    row("Summary, Operations, Program tree, Execution figures: a report per page (before)",
        perPage);
    row("the same pages, one session (now)", session);
  }
  if (o.window) {
    std::uint64_t passes = 0;
    double cpu = 0;
    std::vector<std::string> views;
    const double all = openEveryView(path, passes, cpu, views);
    if (all < 0) return 1;
    std::printf("| main window: open, every view shown and ready | %.0f ms (CPU %.0f ms, all "
                "threads) | %llu | %.2fx |\n",
                all, cpu, static_cast<unsigned long long>(passes), all / onePass.ms);
    std::printf("\nviews in side-list order:\n");
    for (const std::string& v : views)
      std::printf("  %s\n", v.c_str());
  }
  if (o.eachView) {
    std::printf("\neach view opened first and alone, a fresh window each (load average %.1f):\n"
                "| view | ready after | process CPU (all threads) | whole-steps passes |\n"
                "|---|---|---|---|\n",
                loadAverage());
    MainWindow keys; // only for the views' names, in side-list order
    for (Page* page : keys.pages()) {
      if (!page->accepts(*probe) || (!o.only.empty() && page->viewKey().toStdString() != o.only))
        continue;
      double cpu = 0;
      std::uint64_t passes = 0;
      const double t = openOnView(path, page->viewKey(), cpu, passes);
      if (t < 0)
        std::printf("| %s | not ready after %.0f ms of CPU |  | %llu |\n",
                    qPrintable(page->viewKey()), cpu, static_cast<unsigned long long>(passes));
      else
        std::printf("| %s | %.0f ms | %.0f ms | %llu |\n", qPrintable(page->viewKey()), t, cpu,
                    static_cast<unsigned long long>(passes));
      std::fflush(stdout);
    }
    std::printf("(load average %.1f at the end)\n", loadAverage());
  }
  if (o.report.empty() && !o.keep) std::filesystem::remove(report);
  return 0;
}
