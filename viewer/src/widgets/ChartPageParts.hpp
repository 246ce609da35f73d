// What the chart pages (Memory, Liveness) build alike: the layout of a toolbar over a summary
// line and a splitter (the chart above the selection line and the tabs describing it), the red
// line for input errors, and the IPU box. One place, so the pages look and behave the same.
#pragma once

class QComboBox;
class QLabel;
class QTabWidget;
class QWidget;

namespace tessera::viewer {

struct ChartPageParts {
  QLabel* summary;   ///< one line about the whole chart (selectable, wraps)
  QLabel* selection; ///< what is selected, just above the tabs (wraps)
};

/// Lays out `page`: `toolbar`, then `message` (may be null: a line of its own so a message there
/// never squeezes the options), the summary, then the chart (with `overview`, when given, right
/// under it) over the selection line, `tabsHeader` (may be null: controls for the tables, such
/// as a filter) and `tabs`.
ChartPageParts layOutChartPage(QWidget* page, QWidget* toolbar, QWidget* message, QWidget* chart,
                               QTabWidget* tabs, QWidget* overview = nullptr,
                               QWidget* tabsHeader = nullptr);

/// A label for input errors ("'x' is not a tile"): red text that wraps.
QLabel* createErrorLabel(QWidget* parent);

/// Fills an IPU box with "All" (data -1) and, when there are several IPUs, "IPU n" (data n);
/// disabled when there is only one. Emits no signal.
void fillIpuBox(QComboBox* box, unsigned numIpus);

} // namespace tessera::viewer
