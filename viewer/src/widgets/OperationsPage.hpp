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

  OperationsModel* model() const { return m_model; }
  QTableView* table() const { return m_table; }
  QComboBox* layers() const { return m_layers; }
  QLineEdit* filter() const { return m_filter; }
  KeyValueModel* summary() const { return m_summary; }
  KeyValueModel* programs() const { return m_programs; }
  KeyValueModel* variables() const { return m_variables; }
  QPlainTextEdit* debugText() const { return m_debug; }
  LayerTotalsModel* layerTotals() const { return m_layerTotals; }
  OperationTilesPanel* tilesPanel() const { return m_tiles; }
  /// Shows or hides a column of the table (the header's context menu does this too).
  void setColumnShown(int column, bool shown);

private:
  void showSelection();
  /// Shows the base and difference columns beside their current ones when comparing.
  void showCompareColumns(bool compared);
  void showColumnMenu(const QPoint& at);
  OperationsModel* m_model;
  LayerTotalsModel* m_layerTotals;
  KeyValueModel *m_summary, *m_programs, *m_variables;
  QStackedWidget* m_stack;
  QLabel* m_noDebug;
  QComboBox* m_layers;
  QLineEdit* m_filter;
  QTableView* m_table;
  QTabWidget* m_tabs;
  QPlainTextEdit* m_debug;
  TaskHandle m_task;
  std::shared_ptr<const Document> m_doc;
  OperationTilesPanel* m_tiles = nullptr;
};

} // namespace tessera::viewer
