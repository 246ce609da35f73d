// Painting bytes per tile: stacked bands, comparison overlays and differences, per pixel column.
#include "charts/MemoryChart.hpp"

#include "core/Downsample.hpp"
#include "core/Settings.hpp"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace tessera::viewer {

namespace {

MemoryUnits units() {
  return Settings::instance().memoryUnits();
}

const QColor kMaxColor(0xc00000);
const QColor kBaseColor(0x8c9fb5);
const QColor kCurrentColor(0xf28e2b);
const QColor kGrewColor(0xe15759);
const QColor kShrankColor(0x59a14f);
const QColor kMatchedColor(0xe15759);
// Chosen variables' series: distinct hues that read apart as lines (Tableau 10 order).
const QColor kSeriesColors[] = {
    QColor(0x4e79a7), QColor(0xe15759), QColor(0x59a14f), QColor(0xf28e2b), QColor(0xb07aa1),
    QColor(0x76b7b2), QColor(0xedc948), QColor(0x9c755f), QColor(0xff9da7), QColor(0x79706e)};

} // namespace

MemoryChart::MemoryChart(QWidget* parent) : IndexChart(parent) {
  setObjectName(QStringLiteral("memory"));
  connect(&Settings::instance(), &Settings::changed, this, [this] { update(); });
}

void MemoryChart::setData(std::shared_ptr<const MemoryData> current,
                          std::shared_ptr<const MemoryData> base) {
  data_ = std::move(current);
  base_ = std::move(base);
  setSelection({});
  rebuild();
  setIpu(ipu_);
}

void MemoryChart::rebuild() {
  bands_.reset();
  if (data_)
    bands_ = std::make_unique<MemoryBands>(
        *data_, comparing() ? MemoryBreakdown::Total : breakdown_, gaps_);
  update();
  emit dataChanged();
}

void MemoryChart::setVariableBytes(
    std::shared_ptr<const std::vector<std::uint64_t>> bytesPerTile, QString label,
    std::shared_ptr<const std::vector<std::uint64_t>> baseBytesPerTile) {
  matched_ = std::move(bytesPerTile);
  matchedBase_ = matched_ ? std::move(baseBytesPerTile) : nullptr;
  matchedLabel_ = std::move(label);
  update();
  emit dataChanged();
}

QColor MemoryChart::seriesColorOf(std::size_t i) {
  return kSeriesColors[i % (sizeof(kSeriesColors) / sizeof(kSeriesColors[0]))];
}

void MemoryChart::setVariableSeries(std::vector<VariableSeries> series) {
  series_ = std::move(series);
  update();
  emit dataChanged();
}

std::uint64_t MemoryChart::matchedBytes(std::size_t tile) const {
  return matched_ && tile < matched_->size() ? (*matched_)[tile] : 0;
}

void MemoryChart::setBreakdown(MemoryBreakdown breakdown) {
  breakdown_ = breakdown;
  rebuild();
}

void MemoryChart::setIncludeGaps(bool include) {
  gaps_ = include;
  rebuild();
}

void MemoryChart::setShowMaxMemory(bool show) {
  showMax_ = show;
  update();
}

void MemoryChart::setDifference(bool difference) {
  difference_ = difference;
  update();
  emit dataChanged();
}

unsigned MemoryChart::numTiles() const {
  if (!data_) return 0;
  return std::max(data_->numTiles, base_ ? base_->numTiles : 0u);
}

void MemoryChart::setIpu(int ipu) {
  ipu_ = ipu;
  if (!data_) return setDomain(0, 0);
  if (ipu < 0 || !data_->tilesPerIpu) return setDomain(0, numTiles());
  const auto [first, last] = data_->tileRange(ipu);
  setDomain(first, last);
}

QStringList MemoryChart::bandNames() const {
  QStringList names;
  for (const LegendEntry& e : legend())
    names << e.name;
  return names;
}

std::uint64_t MemoryChart::totalOf(const MemoryData* d, std::size_t tile) const {
  if (!d || tile >= d->numTiles) return 0; // a tile the smaller report does not have holds nothing
  // With a variable filter, what is compared is the filter's bytes in each report.
  if (matched_ && d == data_.get()) return matchedBytes(tile);
  if (matched_ && d == base_.get())
    return matchedBase_ && tile < matchedBase_->size() ? (*matchedBase_)[tile] : 0;
  return d->total(unsigned(tile), gaps_);
}

