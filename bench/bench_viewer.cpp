// bench_viewer: the viewer's execution trace on a large report (16 IPUs, 1 M steps: 16 M
// (step, IPU) pairs), rendered offscreen.
//
//   bench_viewer [--steps N] [--reps R] [--file PATH] [--report PATH] [--keep]
//
// The report is bench_pva_reader's synthetic one (that tool writes it: --steps N --file PATH
// --keep), or any report given with --report. Measures, in one run:
//   1. opening: time from MainWindow::openPath to the first completed paint of the execution
//      timeline (goal < 1 s), to the first paint showing steps, and until the whole index is
//      loaded (reported as it is; no goal);
//   2. timeline repaints rendered into a QImage, at full zoom-out and at deep zoom (about 300
//      steps visible), median of R (goal <= 16 ms each), against a baseline in the same run: the
//      same QImage filled with one plain QPainter::fillRect per lane and pixel column;
//   3. the process's resident memory (VmRSS) with the report open and fully indexed (goal
//      < 1 GiB), and the index's own share.
#include "charts/ExecutionTimeline.hpp"
#include "common/CommandLine.hpp"
#include "common/PaintWatch.hpp"
#include "common/SyntheticReport.hpp"
#include "common/Timing.hpp"
#include "core/Background.hpp"
#include "core/ExecutionIndex.hpp"
#include "widgets/ExecutionPage.hpp"
#include "widgets/MainWindow.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

using namespace tessera::viewer;
using namespace tessera::bench;

namespace {

struct Options {
  unsigned long long steps = 1000000;
  int reps = 50;
  std::string file = (std::filesystem::temp_directory_path() / "tessera-bench-viewer.pop").string();
  std::string report;
  bool keep = false;
};

long rssKiB() {
  QFile f(QStringLiteral("/proc/self/status"));
  if (!f.open(QIODevice::ReadOnly)) return -1;
  for (const QByteArray& line : f.readAll().split('\n'))
    if (line.startsWith("VmRSS:")) return line.mid(6).trimmed().split(' ').front().toLong();
  return -1;
}

bool waitFor(const std::function<bool()>& done, int seconds) {
  QElapsedTimer t;
  t.start();
  while (!done()) {
    if (t.elapsed() > seconds * 1000) return false;
    QApplication::processEvents(QEventLoop::AllEvents, 20);
  }
  return true;
}

} // namespace

