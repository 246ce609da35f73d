// Index-axis charts: view range, zoom and pan, axes, legend, selection and hover.
#include "charts/IndexChart.hpp"

#include "core/Downsample.hpp"
#include "core/Settings.hpp"

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

constexpr double kRight = 14, kBottom = 40;
/// Pixels between ticks the axes aim for (labels need about a line and a half each).
constexpr double kYTickSpacing = 40;

} // namespace

IndexChart::IndexChart(QWidget* parent) : ChartWidget(parent) {
  setMouseTracking(true);
  setMinimumSize(320, 200);
}

void IndexChart::setDomain(std::size_t first, std::size_t last) {
  domainFirst_ = first;
  domainLast_ = std::max(first, last);
  window_.setRange(double(domainFirst_), double(domainLast_));
  resetZoom();
}

void IndexChart::resetZoom() {
  window_.fit();
  windowMoved();
}

void IndexChart::setViewRange(double first, double last) {
  if (domainLast_ <= domainFirst_) return;
  if (window_.show(first, last)) windowMoved();
}

void IndexChart::zoomBy(double factor, double anchorItem) {
  if (window_.zoom(factor, anchorItem)) windowMoved();
}

void IndexChart::windowMoved() {
  update();
  emit viewChanged(window_.from(), window_.to());
}

void IndexChart::setSelection(std::vector<std::size_t> items) {
  std::sort(items.begin(), items.end());
  items.erase(std::unique(items.begin(), items.end()), items.end());
  if (items == selection_) return;
  selection_ = std::move(items);
  update();
  emit selectionChanged(selection_);
}

QRectF IndexChart::plotRect() const {
  return QRectF(left_, top_, std::max(1.0, width() - left_ - kRight),
                std::max(1.0, height() - top_ - kBottom));
}

double IndexChart::xForItem(std::size_t item) const {
  const QRectF plot = plotRect();
  const double span = std::max(1e-9, window_.span());
  return plot.left() + (double(item) + 0.5 - window_.from()) / span * plot.width();
}

std::optional<std::size_t> IndexChart::itemAt(double x) const {
  const QRectF plot = plotRect();
  if (x < plot.left() || x > plot.right() || domainLast_ <= domainFirst_) return std::nullopt;
  const double item = window_.from() + (x - plot.left()) / plot.width() * (window_.span());
  const double clamped =
      std::clamp(std::floor(item), double(domainFirst_), double(domainLast_ - 1));
  return std::size_t(clamped);
}

double IndexChart::yOf(double value) const {
  const QRectF plot = plotRect();
  const double span = std::max(1e-9, yMax_ - yMin_);
  return plot.bottom() - (value - yMin_) / span * plot.height();
}

std::pair<double, double> IndexChart::columnExtent(std::size_t firstItem, std::size_t lastItem,
                                                   double gap) const {
  const double half = plotRect().width() / std::max(1e-9, window_.span()) / 2;
  const double x0 = std::round(xForItem(firstItem) - half + gap);
  const double x1 = std::round(xForItem(lastItem - 1) + half - gap);
  return {x0, std::max(x0 + 1, x1)};
}

QColor IndexChart::rangeColor(const QColor& color) {
  // The colour mixed with white: the same hue, clearly lighter than the solid part below it.
  auto mix = [](int c) { return int(std::lround(c * 0.4 + 255 * 0.6)); };
  return QColor(mix(color.red()), mix(color.green()), mix(color.blue()));
}

std::vector<IndexChart::Column> IndexChart::columns(std::size_t first, std::size_t last,
                                                    double gap) const {
  std::vector<Column> out;
  if (last <= first) return out;
  const QRectF plot = plotRect();
  if (!sharesPixels()) {
    out.reserve(last - first);
    for (std::size_t i = first; i < last; ++i) {
      const auto [x0, x1] = columnExtent(i, i + 1, gap);
      out.push_back({x0, x1, {i, i + 1}});
    }
    return out;
  }
  const auto pixels = std::size_t(std::ceil(plot.width()));
  const std::vector<ItemRange> ranges = pixelItemRanges(
      window_.from(), window_.from() + window_.span() * pixels / plot.width(), pixels, first, last);
  out.reserve(pixels);
  for (std::size_t k = 0; k < pixels; ++k)
    if (ranges[k].last > ranges[k].first)
      out.push_back({plot.left() + double(k), plot.left() + double(k) + 1, ranges[k]});
  return out;
}

