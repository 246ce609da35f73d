// The Summary's job table: one row per instance of a poprun job, every figure from libpva's
// pva::summarizeJob (core/JobTable.hpp). The instance the views show is in bold; the slowest and
// fastest instances are marked (coloured too, so they stand out in a long job).
//
// Threads: GUI thread. Cost: data() is O(1).
#pragma once

#include "core/JobTable.hpp"
#include "models/TableModel.hpp"

namespace tessera::viewer {

class JobSummaryModel : public RowsModel<pva::InstanceSummary> {
  Q_OBJECT
public:
  enum Column {
    InstanceColumn,
    ReplicasColumn,
    CyclesColumn,
    CollectiveCyclesColumn,
    CollectiveShareColumn,
    MemoryColumn,
    MarkColumn,
    ColumnCount
  };
  explicit JobSummaryModel(QObject* parent = nullptr);

  /// Shows `table` (null: nothing), the row of instance `shown` in bold.
  void setTable(std::shared_ptr<const JobTable> table, unsigned shown);
  void setShownInstance(unsigned shown);
  const std::shared_ptr<const JobTable>& table() const { return table_; }
  unsigned shownInstance() const { return shown_; }
  /// "slowest", "fastest", "slowest and fastest" (one instance), "all equal" or empty.
  QString mark(unsigned instance) const;

protected:
  QVariant cell(const pva::InstanceSummary& row, int column, int role) const override;

private:
  std::shared_ptr<const JobTable> table_;
  unsigned shown_ = 0;
};

} // namespace tessera::viewer
