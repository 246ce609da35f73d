// Insights: the page an out-of-memory user opens first. A verdict (fits, or over by how much),
// tiles by memory used, the suggestions with their estimated savings, then the worst tiles,
// always-live vs not-always-live at the peak step, the largest vertex state and code and the
// largest exchanges. Every figure is pva::insights' (core/InsightsData), as `pva insights`.
#pragma once

#include "core/Background.hpp"
#include "core/InsightsData.hpp"
#include "widgets/Page.hpp"

class QLabel;
class QTableView;

namespace tessera::viewer {

class ExchangesModel;
class LivenessSplitModel;
class SuggestionsModel;
class UsageHistogram;
class VertexTypesModel;
class WorstTilesModel;

class InsightsPage : public Page {
  Q_OBJECT
public:
  explicit InsightsPage(QWidget* parent = nullptr);
  QString title() const override { return tr("Insights"); }
  QString viewKey() const override { return QStringLiteral("insights"); }
  void setDocument(std::shared_ptr<const Document> doc) override;

  /// What is shown (null before the report is read), and the parts tests look at.
  const InsightsData* data() const { return data_.get(); }
  QLabel* verdict() const { return verdict_; }
  UsageHistogram* histogram() const { return histogram_; }
  SuggestionsModel* suggestions() const { return suggestions_; }
  WorstTilesModel* worstTiles() const { return worstTiles_; }
  LivenessSplitModel* liveness() const { return liveness_; }
  ExchangesModel* exchanges() const { return exchanges_; }
  VertexTypesModel* vertexState() const { return vertexState_; }
  VertexTypesModel* vertexCode() const { return vertexCode_; }

private:
  void showData(std::shared_ptr<const InsightsData> d);

  QWidget* content_;
  QLabel* verdict_;
  UsageHistogram* histogram_;
  SuggestionsModel* suggestions_;
  WorstTilesModel* worstTiles_;
  LivenessSplitModel* liveness_;
  VertexTypesModel* vertexState_;
  VertexTypesModel* vertexCode_;
  ExchangesModel* exchanges_;
  std::vector<QTableView*> tables_;
  std::shared_ptr<const InsightsData> data_;
  TaskHandle task_;
  QString scope_; ///< comparing: says that the page shows the current report only
};

} // namespace tessera::viewer