std::pair<double, double> MemoryChart::yRange(std::size_t first, std::size_t last) const {
  double lo = 0, hi = 0;
  for (std::size_t t = first; t < last; ++t) {
    if (drawsSeries()) {
      for (const VariableSeries& s : series_)
        if (t < s.bytesPerTile->size()) hi = std::max(hi, double((*s.bytesPerTile)[t]));
      continue;
    }
    if (matched_ && !comparing()) {
      hi = std::max(hi, double(matchedBytes(t))); // the filter's bytes set the scale
      continue;
    }
    const double cur = double(totalOf(data_.get(), t));
    if (comparing()) {
      const double base = double(totalOf(base_.get(), t));
      if (difference_) {
        lo = std::min(lo, cur - base);
        hi = std::max(hi, cur - base);
        continue;
      }
      hi = std::max(hi, base);
    }
    hi = std::max(hi, cur); // the bands add up to the total
  }
  if (showMax_ && !(comparing() && difference_) && data_)
    hi = std::max(hi, double(data_->bytesPerTile));
  if (hi == lo) hi = lo + 1;
  return {lo, hi};
}

void MemoryChart::paintData(QPainter& p, const QRectF& plot, std::size_t first, std::size_t last) {
  if (!data_ || last <= first) return;
  if (comparing())
    paintComparison(p, plot, first, last);
  else if (drawsSeries())
    paintSeries(p, first, last);
  else if (matched_)
    paintMatched(p, plot, first, last);
  else
    paintStacked(p, plot, first, last);
  if (showMax_ && !(comparing() && difference_)) {
    const double y = yOf(double(data_->bytesPerTile));
    p.setPen(QPen(kMaxColor, 2, Qt::DashLine));
    p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
  }
  if (comparing() && difference_) {
    p.setPen(QPen(textColor(), 1));
    p.drawLine(QPointF(plot.left(), yOf(0)), QPointF(plot.right(), yOf(0)));
  }
}

void MemoryChart::paintStacked(QPainter& p, const QRectF& plot, std::size_t first,
                               std::size_t last) {
  const int bands = bands_->size();
  const std::size_t n = last - first;
  // Cumulative tops of each band per tile; a pixel column shows the highest stack among its tiles
  // (the max of each cumulative series, so the bands stay ordered) and, for the total, the lowest.
  std::vector<std::vector<double>> tops(static_cast<std::size_t>(bands), std::vector<double>(n));
  std::vector<std::uint64_t> values(static_cast<std::size_t>(bands));
  std::vector<char> shown(static_cast<std::size_t>(bands));
  for (int b = 0; b < bands; ++b)
    shown[std::size_t(b)] = isSeriesShown(bands_->names()[b]) ? 1 : 0;
  for (std::size_t i = 0; i < n; ++i) {
    bands_->values(unsigned(first + i), values.data());
    for (int b = 0; b < bands; ++b) // a band hidden from the legend leaves the stack
      if (!shown[std::size_t(b)]) values[std::size_t(b)] = 0;
    double sum = 0;
    for (int b = 0; b < bands; ++b)
      tops[std::size_t(b)][i] = sum += double(values[std::size_t(b)]);
  }
  if (bands == 1) {
    // One band: each pixel column is as high as its highest tile, with the lowest marked inside.
    paintColumns(p, tops[0], first, bands_->color(0));
    return;
  }
  const double itemWidth = plot.width() / std::max(1e-9, viewRange().second - viewRange().first);
  const double gap = itemWidth > 6 ? 1 : 0; // separate bars once tiles are wide enough
  // A pixel column draws the range of its tiles: the highest stack pale, the lowest solid over it
  // (each band's cumulative min and max over the column's tiles: both stay ordered). One tile a
  // column: min = max, all solid.
  for (const Column& column : columns(first, last, gap)) {
    const double w = column.x1 - column.x0;
    std::vector<MinMax> m(static_cast<std::size_t>(bands));
    for (int b = 0; b < bands; ++b)
      m[std::size_t(b)] = minMaxOf(tops[std::size_t(b)].data(), first, column.items);
    double below = 0;
    for (int b = 0; b < bands; ++b) {
      const double top = m[std::size_t(b)].max;
      if (top > below)
        p.fillRect(QRectF(column.x0, yOf(top), w, yOf(below) - yOf(top)),
                   rangeColor(bands_->color(b)));
      below = std::max(below, top);
    }
    below = 0;
    for (int b = 0; b < bands; ++b) {
      const double top = m[std::size_t(b)].min;
      if (top > below)
        p.fillRect(QRectF(column.x0, yOf(top), w, yOf(below) - yOf(top)), bands_->color(b));
      below = std::max(below, top);
    }
  }
}

