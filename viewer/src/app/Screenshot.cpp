// The --screenshot mode of tessera-viewer.
#include "app/Screenshot.hpp"

#include "app/ViewName.hpp"
#include "charts/GraphView.hpp"
#include "core/GraphData.hpp"
#include "widgets/ExecutionPage.hpp"
#include "widgets/GraphPage.hpp"
#include "widgets/MainWindow.hpp"
#include "widgets/Page.hpp"

#include <QApplication>
#include <QEventLoop>
#include <QImageWriter>
#include <QLineEdit>
#include <QMessageBox>
#include <QSignalBlocker>
#include <QTimer>
#include <cstdio>
#include <functional>

namespace tessera::viewer {

// The offscreen platform warns about things that do not matter without a screen; a CI log
// should show only real problems.
static void quietPlatformMessages(QtMsgType type, const QMessageLogContext& context,
                                  const QString& message) {
  if (message.contains(QLatin1String("propagateSizeHints")) ||
      message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR")))
    return;
  std::fprintf(stderr, "%s\n", qPrintable(qFormatLogMessage(type, context, message)));
}

void installHeadlessMessageFilter() {
  qInstallMessageHandler(quietPlatformMessages);
}

namespace {

/// Waits, with an event loop, until `done()` or the request's timeout.
bool waitFor(const ScreenshotRequest& request, const std::function<bool()>& done) {
  QEventLoop loop;
  QTimer poll;
  QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
    if (done()) loop.quit();
  });
  poll.start(20);
  QTimer::singleShot(request.timeoutSeconds * 1000, &loop, [&] { loop.quit(); });
  if (!done()) loop.exec();
  return done();
}

/// --graph-open and --graph-search on the Graph page, each waited for until laid out and shown.
template <class Fail>
int navigateGraph(GraphPage* graph, const ScreenshotRequest& request, Fail&& fail) {
  if (!graph || !graph->view()->graphData())
    return fail(2, QStringLiteral("--graph-open and --graph-search apply to --view graph on a "
                                  "report with a serialized graph"));
  if (!request.graphOpen.isEmpty()) {
    const GraphViewData* before = graph->view()->graphData();
    if (!graph->openGroup(request.graphOpen))
      return fail(2, QStringLiteral("--graph-open: no group '%1' in the graph, or it holds more "
                                    "than can be laid out at once")
                         .arg(request.graphOpen));
    if (!waitFor(request, [&] { return graph->view()->graphData() != before; }))
      return fail(1, QStringLiteral("opening %1 did not finish within %2 s")
                         .arg(request.graphOpen)
                         .arg(request.timeoutSeconds));
  }
  if (!request.graphSearch.isEmpty()) {
    {
      const QSignalBlocker block(graph->searchEdit()); // the box shows it; search() runs it
      graph->searchEdit()->setText(request.graphSearch);
    }
    if (graph->search(request.graphSearch) == 0)
      return fail(2, QStringLiteral("--graph-search: no compute set or variable named like '%1'")
                         .arg(request.graphSearch));
    const bool landed = waitFor(request, [&] {
      const GraphViewData* d = graph->view()->graphData();
      const int sel = graph->view()->selected();
      return d && sel >= 0 && sel < d->nodes.size() &&
             d->nodes[sel].kind != GraphNode::Kind::Group &&
             d->nodes[sel].name.contains(request.graphSearch, Qt::CaseInsensitive);
    });
    if (!landed)
      return fail(1, QStringLiteral("the search for %1 did not land within %2 s")
                         .arg(request.graphSearch)
                         .arg(request.timeoutSeconds));
  }
  return 0;
}

} // namespace

