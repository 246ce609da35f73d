// The Compare page's tree: sections of rows with base, current, difference and relative change;
// each list's totals row comes first, in bold. Growth shows in red and shrinkage in green (the CI
// gate's point of view: growth is a cost); a target property that differs, in bold orange.
#pragma once

#include "core/ComparisonData.hpp"
#include "models/SectionTreeModel.hpp"

#include <memory>

namespace tessera::viewer {

class ComparisonModel : public SectionTreeModel {
  Q_OBJECT
public:
  enum Column { NameColumn, BaseColumn, CurrentColumn, DeltaColumn, RelativeColumn, ColumnCount };
  static constexpr int DeltaRole =
      Qt::UserRole + 1; ///< the signed difference (qlonglong); text rows: 1 if they differ
  static constexpr int TotalRole = Qt::UserRole + 2; ///< true on a section's totals row

  explicit ComparisonModel(QObject* parent = nullptr);
  void setData(std::shared_ptr<const ComparisonData> data);
  const ComparisonData* comparison() const { return data_.get(); }

  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

protected:
  int sectionCount() const override;
  int rowsInSection(int section) const override;

private:
  std::shared_ptr<const ComparisonData> data_;
};

} // namespace tessera::viewer
