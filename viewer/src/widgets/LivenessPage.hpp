// Liveness: not-always-live bytes at each liveness program step (optionally on the always-live
// floor) for all tiles, one IPU or one tile; click a step (shift-click adds steps) to see what is
// live there: always-live variables, the variables live at each selected step (a column each),
// the vertices of the step's compute set and its cycle estimates. In compare mode both reports'
// curves share the plot, or their difference is shown.
//
// Threads: curves and step details are read in the background (a newer request cancels the
// older one). GUI thread otherwise.
#pragma once

#include "core/Background.hpp"
#include "core/LivenessData.hpp"
#include "core/VariableLives.hpp"
#include "widgets/Page.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTabWidget;

namespace tessera::viewer {

class AlwaysLiveVariablesModel;
class LiveVariablesModel;
class LivenessChart;
class RangeOverview;
class TotalledTable;
class StepCyclesModel;
class TileVerticesModel;

class LivenessPage : public Page {
  Q_OBJECT
public:
  explicit LivenessPage(QWidget* parent = nullptr);
  QString title() const override { return tr("Liveness"); }
  QString viewKey() const override { return QStringLiteral("liveness"); }
  void setDocument(std::shared_ptr<const Document> doc) override;
  QWidget* imageWidget() override;

  /// Shows the curve of a scope (reloads in the background).
  void setScope(LivenessScope scope);
  LivenessScope scope() const { return m_scope; }
  /// Shows only the steps of "first-last" (or one step, "n"), as if typed into the Steps box;
  /// empty: every step. False, with a message beside the box, when the text is not a range of
  /// the report's steps.
  bool setStepRange(const QString& text);
  /// Lists only the variables whose name contains `text` in both variable tables (empty: all).
  void setVariableFilter(const QString& text);

  // For tests and callers.
  LivenessChart* chart() const { return m_chart; }
  QCheckBox* alwaysLiveBox() const { return m_alwaysLive; }
  QCheckBox* differenceBox() const { return m_difference; }
  QComboBox* ipuBox() const { return m_ipu; }
  QLineEdit* tileEdit() const { return m_tile; }
  QLineEdit* stepRangeEdit() const { return m_stepRange; }
  QLineEdit* variableFilterEdit() const { return m_variableFilter; }
  RangeOverview* overview() const { return m_overview; }
  TotalledTable* liveTable() const { return m_liveTable; }
  TotalledTable* alwaysLiveTable() const { return m_alwaysLiveTable; }
  QLabel* selectionLabel() const { return m_selectionLabel; }
  QLabel* summaryLabel() const { return m_summary; }
  QTabWidget* tabs() const { return m_tabs; }
  AlwaysLiveVariablesModel* alwaysLiveModel() const { return m_alwaysLiveModel; }
  LiveVariablesModel* liveVariablesModel() const { return m_liveModel; }
  TileVerticesModel* verticesModel() const { return m_verticesModel; }
  StepCyclesModel* cyclesModel() const { return m_cyclesModel; }
  const std::shared_ptr<const LivenessData>& data() const { return m_data; }
  const std::shared_ptr<const LivenessData>& baseData() const { return m_baseData; }
  /// The selected steps' details on screen (null while they load).
  const std::shared_ptr<const StepDetailsData>& details() const { return m_details; }

signals:
  void detailsLoaded();
  void curveLoaded();
  /// The chart now draws the lives of the variables the Variables box names.
  void lifetimesShown();

private:
  struct Curves {
    std::shared_ptr<const LivenessData> current, base;
  };
  void loadCurves();
  void showCurves(std::shared_ptr<const Curves> curves);
  void loadDetails();
  void updateTexts();
  void scopeEdited();
  void showLifetimes();
  QWidget* createToolbar();
  QWidget* createTablesBar();

  std::shared_ptr<const Document> m_doc;
  std::shared_ptr<const LivenessData> m_data, m_baseData;
  std::shared_ptr<const StepDetailsData> m_details;
  LivenessScope m_scope;
  std::vector<std::size_t> m_steps;
  TaskHandle m_task, m_detailsTask, m_livesTask;
  std::shared_ptr<const VariableLives> m_lives; ///< read the first time a name is typed

  LivenessChart* m_chart;
  RangeOverview* m_overview = nullptr;
  QLineEdit* m_stepRange = nullptr;
  QLineEdit* m_variableFilter = nullptr;
  TotalledTable* m_liveTable = nullptr;
  TotalledTable* m_alwaysLiveTable = nullptr;
  QCheckBox* m_alwaysLive = nullptr;
  QCheckBox* m_difference = nullptr;
  QComboBox* m_ipu = nullptr;
  QLineEdit* m_tile = nullptr;
  QLabel* m_tileError = nullptr;
  QLabel* m_summary = nullptr;
  QLabel* m_selectionLabel = nullptr;
  QTabWidget* m_tabs = nullptr;
  AlwaysLiveVariablesModel* m_alwaysLiveModel;
  LiveVariablesModel* m_liveModel;
  TileVerticesModel* m_verticesModel;
  StepCyclesModel* m_cyclesModel;
};

} // namespace tessera::viewer
