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
    : Page(parent), m_view(new GraphView(this)), m_stack(new QStackedWidget(this)), m_missing(new QLabel(this)),
      m_counts(new QLabel(this)), m_details(new QLabel(this)), m_matchLabel(new QLabel(this)),
      m_search(new QLineEdit(this)) {
  m_search->setPlaceholderText(tr("Search compute sets and variables"));
  m_search->setClearButtonEnabled(true);
  m_search->setObjectName(QStringLiteral("graphSearch"));
  m_missing->setAlignment(Qt::AlignCenter);
  m_missing->setWordWrap(true);
  m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_details->setWordWrap(true);
  // A variable on 1,000 tiles has a tile list no word wrap can break: the line takes the page's
  // width and never widens the window (the full list is in the tooltip).
  m_details->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

  auto* bar = new QHBoxLayout;
  bar->addWidget(m_search, 2);
  bar->addWidget(m_matchLabel);
  bar->addStretch(1);
  bar->addWidget(m_counts);
  auto* graph = new QWidget(this);
  auto* layout = new QVBoxLayout(graph);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(bar);
  layout->addWidget(m_view, 1);
  layout->addWidget(m_details);
  m_stack->addWidget(graph);
  m_stack->addWidget(m_missing);
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  outer->addWidget(m_stack);

  connect(m_search, &QLineEdit::textChanged, this, [this](const QString& text) { search(text); });
  connect(m_search, &QLineEdit::returnPressed, this,
          [this] { stepMatch(!(QApplication::keyboardModifiers() & Qt::ShiftModifier)); });
  connect(m_view, &GraphView::selectionChanged, this, &GraphPage::showSelection);
}

QWidget* GraphPage::imageWidget() { return m_view; }

void GraphPage::setDocument(std::shared_ptr<const Document> doc) {
  setReady(false);
  m_task = TaskHandle();
  m_view->setData(nullptr);
  m_matches.clear();
  m_match = -1;
  m_counts->clear();
  m_details->clear();
  m_matchLabel->clear();
  {
    // A search belongs to its document: left over, it would select nodes (and through them
    // tiles on Memory) in the next one, unasked.
    const QSignalBlocker block(m_search);
    m_search->clear();
  }
  m_stack->setCurrentIndex(0);
  if (!doc) return;
  m_task = runInBackground<GraphViewData>(
      this, tr("Laying out the computation graph"), [doc](Progress& p) { return loadGraphView(*doc, p); },
      [this](std::shared_ptr<const GraphViewData> laidOut) { showGraph(std::move(laidOut)); }, reportError());
}

void GraphPage::showGraph(std::shared_ptr<const GraphViewData> laidOut) {
  if (!laidOut->present) {
    m_missing->setText(tr("This report has no serialized graph (%1).\nRun with the engine option "
                          "autoReport.outputSerializedGraph=true to write it.")
                           .arg(laidOut->path));
    m_stack->setCurrentWidget(m_missing);
    setReady(true);
    return;
  }
  m_counts->setText(tr("%1 compute sets, %2 variables, %3 edges")
                        .arg(laidOut->computeSets)
                        .arg(laidOut->variables)
                        .arg(laidOut->edges.size()));
  if (laidOut->compared) {
    // Comparing: what changed against the base's graph, and what the base had that is gone.
    m_counts->setText(m_counts->text() + tr("; vs base: %1 changed, %2 new, %3 gone")
                                             .arg(laidOut->changedNodes)
                                             .arg(laidOut->newNodes)
                                             .arg(laidOut->onlyInBase.size()));
    m_counts->setToolTip(laidOut->onlyInBase.isEmpty()
                             ? QString()
                             : tr("Only in the base report: %1").arg(laidOut->onlyInBase.mid(0, 40).join(QStringLiteral(", "))));
  } else {
    m_counts->setToolTip(QString());
  }
  m_view->setData(std::move(laidOut));
  if (!m_search->text().isEmpty()) search(m_search->text());
  showSelection(-1);
  setReady(true);
}

int GraphPage::search(const QString& text) {
  const GraphViewData* graph = m_view->graphData();
  m_matches = graph ? findNodes(*graph, text) : QVector<int>{};
  m_match = -1;
  m_view->setHighlighted(m_matches);
  if (text.isEmpty())
    m_matchLabel->clear();
  else if (m_matches.isEmpty())
    m_matchLabel->setText(tr("no match"));
  if (!m_matches.isEmpty()) stepMatch(true);
  return static_cast<int>(m_matches.size());
}

void GraphPage::stepMatch(bool forward) {
  if (m_matches.isEmpty()) return;
  const int n = static_cast<int>(m_matches.size());
  m_match = m_match < 0 ? 0 : (m_match + (forward ? 1 : n - 1)) % n;
  m_matchLabel->setText(tr("%1 of %2").arg(m_match + 1).arg(n));
  m_view->select(m_matches[m_match]);
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
  const GraphViewData* graph = m_view->graphData();
  if (!graph || node < 0) {
    m_details->setText(tr("Click a compute set (box) or variable (ellipse); wheel zooms, drag pans, 0 fits."));
    return;
  }
  const GraphNode& n = graph->nodes[node];
  int in = 0, out = 0;
  for (const GraphEdge& e : graph->edges) in += e.to == node, out += e.from == node;
  const bool cs = n.kind == GraphNode::Kind::ComputeSet;
  m_details->setToolTip(n.tiles);
  m_details->setText(tr("<b>%1</b> %2: %3; tiles %4; %5 in, %6 out")
                         .arg(cs ? tr("Compute set") : tr("Variable"), n.name.toHtmlEscaped(), n.detail.toHtmlEscaped(),
                              shortTileRanges(n.tiles))
                         .arg(in)
                         .arg(out));
  if (cs)
    emit computeSetSelected(n.name, n.tiles);
  else
    emit variableSelected(n.name, n.tiles);
}

} // namespace tessera::viewer
