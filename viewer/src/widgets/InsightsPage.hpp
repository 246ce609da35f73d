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
  const InsightsData* data() const { return m_data.get(); }
  QLabel* verdict() const { return m_verdict; }
  UsageHistogram* histogram() const { return m_histogram; }
  SuggestionsModel* suggestions() const { return m_suggestions; }
  WorstTilesModel* worstTiles() const { return m_worstTiles; }
  LivenessSplitModel* liveness() const { return m_liveness; }
  ExchangesModel* exchanges() const { return m_exchanges; }
  VertexTypesModel* vertexState() const { return m_vertexState; }
  VertexTypesModel* vertexCode() const { return m_vertexCode; }

private:
  void showData(std::shared_ptr<const InsightsData> d);

  QWidget* m_content;
  QLabel* m_verdict;
  UsageHistogram* m_histogram;
  SuggestionsModel* m_suggestions;
  WorstTilesModel* m_worstTiles;
  LivenessSplitModel* m_liveness;
  VertexTypesModel* m_vertexState;
  VertexTypesModel* m_vertexCode;
  ExchangesModel* m_exchanges;
  std::vector<QTableView*> m_tables;
  std::shared_ptr<const InsightsData> m_data;
  TaskHandle m_task;
  QString m_scope; ///< comparing: says that the page shows the current report only
};

} // namespace tessera::viewer