void MemoryChart::paintMatched(QPainter& p, const QRectF& plot, std::size_t first,
                               std::size_t last) {
  // Only the matched variables' bytes, on their own scale: next to a tile's total, a small
  // variable would be a flat line at the bottom (the tooltip still gives the total).
  const std::size_t n = last - first;
  std::vector<double> matched(n);
  for (std::size_t i = 0; i < n; ++i)
    matched[i] = double(matchedBytes(first + i));
  paintColumns(p, matched, first, kMatchedColor);
  (void)plot;
}

void MemoryChart::paintSeries(QPainter& p, std::size_t first, std::size_t last) {
  // Each series a step line through its columns' highest tile, with the column's range (lowest
  // to highest tile) as a thin vertical stroke where a pixel holds several tiles: lines, not
  // stacked bands, so each variable is read against the axis on its own.
  const std::vector<Column> cols = columns(first, last);
  const std::size_t n = last - first;
  std::vector<double> values(n);
  p.setRenderHint(QPainter::Antialiasing, false);
  for (std::size_t s = 0; s < series_.size(); ++s) {
    if (!isSeriesShown(series_[s].label)) continue; // hidden from the legend
    const std::vector<std::uint64_t>& bytes = *series_[s].bytesPerTile;
    for (std::size_t i = 0; i < n; ++i)
      values[i] = first + i < bytes.size() ? double(bytes[first + i]) : 0.0;
    const QColor color = seriesColorOf(s);
    QPolygonF line;
    for (const Column& c : cols) {
      const MinMax m = minMaxOf(values.data(), first, c.items);
      const double y = yOf(m.max);
      line << QPointF(c.x0, y) << QPointF(c.x1, y);
      if (m.min < m.max) {
        p.setPen(QPen(rangeColor(color), 1));
        p.drawLine(QPointF((c.x0 + c.x1) / 2, yOf(m.min)), QPointF((c.x0 + c.x1) / 2, y));
      }
    }
    p.setPen(QPen(color, 2));
    p.drawPolyline(line);
  }
}

void MemoryChart::paintComparison(QPainter& p, const QRectF& plot, std::size_t first,
                                  std::size_t last) {
  const std::size_t n = last - first;
  std::vector<double> cur(n), base(n), diff(n);
  for (std::size_t i = 0; i < n; ++i) {
    cur[i] = double(totalOf(data_.get(), first + i));
    base[i] = double(totalOf(base_.get(), first + i));
    diff[i] = cur[i] - base[i];
  }
  const std::vector<Column> cols = columns(first, last);
  if (difference_) {
    for (const Column& c : cols) {
      const MinMax m = minMaxOf(diff.data(), first, c.items);
      if (m.max > 0)
        p.fillRect(QRectF(c.x0, yOf(m.max), c.x1 - c.x0, yOf(0) - yOf(m.max)), kGrewColor);
      if (m.min < 0)
        p.fillRect(QRectF(c.x0, yOf(0), c.x1 - c.x0, yOf(m.min) - yOf(0)), kShrankColor);
    }
    return;
  }
  // Base as a filled area, current as an outline on top: where they differ both stay visible.
  QColor baseFill = kBaseColor;
  baseFill.setAlpha(170);
  paintColumns(p, base, first, baseFill, 0, false);
  QPolygonF outline;
  for (const Column& c : cols) {
    const double y = yOf(minMaxOf(cur.data(), first, c.items).max);
    outline << QPointF(c.x0, y) << QPointF(c.x1, y);
  }
  p.setPen(QPen(kCurrentColor, 2));
  p.drawPolyline(outline);
  (void)plot;
}

