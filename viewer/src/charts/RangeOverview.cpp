// The overview strip of an index chart: a cached miniature of the whole domain and a draggable
// window.
#include "charts/RangeOverview.hpp"

#include "charts/IndexChart.hpp"
#include "core/AxisWindow.hpp"
#include "core/ItemRangeText.hpp"

#include <QLineEdit>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <vector>

namespace tessera::viewer {

RangeOverview::RangeOverview(IndexChart* chart, QWidget* parent)
    : ChartWidget(parent), chart_(chart) {
  setFixedHeight(40);
  setObjectName(chart->objectName() + QStringLiteral("-overview"));
  setToolTip(tr(
      "Overview of every item: drag the window to pan, click to centre it there, wheel to zoom"));
  rangeEdit_ = new QLineEdit(this);
  rangeEdit_->setObjectName(objectName() + QStringLiteral("-range"));
  rangeEdit_->setToolTip(
      tr("The items shown: type first-last (e.g. 100-200) or one number and press Enter"));
  rangeEdit_->setAlignment(Qt::AlignCenter);
  connect(rangeEdit_, &QLineEdit::returnPressed, this,
          [this] { applyTypedRange(rangeEdit_->text()); });
  connect(rangeEdit_, &QLineEdit::editingFinished, this, [this] {
    if (!rangeEdit_->hasFocus()) showVisibleRange(); // leaving the box shows the view again
  });
  connect(chart, &IndexChart::viewChanged, this, [this] {
    showVisibleRange();
    update();
  });
  connect(chart, &IndexChart::dataChanged, this, [this] {
    cacheValid_ = false;
    update();
  });
}

QRect RangeOverview::stripRect() const {
  // Aligned with the chart's plot, so the window sits under what the chart shows.
  const QRectF plot = chart_->plotRect();
  const int left = std::max(2, int(std::round(plot.left())));
  const int right = std::max(left + 10, int(std::round(plot.right())));
  return QRect(left, 3, right - left, height() - 6);
}

double RangeOverview::xOf(double item) const {
  const QRect s = stripRect();
  const auto [first, last] = chart_->domain();
  const double span = std::max<double>(1, double(last - first));
  return s.left() + (item - double(first)) / span * s.width();
}

double RangeOverview::itemAt(double x) const {
  const QRect s = stripRect();
  const auto [first, last] = chart_->domain();
  return double(first) + (x - s.left()) / std::max(1, s.width()) * double(last - first);
}

QRect RangeOverview::windowRect() const {
  const QRect s = stripRect();
  const auto [from, to] = chart_->viewRange();
  const int x0 = int(std::floor(xOf(from))), x1 = int(std::ceil(xOf(to)));
  return QRect(x0, s.top(), std::max(3, x1 - x0), s.height());
}

void RangeOverview::renderCache() {
  const QRect s = stripRect();
  cache_ = QImage(s.size(), QImage::Format_RGB32);
  cache_.fill(backgroundColor());
  cachedDomain_ = chart_->domain();
  cacheValid_ = true;
  const auto [first, last] = cachedDomain_;
  if (last <= first || s.width() <= 0) return;
  // Lowest, mean and highest item per pixel column, over the whole domain.
  const std::size_t n = last - first;
  std::vector<double> values(n);
  double lo = 0, hi = 0;
  for (std::size_t i = 0; i < n; ++i) {
    values[i] = chart_->overviewValue(first + i);
    lo = std::min(lo, values[i]);
    hi = std::max(hi, values[i]);
  }
  columns_.clear();
  if (hi <= lo) return;
  QPainter p(&cache_);
  const QColor fill = chart_->overviewColor();
  // Blended towards the background: the part of a column only some of its items reach.
  const QColor pale = QColor::fromRgbF(0.35f * fill.redF() + 0.65f * backgroundColor().redF(),
                                       0.35f * fill.greenF() + 0.65f * backgroundColor().greenF(),
                                       0.35f * fill.blueF() + 0.65f * backgroundColor().blueF());
  const QColor meanColor = fill.darker(170);
  const double h = s.height();
  auto yOf = [&](double v) { return h - (v - lo) / (hi - lo) * h; };
  const std::vector<ItemRange> ranges = pixelItemRanges(0, double(n), std::size_t(s.width()), 0, n);
  columns_.reserve(ranges.size());
  for (std::size_t k = 0; k < ranges.size(); ++k) {
    if (ranges[k].last <= ranges[k].first) {
      columns_.push_back({});
      continue;
    }
    const MinMax m = minMaxOf(values.data(), 0, ranges[k]);
    double sum = 0;
    for (std::size_t i = ranges[k].first; i < ranges[k].last; ++i)
      sum += values[i];
    const double mean = sum / double(ranges[k].last - ranges[k].first);
    columns_.push_back({m.min, mean, m.max, true});
    // Pale from the lowest to the highest item (drawn from zero, as the chart draws a bar)...
    const double top = yOf(std::max(m.max, 0.0)), bottom = yOf(std::min(m.min, 0.0));
    p.fillRect(QRectF(double(k), top, 1, std::max(1.0, bottom - top)), pale);
    // ...solid as far as every item of the column reaches (zero to its item nearest zero)...
    if (m.min > 0 || m.max < 0) {
      const double solidTop = yOf(m.min > 0 ? m.min : 0.0),
                   solidBottom = yOf(m.max < 0 ? m.max : 0.0);
      p.fillRect(QRectF(double(k), solidTop, 1, std::max(0.0, solidBottom - solidTop)), fill);
    }
    // ...and a dark mark at the mean, so a column of one tall item among low ones reads as such.
    p.fillRect(QRectF(double(k), std::clamp(yOf(mean) - 0.5, 0.0, h - 1), 1, 1), meanColor);
  }
}

void RangeOverview::showVisibleRange() {
  if (rangeEdit_->hasFocus()) return; // never overwrite what is being typed
  const auto [from, to] = chart_->viewRange();
  rangeEdit_->setText(chart_->domain().second > chart_->domain().first ? formatItemRange(from, to)
                                                                       : QString());
  rangeEdit_->setStyleSheet({});
}

bool RangeOverview::applyTypedRange(const QString& text) {
  const auto [first, last] = chart_->domain();
  QString error;
  const std::optional<TypedRange> r = parseItemRange(text, first, last, noun_, &error);
  if (!r) {
    rangeEdit_->setStyleSheet(QStringLiteral("color: #c00000"));
    rangeEdit_->setToolTip(error);
    QToolTip::showText(rangeEdit_->mapToGlobal(QPoint(0, rangeEdit_->height())), error, rangeEdit_);
    return false;
  }
  rangeEdit_->setStyleSheet({});
  rangeEdit_->setToolTip(
      tr("The items shown: type first-last (e.g. 100-200) or one number and press Enter"));
  if (r->single)
    moveWindowTo(double(r->first) + 0.5);
  else
    chart_->setViewRange(double(r->first), double(r->last) + 1);
  rangeEdit_->clearFocus();
  showVisibleRange();
  return true;
}

void RangeOverview::placeRangeEdit() {
  // In the space left of the strip (under the chart's y labels); too narrow: the label only.
  const QRect s = stripRect();
  const int w = s.left() - 8;
  const bool fits = w >= 48;
  const QRect g(2, s.top(), std::max(0, w), s.height());
  if (rangeEdit_->isVisible() != fits) rangeEdit_->setVisible(fits);
  if (fits && rangeEdit_->geometry() != g) rangeEdit_->setGeometry(g);
}

void RangeOverview::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().color(QPalette::Window));
  const QRect s = stripRect();
  placeRangeEdit();
  if (rangeEdit_->text().isEmpty() && !rangeEdit_->hasFocus()) showVisibleRange();
  p.setPen(textColor());
  if (!rangeEdit_->isVisible())
    p.drawText(QRect(0, 0, std::max(0, s.left() - 6), height()), Qt::AlignRight | Qt::AlignVCenter,
               tr("Overview"));
  if (!cacheValid_ || cache_.size() != s.size() || cachedDomain_ != chart_->domain()) renderCache();
  p.drawImage(s.topLeft(), cache_);
  p.setPen(gridColor());
  p.setBrush(Qt::NoBrush);
  p.drawRect(s.adjusted(0, 0, -1, -1));
  const QRect w = windowRect().intersected(s.adjusted(0, 0, 1, 0));
  // Shade what the chart does not show; outline the window.
  QColor shade = palette().color(QPalette::Window);
  shade.setAlpha(160);
  p.fillRect(QRect(s.left(), s.top(), w.left() - s.left(), s.height()), shade);
  p.fillRect(QRect(w.right() + 1, s.top(), s.right() - w.right(), s.height()), shade);
  p.setPen(QPen(palette().color(QPalette::Highlight), 2));
  p.drawRect(w.adjusted(1, 1, -1, -1));
}

