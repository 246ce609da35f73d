// Computation graph (--view graph): the serialized graph (autoReport.outputSerializedGraph) laid
// out by Graphviz, with search (Enter / Shift+Enter step through matches) and the selected
// node's details. Selecting a variable or compute set tells the main window, which selects its
// tiles in Memory and its operation in Operations.
#pragma once

#include "core/Background.hpp"
#include "widgets/Page.hpp"

class QLabel;
class QLineEdit;
class QStackedWidget;

namespace tessera::viewer {

class GraphView;
struct GraphViewData;

class GraphPage : public Page {
  Q_OBJECT
public:
  explicit GraphPage(QWidget* parent = nullptr);
  QString title() const override { return tr("Graph"); }
  QString viewKey() const override { return QStringLiteral("graph"); }
  void setDocument(std::shared_ptr<const Document> doc) override;
  QWidget* imageWidget() override;

  /// Highlights the nodes whose name contains `text` and selects the first; returns how many.
  int search(const QString& text);
  /// Selects the next (or previous) search match.
  void stepMatch(bool forward);

  GraphView* view() const { return view_; }
  QLineEdit* searchEdit() const { return search_; }
  QLabel* countsLabel() const { return counts_; }
  QLabel* detailsLabel() const { return details_; }

signals:
  /// A variable was selected: its name and the tiles it is mapped to ("0-3,7").
  void variableSelected(const QString& name, const QString& tiles);
  /// A compute set was selected: its name and the tiles of its vertices.
  void computeSetSelected(const QString& name, const QString& tiles);

private:
  void showGraph(std::shared_ptr<const GraphViewData> laidOut);
  void showSelection(int node);
  GraphView* view_;
  QStackedWidget* stack_;
  QLabel *missing_, *counts_, *details_, *matchLabel_;
  QLineEdit* search_;
  QVector<int> matches_;
  int match_ = -1;
  TaskHandle task_;
};

} // namespace tessera::viewer
