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
  MemoryChart* chart() const { return m_chart; }
  QComboBox* breakdownBox() const { return m_breakdown; }
  QCheckBox* gapsBox() const { return m_gaps; }
  QCheckBox* maxMemoryBox() const { return m_maxMemory; }
  QCheckBox* differenceBox() const { return m_difference; }
  QComboBox* ipuBox() const { return m_ipu; }
  QLineEdit* tilesEdit() const { return m_tiles; }
  QLabel* tilesError() const { return m_tilesError; }
  QLabel* selectionLabel() const { return m_selectionLabel; }
  QLabel* summaryLabel() const { return m_summary; }
  QTabWidget* tabs() const { return m_tabs; }
  TileMemoryDetailsModel* detailsModel() const { return m_detailsModel; }
  LoweredVariablesModel* variablesModel() const { return m_variablesModel; }
  TileVerticesModel* verticesModel() const { return m_verticesModel; }
  TileComputeSetsModel* computeSetsModel() const { return m_computeSetsModel; }
  TileExchangesModel* exchangesModel() const { return m_exchangesModel; }
  MemoryMapWidget* memoryMap() const { return m_map; }
  RangeOverview* overview() const { return m_overview; }
  QLineEdit* variableFilterEdit() const { return m_variableFilter; }
  TotalledTable* variablesTable() const { return m_variablesTable; }
  /// What the variable filter read (null until a filter is first typed).
  const std::shared_ptr<const VariableTiles>& variableTiles() const { return m_variableTiles; }
  QRadioButton* mapButton() const { return m_showMap; }
  const std::shared_ptr<const MemoryData>& data() const { return m_data; }
  const std::shared_ptr<const MemoryData>& baseData() const { return m_baseData; }
  /// The details on screen (null while they load).
  const std::shared_ptr<const TileDetailsData>& details() const { return m_details; }

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

  std::shared_ptr<const Document> m_doc;
  std::shared_ptr<const MemoryData> m_data, m_baseData;
  std::shared_ptr<const TileDetailsData> m_details;
  std::vector<unsigned> m_selection;
  TaskHandle m_task, m_detailsTask, m_variableTask;
  std::shared_ptr<const VariableTiles> m_variableTiles, m_baseVariableTiles;
  unsigned m_matchedNames = 0, m_matchedTiles = 0;

  MemoryChart* m_chart;
  RangeOverview* m_overview = nullptr;
  QLineEdit* m_variableFilter = nullptr;
  QTimer* m_filterTimer = nullptr;
  TotalledTable* m_variablesTable = nullptr;
  QComboBox* m_breakdown = nullptr;
  QCheckBox* m_gaps = nullptr;
  QCheckBox* m_maxMemory = nullptr;
  QCheckBox* m_difference = nullptr;
  QComboBox* m_ipu = nullptr;
  QLineEdit* m_tiles = nullptr;
  QLabel* m_tilesError = nullptr;
  QLabel* m_summary = nullptr;
  QLabel* m_selectionLabel = nullptr;
  QTabWidget* m_tabs = nullptr;
  QStackedWidget* m_variablesStack = nullptr;
  QRadioButton* m_showMap = nullptr;
  QCheckBox* m_wholeTile = nullptr;
  MemoryMapWidget* m_map = nullptr;
  TileMemoryDetailsModel* m_detailsModel;
  LoweredVariablesModel* m_variablesModel;
  TileVerticesModel* m_verticesModel;
  TileComputeSetsModel* m_computeSetsModel;
  TileExchangesModel* m_exchangesModel;
};

} // namespace tessera::viewer
