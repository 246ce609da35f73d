// Index arithmetic for two-level trees of sections and their rows (the Summary and Compare
// pages): a section row has internal id 0, a value row its section + 1, so no index needs an
// object of its own. Subclasses say how many sections and rows there are and answer data().
#pragma once

#include <QAbstractItemModel>

namespace tessera::viewer {

class SectionTreeModel : public QAbstractItemModel {
  Q_OBJECT
public:
  using QAbstractItemModel::QAbstractItemModel;

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;

protected:
  virtual int sectionCount() const = 0;
  virtual int rowsInSection(int section) const = 0;
  static bool isSection(const QModelIndex& index) { return index.internalId() == 0; }
  /// The section of a value row.
  static int sectionOf(const QModelIndex& index) { return int(index.internalId() - 1); }
  /// Emits dataChanged for columns [first, last] of every value row (units changed).
  void valuesChanged(int firstColumn, int lastColumn);
};

} // namespace tessera::viewer
