// Painting the liveness curve per pixel column, the comparison and the difference.
#include "charts/LivenessChart.hpp"

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

const QColor kFloorColor(0x9fb3c8);
const QColor kCurveColor(0xf28e2b);
constexpr double kLifetimeLane = 7,
                 kLifetimeGap = 3; // a chosen variable's lane and the space between lanes
const QColor kBaseColor(0x4e79a7);
const QColor kGrewColor(0xe15759);
const QColor kShrankColor(0x59a14f);

} // namespace

LivenessChart::LivenessChart(QWidget* parent) : IndexChart(parent) {
  setObjectName(QStringLiteral("liveness"));
  connect(&Settings::instance(), &Settings::changed, this, [this] { update(); });
}

void LivenessChart::setData(std::shared_ptr<const LivenessData> current,
                            std::shared_ptr<const LivenessData> base) {
  const std::vector<std::size_t> keep = selection();
  const auto view = viewRange();
  const bool sameLength = data_ && current && data_->steps() == current->steps();
  data_ = std::move(current);
  base_ = std::move(base);
  applyStepRange();
  if (sameLength) {
    setViewRange(view.first, view.second); // a new scope of the same schedule keeps the zoom
  } else {
    std::vector<std::size_t> kept;
    for (std::size_t s : keep)
      if (s < length()) kept.push_back(s);
    setSelection(kept);
  }
  update();
  emit dataChanged();
}

void LivenessChart::setStepRange(std::size_t first, std::size_t last) {
  rangeFirst_ = first;
  rangeLast_ = last;
  applyStepRange();
  emit dataChanged();
}

std::pair<std::size_t, std::size_t> LivenessChart::stepRange() const {
  const std::size_t n = length();
  const std::size_t last = std::min(rangeLast_, n);
  return {std::min(rangeFirst_, last), last};
}

void LivenessChart::applyStepRange() {
  const auto [first, last] = stepRange();
  setDomain(first, last);
}

std::size_t LivenessChart::length() const {
  return std::max(data_ ? data_->steps() : 0, base_ ? base_->steps() : 0);
}

void LivenessChart::setIncludeAlwaysLive(bool include) {
  includeAlwaysLive_ = include;
  update();
  emit dataChanged();
}

void LivenessChart::setDifference(bool difference) {
  difference_ = difference;
  update();
  emit dataChanged();
}

bool LivenessChart::sameAsBase() const {
  if (!data_ || !base_ || data_->steps() != base_->steps()) return false;
  for (std::size_t s = 0; s < data_->steps(); ++s)
    if (seriesValue(data_.get(), s) != seriesValue(base_.get(), s)) return false;
  return true;
}

QColor LivenessChart::overviewColor() const {
  return base_ && !difference_ ? kBaseColor : kCurveColor;
}

double LivenessChart::overviewValue(std::size_t step) const {
  const double cur = seriesValue(data_.get(), step);
  if (base_ && difference_) return cur - seriesValue(base_.get(), step);
  return base_ ? std::max(cur, seriesValue(base_.get(), step)) : cur;
}

double LivenessChart::seriesValue(const LivenessData* d, std::size_t step) const {
  if (!d || step >= d->steps()) return 0; // a step the shorter schedule does not have holds nothing
  return double(d->notAlwaysLive[step]) + (includeAlwaysLive_ ? double(d->alwaysLive) : 0.0);
}

double LivenessChart::valueAt(std::size_t step) const {
  return seriesValue(data_.get(), step);
}

std::pair<double, double> LivenessChart::yRange(std::size_t first, std::size_t last) const {
  double lo = 0, hi = 0;
  for (std::size_t s = first; s < last; ++s) {
    const double cur = seriesValue(data_.get(), s);
    if (base_ && difference_) {
      const double d = cur - seriesValue(base_.get(), s);
      lo = std::min(lo, d);
      hi = std::max(hi, d);
    } else {
      hi = std::max({hi, cur, base_ ? seriesValue(base_.get(), s) : 0.0});
    }
  }
  if (!lives_.empty() && hi > lo) {
    // The lifetimes' lanes take the top of the plot: the curve is scaled to stay below them.
    const double share = lifetimeLanesHeight() / std::max(1.0, plotRect().height());
    hi = lo + (hi - lo) / std::max(0.3, 1.0 - share);
  }
  return {lo, hi};
}

void LivenessChart::setLifetimes(std::vector<VariableLife> lives, std::size_t notDrawn) {
  if (lives.size() > kMaxLifetimes) {
    notDrawn += lives.size() - kMaxLifetimes;
    lives.resize(kMaxLifetimes);
  }
  lives_ = std::move(lives);
  livesNotDrawn_ = notDrawn;
  lifeBars_.clear();
  update();
}

QString LivenessChart::lifetimeLabel(std::size_t i) const {
  const VariableLife& v = lives_[i];
  const QString steps = v.alwaysLive    ? tr("always live")
                        : v.to > v.from ? tr("steps %1–%2").arg(v.from).arg(v.to - 1)
                                        : tr("never live");
  return tr("%1 (%2, %3)").arg(v.name, steps, formatBytes(v.bytes, units()));
}

