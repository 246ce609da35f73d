// Two-level tree index arithmetic shared by the Summary and Compare models.
#include "models/SectionTreeModel.hpp"

namespace tessera::viewer {

QModelIndex SectionTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (!hasIndex(row, column, parent)) return {};
  return createIndex(row, column, parent.isValid() ? quintptr(parent.row() + 1) : quintptr(0));
}

QModelIndex SectionTreeModel::parent(const QModelIndex& child) const {
  if (!child.isValid() || isSection(child)) return {};
  return createIndex(sectionOf(child), 0, quintptr(0));
}

int SectionTreeModel::rowCount(const QModelIndex& parent) const {
  if (!parent.isValid()) return sectionCount();
  if (!isSection(parent) || parent.column() != 0) return 0;
  return rowsInSection(parent.row());
}

void SectionTreeModel::valuesChanged(int firstColumn, int lastColumn) {
  for (int s = 0; s < rowCount(); ++s) {
    const QModelIndex section = index(s, 0);
    if (rowCount(section) > 0)
      emit dataChanged(index(0, firstColumn, section),
                       index(rowCount(section) - 1, lastColumn, section));
  }
}

} // namespace tessera::viewer