int takeScreenshot(const ScreenshotRequest& request) {
  MainWindow window;
  window.setRememberRecent(false);
  window.setShowsProgress(false); // the image shows the view's data, never another page's progress
  window.resize(request.size);
  auto* execution = qobject_cast<ExecutionPage*>(window.page(QStringLiteral("execution")));
  if (execution) {
    execution->setMode(ExecutionTimeline::Mode(request.executionMode));
    if (!request.run.isEmpty()) execution->setWantedRun(request.run);
  }
  window.show();

  // Errors go to stderr rather than a dialog nobody will see.
  auto fail = [&](int status, const QString& message) {
    std::fprintf(stderr, "tessera-viewer: %s\n", qPrintable(message));
    return status;
  };
  const bool opened = request.compare ? window.openComparison(request.paths[0], request.paths[1])
                      : request.paths.size() > 1 ? window.openTraces(request.paths)
                                                 : window.openPath(request.paths[0]);
  if (opened && window.remoteFetch()) {
    // A remote report (host:/path) is copied first; wait until the copy (or each of a
    // comparison's) has ended and the document is open, or failed.
    QEventLoop copying;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &copying, [&] {
      if (!window.remoteFetch()) copying.quit();
    });
    poll.start(50);
    QTimer::singleShot(request.timeoutSeconds * 1000, &copying, [&] { copying.quit(); });
    copying.exec();
    if (window.remoteFetch())
      return fail(1, QStringLiteral("copying %1 did not finish within %2 s")
                         .arg(request.paths.join(QLatin1Char(' ')))
                         .arg(request.timeoutSeconds));
  }
  if (!opened || !window.document())
    return fail(1, window.errorDialog() ? window.errorDialog()->text()
                                        : QStringLiteral("cannot open"));
  if (request.instance >= 0) {
    if (!window.document()->isJob())
      return fail(2, QStringLiteral("--instance: %1 is not a poprun job folder")
                         .arg(request.paths.join(QLatin1Char(' '))));
    if (!window.selectInstance(unsigned(request.instance)))
      return fail(2, window.errorDialog() ? window.errorDialog()->text()
                                          : QStringLiteral("no instance %1").arg(request.instance));
  }
  // No --view: the view the window opens the document on (Summary for a report, the host trace
  // for a .pvti).
  const QString view = !request.view.isEmpty() ? request.view
                       : window.currentPage()  ? window.currentPage()->viewKey()
                                               : QStringLiteral("summary");
  Page* page = window.page(view);
  if (!page) {
    QStringList keys;
    for (Page* p : window.pages())
      keys << p->viewKey();
    return fail(
        2, QStringLiteral("no view '%1' (views: %2)").arg(view, keys.join(QStringLiteral(", "))));
  }
  if (!window.showView(view))
    return fail(
        2, QStringLiteral("the %1 view has nothing to show for %2%3")
               .arg(view, request.paths.join(QLatin1Char(' ')), viewHint(view, request.compare)));

  // Wait for the page (or an error), then let layouts and paints settle.
  QString error;
  int errorStatus = 1;
  QEventLoop loop;
  if (execution)
    QObject::connect(execution, &ExecutionPage::unknownRun, &loop,
                     [&](const QString& name, const QStringList& runs) {
                       error = QStringLiteral("no run '%1' in %2 (runs: %3)")
                                   .arg(name, request.paths.join(QLatin1Char(' ')),
                                        runs.join(QStringLiteral(", ")));
                       errorStatus = 2; // a usage error: the name given does not exist
                       loop.quit();
                     });
  QObject::connect(page, &Page::readyChanged, &loop, [&](bool ready) {
    if (ready) loop.quit();
  });
  QObject::connect(page, &Page::errorOccurred, &loop, [&](const QString& message) {
    error = message;
    loop.quit();
  });
  QTimer::singleShot(request.timeoutSeconds * 1000, &loop, [&] {
    error = QStringLiteral("the %1 view did not finish loading within %2 s")
                .arg(view)
                .arg(request.timeoutSeconds);
    loop.quit();
  });
  if (!page->isReady() && error.isEmpty()) loop.exec();
  if (!error.isEmpty()) return fail(errorStatus, error);
  if (!request.graphOpen.isEmpty() || !request.graphSearch.isEmpty()) {
    const int status = navigateGraph(qobject_cast<GraphPage*>(page), request, fail);
    if (status != 0) return status;
  }
  QApplication::processEvents();

  QImageWriter writer(request.output);
  if (!writer.write(window.grab().toImage()))
    return fail(1, request.output + QStringLiteral(": ") + writer.errorString());
  return 0;
}

} // namespace tessera::viewer