int main(int argc, char** argv) {
  Options o;
  tessera::cli::CommandLine cli(
      "bench_viewer",
      "bench_viewer: the viewer's execution timeline on a large report, offscreen: "
      "first paint, index loading, repaints, resident memory.",
      "bench_viewer --steps 2000 --reps 3 --file /tmp/bench-viewer-small.pop");
  const CLI::Validator& positive = tessera::cli::PositiveNumber;
  cli.add_option("--steps", o.steps, "Steps of the synthetic report")->check(positive);
  cli.add_option("--reps", o.reps, "Repaints timed (medians are reported)")->check(positive);
  cli.add_option("--file", o.file, "Where bench_pva_reader writes the synthetic report")
      ->type_name("PATH");
  cli.add_option("--report", o.report, "Open this report instead of a synthetic one")
      ->type_name("PATH");
  cli.add_flag("--keep", o.keep, "Reuse the synthetic report at --file if it exists");
  cli.parseOrExit(argc, argv);
  qputenv("QT_QPA_PLATFORM", "offscreen"); // before QApplication: no display needed
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("Tessera"));
  QApplication::setApplicationName(QStringLiteral("bench_viewer"));

  const std::string report =
      reportToMeasure(o.report, o.file, o.keep, o.steps, "bench_viewer", BENCH_PVA_READER);
  if (report.empty()) return 1;
  const long rssBefore = rssKiB();

  // 0. The index alone, on this thread, nothing else running: header, then every step.
  double headerMs = 0, fillMs = 0, fillCpuMs = 0;
  {
    const auto doc = Document::resolve(QString::fromStdString(report));
    Progress progress = Progress::standalone(QStringLiteral("bench"));
    const auto a = Clock::now();
    ExecutionIndex index(readExecutionHeader(*doc, progress));
    const auto b = Clock::now();
    const double cpu = threadCpuMs();
    fillExecutionIndex(*doc, index, progress);
    fillCpuMs = threadCpuMs() - cpu;
    headerMs = ms(a, b);
    fillMs = ms(b, Clock::now());
  }

  // 1. Opening: first paint, first paint with steps, whole index.
  MainWindow window;
  window.setRememberRecent(false);
  window.resize(1400, 900);
  window.show();
  QApplication::processEvents();
  auto* page = qobject_cast<ExecutionPage*>(window.page(QStringLiteral("execution")));
  if (!page) {
    std::fprintf(stderr, "bench_viewer: no execution page\n");
    return 1;
  }
  ExecutionTimeline* timeline = page->timeline();
  Clock::time_point firstPaint{}, firstStepsPaint{};
  PaintWatch watch;
  watch.onPainted = [&] {
    const auto now = Clock::now();
    if (firstPaint == Clock::time_point{}) firstPaint = now;
    const auto& tracks = timeline->tracks();
    if (firstStepsPaint == Clock::time_point{} && !tracks.empty() && tracks[0].index &&
        tracks[0].index->loadedSteps() > 0)
      firstStepsPaint = now;
  };
  timeline->installEventFilter(&watch);
  const auto opened = Clock::now();
  if (!window.openPath(QString::fromStdString(report)) ||
      !window.showView(QStringLiteral("execution"))) {
    std::fprintf(stderr, "bench_viewer: cannot open %s on the execution view\n", report.c_str());
    return 1;
  }
  if (!waitFor([&] { return firstStepsPaint != Clock::time_point{}; }, 600)) {
    std::fprintf(stderr, "bench_viewer: no paint with steps within 600 s\n");
    return 1;
  }
  if (!waitFor([&] { return page->isReady(); }, 3600)) {
    std::fprintf(stderr, "bench_viewer: the index did not complete within an hour\n");
    return 1;
  }
  const auto indexed = Clock::now();
  timeline->removeEventFilter(&watch);
  waitFor([] { return ProgressHub::instance().running() == 0; }, 600); // other pages' loading
  QApplication::processEvents();
  const auto& tracks = timeline->tracks();
  if (tracks.empty() || !tracks[0].index) {
    std::fprintf(stderr, "bench_viewer: the report has no execution\n");
    return 1;
  }
  const ExecutionIndex& index = *tracks[0].index;
  const long rssIndexed = rssKiB();

  // 2. Repaints into an image, against one fillRect per lane and pixel column.
  timeline->resize(1400, 600);
  QImage image(timeline->size(), QImage::Format_ARGB32_Premultiplied);
  auto repaint = [&] { timeline->render(&image); };
  const int plotWidth =
      timeline->width() - 98; // the plot's width (label column and margin excluded)
  const int lanes = int(index.numLanes());
  auto baseline = [&] {
    QPainter p(&image);
    const int laneHeight = std::max(1, (timeline->height() - 40) / lanes);
    for (int lane = 0; lane < lanes; ++lane)
      for (int x = 0; x < plotWidth; ++x)
        p.fillRect(92 + x, 36 + lane * laneHeight, 1, laneHeight - 3,
                   QColor::fromRgb(0x4e79a7 + x % 7));
  };
  page->selectRun(
      -1); // a report of several runs opens on its first: measure all of them, as before
  timeline->fit();
  repaint();
  double fullCpu = 0, deepCpu = 0, flameCpu = 0, baseCpu = 0;
  const double fullZoom = timeMedian(o.reps, repaint, &fullCpu);
  const std::size_t mid = index.entries(0) / 2;
  const std::size_t last = std::min(index.entries(0) - 1, mid + 300);
  timeline->setView(double(index.begin(0, mid)), double(index.end(0, last)));
  repaint();
  const double deepZoom = timeMedian(o.reps, repaint, &deepCpu);
  page->setMode(ExecutionTimeline::Mode::Flame);
  timeline->fit();
  repaint();
  const double flameFull = timeMedian(o.reps, repaint, &flameCpu);
  page->setMode(ExecutionTimeline::Mode::Flat);
  const double base = timeMedian(o.reps, baseline, &baseCpu);

  // 3. Memory.
  const double mib = 1024.0;
  std::printf("\nreport: %s\n", report.c_str());
  std::printf("steps %llu, IPUs %u, (step, IPU) pairs %llu\n",
              static_cast<unsigned long long>(index.numSteps()), index.numLanes(),
              static_cast<unsigned long long>(index.numSteps()) * index.numLanes());
  std::printf("load average during the run: %.1f (2 cores)\n", loadAverage());
  std::printf("\n| measurement | viewer | baseline | ratio | goal |\n|---|---|---|---|---|\n");
  std::printf("| index alone: header (programs, runs, blocks) | %.0f ms | | | |\n", headerMs);
  std::printf("| index alone: every step | %.2f s (CPU %.2f s; %.2f M steps/s of CPU) | | | |\n",
              fillMs / 1000, fillCpuMs / 1000, double(index.numSteps()) / fillCpuMs / 1000);
  std::printf("| first paint of the execution view after openPath | %.0f ms | | | < 1 s: %s |\n",
              ms(opened, firstPaint), ms(opened, firstPaint) < 1000 ? "met" : "NOT met");
  std::printf("| first paint showing steps | %.0f ms | | | |\n", ms(opened, firstStepsPaint));
  std::printf("| whole index loaded (page ready) | %.2f s | | | (reported) |\n",
              ms(opened, indexed) / 1000);
  auto row = [&](const char* what, double wall, double cpu) {
    std::printf("| %s | %.2f ms (CPU %.2f ms) | %d fillRects: %.2f ms (CPU %.2f ms) | %.2fx (CPU "
                "%.2fx) | <= 16 ms: %s |\n",
                what, wall, cpu, lanes * plotWidth, base, baseCpu, wall / base, cpu / baseCpu,
                wall <= 16 ? "met" : "NOT met");
  };
  const std::string deepName =
      "repaint, deep zoom (" + std::to_string(last - mid + 1) + " steps per lane)";
  row("repaint, full zoom-out (flat)", fullZoom, fullCpu);
  row(deepName.c_str(), deepZoom, deepCpu);
  row("repaint, full zoom-out (flame)", flameFull, flameCpu);
  std::printf("| resident memory, report open and indexed (VmRSS) | %.0f MiB | before opening: "
              "%.0f MiB | | < 1 GiB: %s |\n",
              rssIndexed / mib, rssBefore / mib, rssIndexed < 1024 * 1024 ? "met" : "NOT met");
  std::printf("| of which the execution index | %.0f MiB | | | |\n",
              double(index.memoryBytes()) / (1 << 20));
  window.closeDocument();
  if (o.report.empty() && !o.keep) std::filesystem::remove(report);
  return 0;
}
