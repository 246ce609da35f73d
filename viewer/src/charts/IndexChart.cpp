// Index-axis charts: view range, zoom and pan, axes, legend, selection and hover.
#include "charts/IndexChart.hpp"

#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <optional>

namespace tessera::viewer {

namespace {

constexpr double kLeft = 78, kRight = 14, kBottom = 40;

/// A 1-2-5 step that gives about `ticks` ticks over `range`, in multiples of `unit`.
double niceStep(double range, double unit, int ticks) {
  if (range <= 0) return unit;
  const double raw = range / unit / ticks;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / magnitude;
  const double nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
  return nice * magnitude * unit;
}

} // namespace

IndexChart::IndexChart(QWidget* parent) : ChartWidget(parent) {
  setMouseTracking(true);
  setMinimumSize(320, 200);
}

void IndexChart::setDomain(std::size_t first, std::size_t last) {
  m_domainFirst = first;
  m_domainLast = std::max(first, last);
  m_window.setRange(double(m_domainFirst), double(m_domainLast));
  resetZoom();
}

void IndexChart::resetZoom() {
  m_window.fit();
  update();
}

void IndexChart::setViewRange(double first, double last) {
  if (m_domainLast <= m_domainFirst) return;
  if (m_window.show(first, last)) update();
}

void IndexChart::zoomBy(double factor, double anchorItem) {
  if (m_window.zoom(factor, anchorItem)) update();
}

void IndexChart::setSelection(std::vector<std::size_t> items) {
  std::sort(items.begin(), items.end());
  items.erase(std::unique(items.begin(), items.end()), items.end());
  if (items == m_selection) return;
  m_selection = std::move(items);
  update();
  emit selectionChanged(m_selection);
}

QRectF IndexChart::plotRect() const {
  return QRectF(kLeft, m_top, std::max(1.0, width() - kLeft - kRight), std::max(1.0, height() - m_top - kBottom));
}

double IndexChart::xForItem(std::size_t item) const {
  const QRectF plot = plotRect();
  const double span = std::max(1e-9, m_window.span());
  return plot.left() + (double(item) + 0.5 - m_window.from()) / span * plot.width();
}

std::optional<std::size_t> IndexChart::itemAt(double x) const {
  const QRectF plot = plotRect();
  if (x < plot.left() || x > plot.right() || m_domainLast <= m_domainFirst) return std::nullopt;
  const double item = m_window.from() + (x - plot.left()) / plot.width() * (m_window.span());
  const double clamped = std::clamp(std::floor(item), double(m_domainFirst), double(m_domainLast - 1));
  return std::size_t(clamped);
}

double IndexChart::yOf(double value) const {
  const QRectF plot = plotRect();
  const double span = std::max(1e-9, m_yMax - m_yMin);
  return plot.bottom() - (value - m_yMin) / span * plot.height();
}

std::pair<double, double> IndexChart::columnExtent(std::size_t firstItem, std::size_t lastItem, double gap) const {
  const double half = plotRect().width() / std::max(1e-9, m_window.span()) / 2;
  const double x0 = std::round(xForItem(firstItem) - half + gap);
  const double x1 = std::round(xForItem(lastItem - 1) + half - gap);
  return {x0, std::max(x0 + 1, x1)};
}

std::pair<std::size_t, std::size_t> IndexChart::visibleItems() const {
  const auto first = std::size_t(std::max(double(m_domainFirst), std::floor(m_window.from())));
  const auto last = std::size_t(std::min(double(m_domainLast), std::ceil(m_window.to())));
  return {first, std::max(first, last)};
}

void IndexChart::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), backgroundColor());
  const std::vector<LegendEntry> entries = legend();
  m_top = 8 + legendRows(entries) * QFontMetrics(font()).height() + 6;
  const QRectF plot = plotRect();
  const QString message = emptyMessage();
  if (!message.isEmpty() || m_domainLast <= m_domainFirst) {
    p.setPen(textColor());
    p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, message.isEmpty() ? tr("Nothing to show") : message);
    return;
  }
  const auto [first, last] = visibleItems();
  auto [lo, hi] = yRange(first, last);
  if (hi <= lo) hi = lo + 1;
  // Headroom above the highest value (and below the lowest when it is negative).
  const double pad = (hi - lo) * 0.08;
  m_yMin = lo < 0 ? lo - pad : lo;
  m_yMax = hi + pad;

  paintAxes(p, plot);
  p.save();
  p.setClipRect(plot);
  paintData(p, plot, first, last);

  // Selected items: a translucent column each (at least 3 px wide so one tile of 20,000 shows).
  const double itemWidth = plot.width() / std::max(1e-9, m_window.span());
  const double w = std::max(3.0, itemWidth);
  QColor sel = palette().color(QPalette::Highlight);
  sel.setAlpha(90);
  for (std::size_t item : m_selection) {
    if (item < first || item >= last) continue;
    const double x = xForItem(item);
    p.fillRect(QRectF(x - w / 2, plot.top(), w, plot.height()), sel);
  }
  if (m_hover && *m_hover >= first && *m_hover < last) {
    QColor h = textColor();
    h.setAlpha(120);
    p.setPen(QPen(h, 1, Qt::DotLine));
    const double x = xForItem(*m_hover);
    p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
  }
  p.restore();
  paintLegend(p, entries);
}

