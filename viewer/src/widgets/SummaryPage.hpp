// Summary: the report's files and versions, target, graph counts, memory and cycle totals, runs
// and engine options, with a filter box (it filters engine options and every other row). For a
// poprun job, the job's table above (widgets/JobSummaryPanel.hpp: every instance, the slowest and
// fastest, spread and slowdown); comparing two jobs, both jobs' tables.
#pragma once

#include "core/Background.hpp"
#include "core/JobTable.hpp"
#include "widgets/Page.hpp"

#include <array>

class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace tessera::viewer {

class JobSummaryPanel;
class SummaryModel;

class SummaryPage : public Page {
  Q_OBJECT
public:
  explicit SummaryPage(QWidget* parent = nullptr);
  QString title() const override { return tr("Summary"); }
  QString viewKey() const override { return QStringLiteral("summary"); }
  void setDocument(std::shared_ptr<const Document> doc) override;

  SummaryModel* model() const { return model_; }
  QTreeView* view() const { return view_; }
  QLineEdit* filter() const { return filter_; }
  /// The job tables: [0] the job shown (the current one in compare mode), [1] the base job;
  /// hidden when the document is not a job (or not compared).
  JobSummaryPanel* jobPanel(int side = 0) const { return jobPanels_[std::size_t(side)]; }

signals:
  /// A job table's row was clicked: the main window shows that instance in every view.
  void instanceRequested(unsigned instance);

private:
  /// Columns as wide as their contents; comparing, the base and current values at most a quarter
  /// of the width each.
  void fitColumns(bool compared);
  /// Loads (or reuses, for the same folder) side's job table.
  void showJob(int side, const QString& heading, const QString& directory, unsigned shown);
  void taskDone();
  std::array<JobSummaryPanel*, 2> jobPanels_;
  std::array<std::shared_ptr<const JobTable>, 2> jobTables_;
  std::array<TaskHandle, 2> jobTasks_;
  int pending_ = 0; ///< the page's tasks still loading (the summary and the job tables)
  SummaryModel* model_;
  QSortFilterProxyModel* proxy_;
  QTreeView* view_;
  QLineEdit* filter_;
  TaskHandle task_;
};

} // namespace tessera::viewer
