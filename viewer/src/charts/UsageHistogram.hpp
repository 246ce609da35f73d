// Tiles by memory used, as bars: one per tenth of the tile's memory, and a red one for the tiles
// over it (pva::Insights::usage). Counts are drawn above the bars, so the picture reads without
// hovering; bar heights are on a square-root scale so that a bin of 14 tiles beside one of 1,456
// still shows.
#pragma once

#include <QWidget>
#include <pva/Insights.hpp>
#include <vector>

namespace tessera::viewer {

class UsageHistogram : public QWidget {
  Q_OBJECT
public:
  explicit UsageHistogram(QWidget* parent = nullptr);
  void setBins(std::vector<pva::UsageBin> bins);
  const std::vector<pva::UsageBin>& bins() const { return bins_; }
  QSize sizeHint() const override { return {320, 180}; }
  QSize minimumSizeHint() const override {
    return {330, 140};
  } // eleven labels of "100%" side by side

protected:
  void paintEvent(QPaintEvent* event) override;

private:
  std::vector<pva::UsageBin> bins_;
};

} // namespace tessera::viewer
