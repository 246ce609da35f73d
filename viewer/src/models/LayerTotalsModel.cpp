// Per-layer totals of the Operations page.
#include "models/LayerTotalsModel.hpp"

#include "core/Format.hpp"
#include "models/OperationsModel.hpp"

namespace tessera::viewer {

LayerTotalsModel::LayerTotalsModel(QObject* parent) : RowsModel(parent) {
  setHeaders({tr("Layer"), tr("Operations"), tr("Cycles (all runs)"),
              tr("Estimate (each step once)"), tr("Always live"), tr("Live at its peak"),
              tr("Code"), tr("Vertices"), tr("Exchanged"), tr("FLOPs (estimate)")});
}

QVariant LayerTotalsModel::cell(const LayerTotals& row, int column, int role) const {
  const OperationInfo& t = row.totals;
  switch (column) {
  case LayerColumn:
    return textCell(row.layer, role);
  case OperationsColumn:
    return countCell(row.operations, role);
  case CyclesColumn:
    return countCell(t.executedCycles, role);
  case EstimateColumn:
    return countCell(t.estimatedCycles, role);
  case AlwaysLiveColumn:
    return bytesCell(t.alwaysLiveBytes, role);
  case LiveAtPeakColumn:
    return bytesCell(t.notAlwaysLiveBytes, role);
  case CodeColumn:
    return bytesCell(t.codeBytes, role);
  case VerticesColumn:
    return countCell(t.vertices, role);
  case ExchangeColumn:
    return bytesCell(t.exchangeBytes, role);
  case FlopsColumn:
    switch (role) {
    case Qt::DisplayRole:
      return formatFlops(t.estimatedFlops, t.verticesWithoutFlopEstimate);
    case Qt::ToolTipRole:
      return flopsTip(t);
    case SortRole:
      return QVariant::fromValue<qlonglong>(t.estimatedFlops ? qlonglong(*t.estimatedFlops) : -1);
    case Qt::TextAlignmentRole:
      return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    default:
      return {};
    }
  default:
    return {};
  }
}

} // namespace tessera::viewer
