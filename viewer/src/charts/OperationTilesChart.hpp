// The Operations view's per-tile chart: one figure of the selected operation (code bytes,
// vertices, estimated cycles, estimated FLOPs or executed cycles) on each tile of one replica (x =
// tile), as bars reduced to the pixel width like the Memory chart's. GUI thread only.
#pragma once

#include "charts/IndexChart.hpp"
#include "core/OperationTilesData.hpp"

#include <memory>

namespace tessera::viewer {

class OperationTilesChart : public IndexChart {
  Q_OBJECT
public:
  explicit OperationTilesChart(QWidget* parent = nullptr);
  void setData(std::shared_ptr<const OperationTilesData> data);
  void setFigure(OperationTilesData::Figure figure);
  OperationTilesData::Figure figure() const { return figure_; }
  const std::shared_ptr<const OperationTilesData>& data() const { return data_; }
  double overviewValue(std::size_t item) const override;
  /// The legend's entries (for tests).
  QStringList legendNames() const;
  static QColor figureColor(OperationTilesData::Figure figure);

protected:
  std::pair<double, double> yRange(std::size_t first, std::size_t last) const override;
  void paintData(QPainter& painter, const QRectF& plot, std::size_t first,
                 std::size_t last) override;
  QString tooltip(std::size_t item) const override;
  std::vector<LegendEntry> legend() const override;
  QString xAxisTitle() const override;
  QString yAxisTitle() const override;
  QString emptyMessage() const override;
  AxisTicks valueAxisTicks(double lo, double hi, int targetTicks) const override;

private:
  double valueAt(std::size_t tile) const;
  std::shared_ptr<const OperationTilesData> data_;
  OperationTilesData::Figure figure_ = OperationTilesData::ExecutedCycles;
};

} // namespace tessera::viewer
