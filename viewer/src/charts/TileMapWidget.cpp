// Painting the tiles as a floor plan.
#include "charts/TileMapWidget.hpp"

#include "core/Format.hpp"
#include "core/Settings.hpp"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace tessera::viewer {

namespace {
constexpr double kMargin = 8, kScaleHeight = 40;
const QColor kLow(0xf7fbff), kHigh(0x08306b); // pale to dark blue: more is darker
const QColor kOver(0xc00000);                 // memory beyond the tile's capacity
} // namespace

TileMapWidget::TileMapWidget(QWidget* parent) : ChartWidget(parent) {
  setObjectName(QStringLiteral("tileMap"));
  setMouseTracking(true);
  setMinimumSize(300, 200);
  connect(&Settings::instance(), &Settings::changed, this, [this] { update(); });
}

void TileMapWidget::setData(std::shared_ptr<const TileMapData> data) {
  data_ = std::move(data);
  selected_.reset();
  update();
}

void TileMapWidget::setFigure(TileMapData::Figure figure) {
  figure_ = figure;
  update();
}

void TileMapWidget::setSelectedTile(std::optional<unsigned> tile) {
  selected_ = tile;
  update();
}

std::uint64_t TileMapWidget::scaleMax() const {
  if (!data_ || data_->numTiles == 0) return 1;
  std::uint64_t hi = 0;
  for (unsigned t = 0; t < data_->numTiles; ++t)
    hi = std::max(hi, data_->value(figure_, t));
  // The largest tile is the darkest, so a pattern shows even far below capacity; memory beyond a
  // tile's capacity is red whatever the scale (colorOf).
  if (figure_ == TileMapData::MemoryIncludingGaps)
    hi = std::min(hi, std::max<std::uint64_t>(data_->bytesPerTile, 1));
  return std::max<std::uint64_t>(hi, 1);
}

QColor TileMapWidget::colorOf(std::uint64_t value) const {
  if (data_ && figure_ == TileMapData::MemoryIncludingGaps && value > data_->bytesPerTile)
    return kOver;
  const double f = std::clamp(double(value) / double(scaleMax()), 0.0, 1.0);
  auto mix = [f](int a, int b) { return int(std::lround(a + (b - a) * f)); };
  return QColor(mix(kLow.red(), kHigh.red()), mix(kLow.green(), kHigh.green()),
                mix(kLow.blue(), kHigh.blue()));
}

double TileMapWidget::cellSize() const {
  if (!data_) return 1;
  const QPoint cells = data_->mapCells();
  const double w = (width() - 2 * kMargin) / std::max(1, cells.x());
  const double h = (height() - 2 * kMargin - kScaleHeight) / std::max(1, cells.y());
  return std::max(1.0, std::floor(std::min(w, h)));
}

QRectF TileMapWidget::mapRect() const {
  if (!data_) return {};
  const QPoint cells = data_->mapCells();
  const double c = cellSize();
  return QRectF(kMargin, kMargin, c * cells.x(), c * cells.y());
}

QRectF TileMapWidget::cellRect(unsigned tile) const {
  if (!data_ || tile >= data_->numTiles) return {};
  const QPoint cell = data_->cellOf(tile);
  const double c = cellSize();
  const QRectF m = mapRect();
  return QRectF(m.left() + cell.x() * c, m.top() + cell.y() * c, c, c);
}

std::optional<unsigned> TileMapWidget::tileAt(const QPointF& at) const {
  if (!data_) return std::nullopt;
  const QRectF m = mapRect();
  if (!m.contains(at)) return std::nullopt;
  const double c = cellSize();
  const long long t =
      data_->tileAt(QPoint(int((at.x() - m.left()) / c), int((at.y() - m.top()) / c)));
  return t < 0 ? std::nullopt : std::optional<unsigned>(unsigned(t));
}