double LivenessChart::lifetimeLanesHeight() const {
  return lives_.empty() ? 0.0
                        : double(lives_.size()) * (kLifetimeLane + kLifetimeGap) + kLifetimeGap;
}

QColor LivenessChart::lifetimeColor(std::size_t i) {
  // Apart from the curve's orange, its pale range shade and the always-live floor's blue-grey.
  static const QColor colors[] = {QColor(0x4e79a7), QColor(0x59a14f), QColor(0xb07aa1),
                                  QColor(0xe15759), QColor(0x9c755f), QColor(0x76b7b2),
                                  QColor(0xbcbd22), QColor(0x17becf)};
  return colors[i % (sizeof(colors) / sizeof(colors[0]))];
}

void LivenessChart::paintLifetimes(QPainter& p, const QRectF& plot, std::size_t first,
                                   std::size_t last) {
  // Lanes along the top of the plot (yRange keeps the curve below them), the first variable
  // highest; a lane is a bar over the variable's live steps, and its ends are lines across the plot
  // so they can be read against the curve (where the peak falls inside a life, the variable is part
  // of the peak).
  lifeBars_.assign(lives_.size(), QRectF());
  const double lane = kLifetimeLane, gap = kLifetimeGap;
  for (std::size_t i = 0; i < lives_.size(); ++i) {
    const VariableLife& v = lives_[i];
    if (v.to <= v.from || v.to <= first || v.from >= last) continue;
    if (!isSeriesShown(lifetimeLabel(i))) continue; // hidden from the legend
    const std::size_t a = std::max<std::size_t>(first, std::size_t(v.from));
    const std::size_t b = std::min<std::size_t>(last, std::size_t(v.to));
    const auto [x0, x1] = columnExtent(a, b);
    const double y = plot.top() + gap + double(i) * (lane + gap);
    const QRectF bar(std::max(x0, plot.left()), y,
                     std::max(1.0, std::min(x1, plot.right()) - std::max(x0, plot.left())), lane);
    QColor line = lifetimeColor(i);
    line.setAlpha(150);
    p.setPen(QPen(line, 1, Qt::DashLine));
    if (v.from >= first) p.drawLine(QPointF(x0, bar.bottom()), QPointF(x0, plot.bottom()));
    if (v.to <= last) p.drawLine(QPointF(x1, bar.bottom()), QPointF(x1, plot.bottom()));
    p.setPen(Qt::NoPen);
    p.setBrush(lifetimeColor(i));
    p.drawRect(bar);
    lifeBars_[i] = bar;
  }
}

void LivenessChart::paintData(QPainter& p, const QRectF& plot, std::size_t first,
                              std::size_t last) {
  if (!data_ || last <= first) return;
  paintCurves(p, plot, first, last);
  if (!lives_.empty()) paintLifetimes(p, plot, first, last); // over whichever curves are drawn
}

void LivenessChart::paintCurves(QPainter& p, const QRectF& plot, std::size_t first,
                                std::size_t last) {
  const std::size_t n = last - first;
  std::vector<double> cur(n), base(n);
  for (std::size_t i = 0; i < n; ++i) {
    cur[i] = seriesValue(data_.get(), first + i);
    base[i] = seriesValue(base_.get(), first + i);
  }
  const std::vector<Column> cols = columns(first, last);
  if (base_ && difference_) {
    std::vector<double> diff(n);
    for (std::size_t i = 0; i < n; ++i)
      diff[i] = cur[i] - base[i];
    for (const Column& c : cols) {
      const MinMax m = minMaxOf(diff.data(), first, c.items);
      if (m.max > 0)
        p.fillRect(QRectF(c.x0, yOf(m.max), c.x1 - c.x0, yOf(0) - yOf(m.max)), kGrewColor);
      if (m.min < 0)
        p.fillRect(QRectF(c.x0, yOf(0), c.x1 - c.x0, yOf(m.min) - yOf(0)), kShrankColor);
    }
    p.setPen(QPen(textColor(), 1));
    p.drawLine(QPointF(plot.left(), yOf(0)), QPointF(plot.right(), yOf(0)));
    return;
  }
  if (base_) {
    // Two curves on one plot, each the per-column maximum as a step line, each over its own steps.
    auto curve = [&](const std::vector<double>& values, const QColor& color, std::size_t steps) {
      QPolygonF line;
      for (const Column& c : cols) {
        if (c.items.first >= steps) break;
        const ItemRange own{c.items.first, std::min(c.items.last, steps)};
        const double y = yOf(minMaxOf(values.data(), first, own).max);
        line << QPointF(c.x0, y) << QPointF(c.x1, y);
      }
      p.setPen(QPen(color, 2));
      p.drawPolyline(line);
    };
    curve(base, kBaseColor, base_->steps());
    curve(cur, kCurveColor, data_->steps());
    return;
  }
  // One report: the floor (when included) and the curve, each column as high as its highest step
  // (one-step spikes stay visible when zoomed out), the lowest step marked inside.
  const double floor = includeAlwaysLive_ ? double(data_->alwaysLive) : 0.0;
  const std::size_t own = std::min(n, data_->steps() > first ? data_->steps() - first : 0);
  if (floor > 0 && own > 0) {
    const double x1 = columnExtent(first, first + own).second;
    p.fillRect(QRectF(plot.left(), yOf(floor), std::min(x1, plot.right()) - plot.left(),
                      yOf(0) - yOf(floor)),
               kFloorColor);
  }
  cur.resize(own);
  paintColumns(p, cur, first, kCurveColor, floor);

  // The peak step, labelled.
  const std::size_t peak = data_->peakStep();
  if (peak >= first && peak < last) {
    const double x = xForItem(peak), y = yOf(seriesValue(data_.get(), peak));
    p.setPen(QPen(textColor(), 1));
    p.setBrush(textColor());
    p.drawEllipse(QPointF(x, y), 3, 3);
    const QString label = tr("peak: step %1").arg(peak);
    const double w = fontMetrics().horizontalAdvance(label) + 8;
    const double lx = x + w + 6 > plot.right() ? x - w - 6 : x + 6;
    p.drawText(QRectF(lx, y - fontMetrics().height() - 2, w, fontMetrics().height()), Qt::AlignLeft,
               label);
  }
}

