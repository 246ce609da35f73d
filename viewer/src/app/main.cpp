// tessera-viewer: the desktop viewer, and its headless screenshot mode for CI.
#include "app/Screenshot.hpp"
#include "app/ViewName.hpp"
#include "core/Background.hpp"
#include "core/Settings.hpp"
#include "widgets/ExecutionPage.hpp"
#include "widgets/MainWindow.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <algorithm>
#include <cstdio>
#include <cstdlib>

using namespace tessera::viewer;

namespace {

const char* const kDescription =
    "Views profile reports (profile.pop, with debug.cbor beside it) and host traces (.pvti).\n"
    "\n"
    "Examples:\n"
    "  tessera-viewer reports/mlp                      open a report directory\n"
    "  tessera-viewer run.pvti                         open a host trace\n"
    "  tessera-viewer a.pvti b.pvti                    host traces on one time axis\n"
    "  tessera-viewer --compare before/ after/         compare two reports\n"
    "  tessera-viewer --screenshot memory.png --view memory reports/mlp\n"
    "                                                  render a view to PNG without a display\n"
    "  tessera-viewer --view execution --execution-mode flame reports/mlp\n"
    "                                                  the execution trace as a flame graph\n"
    "  tessera-viewer --run run_2 reports/mlp          the execution trace of one run\n"
    "  tessera-viewer me@ipu-host:/data/reports/mlp    a report on another machine, over ssh\n"
    "                                                  (only the report's files are copied,\n"
    "                                                  into a cache reused while unchanged)\n"
    "\n"
    "Without a path the viewer reopens the last session (the report or comparison open when\n"
    "it closed, on its view), unless --no-restore is given or Preferences turn it off.\n"
    "F1 opens the user guide; Edit > Preferences sets theme, units and defaults.\n"
    "\n"
    "Views: summary, insights, memory, liveness, tilemap, programs, operations, execution, graph, "
    "trace, compare.";

} // namespace

// Background work that cannot be interrupted (graphviz laying out a large graph for the Graph
// page) would keep the process alive in QThreadPool's destructor after the screenshot is saved
// or the window closed: leave at once instead of waiting for a result nobody will see.
static int leave(int code) {
  if (ProgressHub::instance().running() > 0) {
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(code);
  }
  return code;
}