void TileMapWidget::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), backgroundColor());
  if (!data_) {
    p.setPen(textColor());
    p.drawText(rect(), Qt::AlignCenter, tr("Reading tiles…"));
    return;
  }
  if (figure_ == TileMapData::Cycles && !data_->profiled) {
    p.setPen(textColor());
    p.drawText(rect(), Qt::AlignCenter, tr("The report has no execution: no cycles to map."));
    return;
  }
  const double c = cellSize();
  const double inset = c >= 4 ? 0.5 : 0; // hairline gaps once cells are big enough
  for (unsigned t = 0; t < data_->numTiles; ++t)
    p.fillRect(cellRect(t).adjusted(inset, inset, -inset, -inset),
               colorOf(data_->value(figure_, t)));
  // IPU blocks: outlined (in order, left to right, four to a row; the tooltip names a tile's IPU;
  // no label is drawn over the cells, which would hide their colour).
  p.setPen(gridColor());
  for (unsigned ipu = 0; ipu < data_->numIpus; ++ipu) {
    const QRectF first = cellRect(ipu * data_->tilesPerIpu);
    p.drawRect(QRectF(first.topLeft(), QSizeF(c * data_->columns(), c * data_->rows())));
  }
  if (selected_ && *selected_ < data_->numTiles) {
    p.setPen(QPen(palette().color(QPalette::Highlight), 2));
    p.setBrush(Qt::NoBrush);
    p.drawRect(cellRect(*selected_).adjusted(-1, -1, 1, 1));
  }
  // The scale: pale to dark, 0 to its top, with over-capacity red for memory.
  const QRectF m = mapRect();
  const QRectF bar(kMargin, m.bottom() + 10, std::min(300.0, width() - 2 * kMargin), 12);
  for (int x = 0; x < int(bar.width()); ++x)
    p.fillRect(QRectF(bar.left() + x, bar.top(), 1, bar.height()),
               colorOf(std::uint64_t(double(scaleMax()) * x / std::max(1.0, bar.width() - 1))));
  p.setPen(gridColor());
  p.drawRect(bar);
  const bool bytes = figure_ == TileMapData::MemoryIncludingGaps;
  const MemoryUnits u = Settings::instance().memoryUnits();
  auto fmt = [&](std::uint64_t v) { return bytes ? formatBytes(v, u) : formatCount(v); };
  p.setPen(textColor());
  // The scale ends at the largest tile, or at a tile's memory when some tiles need more.
  const bool capped = bytes && scaleMax() == data_->bytesPerTile &&
                      std::any_of(data_->memory.begin(), data_->memory.end(),
                                  [&](std::uint64_t v) { return v > data_->bytesPerTile; });
  const QString label =
      capped ? tr("%1: 0 to %2, a tile's memory; red: tiles that need more")
                   .arg(TileMapData::figureName(figure_), fmt(scaleMax()))
             : tr("%1: 0 to %2, the largest tile%3")
                   .arg(TileMapData::figureName(figure_), fmt(scaleMax()),
                        bytes ? tr(" (a tile holds %1)").arg(fmt(data_->bytesPerTile)) : QString());
  p.drawText(QRectF(bar.right() + 8, bar.top() - 3, width() - bar.right() - 16, 18),
             Qt::AlignLeft | Qt::AlignVCenter, label);
}

void TileMapWidget::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return ChartWidget::mousePressEvent(event);
  if (const auto t = tileAt(event->position())) {
    setSelectedTile(*t);
    emit tileSelected(*t);
  }
}

void TileMapWidget::mouseMoveEvent(QMouseEvent* event) {
  const auto t = tileAt(event->position());
  if (!t || !data_) {
    QToolTip::hideText();
    return;
  }
  const MemoryUnits u = Settings::instance().memoryUnits();
  QString text = tr("<b>Tile %1</b> (IPU %2)<br>Memory: %3 of %4")
                     .arg(*t)
                     .arg(*t / std::max(1u, data_->tilesPerIpu))
                     .arg(formatBytes(data_->memory[*t], u), formatBytes(data_->bytesPerTile, u));
  if (data_->profiled)
    text += tr("<br>Compute cycles (all runs): %1").arg(formatCount(data_->cycles[*t]));
  QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

} // namespace tessera::viewer