QString MemoryChart::tooltip(std::size_t item) const {
  if (!data_) return {};
  const unsigned tile = unsigned(item);
  const MemoryUnits u = units();
  QString text = tr("<b>Tile %1</b> (IPU %2)").arg(tile).arg(data_->ipuOf(tile));
  auto row = [](const QString& name, const QString& value) {
    return QStringLiteral("<tr><td>%1</td><td align=right>&nbsp;%2</td></tr>")
        .arg(name.toHtmlEscaped(), value);
  };
  text += QStringLiteral("<table>");
  if (comparing()) {
    const std::uint64_t b = totalOf(base_.get(), tile), c = totalOf(data_.get(), tile);
    text += row(tr("Base"), formatBytes(b, u)) + row(tr("Current"), formatBytes(c, u)) +
            row(tr("Difference"), formatBytesDelta(std::int64_t(c) - std::int64_t(b), u));
  } else if (tile < data_->numTiles) {
    if (drawsSeries()) {
      for (std::size_t i = 0; i < series_.size(); ++i) {
        const std::vector<std::uint64_t>& b = *series_[i].bytesPerTile;
        text += row(series_[i].label, formatBytes(tile < b.size() ? b[tile] : 0, u));
      }
    } else if (matched_) {
      text += row(matchedLabel_, formatBytes(matchedBytes(tile), u));
    }
    text += row(tr("Including gaps"), formatBytes(data_->includingGaps[tile], u)) +
            row(tr("Excluding gaps"), formatBytes(data_->excludingGaps[tile], u));
    if (data_->overflowedIncluding[tile] > 0)
      text += row(tr("Overflowed"), formatBytes(data_->overflowedIncluding[tile], u));
    if (bands_ && bands_->size() > 1) {
      std::vector<std::uint64_t> values(static_cast<std::size_t>(bands_->size()));
      bands_->values(tile, values.data());
      for (int b = bands_->size() - 1; b >= 0; --b) // top band first, as stacked
        text += row(bands_->names()[b], formatBytes(values[std::size_t(b)], u));
    }
    text += row(tr("Capacity"), formatBytes(data_->bytesPerTile, u));
  }
  return text + QStringLiteral("</table>");
}

std::vector<IndexChart::LegendEntry> MemoryChart::legend() const {
  std::vector<LegendEntry> out;
  if (!data_) return out;
  const MemoryUnits u = units();
  if (comparing()) {
    if (difference_) {
      out.push_back({tr("Grew (current - base)"), kGrewColor, false});
      out.push_back({tr("Shrank"), kShrankColor, false});
      return out;
    }
    QString filter = matchedLabel_;
    if (!filter.isEmpty()) filter[0] = filter[0].toLower(); // "Base: variables matching 'w' (3)"
    out.push_back({matched_ ? tr("Base: %1").arg(filter) : tr("Base"), kBaseColor, false});
    out.push_back({matched_ ? tr("Current: %1").arg(filter) : tr("Current"), kCurrentColor, true});
  } else if (drawsSeries()) {
    for (std::size_t i = 0; i < series_.size(); ++i)
      out.push_back({series_[i].label, seriesColorOf(i), true, false, false, true});
  } else if (matched_ && bands_) {
    out.push_back({matchedLabel_, kMatchedColor, false});
    if (sharesPixels())
      out.push_back(
          {tr("pale: a pixel's tiles above its lowest tile"), rangeColor(kMatchedColor), false});
  } else if (bands_) {
    // With several bands each can be hidden from the legend (the stack closes up).
    for (int b = bands_->size() - 1; b >= 0; --b)
      out.push_back(
          {bands_->names()[b], bands_->color(b), false, false, false, bands_->size() > 1});
    // More tiles than pixels: solid up to a pixel's lowest tile, pale up to its highest.
    if (sharesPixels())
      out.push_back({tr("pale: a pixel's tiles above its lowest tile"),
                     rangeColor(bands_->size() == 1 ? bands_->color(0) : QColor(0x80, 0x80, 0x80)),
                     false});
  }
  if (showMax_)
    out.push_back(
        {tr("Max memory (%1)").arg(formatBytes(data_->bytesPerTile, u)), kMaxColor, true, true});
  return out;
}

QString MemoryChart::xAxisTitle() const {
  return ipu_ < 0 ? tr("Tile") : tr("Tile (IPU %1)").arg(ipu_);
}

QString MemoryChart::yAxisTitle() const {
  if (comparing() && difference_) return tr("Change per tile");
  if (matched_) return tr("Bytes of the matching variables per tile");
  return gaps_ ? tr("Memory per tile, including gaps") : tr("Memory per tile, excluding gaps");
}

double MemoryChart::overviewValue(std::size_t item) const {
  if (matched_ && !comparing()) return double(matchedBytes(item));
  const double cur = double(totalOf(data_.get(), item));
  if (comparing() && difference_) return cur - double(totalOf(base_.get(), item));
  return cur;
}

QString MemoryChart::emptyMessage() const {
  return data_ ? QString() : tr("Reading tile memory…");
}

} // namespace tessera::viewer
