// Base of the charts whose x axis is an item index (tiles on the Memory page, liveness steps on
// the Liveness page) and whose y axis is bytes: the view range with wheel zoom, drag pan and keys
// (+ - arrows 0), axes and grid, the legend, click / shift-click selection of items, and hover
// with a tooltip. Subclasses paint the data of the visible range, reduced to the pixel width.
//
// Threads: GUI thread only. Cost: painting is O(visible items + plot width) in the subclasses.
#pragma once

#include "charts/ChartWidget.hpp"
#include "core/AxisWindow.hpp"

#include <QString>

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace tessera::viewer {

class IndexChart : public ChartWidget {
  Q_OBJECT
public:
  explicit IndexChart(QWidget* parent = nullptr);

  /// The items that can be shown: [first, last) (e.g. one IPU's tiles). Resets the zoom.
  void setDomain(std::size_t first, std::size_t last);
  std::pair<std::size_t, std::size_t> domain() const { return {m_domainFirst, m_domainLast}; }
  /// The visible part of the domain, in item units.
  std::pair<double, double> viewRange() const { return {m_window.from(), m_window.to()}; }
  void setViewRange(double first, double last);
  /// Multiplies the visible span by `factor` (< 1 zooms in), keeping `anchorItem` in place.
  void zoomBy(double factor, double anchorItem);
  void resetZoom();

  /// Selected items, sorted.
  const std::vector<std::size_t>& selection() const { return m_selection; }
  void setSelection(std::vector<std::size_t> items);

  /// The x of the middle of an item on screen (for tests and callers), and the item under an x.
  double xForItem(std::size_t item) const;
  std::optional<std::size_t> itemAt(double x) const;
  /// The plot area inside the axes.
  QRectF plotRect() const;
  /// The y range the last paint used (bytes).
  std::pair<double, double> plottedRange() const { return {m_yMin, m_yMax}; }

signals:
  void selectionChanged(const std::vector<std::size_t>& items);
  void hovered(std::optional<std::size_t> item);

protected:
  struct LegendEntry {
    QString name;
    QColor color;
    bool line = false;   ///< a line (a curve, max memory) rather than a filled band
    bool dashed = false; ///< a dashed line (a limit rather than data)
  };
  /// The y range of the visible items [first, last) (the base class adds headroom).
  virtual std::pair<double, double> yRange(std::size_t first, std::size_t last) const = 0;
  /// Paints the items [first, last) inside `plot` (yOf/xForItem map values).
  virtual void paintData(QPainter& painter, const QRectF& plot, std::size_t first, std::size_t last) = 0;
  virtual QString tooltip(std::size_t item) const = 0;
  virtual std::vector<LegendEntry> legend() const { return {}; }
  virtual QString xAxisTitle() const = 0;
  virtual QString formatY(double value) const = 0;
  /// A message shown instead of the data (no data yet, nothing to show).
  virtual QString emptyMessage() const { return {}; }

  double yOf(double value) const;
  /// The x extent [x0, x1) of items [firstItem, lastItem) snapped to whole pixels, so adjacent
  /// columns neither overlap nor leave hairline gaps; `gap` pixels are left on each side.
  std::pair<double, double> columnExtent(std::size_t firstItem, std::size_t lastItem, double gap = 0) const;
  /// Items visible now, clamped to the domain.
  std::pair<std::size_t, std::size_t> visibleItems() const;

  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void leaveEvent(QEvent* event) override;
  void addContextActions(QMenu& menu) override;

private:
  void paintAxes(QPainter& p, const QRectF& plot);
  void paintLegend(QPainter& p, const std::vector<LegendEntry>& entries);
  int legendRows(const std::vector<LegendEntry>& entries) const;
  double legendEntryWidth(const LegendEntry& e) const;
  void clickAt(double x, bool add);

  std::size_t m_domainFirst = 0, m_domainLast = 0;
  AxisWindow m_window{4}; ///< at least a few items stay visible, however far one zooms in
  std::vector<std::size_t> m_selection;
  std::optional<std::size_t> m_hover;
  double m_yMin = 0, m_yMax = 1;
  double m_top = 30; ///< the legend's height above the plot, set when painting
  // Dragging: where the press was and the view range then.
  bool m_pressed = false, m_dragged = false;
  QPointF m_pressPos;
  double m_pressFirst = 0, m_pressLast = 0;
};

} // namespace tessera::viewer
