// The Tile Map: every tile a cell of a floor plan (core/TileMapData: software order, IPUs as
// blocks), coloured by a figure from pale (least) to dark (most) on one scale for the whole
// device, with the scale drawn below. Hover names the tile and its figure; a click selects it.
// GUI thread only. Cost: one rectangle per tile per paint (23,552 for 16 IPUs).
#pragma once

#include "charts/ChartWidget.hpp"
#include "core/TileMapData.hpp"

#include <memory>
#include <optional>

namespace tessera::viewer {

class TileMapWidget : public ChartWidget {
  Q_OBJECT
public:
  explicit TileMapWidget(QWidget* parent = nullptr);
  void setData(std::shared_ptr<const TileMapData> data);
  void setFigure(TileMapData::Figure figure);
  TileMapData::Figure figure() const { return figure_; }
  const std::shared_ptr<const TileMapData>& data() const { return data_; }
  /// The colour a value gets on the present scale, and the scale's top.
  QColor colorOf(std::uint64_t value) const;
  std::uint64_t scaleMax() const;
  /// Where a tile's cell is drawn (widget coordinates), and the tile under a point (or none).
  QRectF cellRect(unsigned tile) const;
  std::optional<unsigned> tileAt(const QPointF& at) const;
  std::optional<unsigned> selectedTile() const { return selected_; }
  void setSelectedTile(std::optional<unsigned> tile);

signals:
  void tileSelected(unsigned tile);

protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;

private:
  QRectF mapRect() const;
  double cellSize() const;
  std::shared_ptr<const TileMapData> data_;
  TileMapData::Figure figure_ = TileMapData::MemoryIncludingGaps;
  std::optional<unsigned> selected_;
};

} // namespace tessera::viewer
