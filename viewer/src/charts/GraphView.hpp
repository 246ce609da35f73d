// The computation graph, custom painted: compute sets as boxes, variables as ellipses, edges as
// Graphviz's splines. Wheel zooms around the pointer (1.25x a notch), dragging pans, +/- zoom
// 2x, 0 or Home fits the graph; a click selects a node. Painting culls to the visible area and
// drops text when it would be unreadably small, so a pan or zoom repaints only what shows.
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

  void setData(std::shared_ptr<const GraphViewData> graph);
  const GraphViewData* graphData() const { return m_data.get(); }

  /// The selected node (-1: none). Selecting centres it, at a scale that shows labels, unless it
  /// is in view and readable already (a click never moves the view).
  int selected() const { return m_selected; }
  void select(int node);
  /// Nodes drawn highlighted (search matches).
  void setHighlighted(const QVector<int>& nodes);

  /// Points per graph unit, and the graph point shown at the widget's top-left.
  double scale() const { return m_scale; }
  QPointF origin() const { return m_origin; }
  void zoomBy(double factor, QPointF around);
  void panBy(QPointF pixels);
  void fit();
  QPointF toWidget(QPointF graph) const { return (graph - m_origin) * m_scale; }
  QPointF toGraph(QPointF widget) const { return widget / m_scale + m_origin; }
  /// The node under a widget position, or -1.
  int nodeAt(QPointF widget) const;

  QSize sizeHint() const override { return {800, 600}; }

signals:
  void selectionChanged(int node);

protected:
  void paintEvent(QPaintEvent*) override;
  void resizeEvent(QResizeEvent*) override;
  void wheelEvent(QWheelEvent*) override;
  void mousePressEvent(QMouseEvent*) override;
  void mouseMoveEvent(QMouseEvent*) override;
  void mouseReleaseEvent(QMouseEvent*) override;
  void keyPressEvent(QKeyEvent*) override;

private:
  void clampView();
  void drawLegend(QPainter& p) const;
  std::shared_ptr<const GraphViewData> m_data;
  QSet<int> m_highlighted;
  int m_selected = -1;
  double m_scale = 1.0;
  QPointF m_origin;
  bool m_fitted = false; ///< follow resizes until the user zooms or pans
  QPoint m_press, m_last;
  bool m_dragged = false;
};

} // namespace tessera::viewer
