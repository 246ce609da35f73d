// Headless mode: open a document, show one view, wait until it has loaded, save the window as a
// PNG. Exit status 0 on success, 1 when the document cannot be read, 2 on a usage error.
#pragma once

#include <QSize>
#include <QStringList>

namespace tessera::viewer {

struct ScreenshotRequest {
  QString output;
  QString view;
  QStringList paths;
  bool compare = false;
  QSize size{1400, 900};
  int timeoutSeconds = 120;
  int executionMode = 0; ///< ExecutionTimeline::Mode of the execution view
  QString run;           ///< the execution view's run (--run NAME); empty: its default
  int instance = -1;     ///< a job's instance (--instance N); -1: the first
  QString graphOpen;     ///< the graph view: a group to open (--graph-open PATH)
  QString graphSearch;   ///< the graph view: a search, landed on its first match (--graph-search)
};

/// Drops the offscreen platform's warnings about having no screen (call before QApplication).
void installHeadlessMessageFilter();
int takeScreenshot(const ScreenshotRequest& request);

} // namespace tessera::viewer
