// The Liveness page's chart: not-always-live bytes at each liveness program step (x = step,
// y = bytes), optionally on top of the always-live floor; the peak marked. In compare mode both
// reports' curves on one plot, or their difference per step. Steps are reduced to min/max per
// pixel column before drawing. GUI thread only.
#pragma once

#include "charts/IndexChart.hpp"
#include "core/LivenessData.hpp"
#include "core/VariableLives.hpp"

#include <cstdint>
#include <memory>

namespace tessera::viewer {

class LivenessChart : public IndexChart {
  Q_OBJECT
public:
  explicit LivenessChart(QWidget* parent = nullptr);
  /// `base`: the report compared against (null: no comparison). Keeps the selection if the
  /// steps still exist (a new scope of the same report).
  void setData(std::shared_ptr<const LivenessData> current,
               std::shared_ptr<const LivenessData> base = nullptr);
  void setIncludeAlwaysLive(bool include);
  void setDifference(bool difference);
  bool includeAlwaysLive() const { return includeAlwaysLive_; }
  bool difference() const { return difference_; }
  /// The value plotted for a step of the current report (with the floor when included).
  double valueAt(std::size_t step) const;
  double overviewValue(std::size_t step) const override;
  QColor overviewColor() const override;
  /// Shows only the steps [first, last) (clamped to the schedule); (0, SIZE_MAX): all of them.
  void setStepRange(std::size_t first, std::size_t last);
  /// The steps shown, clamped: [first, last).
  std::pair<std::size_t, std::size_t> stepRange() const;
  /// Chosen variables' lives, drawn with the curve: each a bar along the top of the plot over
  /// its live steps [from, to), with thin lines where it starts and ends across the plot, in
  /// its own colour, named in the legend. At most kMaxLifetimes are drawn; `notDrawn` more
  /// matched (the legend says so). Empty: none.
  static constexpr std::size_t kMaxLifetimes = 8;
  void setLifetimes(std::vector<VariableLife> lives, std::size_t notDrawn = 0);
  const std::vector<VariableLife>& lifetimes() const { return lives_; }
  /// The rectangle of lifetime i's bar in the last paint (for tests); empty when not visible.
  QRectF lifetimeBar(std::size_t i) const { return i < lifeBars_.size() ? lifeBars_[i] : QRectF(); }
  static QColor lifetimeColor(std::size_t i);
  /// The legend's entries (for tests).
  QStringList legendNames() const;
  /// Comparing: both reports' curves are equal at every step (the base's is hidden under the
  /// current one, and the legend says so).
  bool sameAsBase() const;

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
  double seriesValue(const LivenessData* d, std::size_t step) const;
  std::size_t length() const;
  void applyStepRange();
  double lifetimeLanesHeight() const;
  QString lifetimeLabel(std::size_t i) const; ///< its legend entry
  void paintCurves(QPainter& p, const QRectF& plot, std::size_t first, std::size_t last);
  void paintLifetimes(QPainter& p, const QRectF& plot, std::size_t first, std::size_t last);

  std::shared_ptr<const LivenessData> data_, base_;
  bool includeAlwaysLive_ = false, difference_ = false;
  std::size_t rangeFirst_ = 0, rangeLast_ = SIZE_MAX;
  std::vector<VariableLife> lives_;
  std::size_t livesNotDrawn_ = 0;
  std::vector<QRectF> lifeBars_;
};

} // namespace tessera::viewer
