// The Insights page: a verdict line, the usage histogram beside the suggestions, then the tables.
// Tables hold at most a handful of rows (pva::InsightsOptions), so each is sized to its rows and
// the page scrolls as a whole instead of nesting scroll bars.
#include "widgets/InsightsPage.hpp"

#include "charts/UsageHistogram.hpp"
#include "models/InsightsModels.hpp"

#include <QGridLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

namespace tessera::viewer {

namespace {

/// A table sized to its few rows; `stretch` is the column that takes the room left (and elides).
QTableView* makeTable(QAbstractItemModel* model, QWidget* parent, int stretch) {
  auto* view = new QTableView(parent);
  view->setModel(model);
  view->setSelectionBehavior(QAbstractItemView::SelectRows);
  view->setAlternatingRowColors(true);
  view->setWordWrap(false);
  view->setTextElideMode(Qt::ElideMiddle);
  view->verticalHeader()->hide();
  view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  if (stretch >= 0) view->horizontalHeader()->setSectionResizeMode(stretch, QHeaderView::Stretch);
  view->horizontalHeader()->setStretchLastSection(false);
  view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8);
  view->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  view->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  return view;
}

QGroupBox* box(const QString& title, QWidget* content, QWidget* parent) {
  auto* group = new QGroupBox(title, parent);
  auto* layout = new QVBoxLayout(group);
  layout->setContentsMargins(6, 6, 6, 6);
  // Tables keep their height at the top of a taller box; the histogram takes the room.
  layout->addWidget(content, 0,
                    qobject_cast<QTableView*>(content) ? Qt::AlignTop : Qt::Alignment());
  return group;
}

/// Fits a table's height to its rows (they are few), so the page, not the table, scrolls.
void fitHeight(QTableView* view) {
  const int header = view->horizontalHeader()->sizeHint().height();
  // Rows may be taller than the default where text wraps (the suggestions): their sum.
  const int rows = view->model()->rowCount() > 0 ? view->verticalHeader()->length()
                                                 : view->verticalHeader()->defaultSectionSize();
  view->setFixedHeight(header + rows + 2 * view->frameWidth() + 2);
}

} // namespace

InsightsPage::InsightsPage(QWidget* parent)
    : Page(parent), verdict_(new QLabel(this)), histogram_(new UsageHistogram(this)),
      suggestions_(new SuggestionsModel(this)), worstTiles_(new WorstTilesModel(this)),
      liveness_(new LivenessSplitModel(this)),
      vertexState_(new VertexTypesModel(VertexTypesModel::By::State, this)),
      vertexCode_(new VertexTypesModel(VertexTypesModel::By::Code, this)),
      exchanges_(new ExchangesModel(this)) {
  auto* content = new QWidget(this);
  content_ = content;
  auto* grid = new QGridLayout(content);
  verdict_->setWordWrap(true);
  verdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  QFont big = verdict_->font();
  big.setPointSizeF(big.pointSizeF() * 1.3);
  big.setBold(true);
  verdict_->setFont(big);
  grid->addWidget(verdict_, 0, 0, 1, 2);

  QTableView* suggestions = makeTable(suggestions_, content, 1);
  // What and where share the room left, so that a narrow window elides both instead of one.
  suggestions->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
  // A suggestion is read whole: at 1280 px eliding cut it in the middle ("Store the mo…bles as
  // HALF"). Its text wraps instead and the row grows, the table with it.
  suggestions->setWordWrap(true);
  suggestions->setTextElideMode(Qt::ElideNone);
  suggestions->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  connect(suggestions->verticalHeader(), &QHeaderView::sectionResized, suggestions,
          [suggestions] { fitHeight(suggestions); });
  QTableView* worst = makeTable(worstTiles_, content, 8);
  QTableView* liveness = makeTable(liveness_, content, 0);
  QTableView* state = makeTable(vertexState_, content, 0);
  QTableView* code = makeTable(vertexCode_, content, 0);
  QTableView* exchanges = makeTable(exchanges_, content, 4);
  tables_ = {suggestions, worst, liveness, state, code, exchanges};
  // Their width follows the columns' (names elide), never the other way round.
  state->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
  code->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);

  // A short title: a group box is at least as wide as its title, and this column should stay
  // narrow.
  grid->addWidget(box(tr("Tiles by memory used"), histogram_, content), 1, 0);
  histogram_->setToolTip(
      tr("Tiles of one replica by memory including gaps, as a share of the tile's memory; "
         "the red bar: tiles over it"));
  grid->addWidget(box(tr("Suggestions (estimated savings; hover for why)"), suggestions, content),
                  1, 1);
  grid->addWidget(box(tr("Worst tiles (including gaps)"), worst, content), 2, 0, 1, 2);
  grid->addWidget(
      box(tr("Always live and not always live: at the model's peak step and at each one's own"),
          liveness, content),
      3, 0, 1, 2);
  grid->addWidget(box(tr("Largest vertex state (one replica)"), state, content), 4, 0);
  grid->addWidget(box(tr("Largest vertex code (one replica)"), code, content), 4, 1);
  grid->addWidget(box(tr("Largest exchanges (by exchange code) and the compute sets they serve"),
                      exchanges, content),
                  5, 0, 1, 2);
  grid->setColumnStretch(0, 2);
  grid->setColumnStretch(1, 3);
  grid->setRowStretch(6, 1);

  auto* scroll = new QScrollArea(this);
  scroll->setWidget(content);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // the tables elide instead
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(scroll);
}

void InsightsPage::setDocument(std::shared_ptr<const Document> doc) {
  setReady(false);
  task_ = TaskHandle();
  scope_ = doc && doc->base() ? tr("Current report: ") : QString();
  showData(nullptr);
  if (!doc) return;
  task_ = runInBackground<InsightsData>(
      this, tr("Reading insights"), [doc](Progress& p) { return loadInsights(*doc, p); },
      [this](std::shared_ptr<const InsightsData> d) {
        showData(d);
        // Ready once the tables' new heights are laid out (the layout request is posted), so a
        // headless screenshot taken at "ready" shows every row.
        QTimer::singleShot(0, this, [this, d] {
          if (data_ == d) setReady(true);
        });
      },
      reportError());
}

void InsightsPage::showData(std::shared_ptr<const InsightsData> d) {
  data_ = d;
  verdict_->setText(d ? scope_ + d->verdict() : QString());
  QPalette pal = verdict_->palette();
  pal.setColor(QPalette::WindowText,
               d && !d->insights.fits ? QColor(190, 30, 30) : QColor(30, 130, 50));
  verdict_->setPalette(pal);
  histogram_->setBins(d ? d->insights.usage : std::vector<pva::UsageBin>());
  suggestions_->setData(d);
  worstTiles_->setData(d);
  liveness_->setData(d);
  vertexState_->setData(d);
  vertexCode_->setData(d);
  exchanges_->setData(d);
  for (QTableView* t : tables_)
    fitHeight(t);
  content_->layout()->activate();
}

} // namespace tessera::viewer
