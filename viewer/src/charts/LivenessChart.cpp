// Painting the liveness curve per pixel column, the comparison and the difference.
#include "charts/LivenessChart.hpp"

#include "core/Downsample.hpp"
#include "core/Settings.hpp"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace tessera::viewer {

namespace {

MemoryUnits units() { return Settings::instance().memoryUnits(); }

const QColor kFloorColor(0x9fb3c8);
const QColor kCurveColor(0xf28e2b);
const QColor kBaseColor(0x4e79a7);
const QColor kGrewColor(0xe15759);
const QColor kShrankColor(0x59a14f);

} // namespace

LivenessChart::LivenessChart(QWidget* parent) : IndexChart(parent) {
  setObjectName(QStringLiteral("liveness"));
  connect(&Settings::instance(), &Settings::changed, this, [this] { update(); });
}

void LivenessChart::setData(std::shared_ptr<const LivenessData> current, std::shared_ptr<const LivenessData> base) {
  const std::vector<std::size_t> keep = selection();
  const auto view = viewRange();
  const bool sameLength = m_data && current && m_data->steps() == current->steps();
  m_data = std::move(current);
  m_base = std::move(base);
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
  m_rangeFirst = first;
  m_rangeLast = last;
  applyStepRange();
  emit dataChanged();
}

std::pair<std::size_t, std::size_t> LivenessChart::stepRange() const {
  const std::size_t n = length();
  const std::size_t last = std::min(m_rangeLast, n);
  return {std::min(m_rangeFirst, last), last};
}

void LivenessChart::applyStepRange() {
  const auto [first, last] = stepRange();
  setDomain(first, last);
}

std::size_t LivenessChart::length() const {
  return std::max(m_data ? m_data->steps() : 0, m_base ? m_base->steps() : 0);
}

void LivenessChart::setIncludeAlwaysLive(bool include) {
  m_includeAlwaysLive = include;
  update();
  emit dataChanged();
}

void LivenessChart::setDifference(bool difference) {
  m_difference = difference;
  update();
  emit dataChanged();
}

QColor LivenessChart::overviewColor() const { return m_base && !m_difference ? kBaseColor : kCurveColor; }

double LivenessChart::overviewValue(std::size_t step) const {
  const double cur = seriesValue(m_data.get(), step);
  if (m_base && m_difference) return cur - seriesValue(m_base.get(), step);
  return m_base ? std::max(cur, seriesValue(m_base.get(), step)) : cur;
}

double LivenessChart::seriesValue(const LivenessData* d, std::size_t step) const {
  if (!d || step >= d->steps()) return 0; // a step the shorter schedule does not have holds nothing
  return double(d->notAlwaysLive[step]) + (m_includeAlwaysLive ? double(d->alwaysLive) : 0.0);
}

double LivenessChart::valueAt(std::size_t step) const { return seriesValue(m_data.get(), step); }

std::pair<double, double> LivenessChart::yRange(std::size_t first, std::size_t last) const {
  double lo = 0, hi = 0;
  for (std::size_t s = first; s < last; ++s) {
    const double cur = seriesValue(m_data.get(), s);
    if (m_base && m_difference) {
      const double d = cur - seriesValue(m_base.get(), s);
      lo = std::min(lo, d);
      hi = std::max(hi, d);
    } else {
      hi = std::max({hi, cur, m_base ? seriesValue(m_base.get(), s) : 0.0});
    }
  }
  return {lo, hi};
}