int main(int argc, char** argv) {
  // A screenshot, --help and --version need no display: choose the offscreen platform before Qt
  // starts, unless the user picked a platform.
  bool needsDisplay = true;
  for (int i = 1; i < argc; ++i) {
    const QByteArray arg(argv[i]);
    const bool screenshot = arg == "--screenshot";
    if (screenshot || arg == "-h" || arg == "--help" || arg == "--help-all" || arg == "-v" ||
        arg == "--version") {
      needsDisplay = false;
      if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
      if (screenshot) installHeadlessMessageFilter();
    }
  }
  // Without a display Qt aborts with a page about platform plugins; say what to do instead.
  if (needsDisplay && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") &&
      qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")) {
    std::fprintf(stderr, "tessera-viewer: no display (neither DISPLAY nor WAYLAND_DISPLAY is set); "
                         "use --screenshot FILE to render a view without one (see --help)\n");
    return 1;
  }

  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("Tessera"));
  QApplication::setApplicationName(QStringLiteral("tessera-viewer"));
  QApplication::setApplicationVersion(QStringLiteral("0.1.0"));

  QCommandLineParser parser;
  parser.setApplicationDescription(QString::fromUtf8(kDescription));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(
      QStringLiteral("path"),
      QStringLiteral(
          "Report directory, profile.pop or .pvti, here or on another machine as "
          "[user@]host:/path (two reports with --compare; several .pvti traces open on one time "
          "axis)."),
      QStringLiteral("[path | --compare base current]"));
  const QCommandLineOption compare(
      QStringLiteral("compare"),
      QStringLiteral("Compare two reports: the first path is the base."));
  const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                      QStringLiteral("Render the view to <file> (PNG) and exit."),
                                      QStringLiteral("file"));
  const QCommandLineOption view(
      QStringLiteral("view"),
      QStringLiteral("The view to show (default: summary for a report, trace for a .pvti)."),
      QStringLiteral("name"));
  const QCommandLineOption size(QStringLiteral("size"),
                                QStringLiteral("Window size for --screenshot (default 1400x900)."),
                                QStringLiteral("WxH"), QStringLiteral("1400x900"));
  const QCommandLineOption units(QStringLiteral("units"),
                                 QStringLiteral("Memory units: bytes, binary or decimal."),
                                 QStringLiteral("units"));
  const QCommandLineOption timeout(
      QStringLiteral("timeout"),
      QStringLiteral("Seconds to wait for the view to load (default 120)."),
      QStringLiteral("seconds"), QStringLiteral("120"));
  const QCommandLineOption executionMode(
      QStringLiteral("execution-mode"),
      QStringLiteral("Execution trace view: flat (default), flame or bsp."),
      QStringLiteral("mode"));
  const QCommandLineOption run(
      QStringLiteral("run"),
      QStringLiteral("Execution trace: show the run named <name> (default: the first of several)."),
      QStringLiteral("name"));
  const QCommandLineOption noRestore(
      QStringLiteral("no-restore"),
      QStringLiteral("Start afresh: do not reopen the last session, nor restore the window's "
                     "size and each report's last view (this run only)."));
  const QCommandLineOption instance(
      QStringLiteral("instance"),
      QStringLiteral("A poprun job folder (or two with --compare): show instance <n> (default 0)."),
      QStringLiteral("n"));
  const QCommandLineOption graphOpen(
      QStringLiteral("graph-open"),
      QStringLiteral("With --screenshot --view graph: open the group <path> (e.g. bwd/block6)."),
      QStringLiteral("path"));
  const QCommandLineOption graphSearch(
      QStringLiteral("graph-search"),
      QStringLiteral("With --screenshot --view graph: search for <text> and land on its first "
                     "match (opening the groups around it)."),
      QStringLiteral("text"));
  parser.addOptions({compare, screenshot, view, size, units, timeout, executionMode, run, noRestore,
                     instance, graphOpen, graphSearch});

  auto usageError = [](const QString& message) {
    std::fprintf(stderr, "tessera-viewer: %s (try --help)\n", qPrintable(message));
    return 2;
  };
  // parse() rather than process(): process() exits 1 on a usage error ("--view" without a
  // name), and usage errors exit 2.
  if (!parser.parse(QCoreApplication::arguments())) return usageError(parser.errorText());
  if (parser.isSet(QStringLiteral("help"))) parser.showHelp(0);
  if (parser.isSet(QStringLiteral("version"))) parser.showVersion();
  const QStringList paths = parser.positionalArguments();
  if (parser.isSet(view)) {
    const QString problem = viewNameProblem(parser.value(view));
    if (!problem.isEmpty()) return usageError(problem);
  }
  // --run picks a run of the execution trace: without --view it opens that view.
  QString viewName = parser.value(view);
  if (parser.isSet(run)) {
    if (parser.value(run).isEmpty()) return usageError(QStringLiteral("--run needs a run name"));
    if (viewName.isEmpty())
      viewName = QStringLiteral("execution");
    else if (viewName != QLatin1String("execution"))
      return usageError(
          QStringLiteral("--run applies to the execution view, not '%1'").arg(viewName));
  }
  // Several paths without --compare: host traces laid on one time axis, each a .pvti.
  const bool allTraces = std::all_of(paths.begin(), paths.end(), [](const QString& p) {
    return p.endsWith(QLatin1String(".pvti"));
  });
  if (parser.isSet(compare) ? paths.size() != 2 : (paths.size() > 1 && !allTraces))
    return usageError(parser.isSet(compare)
                          ? QStringLiteral("--compare takes two report paths")
                          : QStringLiteral("one path at a time (or --compare BASE NEW, or "
                                           "several .pvti traces to lay on one time axis)"));
  int instanceIndex = -1;
  if (parser.isSet(instance)) {
    bool ok = false;
    instanceIndex = parser.value(instance).toInt(&ok);
    if (!ok || instanceIndex < 0)
      return usageError(QStringLiteral("--instance needs an instance number (0, 1 ...)"));
  }
  if (parser.isSet(units)) {
    MemoryUnits u;
    if (!parseMemoryUnits(parser.value(units), &u))
      return usageError(QStringLiteral("unknown units '%1'").arg(parser.value(units)));
    // Headless runs (CI) must not change the desktop preference; an interactive one keeps it.
    Settings::instance().setMemoryUnits(u, /*remember=*/!parser.isSet(screenshot));
  }

  ExecutionTimeline::Mode traceMode = ExecutionTimeline::Mode::Flat;
  if (parser.isSet(executionMode) &&
      !ExecutionPage::parseMode(parser.value(executionMode), &traceMode))
    return usageError(QStringLiteral("unknown execution mode '%1' (flat, flame or bsp)")
                          .arg(parser.value(executionMode)));

  if (parser.isSet(screenshot)) {
    ScreenshotRequest request;
    request.executionMode = int(traceMode);
    request.output = parser.value(screenshot);
    request.view = viewName; // empty: the document's first view
    request.run = parser.value(run);
    request.paths = paths;
    request.compare = parser.isSet(compare);
    request.instance = instanceIndex;
    request.graphOpen = parser.value(graphOpen);
    request.graphSearch = parser.value(graphSearch);
    if ((parser.isSet(graphOpen) || parser.isSet(graphSearch)) &&
        viewName != QLatin1String("graph"))
      return usageError(QStringLiteral("--graph-open and --graph-search need --view graph"));
    bool ok = false;
    request.timeoutSeconds = parser.value(timeout).toInt(&ok);
    if (!ok || request.timeoutSeconds <= 0)
      return usageError(QStringLiteral("--timeout needs a positive number"));
    const QStringList wh = parser.value(size).split(QLatin1Char('x'));
    if (wh.size() != 2 || wh[0].toInt() <= 0 || wh[1].toInt() <= 0)
      return usageError(QStringLiteral("--size needs WIDTHxHEIGHT, e.g. 1400x900"));
    request.size = QSize(wh[0].toInt(), wh[1].toInt());
    if (paths.isEmpty()) return usageError(QStringLiteral("--screenshot needs a report or trace"));
    return leave(takeScreenshot(request));
  }

  if (parser.isSet(noRestore)) Settings::instance().disableRestoreForThisRun();
  MainWindow window;
  window.setSessionEnabled(true);
  if (auto* execution = qobject_cast<ExecutionPage*>(window.page(QStringLiteral("execution")))) {
    execution->setMode(traceMode);
    if (parser.isSet(run)) {
      execution->setWantedRun(parser.value(run));
      QObject::connect(execution, &ExecutionPage::unknownRun, execution,
                       [](const QString& name, const QStringList& runs) {
                         std::fprintf(stderr, "tessera-viewer: no run '%s' (runs: %s)\n",
                                      qPrintable(name),
                                      qPrintable(runs.join(QStringLiteral(", "))));
                       });
    }
  }
  window.show();
  if (parser.isSet(compare))
    window.openComparison(paths[0], paths[1]);
  else if (paths.size() > 1)
    window.openTraces(paths);
  else if (!paths.isEmpty())
    window.openPath(paths[0]);
  else if (Settings::instance().restoreSession() && !Settings::instance().lastSession().isEmpty())
    window.reopenLastSession();
  const bool comparing = parser.isSet(compare);
  auto showWanted = [&window, viewName, comparing, instanceIndex] {
    if (instanceIndex >= 0 && window.document()) window.selectInstance(unsigned(instanceIndex));
    if (!viewName.isEmpty() && !window.showView(viewName))
      std::fprintf(stderr, "tessera-viewer: no view '%s' for this document%s\n",
                   qPrintable(viewName), qPrintable(viewHint(viewName, comparing)));
  };
  if (window.remoteFetch()) // a remote report opens once copied
    QObject::connect(&window, &MainWindow::documentOpened, &window, showWanted,
                     Qt::SingleShotConnection);
  else
    showWanted();
  return leave(app.exec());
}
