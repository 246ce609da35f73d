// The Summary page's table of a poprun job (models/JobSummaryModel.hpp): a heading naming the
// job, one row per instance, and below it the job's spread and slowdown with what they measure.
// Clicking a row asks for that instance in every view (the main window's instance selector).
#pragma once

#include "core/JobTable.hpp"

#include <QWidget>
#include <memory>

class QLabel;
class QTableView;

namespace tessera::viewer {

class JobSummaryModel;

class JobSummaryPanel : public QWidget {
  Q_OBJECT
public:
  explicit JobSummaryPanel(QWidget* parent = nullptr);
  /// `heading`: "Job reports/cnn" or "Base job …"; `shown`: the instance the views show.
  void setTable(const QString& heading, std::shared_ptr<const JobTable> table, unsigned shown);
  void setShownInstance(unsigned shown);

  JobSummaryModel* model() const { return model_; }
  QTableView* view() const { return view_; }
  QLabel* heading() const { return heading_; }
  QLabel* figures() const { return figures_; }

signals:
  /// A row was clicked: show this instance.
  void instanceClicked(unsigned instance);

private:
  QLabel* heading_;
  JobSummaryModel* model_;
  QTableView* view_;
  QLabel* figures_;
};

} // namespace tessera::viewer
