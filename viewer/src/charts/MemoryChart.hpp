// The Memory page's chart: bytes per tile (x = tile, y = bytes), stacked by a breakdown (total,
// region, category, liveness), with or without gaps, a "max memory" line at the tile's capacity,
// one IPU or all. In compare mode it shows both reports' totals, or their difference.
//
// Tens of thousands of tiles are reduced to min/max per pixel column (core/Downsample) before
// drawing; when zoomed in far enough each tile is its own bar. GUI thread only.
#pragma once

#include "charts/IndexChart.hpp"
#include "core/MemoryData.hpp"

#include <memory>

namespace tessera::viewer {

class MemoryChart : public IndexChart {
  Q_OBJECT
public:
  explicit MemoryChart(QWidget* parent = nullptr);

  /// `base` is the report compared against (null: no comparison).
  void setData(std::shared_ptr<const MemoryData> current,
               std::shared_ptr<const MemoryData> base = nullptr);
  void setBreakdown(MemoryBreakdown breakdown);
  void setIncludeGaps(bool include);
  void setShowMaxMemory(bool show);
  /// Compare mode: current minus base per tile instead of both totals.
  void setDifference(bool difference);
  /// -1: all tiles; otherwise only that IPU's tiles.
  void setIpu(int ipu);
  /// A variable filter's result: bytes per tile (device numbering) of the variables it matched,
  /// drawn instead of the tiles' totals, on its own scale; `label` names it in the legend
  /// ("Variables matching 'w'"). Null: no filter. When comparing, `baseBytesPerTile` is the same
  /// filter's result in the base report, and the chart compares the two instead of the totals.
  void
  setVariableBytes(std::shared_ptr<const std::vector<std::uint64_t>> bytesPerTile, QString label,
                   std::shared_ptr<const std::vector<std::uint64_t>> baseBytesPerTile = nullptr);
  /// Several chosen groups of variables (one per term of the Variables box), each drawn as its
  /// own line over the tiles, in its own colour, on one scale: which variable sits where, and how
  /// big it is there, side by side. Fewer than two series: back to setVariableBytes's one series.
  /// Only for one report (in compare mode the filter's total is compared).
  struct VariableSeries {
    QString label; ///< "'layer1/w' (3 variables)"
    std::shared_ptr<const std::vector<std::uint64_t>> bytesPerTile;
  };
  void setVariableSeries(std::vector<VariableSeries> series);
  const std::vector<VariableSeries>& variableSeries() const { return series_; }
  /// The colour of series i (the legend's).
  static QColor seriesColorOf(std::size_t i);
  bool hasVariableFilter() const { return matched_ != nullptr; }
  const std::shared_ptr<const std::vector<std::uint64_t>>& variableBytes() const {
    return matched_;
  }
  const std::shared_ptr<const std::vector<std::uint64_t>>& baseVariableBytes() const {
    return matchedBase_;
  }
  double overviewValue(std::size_t item) const override;

  MemoryBreakdown breakdown() const { return breakdown_; }
  bool includeGaps() const { return gaps_; }
  bool showMaxMemory() const { return showMax_; }
  bool difference() const { return difference_; }
  int ipu() const { return ipu_; }
  /// The legend's band names (for tests).
  QStringList bandNames() const;
  /// Tiles in the chart: the larger report's when comparing.
  unsigned numTiles() const;

protected:
  std::pair<double, double> yRange(std::size_t first, std::size_t last) const override;
  void paintData(QPainter& painter, const QRectF& plot, std::size_t first,
                 std::size_t last) override;
  QString tooltip(std::size_t item) const override;
  std::vector<LegendEntry> legend() const override;
  QString xAxisTitle() const override;
  QString yAxisTitle() const override;
  QString emptyMessage() const override;

private:
  void rebuild();
  bool comparing() const { return base_ != nullptr; }
  std::uint64_t totalOf(const MemoryData* d, std::size_t tile) const;
  void paintStacked(QPainter& p, const QRectF& plot, std::size_t first, std::size_t last);
  void paintComparison(QPainter& p, const QRectF& plot, std::size_t first, std::size_t last);
  void paintMatched(QPainter& p, const QRectF& plot, std::size_t first, std::size_t last);
  std::uint64_t matchedBytes(std::size_t tile) const;
  bool drawsSeries() const { return series_.size() > 1 && !comparing(); }
  void paintSeries(QPainter& p, std::size_t first, std::size_t last);

  std::shared_ptr<const MemoryData> data_, base_;
  std::unique_ptr<MemoryBands> bands_;
  MemoryBreakdown breakdown_ = MemoryBreakdown::Total;
  bool gaps_ = true, showMax_ = false, difference_ = false;
  int ipu_ = -1;
  std::shared_ptr<const std::vector<std::uint64_t>> matched_, matchedBase_;
  QString matchedLabel_;
  std::vector<VariableSeries> series_;
};

} // namespace tessera::viewer
