// The Insights page's tables, each over a list of pva::insights (through InsightsData): the
// worst tiles, always-live vs not-always-live at the peak, vertex types by state and by code,
// the largest exchanges, and the suggestions with their estimated savings.
//
// Threads: GUI thread. Cost: data() is O(1).
#pragma once

#include "core/InsightsData.hpp"
#include "models/TableModel.hpp"

namespace tessera::viewer {

class WorstTilesModel : public RowsModel<pva::TileInsight> {
  Q_OBJECT
public:
  explicit WorstTilesModel(QObject* parent = nullptr);
  void setData(std::shared_ptr<const InsightsData> d);
  std::uint64_t bytesPerTile = 0;

protected:
  QVariant cell(const pva::TileInsight& t, int column, int role) const override;
};

class LivenessSplitModel : public RowsModel<LivenessRow> {
  Q_OBJECT
public:
  explicit LivenessSplitModel(QObject* parent = nullptr);
  void setData(std::shared_ptr<const InsightsData> d);

protected:
  QVariant cell(const LivenessRow& r, int column, int role) const override;
};

class VertexTypesModel : public RowsModel<pva::VertexTypeInsight> {
  Q_OBJECT
public:
  enum class By { State, Code };
  VertexTypesModel(By by, QObject* parent = nullptr);
  void setData(std::shared_ptr<const InsightsData> d);

protected:
  QVariant cell(const pva::VertexTypeInsight& v, int column, int role) const override;

private:
  By by_;
};

class ExchangesModel : public RowsModel<pva::ExchangeInsight> {
  Q_OBJECT
public:
  explicit ExchangesModel(QObject* parent = nullptr);
  void setData(std::shared_ptr<const InsightsData> d);

protected:
  QVariant cell(const pva::ExchangeInsight& x, int column, int role) const override;
};

class SuggestionsModel : public RowsModel<pva::Suggestion> {
  Q_OBJECT
public:
  explicit SuggestionsModel(QObject* parent = nullptr);
  void setData(std::shared_ptr<const InsightsData> d);

protected:
  QVariant cell(const pva::Suggestion& s, int column, int role) const override;
};

} // namespace tessera::viewer
