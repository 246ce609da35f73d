// The Operations view's "Per tile" tab: the selected operation's code, vertices, estimated
// cycles, estimated FLOPs and executed cycles on each tile (libpva's pva::operationTileFigures),
// one figure at a time in a chart with an overview strip. It reads the figures only while the tab
// is shown: executed cycles read every step.
#pragma once

#include "core/Background.hpp"
#include "core/Document.hpp"
#include "core/OperationTilesData.hpp"

#include <QWidget>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;

namespace tessera::viewer {

class OperationTilesChart;
class RangeOverview;

class OperationTilesPanel : public QWidget {
  Q_OBJECT
public:
  explicit OperationTilesPanel(QWidget* parent = nullptr);
  /// The operation to chart (nullopt: none); read now when the panel is visible, else when shown.
  void setOperation(std::shared_ptr<const Document> doc, std::optional<std::size_t> index);

  OperationTilesChart* chart() const { return chart_; }
  QComboBox* figureBox() const { return figure_; }
  QLabel* summaryLabel() const { return summary_; }

signals:
  /// The chart shows the operation last set.
  void loaded();
  void errorOccurred(const QString& message);

protected:
  void showEvent(QShowEvent* event) override;

private:
  void load();
  void updateSummary();

  std::shared_ptr<const Document> doc_;
  std::optional<std::size_t> index_;
  bool pending_ = false;
  TaskHandle task_;
  QComboBox* figure_;
  QLabel* summary_;
  OperationTilesChart* chart_;
  RangeOverview* overview_;
};

} // namespace tessera::viewer
