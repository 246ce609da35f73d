// Operations: the operations recorded in debug.cbor, by layer, with cycles and memory columns;
// the selected operation's summary, programs, variables and debug context in tabs below (with
// nothing selected, the Summary tab totals the rows shown).
#pragma once

#include "core/Background.hpp"
#include "widgets/Page.hpp"

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QStackedWidget;
class QTableView;
class QTabWidget;

namespace tessera::viewer {

class KeyValueModel;
class LayerTotalsModel;
class OperationsModel;
class OperationTilesPanel;

class OperationsPage : public Page {
  Q_OBJECT
public:
  explicit OperationsPage(QWidget* parent = nullptr);
  QString title() const override { return tr("Operations"); }
  QString viewKey() const override { return QStringLiteral("operations"); }
  void setDocument(std::shared_ptr<const Document> doc) override;
  /// Selects the operation that owns the program (a compute set's OnTileExecute is named after
  /// it) or variable of that name, clearing the layer and text filters if they hide it; false
  /// when no operation has it (or the operations have not loaded).
  bool selectOperationOf(const QString& programOrVariable);
  /// Selects the operation owning the program with that id (a step clicked in the trace);
  /// false when none does.
  bool selectOperationOfProgram(std::uint32_t programId);
  /// An operation selected here gives Memory and Liveness its largest variables, at most these.
  static constexpr std::size_t kMaxSelectedVariables = 8;

  OperationsModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  QComboBox* layers() const { return layers_; }
  QLineEdit* filter() const { return filter_; }
  KeyValueModel* summary() const { return summary_; }
  KeyValueModel* programs() const { return programs_; }
  KeyValueModel* variables() const { return variables_; }
  QPlainTextEdit* debugText() const { return debug_; }
  LayerTotalsModel* layerTotals() const { return layerTotals_; }
  /// The Layers tab's table: a row selected there highlights the layer's steps.
  QTableView* layersTable() const { return layersView_; }
  OperationTilesPanel* tilesPanel() const { return tiles_; }
  /// The narrowest the name column gets, however many figure columns there are (pixels).
  static constexpr int kMinNameWidth = 220;
  /// Shows or hides a column of the table (the header's context menu does this too).
  void setColumnShown(int column, bool shown);

protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

private:
  /// The name column takes the width the other columns leave (at least kMinNameWidth).
  void fitNameColumn();
  void showSelection();
  /// Publishes the selected operation (or layer) to the document's SelectionModel.
  void publishOperation();
  void publishLayer(const QString& layer);
  /// Shows the base and difference columns beside their current ones when comparing.
  void showCompareColumns(bool compared);
  void showColumnMenu(const QPoint& at);
  OperationsModel* model_;
  LayerTotalsModel* layerTotals_;
  KeyValueModel *summary_, *programs_, *variables_;
  QStackedWidget* stack_;
  QLabel* noDebug_;
  QComboBox* layers_;
  QLineEdit* filter_;
  QTableView* table_;
  QTabWidget* tabs_;
  QPlainTextEdit* debug_;
  TaskHandle task_;
  std::shared_ptr<const Document> doc_;
  OperationTilesPanel* tiles_ = nullptr;
  QMetaObject::Connection selectionLink_; ///< to the document's SelectionModel
  QTableView* layersView_ = nullptr;
};

} // namespace tessera::viewer