void IndexChart::paintColumns(QPainter& p, const std::vector<double>& values, std::size_t first,
                              const QColor& color, double base, bool markLowest) const {
  // Each pixel column draws its items' range: solid up to the lowest, pale from there to the
  // highest. A column of one item is solid; a pattern of low items among high ones reads the
  // same at every width instead of vanishing under the highest.
  const QColor pale = rangeColor(color);
  for (const Column& c : columns(first, first + values.size())) {
    const MinMax m = minMaxOf(values.data(), first, c.items);
    const double solidTop = markLowest ? std::max(m.min, base) : m.max;
    if (m.max > solidTop)
      p.fillRect(QRectF(c.x0, yOf(m.max), c.x1 - c.x0, yOf(solidTop) - yOf(m.max)), pale);
    if (solidTop > base)
      p.fillRect(QRectF(c.x0, yOf(solidTop), c.x1 - c.x0, yOf(base) - yOf(solidTop)), color);
  }
}

std::pair<std::size_t, std::size_t> IndexChart::visibleItems() const {
  const auto first = std::size_t(std::max(double(domainFirst_), std::floor(window_.from())));
  const auto last = std::size_t(std::min(double(domainLast_), std::ceil(window_.to())));
  return {first, std::max(first, last)};
}

QColor IndexChart::selectionColor() const {
  return palette().color(QPalette::Highlight);
}

void IndexChart::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), backgroundColor());
  std::vector<LegendEntry> entries = legend();
  if (!selection_.empty())
    entries.push_back({tr("Selected (%1, marked above the data)").arg(selection_.size()),
                       selectionColor(), false});
  const QFontMetrics fm(font());
  top_ = 8 + legendRows(entries) * fm.height() + 6;
  const QString message = emptyMessage();
  if (!message.isEmpty() || domainLast_ <= domainFirst_) {
    p.setPen(textColor());
    p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
               message.isEmpty() ? tr("Nothing to show") : message);
    return;
  }
  const auto [first, last] = visibleItems();
  auto [lo, hi] = yRange(first, last);
  if (hi <= lo) hi = lo + 1;
  // Headroom above the highest value (and below the lowest when it is negative).
  const double pad = (hi - lo) * 0.08;
  yMin_ = lo < 0 ? lo - pad : lo;
  yMax_ = hi + pad;
  // The y ticks decide the left margin: the widest label, then the rotated axis title.
  const double plotHeight = std::max(1.0, height() - top_ - kBottom);
  yTicks_ = valueAxisTicks(yMin_, yMax_, std::max(4, int(plotHeight / kYTickSpacing)));
  int widest = 0;
  for (const QString& label : yTicks_.labels)
    widest = std::max(widest, fm.horizontalAdvance(label));
  left_ = widest + 10 + fm.height() + 6;
  const QRectF plot = plotRect();

  paintAxes(p, plot);
  p.save();
  p.setClipRect(plot);
  paintData(p, plot, first, last);

  // Selected items: a mark each in a strip along the top of the plot (the headroom above the
  // data), at least 3 px wide so one tile of 20,000 shows. Never over the data: translucent
  // columns recoloured every band under them, and a large selection left the legend (and saved
  // images) matching nothing.
  const double itemWidth = plot.width() / std::max(1e-9, window_.span());
  const double w = std::max(3.0, itemWidth);
  const QColor sel = selectionColor();
  for (std::size_t item : selection_) {
    if (item < first || item >= last) continue;
    const double x = xForItem(item);
    p.fillRect(QRectF(x - w / 2, plot.top(), w, kSelectionStrip), sel);
  }
  if (hover_ && *hover_ >= first && *hover_ < last) {
    QColor h = textColor();
    h.setAlpha(120);
    p.setPen(QPen(h, 1, Qt::DotLine));
    const double x = xForItem(*hover_);
    p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
  }
  p.restore();
  paintLegend(p, entries);
}

AxisTicks IndexChart::valueAxisTicks(double lo, double hi, int targetTicks) const {
  return bytesAxisTicks(lo, hi, targetTicks, Settings::instance().memoryUnits());
}