void RangeOverview::moveWindowTo(double centreItem) {
  const auto [from, to] = chart_->viewRange();
  const double span = to - from;
  chart_->setViewRange(centreItem - span / 2, centreItem + span / 2);
}

void RangeOverview::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return ChartWidget::mousePressEvent(event);
  const double item = itemAt(event->position().x());
  const auto [from, to] = chart_->viewRange();
  const double centre = (from + to) / 2;
  if (windowRect().adjusted(-3, 0, 3, 0).contains(event->position().toPoint())) {
    grabOffset_ = item - centre; // drag the window by where it was grabbed
  } else {
    grabOffset_ = 0;
    moveWindowTo(item);
  }
  dragging_ = true;
}

void RangeOverview::mouseMoveEvent(QMouseEvent* event) {
  if (dragging_) moveWindowTo(itemAt(event->position().x()) - grabOffset_);
}

void RangeOverview::mouseReleaseEvent(QMouseEvent*) {
  dragging_ = false;
}

void RangeOverview::wheelEvent(QWheelEvent* event) {
  const double notches = event->angleDelta().y() / 120.0;
  if (notches != 0) {
    const auto [from, to] = chart_->viewRange();
    chart_->zoomBy(std::pow(AxisWindow::kWheelZoom, notches), (from + to) / 2);
  }
  event->accept();
}

} // namespace tessera::viewer
