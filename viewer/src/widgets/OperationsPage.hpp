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

  OperationsModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  QComboBox* layers() const { return layers_; }
  QLineEdit* filter() const { return filter_; }
  KeyValueModel* summary() const { return summary_; }
  KeyValueModel* programs() const { return programs_; }
  KeyValueModel* variables() const { return variables_; }
  QPlainTextEdit* debugText() const { return debug_; }
  LayerTotalsModel* layerTotals() const { return layerTotals_; }
  OperationTilesPanel* tilesPanel() const { return tiles_; }
  /// Shows or hides a column of the table (the header's context menu does this too).
  void setColumnShown(int column, bool shown);

private:
  void showSelection();
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
};

} // namespace tessera::viewer
