#include "widgets/GraphPage.hpp"

#include "charts/GraphView.hpp"
#include "core/Format.hpp"
#include "core/GraphData.hpp"
#include "core/GraphGroups.hpp"
#include "core/GraphLayout.hpp"
#include "core/Settings.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace tessera::viewer {

/// What reading the graph gives: the whole graph (not laid out) and its groups.
struct GraphPage::Loaded {
  std::shared_ptr<const GraphViewData> full;
  std::shared_ptr<const GraphGroups> groups;
};

GraphPage::GraphPage(QWidget* parent)
    : Page(parent), view_(new GraphView(this)), stack_(new QStackedWidget(this)),
      missing_(new QLabel(this)), counts_(new QLabel(this)), details_(new QLabel(this)),
      matchLabel_(new QLabel(this)), search_(new QLineEdit(this)) {
  search_->setPlaceholderText(tr("Search compute sets and variables"));
  search_->setClearButtonEnabled(true);
  search_->setObjectName(QStringLiteral("graphSearch"));
  // The counts beside it grow long on a grouped graph: they wrap, the box keeps room to type.
  search_->setMinimumWidth(260);
  search_->setMaximumWidth(480);
  counts_->setWordWrap(true);
  counts_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  missing_->setAlignment(Qt::AlignCenter);
  missing_->setWordWrap(true);
  connect(missing_, &QLabel::linkActivated, this, [this] { layOutNow(); });
  details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  details_->setWordWrap(true);
  // A variable on 1,000 tiles has a tile list no word wrap can break: the line takes the page's
  // width and never widens the window (the full list is in the tooltip).
  details_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

  auto* bar = new QHBoxLayout;
  bar->addWidget(search_, 2);
  bar->addWidget(matchLabel_);
  bar->addWidget(counts_, 3);
  auto* graph = new QWidget(this);
  auto* layout = new QVBoxLayout(graph);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(bar);
  layout->addWidget(view_, 1);
  layout->addWidget(details_);
  stack_->addWidget(graph);
  stack_->addWidget(missing_);
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  outer->addWidget(stack_);

  connect(search_, &QLineEdit::textChanged, this, [this](const QString& text) { search(text); });
  connect(search_, &QLineEdit::returnPressed, this,
          [this] { stepMatch(!(QApplication::keyboardModifiers() & Qt::ShiftModifier)); });
  connect(view_, &GraphView::selectionChanged, this, &GraphPage::showSelection);
  connect(view_, &GraphView::activated, this, [this](int node) { activate(node); });
}

QWidget* GraphPage::imageWidget() {
  return view_;
}

void GraphPage::setDocument(std::shared_ptr<const Document> doc) {
  setReady(false);
  task_ = TaskHandle();
  layoutTask_ = TaskHandle();
  view_->setData(nullptr);
  full_.reset();
  groups_.reset();
  expanded_.clear();
  matches_.clear();
  match_ = -1;
  counts_->clear();
  details_->clear();
  matchLabel_->clear();
  {
    // A search belongs to its document: left over, it would select nodes (and through them
    // tiles on Memory) in the next one, unasked.
    const QSignalBlocker block(search_);
    search_->clear();
  }
  stack_->setCurrentIndex(0);
  doc_ = std::move(doc);
  started_ = false;
  // A graph is read and laid out only for a user who looks at it: a report opened on another
  // view costs nothing here (the CNN's graph took minutes of a pool thread before).
  if (doc_ && isVisible()) startOrOffer();
}

void GraphPage::startOrOffer() {
  if (Settings::instance().graphLayoutOnOpen()) return startLoading();
  // Preferences > "Lay out the Graph view as soon as it is shown" is off: a large graph costs
  // nothing until asked for. Ready: there is nothing on its way.
  missing_->setText(tr("The graph is laid out on request (Preferences).<br><br>"
                       "<a href=\"layout\">Lay out the graph</a>"));
  stack_->setCurrentWidget(missing_);
  setReady(true);
}

void GraphPage::layOutNow() {
  if (!doc_ || started_) return;
  stack_->setCurrentIndex(0);
  setReady(false);
  startLoading();
}

void GraphPage::showEvent(QShowEvent* event) {
  Page::showEvent(event);
  if (doc_ && !started_) startOrOffer();
}

void GraphPage::startLoading() {
  started_ = true;
  auto doc = doc_;
  task_ = runInBackground<Loaded>(
      this, tr("Reading the computation graph"),
      [doc](Progress& p) {
        auto full = std::make_shared<GraphViewData>(readGraph(*doc, p));
        Loaded out;
        if (full->present) out.groups = std::make_shared<const GraphGroups>(groupByPath(*full));
        out.full = std::move(full);
        return out;
      },
      [this](std::shared_ptr<const Loaded> loaded) {
        if (!loaded->full->present) {
          showGraph(loaded->full, -1);
          return;
        }
        full_ = loaded->full;
        groups_ = loaded->groups;
        expanded_ = initialExpansion(*full_, *groups_, wholeGraphNodes_);
        relayout(-1);
      },
      reportError());
}

