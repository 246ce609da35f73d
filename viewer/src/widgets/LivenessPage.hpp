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
#include "widgets/FollowVariables.hpp"
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
  LivenessScope scope() const { return scope_; }
  /// Shows only the steps of "first-last" (or one step, "n"), as if typed into the Steps box;
  /// empty: every step. False, with a message beside the box, when the text is not a range of
  /// the report's steps.
  bool setStepRange(const QString& text);
  /// Lists only the variables whose name contains `text` in both variable tables (empty: all).
  void setVariableFilter(const QString& text);

  // For tests and callers.
  LivenessChart* chart() const { return chart_; }
  QCheckBox* alwaysLiveBox() const { return alwaysLive_; }
  QCheckBox* differenceBox() const { return difference_; }
  QComboBox* ipuBox() const { return ipu_; }
  QLineEdit* tileEdit() const { return tile_; }
  QLineEdit* stepRangeEdit() const { return stepRange_; }
  QLineEdit* variableFilterEdit() const { return variableFilter_; }
  RangeOverview* overview() const { return overview_; }
  TotalledTable* liveTable() const { return liveTable_; }
  TotalledTable* alwaysLiveTable() const { return alwaysLiveTable_; }
  QLabel* selectionLabel() const { return selectionLabel_; }
  QLabel* summaryLabel() const { return summary_; }
  QTabWidget* tabs() const { return tabs_; }
  AlwaysLiveVariablesModel* alwaysLiveModel() const { return alwaysLiveModel_; }
  LiveVariablesModel* liveVariablesModel() const { return liveModel_; }
  TileVerticesModel* verticesModel() const { return verticesModel_; }
  StepCyclesModel* cyclesModel() const { return cyclesModel_; }
  const std::shared_ptr<const LivenessData>& data() const { return data_; }
  const std::shared_ptr<const LivenessData>& baseData() const { return baseData_; }
  /// The selected steps' details on screen (null while they load).
  const std::shared_ptr<const StepDetailsData>& details() const { return details_; }

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

  std::shared_ptr<const Document> doc_;
  std::shared_ptr<const LivenessData> data_, baseData_;
  std::shared_ptr<const StepDetailsData> details_;
  LivenessScope scope_;
  std::vector<std::size_t> steps_;
  TaskHandle task_, detailsTask_, livesTask_;
  std::shared_ptr<const VariableLives> lives_; ///< read the first time a name is typed

  LivenessChart* chart_;
  RangeOverview* overview_ = nullptr;
  QLineEdit* stepRange_ = nullptr;
  QLineEdit* variableFilter_ = nullptr;
  TotalledTable* liveTable_ = nullptr;
  TotalledTable* alwaysLiveTable_ = nullptr;
  QCheckBox* alwaysLive_ = nullptr;
  QCheckBox* difference_ = nullptr;
  QComboBox* ipu_ = nullptr;
  QLineEdit* tile_ = nullptr;
  QLabel* tileError_ = nullptr;
  QLabel* summary_ = nullptr;
  QLabel* selectionLabel_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  AlwaysLiveVariablesModel* alwaysLiveModel_;
  LiveVariablesModel* liveModel_;
  TileVerticesModel* verticesModel_;
  StepCyclesModel* cyclesModel_;
  FollowVariables followVariables_; ///< an operation selected elsewhere fills the Variables box
};

} // namespace tessera::viewer
