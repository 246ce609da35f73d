// Cycle estimates of the selected steps as table rows.
#include "models/StepCyclesModel.hpp"

#include "core/Format.hpp"

namespace tessera::viewer {

StepCyclesModel::StepCyclesModel(QObject* parent) : RowsModel(parent) {
  setHeaders({tr("Step"), tr("Program"), tr("Type"), tr("Max cycles (tile)"), tr("Mean cycles"),
              tr("Total cycles"), tr("Active tiles")});
}

QVariant StepCyclesModel::cell(const StepCyclesRow& row, int column, int role) const {
  switch (column) {
  case StepColumn:
    return countCell(row.step, role);
  case ProgramColumn:
    return textCell(row.program, role);
  case TypeColumn:
    return textCell(row.type, role);
  default:
    break;
  }
  if (!row.hasEstimate) {
    // Control programs take no cycles of their own.
    if (column == MaxColumn && role == Qt::DisplayRole) return tr("no estimate (control program)");
    return {};
  }
  switch (column) {
  case MaxColumn:
    return countCell(row.maxCycles, role);
  case MeanColumn:
    if (role == Qt::DisplayRole) return QString::number(row.meanCycles, 'f', 1);
    if (role == SortRole) return row.meanCycles;
    if (role == Qt::TextAlignmentRole) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
  case TotalColumn:
    return countCell(row.totalCycles, role);
  case ActiveTilesColumn:
    return countCell(row.activeTiles, role);
  default:
    return {};
  }
}

} // namespace tessera::viewer