void IndexChart::paintAxes(QPainter& p, const QRectF& plot) {
  const QFontMetrics fm(font());
  p.setPen(gridColor());
  p.drawRect(plot);
  // y: grid lines and labels at the ticks chosen in paintEvent (one unit for the whole axis).
  for (std::size_t i = 0; i < yTicks_.values.size(); ++i) {
    const double y = yOf(yTicks_.values[i]);
    if (y < plot.top() - 0.5 || y > plot.bottom() + 0.5) continue;
    p.setPen(gridColor());
    p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
    p.setPen(textColor());
    p.drawText(QRectF(0, y - fm.height() / 2.0, plot.left() - 6, fm.height()),
               Qt::AlignRight | Qt::AlignVCenter, yTicks_.labels[int(i)]);
  }
  // The y title, written upwards along the axis.
  p.save();
  p.setPen(textColor());
  p.translate(2, plot.center().y());
  p.rotate(-90);
  p.drawText(QRectF(-plot.height() / 2, 0, plot.height(), fm.height()), Qt::AlignCenter,
             yTicks_.unit.isEmpty() ? yAxisTitle() : tr("%1 (%2)").arg(yAxisTitle(), yTicks_.unit));
  p.restore();
  // x: item numbers at round steps, at least four when that many items are in view.
  const double labelWidth = fm.horizontalAdvance(QString::number(domainLast_)) + 24;
  // At least four labels, as far as they fit side by side.
  const int fitting = int(plot.width() / (fm.horizontalAdvance(QString::number(domainLast_)) + 8));
  xTicks_ = indexAxisTicks(std::max(window_.from(), double(domainFirst_)),
                           std::min(window_.to(), double(domainLast_)),
                           std::max(2, int(plot.width() / labelWidth)), std::min(4, fitting));
  p.setPen(textColor());
  for (std::size_t i = 0; i < xTicks_.values.size(); ++i) {
    const double x = xForItem(std::size_t(xTicks_.values[i]));
    if (x < plot.left() - 0.5 || x > plot.right() + 0.5) continue;
    p.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 4));
    p.drawText(QRectF(x - labelWidth / 2, plot.bottom() + 4, labelWidth, fm.height()),
               Qt::AlignHCenter | Qt::AlignTop, xTicks_.labels[int(i)]);
  }
  p.drawText(QRectF(plot.left(), plot.bottom() + 4 + fm.height(), plot.width(), fm.height()),
             Qt::AlignHCenter, xAxisTitle());
}

double IndexChart::legendEntryWidth(const LegendEntry& e) const {
  return 14 + 4 + QFontMetrics(font()).horizontalAdvance(e.name) + 16;
}

int IndexChart::legendRows(const std::vector<LegendEntry>& entries) const {
  int rows = entries.empty() ? 0 : 1;
  double x = left_;
  for (const LegendEntry& e : entries) {
    const double w = legendEntryWidth(e);
    if (x + w > width() - kRight && x > left_) {
      ++rows;
      x = left_;
    }
    x += w;
  }
  return rows;
}

void IndexChart::setSeriesShown(const QString& name, bool shown) {
  if (shown == isSeriesShown(name)) return;
  if (shown)
    hidden_.remove(name);
  else
    hidden_.insert(name);
  update();
  emit seriesVisibilityChanged();
  emit dataChanged();
}

QString IndexChart::legendEntryAt(const QPointF& at) const {
  for (const auto& [rect, name] : legendRects_)
    if (rect.contains(at)) return name;
  return {};
}