void IndexChart::paintAxes(QPainter& p, const QRectF& plot) {
  const QFontMetrics fm(font());
  p.setPen(gridColor());
  p.drawRect(plot);
  // y: ticks in the display unit's steps (1024 for binary units; the subclass formats them).
  const double range = m_yMax - m_yMin;
  double unit = 1;
  const double base = formatY(1024).contains(QLatin1String("iB")) ? 1024.0 : 1000.0;
  while (unit * base <= range / 2) unit *= base;
  const double step = niceStep(range, unit, std::max(2, int(plot.height() / 45)));
  for (double v = std::ceil(m_yMin / step) * step; v <= m_yMax + 1e-9; v += step) {
    const double y = yOf(v);
    p.setPen(gridColor());
    p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
    p.setPen(textColor());
    const QString label = formatY(v);
    p.drawText(QRectF(0, y - fm.height() / 2.0, kLeft - 6, fm.height()), Qt::AlignRight | Qt::AlignVCenter, label);
  }
  // x: item numbers at round steps.
  const double span = m_window.span();
  const double labelWidth = fm.horizontalAdvance(QString::number(m_domainLast)) + 24;
  const double xStep = std::max(1.0, niceStep(span, 1, std::max(2, int(plot.width() / labelWidth))));
  p.setPen(textColor());
  for (double v = std::ceil(m_window.from() / xStep) * xStep; v < m_window.to(); v += xStep) {
    if (v < double(m_domainFirst) || v >= double(m_domainLast)) continue;
    const double x = xForItem(std::size_t(v));
    p.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 4));
    p.drawText(QRectF(x - labelWidth / 2, plot.bottom() + 4, labelWidth, fm.height()), Qt::AlignHCenter | Qt::AlignTop,
               QString::number(std::size_t(v)));
  }
  p.drawText(QRectF(plot.left(), plot.bottom() + 4 + fm.height(), plot.width(), fm.height()), Qt::AlignHCenter,
             xAxisTitle());
}

double IndexChart::legendEntryWidth(const LegendEntry& e) const {
  return 14 + 4 + QFontMetrics(font()).horizontalAdvance(e.name) + 16;
}

int IndexChart::legendRows(const std::vector<LegendEntry>& entries) const {
  int rows = entries.empty() ? 0 : 1;
  double x = kLeft;
  for (const LegendEntry& e : entries) {
    const double w = legendEntryWidth(e);
    if (x + w > width() - kRight && x > kLeft) {
      ++rows;
      x = kLeft;
    }
    x += w;
  }
  return rows;
}

