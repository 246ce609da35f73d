// The navigation strip above the execution timeline: the whole execution (every IPU lane of the
// current report, reduced to the strip's width) with the timeline's visible window as a
// rectangle. Dragging the rectangle pans the timeline; a click elsewhere centres the window
// there; the wheel zooms. The strip is cached and redrawn only when more steps are indexed or
// its size changes. GUI thread only.
#pragma once

#include "charts/ChartWidget.hpp"
#include "core/ExecutionIndex.hpp"

#include <QImage>
#include <memory>

namespace tessera::viewer {

class ExecutionTimeline;

class ExecutionOverview : public ChartWidget {
  Q_OBJECT
public:
  explicit ExecutionOverview(ExecutionTimeline* timeline, QWidget* parent = nullptr);
  void setIndex(std::shared_ptr<const ExecutionIndex> index);
  /// The visible window as drawn, in widget coordinates (for tests).
  QRect windowRect() const;
  QSize sizeHint() const override { return {900, 46}; }

protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;

private:
  double extent() const;
  QRect stripRect() const;
  void moveWindowTo(double centre);

  ExecutionTimeline* timeline_;
  std::shared_ptr<const ExecutionIndex> index_;
  QImage cache_;
  std::uint64_t cachedSteps_ = ~std::uint64_t(0);
  double cachedExtent_ = -1;
  bool dragging_ = false;
  double grabOffset_ = 0; ///< where in the window the drag started, in cycles from its centre
};

} // namespace tessera::viewer
