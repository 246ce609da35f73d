// Per-layer totals of the Operations page.
#include "models/LayerTotalsModel.hpp"

namespace tessera::viewer {

LayerTotalsModel::LayerTotalsModel(QObject* parent) : RowsModel(parent) {
  setHeaders({tr("Layer"), tr("Operations"), tr("Cycles (all runs)"), tr("Estimate (each step once)"),
              tr("Always live"), tr("Live at its peak"), tr("Code"), tr("Vertices"), tr("Exchanged")});
}

QVariant LayerTotalsModel::cell(const LayerTotals& row, int column, int role) const {
  const OperationInfo& t = row.totals;
  switch (column) {
  case LayerColumn: return textCell(row.layer, role);
  case OperationsColumn: return countCell(row.operations, role);
  case CyclesColumn: return countCell(t.executedCycles, role);
  case EstimateColumn: return countCell(t.estimatedCycles, role);
  case AlwaysLiveColumn: return bytesCell(t.alwaysLiveBytes, role);
  case LiveAtPeakColumn: return bytesCell(t.notAlwaysLiveBytes, role);
  case CodeColumn: return bytesCell(t.codeBytes, role);
  case VerticesColumn: return countCell(t.vertices, role);
  case ExchangeColumn: return bytesCell(t.exchangeBytes, role);
  default: return {};
  }
}

} // namespace tessera::viewer