void IndexChart::paintLegend(QPainter& p, const std::vector<LegendEntry>& entries) {
  // Entries flow left to right and wrap, so a dozen categories stay readable.
  const QFontMetrics fm(font());
  double x = left_, y = 8;
  legendRects_.clear();
  for (const LegendEntry& entry : entries) {
    const double w = legendEntryWidth(entry);
    if (x + w > width() - kRight && x > left_) {
      x = left_;
      y += fm.height();
    }
    LegendEntry e = entry;
    const bool hidden = e.toggles && !isSeriesShown(e.name);
    if (e.toggles) legendRects_.push_back({QRectF(x, y, w - 12, fm.height()), e.name});
    if (hidden) e.color.setAlpha(60); // a hidden series' entry stays, faded, to be clicked again
    if (e.mark) {
      p.fillRect(QRectF(x, y + fm.height() / 2.0 - 1, 14, 2), e.color);
    } else if (e.line) {
      p.setPen(QPen(e.color, 2, e.dashed ? Qt::DashLine : Qt::SolidLine));
      p.drawLine(QPointF(x, y + fm.height() / 2.0), QPointF(x + 14, y + fm.height() / 2.0));
    } else {
      p.fillRect(QRectF(x, y + 2, 14, fm.height() - 4), e.color);
    }
    QColor text = textColor();
    if (hidden) text.setAlpha(110);
    p.setPen(text);
    p.drawText(QRectF(x + 18, y, w, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, e.name);
    x += w;
  }
}

void IndexChart::clickAt(double x, bool add) {
  const auto item = itemAt(x);
  if (!item) return;
  std::vector<std::size_t> items = selection_;
  if (add) {
    auto it = std::find(items.begin(), items.end(), *item);
    if (it != items.end())
      items.erase(it);
    else
      items.push_back(*item);
  } else {
    items = {*item};
  }
  setSelection(std::move(items));
}

void IndexChart::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return ChartWidget::mousePressEvent(event);
  const QString entry = legendEntryAt(event->position());
  if (!entry.isEmpty()) { // a legend entry: show or hide its series, select nothing
    setSeriesShown(entry, !isSeriesShown(entry));
    return;
  }
  pressed_ = true;
  dragged_ = false;
  pressPos_ = event->position();
  pressFirst_ = window_.from();
  pressLast_ = window_.to();
}

void IndexChart::mouseMoveEvent(QMouseEvent* event) {
  const QPointF pos = event->position();
  if (pressed_) {
    if (std::abs(pos.x() - pressPos_.x()) > 3) dragged_ = true;
    if (dragged_) {
      const double perPixel = (pressLast_ - pressFirst_) / plotRect().width();
      const double shift = -(pos.x() - pressPos_.x()) * perPixel;
      setViewRange(pressFirst_ + shift, pressLast_ + shift);
    }
    return;
  }
  const auto item = itemAt(pos.x());
  if (item != hover_) {
    hover_ = item;
    update();
    emit hovered(item);
  }
  if (item && plotRect().contains(pos))
    QToolTip::showText(event->globalPosition().toPoint(), tooltip(*item), this);
  else
    QToolTip::hideText();
}

void IndexChart::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton || !pressed_) return ChartWidget::mouseReleaseEvent(event);
  pressed_ = false;
  if (!dragged_) clickAt(event->position().x(), event->modifiers() & Qt::ShiftModifier);
}

void IndexChart::wheelEvent(QWheelEvent* event) {
  const double steps = event->angleDelta().y() / 120.0;
  if (steps == 0) return;
  const QRectF plot = plotRect();
  const double rel = std::clamp((event->position().x() - plot.left()) / plot.width(), 0.0, 1.0);
  zoomBy(std::pow(AxisWindow::kWheelZoom, steps), window_.from() + rel * window_.span());
  event->accept();
}

void IndexChart::keyPressEvent(QKeyEvent* event) {
  bool moved = false;
  switch (event->key()) {
  case Qt::Key_Plus:
  case Qt::Key_Equal:
    moved = window_.zoomAtCentre(AxisWindow::kKeyZoom);
    break;
  case Qt::Key_Minus:
  case Qt::Key_Underscore:
    moved = window_.zoomAtCentre(1 / AxisWindow::kKeyZoom);
    break;
  case Qt::Key_Left:
    moved = window_.pan(-AxisWindow::kKeyPan);
    break;
  case Qt::Key_Right:
    moved = window_.pan(AxisWindow::kKeyPan);
    break;
  case Qt::Key_0:
  case Qt::Key_Home:
    resetZoom();
    break;
  case Qt::Key_Escape:
    setSelection({});
    break;
  default:
    ChartWidget::keyPressEvent(event);
    return;
  }
  if (moved) windowMoved();
  event->accept();
}

void IndexChart::leaveEvent(QEvent* event) {
  hover_.reset();
  update();
  emit hovered(std::nullopt);
  ChartWidget::leaveEvent(event);
}

void IndexChart::addContextActions(QMenu& menu) {
  menu.addAction(tr("Reset zoom"), this, [this] { resetZoom(); });
  menu.addAction(tr("Clear selection"), this, [this] { setSelection({}); });
}

} // namespace tessera::viewer
