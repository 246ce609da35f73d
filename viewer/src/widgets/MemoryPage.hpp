// Memory: bytes per tile on a chart (breakdown by region, category or liveness; gaps; max-memory
// line; one IPU or all), tile selection by click, shift-click or a typed list, and tabs describing
// the selection (all tiles when nothing is selected): Details, Variables (table or memory map),
// Vertices, Compute sets, Exchanges. Compares two reports' totals, or their difference.
//
// Threads: tile memory and the selection's details are read in the background (one task each;
// a newer selection cancels the older task). GUI thread otherwise.
#pragma once

#include "core/Background.hpp"
#include "core/MemoryData.hpp"
#include "core/TileDetailsData.hpp"
#include "core/VariableTiles.hpp"
#include "widgets/FollowVariables.hpp"
#include "widgets/Page.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QRadioButton;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QTimer;

namespace tessera::viewer {

class LoweredVariablesModel;
class MemoryChart;
class MemoryMapWidget;
class RangeOverview;
class TotalledTable;
class TileComputeSetsModel;
class TileExchangesModel;
class TileMemoryDetailsModel;
class TileVerticesModel;

class MemoryPage : public Page {
  Q_OBJECT
public:
  explicit MemoryPage(QWidget* parent = nullptr);
  QString title() const override { return tr("Memory"); }
  QString viewKey() const override { return QStringLiteral("memory"); }
  void setDocument(std::shared_ptr<const Document> doc) override;
  QWidget* imageWidget() override;

  /// Selects tiles as if typed into the tiles box ("3,7", "0-15"); false with a message shown
  /// beside the box when the text is not a tile list.
  bool selectTiles(const QString& text);
  /// Charts the bytes per tile of the variables whose name contains `text` and lists only them
  /// in the Variables tab, as if typed into the Variables box (empty: no filter). The result
  /// arrives with variableFilterApplied() (the variables are read the first time).
  void setVariableFilter(const QString& text);
  /// Adds the names of the Variables tab's selected rows to the Variables box (its context menu's
  /// "Plot on the chart"): each becomes a line of the chart.
  void plotSelectedVariables();

  // For tests and callers.
  MemoryChart* chart() const { return chart_; }
  QComboBox* breakdownBox() const { return breakdown_; }
  QCheckBox* gapsBox() const { return gaps_; }
  QCheckBox* maxMemoryBox() const { return maxMemory_; }
  QCheckBox* differenceBox() const { return difference_; }
  QComboBox* ipuBox() const { return ipu_; }
  QLineEdit* tilesEdit() const { return tiles_; }
  QLabel* tilesError() const { return tilesError_; }
  QLabel* selectionLabel() const { return selectionLabel_; }
  QLabel* summaryLabel() const { return summary_; }
  QTabWidget* tabs() const { return tabs_; }
  TileMemoryDetailsModel* detailsModel() const { return detailsModel_; }
  LoweredVariablesModel* variablesModel() const { return variablesModel_; }
  TileVerticesModel* verticesModel() const { return verticesModel_; }
  TileComputeSetsModel* computeSetsModel() const { return computeSetsModel_; }
  TileExchangesModel* exchangesModel() const { return exchangesModel_; }
  MemoryMapWidget* memoryMap() const { return map_; }
  RangeOverview* overview() const { return overview_; }
  QLineEdit* variableFilterEdit() const { return variableFilter_; }
  TotalledTable* variablesTable() const { return variablesTable_; }
  /// What the variable filter read (null until a filter is first typed).
  const std::shared_ptr<const VariableTiles>& variableTiles() const { return variableTiles_; }
  QRadioButton* mapButton() const { return showMap_; }
  const std::shared_ptr<const MemoryData>& data() const { return data_; }
  const std::shared_ptr<const MemoryData>& baseData() const { return baseData_; }
  /// The details on screen (null while they load).
  const std::shared_ptr<const TileDetailsData>& details() const { return details_; }

signals:
  /// The tabs now describe the current selection.
  void detailsLoaded();
  /// The chart and the Variables tab now show the variable filter's text.
  void variableFilterApplied();

private:
  struct Snapshots {
    std::shared_ptr<const MemoryData> current, base;
  };
  struct VariableSnapshots {
    std::shared_ptr<const VariableTiles> current, base;
  };
  void showData(std::shared_ptr<const Snapshots> snapshots);
  void selectionChanged(const std::vector<unsigned>& tiles);
  void loadDetails();
  void updateTexts();
  void showTilesError(const QString& message);
  void applyVariableFilter();
  QWidget* createToolbar();
  QTabWidget* createTabs();

  std::shared_ptr<const Document> doc_;
  std::shared_ptr<const MemoryData> data_, baseData_;
  std::shared_ptr<const TileDetailsData> details_;
  std::vector<unsigned> selection_;
  TaskHandle task_, detailsTask_, variableTask_;
  std::shared_ptr<const VariableTiles> variableTiles_, baseVariableTiles_;
  unsigned matchedNames_ = 0, matchedTiles_ = 0;

  MemoryChart* chart_;
  RangeOverview* overview_ = nullptr;
  QLineEdit* variableFilter_ = nullptr;
  QTimer* filterTimer_ = nullptr;
  TotalledTable* variablesTable_ = nullptr;
  QComboBox* breakdown_ = nullptr;
  QCheckBox* gaps_ = nullptr;
  QCheckBox* maxMemory_ = nullptr;
  QCheckBox* difference_ = nullptr;
  QComboBox* ipu_ = nullptr;
  QLineEdit* tiles_ = nullptr;
  QLabel* tilesError_ = nullptr;
  QLabel* summary_ = nullptr;
  QLabel* selectionLabel_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  QStackedWidget* variablesStack_ = nullptr;
  QRadioButton* showMap_ = nullptr;
  QCheckBox* wholeTile_ = nullptr;
  MemoryMapWidget* map_ = nullptr;
  TileMemoryDetailsModel* detailsModel_;
  LoweredVariablesModel* variablesModel_;
  TileVerticesModel* verticesModel_;
  TileComputeSetsModel* computeSetsModel_;
  TileExchangesModel* exchangesModel_;
  FollowVariables followVariables_; ///< an operation selected elsewhere fills the Variables box
};

} // namespace tessera::viewer
