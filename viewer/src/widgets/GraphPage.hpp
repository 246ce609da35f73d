// Computation graph (--view graph): the serialized graph (autoReport.outputSerializedGraph) laid
// out by Graphviz, with search (Enter / Shift+Enter step through matches) and the selected
// node's details. Selecting a variable or compute set tells the main window, which selects its
// tiles in Memory and its operation in Operations.
//
// At model scale the graph is shown by layers and operations first (GraphGroups): a group is one
// node until it is opened (double click), and each change lays out, in the background and
// cancellably, only what shows. Nothing is read or laid out until the page is first shown.
#pragma once

#include "core/Background.hpp"
#include "widgets/Page.hpp"

#include <set>

class QLabel;
class QLineEdit;
class QStackedWidget;

namespace tessera::viewer {

class GraphView;
struct GraphViewData;
struct GraphGroups;

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
  /// Selects the next (or previous) search match, opening the groups that hold it.
  void stepMatch(bool forward);
  /// Opens the group shown as `node` (false: not a group, or too many nodes would show), or,
  /// for a compute set or variable, closes the group it lies in. Lays out in the background.
  bool activate(int node);
  /// Opens the group at `path` ("bwd/block6") and the groups around it, laid out in the
  /// background; false when there is no such group or it would show too many nodes.
  bool openGroup(const QString& path);
  /// Graphs larger than this open by groups (tests lower it to see grouping on small reports).
  void setWholeGraphNodes(int nodes) { wholeGraphNodes_ = nodes; }
  /// The whole graph as read (not laid out) and its groups; null before the page was shown.
  const GraphViewData* fullGraph() const { return full_.get(); }
  const GraphGroups* groups() const { return groups_.get(); }

  GraphView* view() const { return view_; }
  QLineEdit* searchEdit() const { return search_; }
  QLabel* countsLabel() const { return counts_; }
  QLabel* detailsLabel() const { return details_; }
  /// With the preference "Graph view layout on open" off, the page waits for this (its
  /// "Lay out the graph" link); true once the graph is being read or shown.
  void layOutNow();
  bool layoutStarted() const { return started_; }

signals:
  /// A variable was selected: its name and the tiles it is mapped to ("0-3,7").
  void variableSelected(const QString& name, const QString& tiles);
  /// A compute set was selected: its name and the tiles of its vertices.
  void computeSetSelected(const QString& name, const QString& tiles);

protected:
  void showEvent(QShowEvent* event) override;

private:
  struct Loaded;
  void startLoading();
  /// Starts loading, or, with layout on open turned off in Preferences, offers it.
  void startOrOffer();
  /// Lays out what `expanded_` shows; then selects full-graph node `selectLeaf`, or, when
  /// `focus` names an opened group, brings its first node into view readable (an opened group
  /// of a model is often a column of blocks that, fitted, would show no text).
  void relayout(int selectLeaf, const QString& focus = QString());
  void showGraph(std::shared_ptr<const GraphViewData> laidOut, int selectLeaf,
                 const QString& focus = QString());
  void showSelection(int node);
  std::shared_ptr<const Document> doc_;
  bool started_ = false;
  std::shared_ptr<const GraphViewData> full_;
  std::shared_ptr<const GraphGroups> groups_;
  std::set<int> expanded_;
  int wholeGraphNodes_ = 400; ///< kWholeGraphNodes (core/GraphGroups.hpp)
  TaskHandle layoutTask_;
  GraphView* view_;
  QStackedWidget* stack_;
  QLabel *missing_, *counts_, *details_, *matchLabel_;
  QLineEdit* search_;
  QVector<int> matches_;
  int match_ = -1;
  TaskHandle task_;
};

} // namespace tessera::viewer
