// Painting one tile's memory layout: variables at their addresses, gaps, region boundaries.
#include "charts/MemoryMapWidget.hpp"

#include "core/Format.hpp"
#include "core/MemoryData.hpp"
#include "core/Settings.hpp"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <optional>
#include <set>

namespace tessera::viewer {

namespace {

constexpr double kLabelWidth = 70, kMargin = 8;

int categoryIndex(const QString& name) {
  static const QStringList names = [] {
    QStringList out;
    for (const std::string& n : pva::MemoryCategories::names())
      out << QString::fromStdString(n);
    return out;
  }();
  return names.indexOf(name);
}

} // namespace

MemoryMapWidget::MemoryMapWidget(QWidget* parent) : ChartWidget(parent) {
  setObjectName(QStringLiteral("memory-map"));
  setMouseTracking(true);
  setMinimumHeight(160);
  connect(&Settings::instance(), &Settings::changed, this, [this] { update(); });
}

void MemoryMapWidget::setDetails(std::shared_ptr<const TileDetailsData> details) {
  details_ = std::move(details);
  vars_.clear();
  tile_ = -1;
  usedEnd_ = 0;
  if (details_ && !details_->allTiles()) {
    tile_ = int(details_->tiles.front());
    for (const TileVariableRow& v : details_->variables)
      if (v.tile == unsigned(tile_)) {
        vars_.push_back(&v);
        usedEnd_ = std::max(usedEnd_, v.offset + v.bytes);
      }
    std::sort(vars_.begin(), vars_.end(), [](auto* a, auto* b) { return a->offset < b->offset; });
  }
  update();
}

void MemoryMapWidget::setWholeTile(bool whole) {
  whole_ = whole;
  update();
}

std::uint64_t MemoryMapWidget::extent() const {
  if (!details_) return 0;
  return std::max<std::uint64_t>(1, whole_ ? std::max(details_->bytesPerTile, usedEnd_) : usedEnd_);
}

QRectF MemoryMapWidget::mapRect() const {
  return QRectF(kLabelWidth, kMargin + legendHeight_,
                std::max(1.0, width() - kLabelWidth - kMargin),
                std::max(1.0, height() - 2 * kMargin - legendHeight_));
}

int MemoryMapWidget::rows() const {
  return std::clamp(int(mapRect().height() / 16), 2, 128);
}

std::uint64_t MemoryMapWidget::bytesPerRow() const {
  const std::uint64_t raw = (extent() + std::uint64_t(rows()) - 1) / std::uint64_t(rows());
  return std::max<std::uint64_t>(64, (raw + 63) / 64 * 64); // whole 64-byte lines read better
}

std::vector<QRectF> MemoryMapWidget::rangeRects(std::uint64_t from, std::uint64_t to) const {
  std::vector<QRectF> out;
  const QRectF map = mapRect();
  const std::uint64_t perRow = bytesPerRow();
  const double rowHeight = map.height() / rows();
  while (from < to) {
    const std::uint64_t row = from / perRow, rowEnd = (row + 1) * perRow,
                        end = std::min(to, rowEnd);
    if (row >= std::uint64_t(rows())) break;
    const double x0 = map.left() + double(from - row * perRow) / double(perRow) * map.width();
    const double x1 = map.left() + double(end - row * perRow) / double(perRow) * map.width();
    out.emplace_back(x0, map.top() + double(row) * rowHeight + 1, std::max(1.0, x1 - x0),
                     rowHeight - 2);
    from = end;
  }
  return out;
}

std::optional<std::uint64_t> MemoryMapWidget::addressAt(QPointF pos) const {
  const QRectF map = mapRect();
  if (tile_ < 0 || !map.contains(pos)) return std::nullopt;
  const auto row = std::uint64_t((pos.y() - map.top()) / (map.height() / rows()));
  const auto address = row * bytesPerRow() +
                       std::uint64_t((pos.x() - map.left()) / map.width() * double(bytesPerRow()));
  if (address >= extent()) return std::nullopt;
  return address;
}

void MemoryMapWidget::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), backgroundColor());
  p.setPen(textColor());
  if (!details_ || tile_ < 0) {
    p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
               details_ ? tr("Select a tile on the chart to see its memory map.")
                        : tr("Reading the tile's variables…"));
    return;
  }
  const QFontMetrics fm(font());
  const MemoryUnits u = Settings::instance().memoryUnits();
  // Gaps hatched in a warm brown, never the grey of the empty track (free space) beside them.
  const QColor gapColor(0xa0, 0x5a, 0x2c);
  QBrush hatch(gapColor, Qt::BDiagPattern);
  const QColor track = gridColor();
  // The legend first (the tile, then the categories present, wrapping), as it sets the map's top.
  std::set<int> categories;
  for (const TileVariableRow* v : vars_)
    categories.insert(categoryIndex(v->category));
  struct Entry {
    QString name;
    QBrush brush;
  };
  std::vector<Entry> entries;
  for (int c : categories)
    entries.push_back({c >= 0
                           ? QString::fromStdString(pva::MemoryCategories::names()[std::size_t(c)])
                           : tr("other"),
                       QBrush(categoryColor(c))});
  // What the drawing blends: a not-always-live variable is its category's colour, paler; where
  // variables with disjoint lives share addresses the translucent layers add up, darker.
  const int firstCategory = categories.empty() ? -1 : *categories.begin();
  QColor paler = categoryColor(firstCategory), darker = paler;
  paler.setAlpha(150);
  darker = QColor::fromRgbF(paler.redF() * 0.55f, paler.greenF() * 0.55f, paler.blueF() * 0.55f);
  entries.push_back({tr("not always live (paler)"), QBrush(paler)});
  entries.push_back({tr("shared by disjoint lives (darker)"), QBrush(darker)});
  entries.push_back({tr("gaps"), hatch});
  entries.push_back({tr("free"), QBrush(track)});
  legend_.clear();
  for (const Entry& e : entries)
    legend_.emplace_back(e.name, e.brush.color());
  const QString title =
      tr("Tile %1: %2 used%3")
          .arg(tile_)
          .arg(formatBytes(usedEnd_, u),
               details_->tiles.size() > 1 ? tr(" (first selected tile)") : QString());
  std::vector<QPointF> at;
  double x = kLabelWidth + fm.horizontalAdvance(title) + 20, y = kMargin;
  for (const Entry& e : entries) {
    const double w = 16 + fm.horizontalAdvance(e.name) + 12;
    if (x + w > width() - kMargin) {
      x = kLabelWidth;
      y += fm.height() + 2;
    }
    at.emplace_back(x, y);
    x += w;
  }
  legendHeight_ = y - kMargin + fm.height() + 8;
  p.drawText(QRectF(kLabelWidth, kMargin, width(), fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
             title);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    p.fillRect(QRectF(at[i].x(), at[i].y() + 2, 12, fm.height() - 4), entries[i].brush);
    p.setPen(textColor());
    p.drawText(QRectF(at[i].x() + 16, at[i].y(), 400, fm.height()),
               Qt::AlignLeft | Qt::AlignVCenter, entries[i].name);
  }

  const QRectF map = mapRect();
  const std::uint64_t perRow = bytesPerRow(), end = extent();
  const double rowHeight = map.height() / rows();
  // Row addresses on the left; the empty track of each row.
  for (int r = 0; r < rows() && std::uint64_t(r) * perRow < end; ++r) {
    const double rowTop = map.top() + r * rowHeight;
    p.setPen(textColor());
    if (rowHeight >= fm.height() * 0.9 || r % 4 == 0)
      p.drawText(QRectF(0, rowTop, kLabelWidth - 6, rowHeight), Qt::AlignRight | Qt::AlignVCenter,
                 QStringLiteral("0x%1").arg(std::uint64_t(r) * perRow, 5, 16, QLatin1Char('0')));
    const std::uint64_t rowBytes = std::min(perRow, end - std::uint64_t(r) * perRow);
    p.fillRect(QRectF(map.left(), rowTop + 1, map.width() * double(rowBytes) / double(perRow),
                      rowHeight - 2),
               track);
  }
  // Gaps: addresses below the highest used one that no variable covers.
  std::uint64_t covered = 0;
  for (const TileVariableRow* v : vars_) {
    if (v->offset > covered)
      for (const QRectF& r : rangeRects(covered, v->offset))
        p.fillRect(r, hatch);
    covered = std::max(covered, v->offset + v->bytes);
  }
  // Variables: translucent, so addresses shared by variables with disjoint lives show darker.
  for (const TileVariableRow* v : vars_) {
    QColor color = categoryColor(categoryIndex(v->category));
    color.setAlpha(v->alwaysLive ? 255 : 150);
    for (const QRectF& r : rangeRects(v->offset, v->offset + v->bytes)) {
      p.fillRect(r, color);
      p.setPen(QPen(backgroundColor(), 1));
      p.drawLine(r.topLeft(), r.bottomLeft()); // a thin edge where each variable starts
    }
  }
  // Region boundaries: a dark bar with the edge colour, and the label on a plate, so both read
  // over any category colour.
  auto boundary = [&](std::uint64_t address, const QColor& color, const QString& label) {
    if (address >= end) return;
    const std::uint64_t row = address / perRow;
    const double bx = map.left() + double(address - row * perRow) / double(perRow) * map.width();
    const double by = map.top() + double(row) * rowHeight;
    p.setPen(QPen(textColor(), 5));
    p.drawLine(QPointF(bx, by - 3), QPointF(bx, by + rowHeight + 3));
    p.setPen(QPen(color, 3));
    p.drawLine(QPointF(bx, by - 3), QPointF(bx, by + rowHeight + 3));
    const double w = fm.horizontalAdvance(label) + 8;
    const QRectF plate(std::min(bx + 4, map.right() - w), by + rowHeight / 2 - fm.height() / 2.0, w,
                       fm.height());
    p.fillRect(plate, backgroundColor());
    p.setPen(QPen(color, 1));
    p.drawRect(plate);
    p.drawText(plate, Qt::AlignCenter, label);
  };
  boundary(details_->interleavedStart, QColor(0x1f6f9d),
           tr("interleaved region from %1").arg(formatBytes(details_->interleavedStart, u)));
  boundary(details_->bytesPerTile, QColor(0xc00000),
           tr("capacity %1: overflowed beyond").arg(formatBytes(details_->bytesPerTile, u)));
}

void MemoryMapWidget::mouseMoveEvent(QMouseEvent* event) {
  const auto address = addressAt(event->position());
  if (!address) return QToolTip::hideText();
  const MemoryUnits u = Settings::instance().memoryUnits();
  QString text = tr("<b>0x%1</b> (tile %2)").arg(*address, 5, 16, QLatin1Char('0')).arg(tile_);
  int shown = 0;
  for (const TileVariableRow* v : vars_) {
    if (v->offset > *address || *address >= v->offset + v->bytes) continue;
    if (++shown > 12) {
      text += tr("<br>…");
      break;
    }
    text += QStringLiteral("<br>%1: %2, %3%4")
                .arg(v->name.toHtmlEscaped(), formatBytes(v->bytes, u), v->category,
                     v->alwaysLive ? tr(", always live") : QString());
  }
  if (shown == 0) text += tr("<br>gap (unused)");
  QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

} // namespace tessera::viewer
