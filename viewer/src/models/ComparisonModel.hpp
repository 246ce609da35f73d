// The Compare page's tree: sections of rows with base, current, difference and relative change.
// Growth shows in red and shrinkage in green (the CI gate's point of view: growth is a cost).
#pragma once

#include "core/ComparisonData.hpp"

#include <QAbstractItemModel>

#include <memory>

namespace tessera::viewer {

class ComparisonModel : public QAbstractItemModel {
  Q_OBJECT
public:
  enum Column { NameColumn, BaseColumn, CurrentColumn, DeltaColumn, RelativeColumn, ColumnCount };
  static constexpr int DeltaRole = Qt::UserRole + 1; ///< the signed difference (qlonglong)

  explicit ComparisonModel(QObject* parent = nullptr);
  void setData(std::shared_ptr<const ComparisonData> data);
  const ComparisonData* comparison() const { return m_data.get(); }

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
  std::shared_ptr<const ComparisonData> m_data;
};

} // namespace tessera::viewer
