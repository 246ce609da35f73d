// The computation graph, custom painted: compute sets as boxes, variables as ellipses, edges as
// Graphviz's splines. Wheel zooms around the pointer (1.25x a notch), dragging pans, +/- zoom
// 2x, 0 or Home fits the graph; a click selects a node; a double click (or Enter) on a node
// activates it (the Graph page opens a group, or closes the group a node lies in). Painting culls
// to the visible area and drops text when it would be unreadably small, so a pan or zoom repaints
// only what shows.
#pragma once

#include "core/GraphData.hpp"

#include <QPainter>
#include <QSet>
#include <QWidget>
#include <memory>

namespace tessera::viewer {

class GraphView : public QWidget {
  Q_OBJECT
public:
  explicit GraphView(QWidget* parent = nullptr);

  /// Shows a laid-out graph and fits it; `keepView`: a new layout of the same graph (a group
  /// opened) keeps the zoom, and fits only when the graph no longer shows where the view is.
  void setData(std::shared_ptr<const GraphViewData> graph, bool keepView = false);
  const GraphViewData* graphData() const { return data_.get(); }

  /// The selected node (-1: none). Selecting centres it, at a scale that shows labels, unless it
  /// is in view and readable already (a click never moves the view).
  int selected() const { return selected_; }
  void select(int node);
  /// Centres `node` zoomed in far enough to read its label, unless it is in view and readable
  /// already; selects nothing.
  void showNode(int node);
  /// Nodes drawn highlighted (search matches).
  void setHighlighted(const QVector<int>& nodes);

  /// Points per graph unit, and the graph point shown at the widget's top-left.
  double scale() const { return scale_; }
  QPointF origin() const { return origin_; }
  void zoomBy(double factor, QPointF around);
  void panBy(QPointF pixels);
  void fit();
  QPointF toWidget(QPointF graph) const { return (graph - origin_) * scale_; }
  QPointF toGraph(QPointF widget) const { return widget / scale_ + origin_; }
  /// The node under a widget position, or -1.
  int nodeAt(QPointF widget) const;

  QSize sizeHint() const override { return {800, 600}; }

signals:
  void selectionChanged(int node);
  /// Double click or Enter on a node.
  void activated(int node);

protected:
  void paintEvent(QPaintEvent*) override;
  void resizeEvent(QResizeEvent*) override;
  void wheelEvent(QWheelEvent*) override;
  void mousePressEvent(QMouseEvent*) override;
  void mouseMoveEvent(QMouseEvent*) override;
  void mouseReleaseEvent(QMouseEvent*) override;
  void mouseDoubleClickEvent(QMouseEvent*) override;
  void keyPressEvent(QKeyEvent*) override;

private:
  void clampView();
  void drawLegend(QPainter& p) const;
  std::shared_ptr<const GraphViewData> data_;
  QSet<int> highlighted_;
  int selected_ = -1;
  double scale_ = 1.0;
  QPointF origin_;
  bool fitted_ = false; ///< follow resizes until the user zooms or pans
  QPoint press_, last_;
  bool dragged_ = false;
};

} // namespace tessera::viewer