void GraphPage::relayout(int selectLeaf, const QString& focus) {
  auto full = full_;
  auto groups = groups_;
  auto expanded = expanded_;
  layoutTask_ = runInBackground<GraphViewData>(
      this, tr("Laying out the computation graph"),
      [full, groups, expanded](Progress& p) {
        GraphViewData shown = shownGraph(*full, *groups, expanded);
        QElapsedTimer timer;
        timer.start();
        layoutGraph(shown, p);
        shown.layoutSeconds = timer.nsecsElapsed() / 1e9;
        return shown;
      },
      [this, selectLeaf, focus](std::shared_ptr<const GraphViewData> laidOut) {
        showGraph(std::move(laidOut), selectLeaf, focus);
      },
      reportError());
}

void GraphPage::showGraph(std::shared_ptr<const GraphViewData> laidOut, int selectLeaf,
                          const QString& focus) {
  if (!laidOut->present) {
    missing_->setText(tr("This report has no serialized graph (%1).\nRun with the engine option "
                         "autoReport.outputSerializedGraph=true to write it.")
                          .arg(laidOut->path));
    stack_->setCurrentWidget(missing_);
    setReady(true);
    return;
  }
  QString counts = tr("%1 compute sets, %2 variables, %3 edges")
                       .arg(laidOut->computeSets)
                       .arg(laidOut->variables)
                       .arg(full_ ? full_->edges.size() : laidOut->edges.size());
  if (laidOut->grouped)
    counts += tr("; showing %1 nodes, %2 of them closed groups (double-click opens)")
                  .arg(laidOut->nodes.size())
                  .arg(laidOut->groupsShown);
  int hubEdges = 0;
  for (const GraphEdge& e : laidOut->edges)
    hubEdges += e.routed ? 0 : 1;
  if (hubEdges > 0)
    counts += tr("; %1 edges of busy nodes drawn when one end is selected").arg(hubEdges);
  counts_->setText(counts);
  if (laidOut->compared) {
    // Comparing: what changed against the base's graph, and what the base had that is gone.
    counts_->setText(counts_->text() + tr("; vs base: %1 changed, %2 new, %3 gone")
                                           .arg(laidOut->changedNodes)
                                           .arg(laidOut->newNodes)
                                           .arg(laidOut->onlyInBase.size()));
    counts_->setToolTip(laidOut->onlyInBase.isEmpty()
                            ? QString()
                            : tr("Only in the base report: %1")
                                  .arg(laidOut->onlyInBase.mid(0, 40).join(QStringLiteral(", "))));
  } else {
    counts_->setToolTip(QString());
  }
  const bool again = view_->graphData() != nullptr;
  view_->setData(laidOut, again);
  // The search's matches, as the nodes now shown (a match in a closed group marks the group).
  QVector<int> shown;
  for (const int leaf : matches_)
    if (const int node = laidOut->shownNodeOf(leaf); node >= 0 && !shown.contains(node))
      shown << node;
  view_->setHighlighted(shown);
  if (selectLeaf >= 0) {
    view_->select(laidOut->shownNodeOf(selectLeaf));
  } else {
    showSelection(-1);
    if (!focus.isEmpty())
      for (int i = 0; i < laidOut->nodes.size(); ++i)
        if (laidOut->nodes[i].name.startsWith(focus + QLatin1Char('/'))) {
          view_->showNode(i);
          break;
        }
  }
  setReady(true);
}

bool GraphPage::activate(int node) {
  const GraphViewData* shown = view_->graphData();
  if (!shown || !groups_ || node < 0 || node >= shown->nodes.size()) return false;
  const GraphNode& n = shown->nodes[node];
  std::set<int> expanded = expanded_;
  if (n.kind == GraphNode::Kind::Group) {
    for (const int g : openPathTo(*groups_, n.index))
      expanded.insert(g);
  } else {
    // A compute set or variable: close the group it lies in (the top level stays open).
    const int leaf = shown->leafOf(node);
    int group = leaf >= 0 ? groups_->groupOfLeaf[std::size_t(leaf)] : 0;
    while (group > 0 && representative(*groups_, group) != group)
      group = groups_->groups[std::size_t(group)].parent;
    if (group <= 0) return false;
    expanded.erase(group);
  }
  const int count = shownNodes(*groups_, expanded);
  if (count > kMaxShownNodes) {
    details_->setText(tr("Opening %1 would show %2 nodes, more than the %3 laid out at once: "
                         "open a group inside it, or search for a name.")
                          .arg(n.name.toHtmlEscaped(), formatCount(std::uint64_t(count)))
                          .arg(kMaxShownNodes));
    return false;
  }
  expanded_ = std::move(expanded);
  relayout(-1, n.kind == GraphNode::Kind::Group ? n.name : QString());
  return true;
}

