// The navigation strip under an index chart (Memory, Liveness): the chart's whole domain (every
// tile or step; each pixel column solid up to its lowest item, pale up to its highest, a dark mark
// at its mean) with the chart's visible window
// as a rectangle. Dragging the rectangle pans the chart, a click elsewhere centres the window
// there, the wheel zooms; the window follows the chart's own zoom and pan. The miniature is
// cached and redrawn only when the chart's data, domain or the strip's size change.
//
// It moves the chart through IndexChart::setViewRange, so the chart's AxisWindow keeps the view
// inside the data exactly as for the chart's own keys and wheel. At its left, where the chart has
// its y labels, a box shows the visible range ("100-200") and takes a typed one (Enter applies;
// core/ItemRangeText): typed zoom. GUI thread only.
#pragma once

#include "charts/ChartWidget.hpp"

#include <QImage>
#include <QString>

class QLineEdit;

#include <cstddef>
#include <utility>
#include <vector>

namespace tessera::viewer {

class IndexChart;

class RangeOverview : public ChartWidget {
  Q_OBJECT
public:
  explicit RangeOverview(IndexChart* chart, QWidget* parent = nullptr);
  /// The strip (the whole domain) and the visible window on it, in widget coordinates.
  QRect stripRect() const;
  QRect windowRect() const;
  QSize sizeHint() const override { return {900, 40}; }
  /// The typed-zoom box (for tests and callers); `noun` names the items in its messages.
  QLineEdit* rangeEdit() const { return rangeEdit_; }
  void setItemNoun(const QString& noun) { noun_ = noun; }
  /// Shows the typed range as if typed into the box and Enter pressed; false (and a message in
  /// the box's tooltip, shown) when it is not a range of the chart's domain.
  bool applyTypedRange(const QString& text);
  /// One pixel column of the miniature: its items' lowest, mean and highest overview value.
  struct Column {
    double min = 0, mean = 0, max = 0;
    bool hasItems = false;
  };
  /// The columns last drawn (one per pixel of the strip; empty until first painted) and the
  /// picture itself, for tests.
  const std::vector<Column>& columns() const { return columns_; }
  const QImage& miniature() const { return cache_; }

protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;

private:
  /// The item under a strip x (fractional), and the x of an item boundary.
  double itemAt(double x) const;
  double xOf(double item) const;
  void moveWindowTo(double centreItem);
  void renderCache();
  void placeRangeEdit();
  void showVisibleRange();

  IndexChart* chart_;
  QImage cache_;
  std::vector<Column> columns_;
  bool cacheValid_ = false;
  std::pair<std::size_t, std::size_t> cachedDomain_{0, 0};
  bool dragging_ = false;
  double grabOffset_ = 0; ///< where in the window the drag started, in items from its centre
  QLineEdit* rangeEdit_ = nullptr;
  QString noun_ = QStringLiteral("item");
};

} // namespace tessera::viewer
