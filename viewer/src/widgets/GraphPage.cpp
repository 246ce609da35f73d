#include "widgets/GraphPage.hpp"

#include "charts/GraphView.hpp"
#include "core/GraphData.hpp"

#include <QApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace tessera::viewer {

GraphPage::GraphPage(QWidget* parent)
    : Page(parent), view_(new GraphView(this)), stack_(new QStackedWidget(this)),
      missing_(new QLabel(this)), counts_(new QLabel(this)), details_(new QLabel(this)),
      matchLabel_(new QLabel(this)), search_(new QLineEdit(this)) {
  search_->setPlaceholderText(tr("Search compute sets and variables"));
  search_->setClearButtonEnabled(true);
  search_->setObjectName(QStringLiteral("graphSearch"));
  missing_->setAlignment(Qt::AlignCenter);
  missing_->setWordWrap(true);
  details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  details_->setWordWrap(true);
  // A variable on 1,000 tiles has a tile list no word wrap can break: the line takes the page's
  // width and never widens the window (the full list is in the tooltip).
  details_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

  auto* bar = new QHBoxLayout;
  bar->addWidget(search_, 2);
  bar->addWidget(matchLabel_);
  bar->addStretch(1);
  bar->addWidget(counts_);
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
}

QWidget* GraphPage::imageWidget() {
  return view_;
}

void GraphPage::setDocument(std::shared_ptr<const Document> doc) {
  setReady(false);
  task_ = TaskHandle();
  view_->setData(nullptr);
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
  if (!doc) return;
  task_ = runInBackground<GraphViewData>(
      this, tr("Laying out the computation graph"),
      [doc](Progress& p) { return loadGraphView(*doc, p); },
      [this](std::shared_ptr<const GraphViewData> laidOut) { showGraph(std::move(laidOut)); },
      reportError());
}

void GraphPage::showGraph(std::shared_ptr<const GraphViewData> laidOut) {
  if (!laidOut->present) {
    missing_->setText(tr("This report has no serialized graph (%1).\nRun with the engine option "
                         "autoReport.outputSerializedGraph=true to write it.")
                          .arg(laidOut->path));
    stack_->setCurrentWidget(missing_);
    setReady(true);
    return;
  }
  counts_->setText(tr("%1 compute sets, %2 variables, %3 edges")
                       .arg(laidOut->computeSets)
                       .arg(laidOut->variables)
                       .arg(laidOut->edges.size()));
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
  view_->setData(std::move(laidOut));
  if (!search_->text().isEmpty()) search(search_->text());
  showSelection(-1);
  setReady(true);
}

int GraphPage::search(const QString& text) {
  const GraphViewData* graph = view_->graphData();
  matches_ = graph ? findNodes(*graph, text) : QVector<int>{};
  match_ = -1;
  view_->setHighlighted(matches_);
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
  view_->select(matches_[match_]);
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
        tr("Click a compute set (box) or variable (ellipse); wheel zooms, drag pans, 0 fits."));
    return;
  }
  const GraphNode& n = graph->nodes[node];
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