QString LivenessChart::tooltip(std::size_t item) const {
  if (!data_) return {};
  const MemoryUnits u = units();
  auto row = [](const QString& name, const QString& value) {
    return QStringLiteral("<tr><td>%1</td><td align=right>&nbsp;%2</td></tr>").arg(name, value);
  };
  QString text = tr("<b>Step %1</b>").arg(item);
  if (item < data_->steps())
    text += QStringLiteral("<br>%1 (%2)")
                .arg(data_->programName(item).toHtmlEscaped(), data_->programType(item));
  text += QStringLiteral("<table>");
  if (base_) {
    if (item < base_->steps() && base_->programName(item) != data_->programName(item))
      text += row(tr("Base step"), base_->programName(item).toHtmlEscaped());
    const double b = seriesValue(base_.get(), item), c = seriesValue(data_.get(), item);
    text += row(tr("Base"), formatBytes(std::uint64_t(b), u)) +
            row(tr("Current"), formatBytes(std::uint64_t(c), u)) +
            row(tr("Difference"), formatBytesDelta(std::int64_t(c) - std::int64_t(b), u));
  } else if (item < data_->steps()) {
    text += row(tr("Not always live"), formatBytes(data_->notAlwaysLive[item], u)) +
            row(tr("Always live"), formatBytes(data_->alwaysLive, u)) +
            row(tr("Total"), formatBytes(data_->notAlwaysLive[item] + data_->alwaysLive, u));
  }
  return text + QStringLiteral("</table>");
}

std::vector<IndexChart::LegendEntry> LivenessChart::legend() const {
  if (!data_) return {};
  std::vector<LegendEntry> out;
  if (base_) {
    if (difference_)
      out = {{tr("Grew (current - base)"), kGrewColor, false}, {tr("Shrank"), kShrankColor, false}};
    else if (sameAsBase())
      // The current line is drawn over the base's: say where the base went.
      out = {{tr("Base: the same as Current at every step (under it)"), kBaseColor, true},
             {tr("Current"), kCurveColor, true}};
    else
      out = {{tr("Base"), kBaseColor, true}, {tr("Current"), kCurveColor, true}};
  } else {
    out.push_back({tr("Not always live (%1)").arg(data_->scope.describe()), kCurveColor, false});
    if (includeAlwaysLive_)
      out.push_back({tr("Always live (%1)").arg(formatBytes(data_->alwaysLive, units())),
                     kFloorColor, false});
    if (sharesPixels())
      out.push_back(
          {tr("pale: a pixel's steps above its lowest step"), rangeColor(kCurveColor), false});
  }
  for (std::size_t i = 0; i < lives_.size(); ++i)
    out.push_back({lifetimeLabel(i), lifetimeColor(i), false, false, false, true});
  if (livesNotDrawn_ > 0)
    out.push_back(
        {tr("%1 more matching variables not drawn").arg(livesNotDrawn_), QColor(0xb0b0b0), false});
  return out;
}

QStringList LivenessChart::legendNames() const {
  QStringList names;
  for (const LegendEntry& e : legend())
    names << e.name;
  return names;
}

QString LivenessChart::xAxisTitle() const {
  return tr("Liveness program step");
}

QString LivenessChart::yAxisTitle() const {
  if (base_ && difference_) return tr("Change in live bytes");
  return includeAlwaysLive_ ? tr("Live bytes") : tr("Not-always-live bytes");
}

QString LivenessChart::emptyMessage() const {
  if (!data_) return tr("Reading liveness…");
  if (length() == 0) return tr("The report has no liveness program steps.");
  return {};
}

} // namespace tessera::viewer
