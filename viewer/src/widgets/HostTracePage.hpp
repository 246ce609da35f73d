// Host trace: the timeline of a .pvti (flame lanes, instant events, graphs, heatmaps) with a
// search box that steps through events by label, view options (merge all charts, filled graphs,
// absolute time, collapse/expand) and, below, the selected event's Summary, Call tree and
// Metadata. Shown for traces only. The index is built off the GUI thread (TraceIndex).
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
  bool accepts(const Document& doc) const override { return doc.isTrace(); }
  void setDocument(std::shared_ptr<const Document> doc) override;
  QWidget* imageWidget() override;

  const std::shared_ptr<const TraceIndex>& index() const { return m_index; }
  TraceTimeline* timeline() const { return m_timeline; }
  TraceCallTreeModel* callTree() const { return m_callTreeModel; }
  QTreeView* callTreeView() const { return m_callTreeView; }
  QLabel* summary() const { return m_summary; }
  QPlainTextEdit* metadata() const { return m_metadata; }
  QTabWidget* details() const { return m_tabs; }
  QLineEdit* searchBox() const { return m_search; }
  QLabel* matchLabel() const { return m_matchLabel; }
  QCheckBox* mergeCharts() const { return m_merge; }
  QCheckBox* filledGraphs() const { return m_filled; }
  QCheckBox* absoluteTime() const { return m_absolute; }

  /// The matches of the search box's text, in time order; the current one (-1: none yet).
  const std::vector<TraceEventRef>& matches() const { return m_matches; }
  int currentMatch() const { return m_currentMatch; }
  /// Steps to the next (or previous) match, wrapping, and shows it.
  void findNext();
  void findPrevious();

private:
  void showIndex(std::shared_ptr<const TraceIndex> index);
  void showSelection(TraceEventRef ref);
  void updateMatches();
  void step(int direction);

  std::shared_ptr<const TraceIndex> m_index;
  TraceTimeline* m_timeline;
  QLineEdit* m_search;
  QLabel* m_matchLabel;
  QCheckBox* m_merge;
  QCheckBox* m_filled;
  QCheckBox* m_absolute;
  QTabWidget* m_tabs;
  QLabel* m_summary;
  TraceCallTreeModel* m_callTreeModel;
  QTreeView* m_callTreeView;
  QPlainTextEdit* m_metadata;
  std::vector<TraceEventRef> m_matches;
  QString m_matchesFor;
  int m_currentMatch = -1;
  TaskHandle m_task;
};

} // namespace tessera::viewer
