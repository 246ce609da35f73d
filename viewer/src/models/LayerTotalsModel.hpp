// The Operations page's Layers tab: the operations shown, totalled per software layer
// (OperationsModel::layerTotals), one row a layer.
#pragma once

#include "core/OperationsData.hpp"
#include "models/TableModel.hpp"

namespace tessera::viewer {

class LayerTotalsModel : public RowsModel<LayerTotals> {
  Q_OBJECT
public:
  enum Column {
    LayerColumn,
    OperationsColumn,
    CyclesColumn,
    EstimateColumn,
    AlwaysLiveColumn,
    LiveAtPeakColumn,
    CodeColumn,
    VerticesColumn,
    ExchangeColumn,
    FlopsColumn,
    ColumnCount
  };
  explicit LayerTotalsModel(QObject* parent = nullptr);

protected:
  QVariant cell(const LayerTotals& row, int column, int role) const override;
};

} // namespace tessera::viewer
