// The Variables tab's memory map: one tile's address space painted as rows of bytes, each lowered
// variable a block at its address coloured by category, gaps hatched, the start of the
// interleaved region and the tile's capacity marked. Variables whose lives do not overlap share
// addresses: shared bytes are drawn darker. Hover names what is at the address.
//
// Threads: GUI thread. Cost: painting is O(variables on the tile + rows).
#pragma once

#include "charts/ChartWidget.hpp"
#include "core/TileDetailsData.hpp"

#include <QColor>
#include <QString>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace tessera::viewer {

class MemoryMapWidget : public ChartWidget {
  Q_OBJECT
public:
  explicit MemoryMapWidget(QWidget* parent = nullptr);
  /// Shows details->tiles.front() (nothing for all tiles).
  void setDetails(std::shared_ptr<const TileDetailsData> details);
  /// The whole tile (capacity) or only up to the highest used address.
  void setWholeTile(bool whole);
  bool wholeTile() const { return whole_; }
  /// The tile shown, or -1.
  int tile() const { return tile_; }
  /// Address range shown [0, extent) and bytes per row (for tests).
  std::uint64_t extent() const;
  std::uint64_t bytesPerRow() const;
  /// The address under a point, if it is on the map.
  std::optional<std::uint64_t> addressAt(QPointF pos) const;
  /// The legend of the last paint: each entry's name and the colour of its swatch (tests).
  const std::vector<std::pair<QString, QColor>>& legend() const { return legend_; }

protected:
  void paintEvent(QPaintEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;

private:
  QRectF mapRect() const;
  int rows() const;
  /// The rectangle(s) of the address range [from, to): one per row it crosses.
  std::vector<QRectF> rangeRects(std::uint64_t from, std::uint64_t to) const;

  std::shared_ptr<const TileDetailsData> details_;
  std::vector<const TileVariableRow*> vars_; ///< the shown tile's, by address
  int tile_ = -1;
  std::uint64_t usedEnd_ = 0;
  bool whole_ = false;
  double legendHeight_ = 24; ///< set when painting: the legend wraps on narrow widgets
  std::vector<std::pair<QString, QColor>> legend_;
};

} // namespace tessera::viewer
