// Host trace: the timeline of a .pvti (flame lanes, instant events, graphs, heatmaps) with a
// search box that steps through events by label, view options (merge all charts, filled graphs,
// absolute time, collapse/expand) and, below, the selected event's Summary, Call tree and
// Metadata. Shown for host traces: a .pvti, several opened together, or a poprun job's instances'
// traces, laid side by side on one time axis (core/TraceMerge.hpp) with a line saying how their
// clocks were aligned. The index is built off the GUI thread (TraceIndex).
#pragma once

#include "core/Background.hpp"
#include "core/TraceIndex.hpp"
#include "widgets/Page.hpp"

#include <memory>
#include <vector>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTabWidget;
class QTreeView;

namespace tessera::viewer {

class TraceCallTreeModel;
class TraceTimeline;

class HostTracePage : public Page {
  Q_OBJECT
public:
  explicit HostTracePage(QWidget* parent = nullptr);
  QString title() const override { return tr("Host trace"); }
  QString viewKey() const override { return QStringLiteral("trace"); }
  bool accepts(const Document& doc) const override { return !doc.hostTraces().empty(); }
  void setDocument(std::shared_ptr<const Document> doc) override;
  QWidget* imageWidget() override;

  const std::shared_ptr<const TraceIndex>& index() const { return index_; }
  TraceTimeline* timeline() const { return timeline_; }
  TraceCallTreeModel* callTree() const { return callTreeModel_; }
  QTreeView* callTreeView() const { return callTreeView_; }
  QLabel* summary() const { return summary_; }
  QPlainTextEdit* metadata() const { return metadata_; }
  QTabWidget* details() const { return tabs_; }
  QLineEdit* searchBox() const { return search_; }
  QLabel* matchLabel() const { return matchLabel_; }
  QCheckBox* mergeCharts() const { return merge_; }
  QCheckBox* filledGraphs() const { return filled_; }
  QCheckBox* absoluteTime() const { return absolute_; }
  /// Several traces: how many and how their clocks were aligned (hidden for one trace).
  QLabel* alignmentLabel() const { return alignment_; }

  /// The matches of the search box's text, in time order; the current one (-1: none yet).
  const std::vector<TraceEventRef>& matches() const { return matches_; }
  int currentMatch() const { return currentMatch_; }
  /// Steps to the next (or previous) match, wrapping, and shows it.
  void findNext();
  void findPrevious();

private:
  void showIndex(std::shared_ptr<const TraceIndex> index);
  void showSelection(TraceEventRef ref);
  void updateMatches();
  void step(int direction);

  std::shared_ptr<const TraceIndex> index_;
  TraceTimeline* timeline_;
  QLineEdit* search_;
  QLabel* matchLabel_;
  QCheckBox* merge_;
  QCheckBox* filled_;
  QCheckBox* absolute_;
  QLabel* alignment_;
  /// The last index read and its traces: another instance of the same job has the same traces,
  /// so switching instances shows it again at once (the main window clears a page it defers).
  std::shared_ptr<const TraceIndex> cached_;
  std::vector<HostTrace> cachedTraces_;
  QTabWidget* tabs_;
  QLabel* summary_;
  TraceCallTreeModel* callTreeModel_;
  QTreeView* callTreeView_;
  QPlainTextEdit* metadata_;
  std::vector<TraceEventRef> matches_;
  QString matchesFor_;
  int currentMatch_ = -1;
  TaskHandle task_;
};

} // namespace tessera::viewer
