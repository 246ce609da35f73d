// bench_insights: Insights on a large report (bench_pva_reader's synthetic one: 16 IPUs x 1,472
// tiles, 1 M execution steps), offscreen.
//
//   bench_insights [--steps N] [--reps R] [--file PATH] [--report PATH] [--keep]
//
// Measures, in one run: pva::insights (open + all) against pva::summarize (open + all) as the
// baseline, both reading the same tile columns and liveness steps; and the viewer's Insights page:
// from setDocument to the first completed paint with the figures shown (goal < 1 s).
#include "common/CommandLine.hpp"
#include "common/PaintWatch.hpp"
#include "common/SyntheticReport.hpp"
#include "common/Timing.hpp"
#include "widgets/InsightsPage.hpp"

#include <QApplication>
#include <cstdio>
#include <filesystem>
#include <pva/Insights.hpp>

using namespace tessera::bench;
using namespace tessera::viewer;

namespace {

struct Options {
  unsigned long long steps = 1000000;
  int reps = 3;
  std::string file =
      (std::filesystem::temp_directory_path() / "tessera-bench-insights.pop").string();
  std::string report;
  bool keep = false;
};

} // namespace

int main(int argc, char** argv) {
  Options o;
  tessera::cli::CommandLine cli(
      "bench_insights",
      "bench_insights: pva::insights and the viewer's Insights page on a large report.",
      "bench_insights --steps 2000 --reps 3 --file /tmp/bench-insights-small.pop");
  const CLI::Validator& positive = tessera::cli::PositiveNumber;
  cli.add_option("--steps", o.steps, "Steps of the synthetic report")->check(positive);
  cli.add_option("--reps", o.reps, "Timed runs of each (medians are reported)")->check(positive);
  cli.add_option("--file", o.file, "Where bench_pva_reader writes the synthetic report")
      ->type_name("PATH");
  cli.add_option("--report", o.report, "Use this report instead of a synthetic one")
      ->type_name("PATH");
  cli.add_flag("--keep", o.keep, "Reuse the synthetic report at --file if it exists");
  cli.parseOrExit(argc, argv);
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("Tessera"));
  QApplication::setApplicationName(QStringLiteral("bench_insights"));

  const std::string report =
      reportToMeasure(o.report, o.file, o.keep, o.steps, "bench_insights", BENCH_PVA_READER);
  if (report.empty()) return 1;

  // libpva: insights against the summary, each on a freshly opened report.
  pva::Insights in;
  double cpu = 0, summaryCpu = 0;
  const double insightsMs = timeMedian(
      o.reps, [&] { in = pva::insights(pva::openReport(report)); }, &cpu);
  const double summaryMs = timeMedian(
      o.reps, [&] { pva::summarize(pva::openReport(report)); }, &summaryCpu);

  // The page: setDocument to the first paint with the figures on screen.
  std::vector<double> pageMs;
  for (int r = 0; r < o.reps; ++r) {
    InsightsPage page;
    page.resize(1400, 900);
    page.show();
    QApplication::processEvents();
    PaintWatch watch;
    Clock::time_point painted{};
    watch.onPainted = [&] {
      if (page.isReady() && painted == Clock::time_point{}) painted = Clock::now();
    };
    const auto start = Clock::now();
    page.setDocument(Document::resolve(QString::fromStdString(report)));
    while (painted == Clock::time_point{} && ms(start, Clock::now()) < 60000) {
      if (page.isReady()) {
        page.installEventFilter(&watch);
        page.update();
      }
      QApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    page.removeEventFilter(&watch);
    if (painted == Clock::time_point{}) {
      std::fprintf(stderr, "bench_insights: the Insights page never became ready\n");
      return 1;
    }
    pageMs.push_back(ms(start, painted));
  }
  const double page = median(pageMs);

  std::printf("\nreport %s: %zu worst tiles, %zu IPUs, %zu suggestions; load average %.1f\n",
              report.c_str(), in.worstTiles.size(), in.ipus.size(), in.suggestions.size(),
              loadAverage());
  std::printf("| measure | median | baseline (same run) | ratio | goal |\n|---|---|---|---|---|\n");
  std::printf(
      "| pva::insights (open + all) | %.0f ms (CPU %.0f ms) | pva::summarize %.0f ms | %.2fx | |\n",
      insightsMs, cpu, summaryMs, insightsMs / summaryMs);
  std::printf(
      "| Insights page: setDocument to first paint with the figures | %.0f ms | | | < 1 s: %s |\n",
      page, page < 1000 ? "met" : "NOT met");
  if (o.report.empty() && !o.keep) std::filesystem::remove(report);
  return 0;
}
