// The execution overview strip: a cached miniature of every lane and a draggable window.
#include "charts/ExecutionOverview.hpp"

#include "charts/ExecutionTimeline.hpp"
#include "core/TimelineLod.hpp"

#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace tessera::viewer {

ExecutionOverview::ExecutionOverview(ExecutionTimeline* timeline, QWidget* parent)
    : ChartWidget(parent), timeline_(timeline) {
  setFixedHeight(46);
  setObjectName(QStringLiteral("execution-overview"));
  connect(timeline, &ExecutionTimeline::viewChanged, this, qOverload<>(&QWidget::update));
}

void ExecutionOverview::setIndex(std::shared_ptr<const ExecutionIndex> index) {
  index_ = std::move(index);
  cachedSteps_ = ~std::uint64_t(0);
  update();
}

QRect ExecutionOverview::stripRect() const {
  return rect().adjusted(92, 4, -6, -4);
}

double ExecutionOverview::extent() const {
  return index_ ? std::max(1.0, double(index_->loadedEnd())) : 1.0;
}

QRect ExecutionOverview::windowRect() const {
  const QRect s = stripRect();
  const double e = extent();
  const int x0 = s.left() + int(std::floor(timeline_->viewFrom() / e * s.width()));
  const int x1 = s.left() + int(std::ceil(timeline_->viewTo() / e * s.width()));
  return QRect(x0, s.top(), std::max(3, x1 - x0), s.height());
}

void ExecutionOverview::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().color(QPalette::Window));
  const QRect s = stripRect();
  p.setPen(textColor());
  p.drawText(QRect(2, 0, 84, height()), Qt::AlignRight | Qt::AlignVCenter, tr("Overview"));
  if (!index_ || index_->numLanes() == 0) return;
  const std::uint64_t loaded = index_->loadedSteps();
  if (cache_.size() != s.size() || loaded != cachedSteps_ || extent() != cachedExtent_) {
    cachedSteps_ = loaded;
    cachedExtent_ = extent();
    cache_ = QImage(s.size(), QImage::Format_RGB32);
    cache_.fill(backgroundColor());
    const unsigned lanes =
        std::min<unsigned>(index_->numLanes(), unsigned(std::max(1, s.height() / 2)));
    for (unsigned lane = 0; lane < lanes; ++lane) {
      const int y0 = s.height() * int(lane) / int(lanes),
                y1 = s.height() * int(lane + 1) / int(lanes);
      for (const TimelineSpan& span : reduceLane(*index_, lane, 0, cachedExtent_, s.width())) {
        const auto cycles = index_->approximateCycles(lane, span.first, span.first + span.count);
        // The kind with most cycles colours the column: the strip is for finding one's way.
        int best = 0;
        for (int k = 1; k < kStepKinds; ++k)
          if (cycles[std::size_t(k)] > cycles[std::size_t(best)]) best = k;
        const QRgb c = stepKindColor(StepKind(best)).rgb();
        for (int y = y0; y < y1; ++y) {
          auto* line = reinterpret_cast<QRgb*>(cache_.scanLine(y));
          std::fill(line + span.x0, line + std::min(span.x1, s.width()), c);
        }
      }
    }
  }
  p.drawImage(s.topLeft(), cache_);
  const QRect w = windowRect().intersected(s.adjusted(0, 0, 1, 0));
  QColor shade = palette().color(QPalette::Window);
  shade.setAlpha(150);
  p.fillRect(QRect(s.left(), s.top(), w.left() - s.left(), s.height()), shade);
  p.fillRect(QRect(w.right() + 1, s.top(), s.right() - w.right(), s.height()), shade);
  p.setPen(QPen(palette().color(QPalette::Highlight), 2));
  p.setBrush(Qt::NoBrush);
  p.drawRect(w.adjusted(0, 0, -1, -1));
}

void ExecutionOverview::moveWindowTo(double centre) {
  const double span = timeline_->viewTo() - timeline_->viewFrom();
  timeline_->setView(centre - span / 2, centre + span / 2);
}

void ExecutionOverview::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton || !index_) return;
  const QRect s = stripRect();
  const double t = (event->pos().x() - s.left()) * extent() / std::max(1, s.width());
  const double centre = (timeline_->viewFrom() + timeline_->viewTo()) / 2;
  if (windowRect().adjusted(-3, 0, 3, 0).contains(event->pos())) {
    grabOffset_ = t - centre; // drag the window by where it was grabbed
  } else {
    grabOffset_ = 0;
    moveWindowTo(t);
  }
  dragging_ = true;
}

void ExecutionOverview::mouseMoveEvent(QMouseEvent* event) {
  if (!dragging_) return;
  const QRect s = stripRect();
  moveWindowTo((event->pos().x() - s.left()) * extent() / std::max(1, s.width()) - grabOffset_);
}

void ExecutionOverview::mouseReleaseEvent(QMouseEvent*) {
  dragging_ = false;
}

void ExecutionOverview::wheelEvent(QWheelEvent* event) {
  const double notches = event->angleDelta().y() / 120.0;
  if (notches != 0)
    timeline_->zoomBy(std::pow(AxisWindow::kWheelZoom, notches), timeline_->width() / 2.0);
  event->accept();
}

} // namespace tessera::viewer