void IndexChart::paintLegend(QPainter& p, const std::vector<LegendEntry>& entries) {
  // Entries flow left to right and wrap, so a dozen categories stay readable.
  const QFontMetrics fm(font());
  double x = kLeft, y = 8;
  for (const LegendEntry& e : entries) {
    const double w = legendEntryWidth(e);
    if (x + w > width() - kRight && x > kLeft) {
      x = kLeft;
      y += fm.height();
    }
    if (e.line) {
      p.setPen(QPen(e.color, 2, e.dashed ? Qt::DashLine : Qt::SolidLine));
      p.drawLine(QPointF(x, y + fm.height() / 2.0), QPointF(x + 14, y + fm.height() / 2.0));
    } else {
      p.fillRect(QRectF(x, y + 2, 14, fm.height() - 4), e.color);
    }
    p.setPen(textColor());
    p.drawText(QRectF(x + 18, y, w, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, e.name);
    x += w;
  }
}

void IndexChart::clickAt(double x, bool add) {
  const auto item = itemAt(x);
  if (!item) return;
  std::vector<std::size_t> items = m_selection;
  if (add) {
    auto it = std::find(items.begin(), items.end(), *item);
    if (it != items.end()) items.erase(it);
    else items.push_back(*item);
  } else {
    items = {*item};
  }
  setSelection(std::move(items));
}

void IndexChart::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return ChartWidget::mousePressEvent(event);
  m_pressed = true;
  m_dragged = false;
  m_pressPos = event->position();
  m_pressFirst = m_window.from();
  m_pressLast = m_window.to();
}

void IndexChart::mouseMoveEvent(QMouseEvent* event) {
  const QPointF pos = event->position();
  if (m_pressed) {
    if (std::abs(pos.x() - m_pressPos.x()) > 3) m_dragged = true;
    if (m_dragged) {
      const double perPixel = (m_pressLast - m_pressFirst) / plotRect().width();
      const double shift = -(pos.x() - m_pressPos.x()) * perPixel;
      setViewRange(m_pressFirst + shift, m_pressLast + shift);
    }
    return;
  }
  const auto item = itemAt(pos.x());
  if (item != m_hover) {
    m_hover = item;
    update();
    emit hovered(item);
  }
  if (item && plotRect().contains(pos)) QToolTip::showText(event->globalPosition().toPoint(), tooltip(*item), this);
  else QToolTip::hideText();
}

void IndexChart::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton || !m_pressed) return ChartWidget::mouseReleaseEvent(event);
  m_pressed = false;
  if (!m_dragged) clickAt(event->position().x(), event->modifiers() & Qt::ShiftModifier);
}

void IndexChart::wheelEvent(QWheelEvent* event) {
  const double steps = event->angleDelta().y() / 120.0;
  if (steps == 0) return;
  const QRectF plot = plotRect();
  const double rel = std::clamp((event->position().x() - plot.left()) / plot.width(), 0.0, 1.0);
  zoomBy(std::pow(AxisWindow::kWheelZoom, steps), m_window.from() + rel * m_window.span());
  event->accept();
}

void IndexChart::keyPressEvent(QKeyEvent* event) {
  bool moved = false;
  switch (event->key()) {
  case Qt::Key_Plus:
  case Qt::Key_Equal: moved = m_window.zoomAtCentre(AxisWindow::kKeyZoom); break;
  case Qt::Key_Minus:
  case Qt::Key_Underscore: moved = m_window.zoomAtCentre(1 / AxisWindow::kKeyZoom); break;
  case Qt::Key_Left: moved = m_window.pan(-AxisWindow::kKeyPan); break;
  case Qt::Key_Right: moved = m_window.pan(AxisWindow::kKeyPan); break;
  case Qt::Key_0:
  case Qt::Key_Home: resetZoom(); break;
  case Qt::Key_Escape: setSelection({}); break;
  default: ChartWidget::keyPressEvent(event); return;
  }
  if (moved) update();
  event->accept();
}

void IndexChart::leaveEvent(QEvent* event) {
  m_hover.reset();
  update();
  emit hovered(std::nullopt);
  ChartWidget::leaveEvent(event);
}

void IndexChart::addContextActions(QMenu& menu) {
  menu.addAction(tr("Reset zoom"), this, [this] { resetZoom(); });
  menu.addAction(tr("Clear selection"), this, [this] { setSelection({}); });
}

} // namespace tessera::viewer
