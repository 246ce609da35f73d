// Base of the charts whose x axis is an item index (tiles on the Memory page, liveness steps on
// the Liveness page) and whose y axis is bytes: the view range with wheel zoom, drag pan and keys
// (+ - arrows 0), axes and grid, the legend, click / shift-click selection of items, and hover
// with a tooltip. Subclasses paint the data of the visible range, reduced to the pixel width.
//
// Threads: GUI thread only. Cost: painting is O(visible items + plot width) in the subclasses.
#pragma once

#include "charts/ChartWidget.hpp"
#include "core/AxisTicks.hpp"
#include "core/AxisWindow.hpp"
#include "core/Downsample.hpp"

#include <QSet>
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
  std::pair<std::size_t, std::size_t> domain() const { return {domainFirst_, domainLast_}; }
  /// The visible part of the domain, in item units.
  std::pair<double, double> viewRange() const { return {window_.from(), window_.to()}; }
  void setViewRange(double first, double last);
  /// Multiplies the visible span by `factor` (< 1 zooms in), keeping `anchorItem` in place.
  void zoomBy(double factor, double anchorItem);
  void resetZoom();

  /// Selected items, sorted.
  const std::vector<std::size_t>& selection() const { return selection_; }
  void setSelection(std::vector<std::size_t> items);

  /// The x of the middle of an item on screen (for tests and callers), and the item under an x.
  double xForItem(std::size_t item) const;
  std::optional<std::size_t> itemAt(double x) const;
  /// The plot area inside the axes.
  QRectF plotRect() const;
  /// Selected items are marked in a strip this high along the plot's top edge, above the data
  /// (never over it: the bands keep the legend's colours whatever is selected).
  static constexpr double kSelectionStrip = 5.0;
  QColor selectionColor() const;
  /// The y range the last paint used (bytes).
  std::pair<double, double> plottedRange() const { return {yMin_, yMax_}; }
  /// The ticks the last paint drew on each axis (for tests).
  const AxisTicks& yTicks() const { return yTicks_; }
  const AxisTicks& xTicks() const { return xTicks_; }

  /// The value an item stands for in an overview of the whole domain (RangeOverview): the
  /// height of its bar or curve, in bytes.
  virtual double overviewValue(std::size_t item) const = 0;
  /// The colour of the overview's miniature (the chart's main series).
  virtual QColor overviewColor() const { return seriesColor(0); }

  /// Clickable legends: a click on a legend entry that stands for a series (a band, a line, a
  /// lifetime) hides that series, a second click shows it again; the entry is drawn faded while
  /// hidden. Keyed by the entry's name, so a series named anew (another filter) shows again.
  bool isSeriesShown(const QString& name) const { return !hidden_.contains(name); }
  void setSeriesShown(const QString& name, bool shown);
  /// The legend entry at a point of the widget (as last painted), or an empty string.
  QString legendEntryAt(const QPointF& at) const;
  /// Where the last paint drew each legend entry (for tests).
  const std::vector<std::pair<QRectF, QString>>& legendRects() const { return legendRects_; }

signals:
  void selectionChanged(const std::vector<std::size_t>& items);
  void hovered(std::optional<std::size_t> item);
  /// A series was hidden or shown from the legend.
  void seriesVisibilityChanged();
  /// The visible range moved (zoom, pan, fit, a new domain).
  void viewChanged(double first, double last);
  /// What the chart draws changed (new data, another breakdown or filter): overviews redraw.
  void dataChanged();

protected:
  struct LegendEntry {
    QString name;
    QColor color;
    bool line = false;    ///< a line (a curve, max memory) rather than a filled band
    bool dashed = false;  ///< a dashed line (a limit rather than data)
    bool mark = false;    ///< the short mark paintColumns() draws at a pixel's lowest item
    bool toggles = false; ///< a series: clicking the entry hides or shows it (isSeriesShown)
  };
  /// Several items share each pixel column at the current zoom.
  bool sharesPixels() const { return window_.span() > plotRect().width(); }
  /// The y range of the visible items [first, last) (the base class adds headroom).
  virtual std::pair<double, double> yRange(std::size_t first, std::size_t last) const = 0;
  /// Paints the items [first, last) inside `plot` (yOf/xForItem map values).
  virtual void paintData(QPainter& painter, const QRectF& plot, std::size_t first,
                         std::size_t last) = 0;
  virtual QString tooltip(std::size_t item) const = 0;
  virtual std::vector<LegendEntry> legend() const { return {}; }
  virtual QString xAxisTitle() const = 0;
  /// What the y axis measures ("Memory per tile"); the unit is added to it.
  virtual QString yAxisTitle() const = 0;
  /// The y axis' ticks over [lo, hi]: bytes in the chosen memory units unless a chart of other
  /// values (cycles, counts) says otherwise.
  virtual AxisTicks valueAxisTicks(double lo, double hi, int targetTicks) const;
  /// A message shown instead of the data (no data yet, nothing to show).
  virtual QString emptyMessage() const { return {}; }

  double yOf(double value) const;
  /// The x extent [x0, x1) of items [firstItem, lastItem) snapped to whole pixels, so adjacent
  /// columns neither overlap nor leave hairline gaps; `gap` pixels are left on each side.
  std::pair<double, double> columnExtent(std::size_t firstItem, std::size_t lastItem,
                                         double gap = 0) const;
  /// How the visible items [first, last) are drawn: one column per item (whole pixels, `gap`
  /// pixels left on each side) while items are at least a pixel wide; otherwise one column per
  /// pixel holding every item it touches (pixelItemRanges), so no item is ever dropped.
  struct Column {
    double x0 = 0, x1 = 0;
    ItemRange items;
  };
  std::vector<Column> columns(std::size_t first, std::size_t last, double gap = 0) const;
  /// Paints one series (values[i] is item first + i, for the visible items): each column is a
  /// solid bar from `base` up to its highest item, so a bar never reads as a dip its items do not
  /// have; where its items differ, a darker mark inside the bar shows the lowest of them.
  void paintColumns(QPainter& p, const std::vector<double>& values, std::size_t first,
                    const QColor& color, double base = 0, bool markLowest = true) const;
  /// The colour of the lowest-item mark inside a bar of `color`.
  /// The pale shade a pixel column's range is drawn in: from its lowest item to its highest.
  static QColor rangeColor(const QColor& color);
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
  void windowMoved();

  QSet<QString> hidden_;                                ///< series hidden from the legend
  std::vector<std::pair<QRectF, QString>> legendRects_; ///< toggling entries, as last painted
  std::size_t domainFirst_ = 0, domainLast_ = 0;
  AxisWindow window_{4}; ///< at least a few items stay visible, however far one zooms in
  std::vector<std::size_t> selection_;
  std::optional<std::size_t> hover_;
  double yMin_ = 0, yMax_ = 1;
  double top_ = 30;  ///< the legend's height above the plot, set when painting
  double left_ = 78; ///< the y labels' and title's width, set when painting
  AxisTicks yTicks_, xTicks_;
  // Dragging: where the press was and the view range then.
  bool pressed_ = false, dragged_ = false;
  QPointF pressPos_;
  double pressFirst_ = 0, pressLast_ = 0;
};

} // namespace tessera::viewer