void LivenessChart::paintData(QPainter& p, const QRectF& plot, std::size_t first, std::size_t last) {
  if (!m_data || last <= first) return;
  const std::size_t n = last - first;
  std::vector<double> cur(n), base(n);
  for (std::size_t i = 0; i < n; ++i) {
    cur[i] = seriesValue(m_data.get(), first + i);
    base[i] = seriesValue(m_base.get(), first + i);
  }
  const std::vector<Column> cols = columns(first, last);
  if (m_base && m_difference) {
    std::vector<double> diff(n);
    for (std::size_t i = 0; i < n; ++i) diff[i] = cur[i] - base[i];
    for (const Column& c : cols) {
      const MinMax m = minMaxOf(diff.data(), first, c.items);
      if (m.max > 0) p.fillRect(QRectF(c.x0, yOf(m.max), c.x1 - c.x0, yOf(0) - yOf(m.max)), kGrewColor);
      if (m.min < 0) p.fillRect(QRectF(c.x0, yOf(0), c.x1 - c.x0, yOf(m.min) - yOf(0)), kShrankColor);
    }
    p.setPen(QPen(textColor(), 1));
    p.drawLine(QPointF(plot.left(), yOf(0)), QPointF(plot.right(), yOf(0)));
    return;
  }
  if (m_base) {
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
    curve(base, kBaseColor, m_base->steps());
    curve(cur, kCurveColor, m_data->steps());
    return;
  }
  // One report: the floor (when included) and the curve, each column as high as its highest step
  // (one-step spikes stay visible when zoomed out), the lowest step marked inside.
  const double floor = m_includeAlwaysLive ? double(m_data->alwaysLive) : 0.0;
  const std::size_t own = std::min(n, m_data->steps() > first ? m_data->steps() - first : 0);
  if (floor > 0 && own > 0) {
    const double x1 = columnExtent(first, first + own).second;
    p.fillRect(QRectF(plot.left(), yOf(floor), std::min(x1, plot.right()) - plot.left(), yOf(0) - yOf(floor)), kFloorColor);
  }
  cur.resize(own);
  paintColumns(p, cur, first, kCurveColor, floor);

  // The peak step, labelled.
  const std::size_t peak = m_data->peakStep();
  if (peak >= first && peak < last) {
    const double x = xForItem(peak), y = yOf(seriesValue(m_data.get(), peak));
    p.setPen(QPen(textColor(), 1));
    p.setBrush(textColor());
    p.drawEllipse(QPointF(x, y), 3, 3);
    const QString label = tr("peak: step %1").arg(peak);
    const double w = fontMetrics().horizontalAdvance(label) + 8;
    const double lx = x + w + 6 > plot.right() ? x - w - 6 : x + 6;
    p.drawText(QRectF(lx, y - fontMetrics().height() - 2, w, fontMetrics().height()), Qt::AlignLeft, label);
  }
}

QString LivenessChart::tooltip(std::size_t item) const {
  if (!m_data) return {};
  const MemoryUnits u = units();
  auto row = [](const QString& name, const QString& value) {
    return QStringLiteral("<tr><td>%1</td><td align=right>&nbsp;%2</td></tr>").arg(name, value);
  };
  QString text = tr("<b>Step %1</b>").arg(item);
  if (item < m_data->steps())
    text += QStringLiteral("<br>%1 (%2)").arg(m_data->programName(item).toHtmlEscaped(), m_data->programType(item));
  text += QStringLiteral("<table>");
  if (m_base) {
    if (item < m_base->steps() && m_base->programName(item) != m_data->programName(item))
      text += row(tr("Base step"), m_base->programName(item).toHtmlEscaped());
    const double b = seriesValue(m_base.get(), item), c = seriesValue(m_data.get(), item);
    text += row(tr("Base"), formatBytes(std::uint64_t(b), u)) + row(tr("Current"), formatBytes(std::uint64_t(c), u)) +
            row(tr("Difference"), formatBytesDelta(std::int64_t(c) - std::int64_t(b), u));
  } else if (item < m_data->steps()) {
    text += row(tr("Not always live"), formatBytes(m_data->notAlwaysLive[item], u)) +
            row(tr("Always live"), formatBytes(m_data->alwaysLive, u)) +
            row(tr("Total"), formatBytes(m_data->notAlwaysLive[item] + m_data->alwaysLive, u));
  }
  return text + QStringLiteral("</table>");
}

std::vector<IndexChart::LegendEntry> LivenessChart::legend() const {
  if (!m_data) return {};
  if (m_base) {
    if (m_difference) return {{tr("Grew (current - base)"), kGrewColor, false}, {tr("Shrank"), kShrankColor, false}};
    return {{tr("Base"), kBaseColor, true}, {tr("Current"), kCurveColor, true}};
  }
  std::vector<LegendEntry> out{{tr("Not always live (%1)").arg(m_data->scope.describe()), kCurveColor, false}};
  if (m_includeAlwaysLive)
    out.push_back({tr("Always live (%1)").arg(formatBytes(m_data->alwaysLive, units())), kFloorColor, false});
  if (sharesPixels())
    out.push_back({tr("pale: a pixel's steps above its lowest step"), rangeColor(kCurveColor), false});
  return out;
}

QString LivenessChart::xAxisTitle() const { return tr("Liveness program step"); }

QString LivenessChart::yAxisTitle() const {
  if (m_base && m_difference) return tr("Change in live bytes");
  return m_includeAlwaysLive ? tr("Live bytes") : tr("Not-always-live bytes");
}

QString LivenessChart::emptyMessage() const {
  if (!m_data) return tr("Reading liveness…");
  if (length() == 0) return tr("The report has no liveness program steps.");
  return {};
}

} // namespace tessera::viewer