bool GraphPage::openGroup(const QString& path) {
  if (!groups_) return false;
  for (int g = 0; g < int(groups_->groups.size()); ++g) {
    if (groups_->groups[std::size_t(g)].path != path) continue;
    std::set<int> expanded = expanded_;
    for (const int up : openPathTo(*groups_, representative(*groups_, g)))
      expanded.insert(up);
    if (shownNodes(*groups_, expanded) > kMaxShownNodes) return false;
    expanded_ = std::move(expanded);
    relayout(-1, groups_->groups[std::size_t(representative(*groups_, g))].path);
    return true;
  }
  return false;
}

int GraphPage::search(const QString& text) {
  // Matches are nodes of the whole graph: a name inside a closed group is found too.
  matches_ = full_ ? findNodes(*full_, text) : QVector<int>{};
  match_ = -1;
  const GraphViewData* graph = view_->graphData();
  QVector<int> shown;
  if (graph)
    for (const int leaf : matches_)
      if (const int node = graph->shownNodeOf(leaf); node >= 0 && !shown.contains(node))
        shown << node;
  view_->setHighlighted(shown);
  if (text.isEmpty())
    matchLabel_->clear();
  else if (matches_.isEmpty())
    matchLabel_->setText(tr("no match"));
  if (!matches_.isEmpty()) stepMatch(true);
  return static_cast<int>(matches_.size());
}

void GraphPage::stepMatch(bool forward) {
  if (matches_.isEmpty()) return;
  const int n = static_cast<int>(matches_.size());
  match_ = match_ < 0 ? 0 : (match_ + (forward ? 1 : n - 1)) % n;
  matchLabel_->setText(tr("%1 of %2").arg(match_ + 1).arg(n));
  const int leaf = matches_[match_];
  const GraphViewData* graph = view_->graphData();
  if (!graph || !groups_) return;
  const int node = graph->shownNodeOf(leaf);
  if (graph->leafOf(node) == leaf || !groups_) {
    view_->select(node);
    return;
  }
  // Inside a closed group: open the groups around it and select it once laid out; if that
  // would show too much, select the group that holds it.
  std::set<int> expanded = expanded_;
  for (const int g : openPathTo(*groups_, groups_->groupOfLeaf[std::size_t(leaf)]))
    expanded.insert(g);
  if (shownNodes(*groups_, expanded) > kMaxShownNodes) {
    view_->select(node);
    return;
  }
  expanded_ = std::move(expanded);
  relayout(leaf);
}

namespace {
/// A tile list cut to a line's worth at a comma: "0,2,4,…,58,…" (the tooltip holds all of it).
QString shortTileRanges(const QString& tiles) {
  constexpr int kMax = 60;
  if (tiles.size() <= kMax) return tiles;
  const int cut = tiles.lastIndexOf(QLatin1Char(','), kMax);
  return tiles.left(cut > 0 ? cut : kMax) + QStringLiteral(",…");
}
} // namespace

void GraphPage::showSelection(int node) {
  const GraphViewData* graph = view_->graphData();
  if (!graph || node < 0) {
    details_->setText(
        tr("Click a compute set (box) or variable (ellipse); double-click opens a group or "
           "closes the one a node is in; wheel zooms, drag pans, 0 fits."));
    return;
  }
  const GraphNode& n = graph->nodes[node];
  if (n.kind == GraphNode::Kind::Group) {
    details_->setToolTip(QString());
    details_->setText(tr("<b>Group</b> %1: %2 compute sets and %3 variables under this path; "
                         "double-click (or Enter) opens it")
                          .arg(n.name.toHtmlEscaped())
                          .arg(groups_->groups[std::size_t(n.index)].computeSets)
                          .arg(groups_->groups[std::size_t(n.index)].variables));
    return;
  }
  int in = 0, out = 0;
  for (const GraphEdge& e : graph->edges)
    in += e.to == node, out += e.from == node;
  const bool cs = n.kind == GraphNode::Kind::ComputeSet;
  details_->setToolTip(n.tiles);
  details_->setText(tr("<b>%1</b> %2: %3; tiles %4; %5 in, %6 out")
                        .arg(cs ? tr("Compute set") : tr("Variable"), n.name.toHtmlEscaped(),
                             n.detail.toHtmlEscaped(), shortTileRanges(n.tiles))
                        .arg(in)
                        .arg(out));
  if (cs)
    emit computeSetSelected(n.name, n.tiles);
  else
    emit variableSelected(n.name, n.tiles);
}

} // namespace tessera::viewer
