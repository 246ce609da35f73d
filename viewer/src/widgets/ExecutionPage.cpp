// The Execution trace page: staged loading of one or two reports' execution, the timeline's
// controls, and the Summary and Details tabs.
#include "widgets/ExecutionPage.hpp"

#include "charts/ExecutionOverview.hpp"
#include "core/Format.hpp"
#include "core/ExecutionFigures.hpp"
#include "models/ExecutionSummaryModel.hpp"
#include "models/IpuFiguresModel.hpp"
#include "models/RunFiguresModel.hpp"
#include "models/StepDetailsModel.hpp"
#include "widgets/FittingPanels.hpp"

#include <QButtonGroup>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace tessera::viewer {

namespace {

QWidget* legend(QWidget* parent) {
  auto* w = new QWidget(parent);
  auto* l = new QHBoxLayout(w);
  l->setContentsMargins(0, 0, 0, 0);
  l->setSpacing(10);
  for (int k = 0; k < kStepKinds; ++k) {
    auto* item = new QLabel(w);
    item->setTextFormat(Qt::RichText);
    item->setText(QStringLiteral("<span style='color:%1'>&#9632;</span> %2")
                      .arg(stepKindColor(StepKind(k)).name(), stepKindName(StepKind(k)).toHtmlEscaped()));
    l->addWidget(item);
  }
  return w;
}

QTableView* makeTable(QWidget* parent) {
  auto* v = new QTableView(parent);
  v->setAlternatingRowColors(true);
  v->setSelectionBehavior(QAbstractItemView::SelectRows);
  v->verticalHeader()->hide();
  v->verticalHeader()->setDefaultSectionSize(v->fontMetrics().height() + 6);
  v->horizontalHeader()->setStretchLastSection(true);
  v->setWordWrap(false);
  return v;
}

} // namespace

ExecutionPage::ExecutionPage(QWidget* parent)
    : Page(parent), m_timeline(new ExecutionTimeline(this)), m_overview(new ExecutionOverview(m_timeline, this)),
      m_runs(new QComboBox(this)), m_status(new QLabel(this)), m_tabs(new QTabWidget(this)),
      m_summaryView(makeTable(this)), m_detailsView(makeTable(this)), m_detailsHint(new QLabel(this)),
      m_summaryModel(new ExecutionSummaryModel(this)), m_detailsModel(new StepDetailsModel(this)),
      m_runFiguresModel(new RunFiguresModel(this)), m_ipuFiguresModel(new IpuFiguresModel(this)),
      m_figuresHeading(new QLabel(this)), m_runFiguresView(makeTable(this)), m_ipuFiguresView(makeTable(this)) {
  // Controls: run, mode, fit, legend, indexing status.
  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Run:"), this));
  m_runs->setObjectName(QStringLiteral("runSelector"));
  m_runs->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  controls->addWidget(m_runs);
  auto* group = new QButtonGroup(this);
  const QString names[] = {tr("Flat"), tr("Flame"), tr("BSP")};
  const QString tips[] = {tr("One lane per IPU, steps coloured by kind"),
                          tr("Lanes above the steps by operation and layer path from the debug contexts (the program tree "
                             "without debug.cbor); steps of one operation merge into one block"),
                          tr("Per tile: compute or exchange, still busy, idle until the sync (Ctrl+wheel zooms tiles)")};
  for (int i = 0; i < 3; ++i) {
    auto* b = new QToolButton(this);
    b->setText(names[i]);
    b->setToolTip(tips[i]);
    b->setCheckable(true);
    b->setAutoRaise(true);
    group->addButton(b, i);
    controls->addWidget(b);
    m_modeButtons[std::size_t(i)] = b;
  }
  m_modeButtons[0]->setChecked(true);
  connect(group, &QButtonGroup::idClicked, this, [this](int id) { setMode(ExecutionTimeline::Mode(id)); });
  auto* fit = new QToolButton(this);
  fit->setText(tr("Fit"));
  fit->setToolTip(tr("Zoom to fit (0 or Home)"));
  fit->setAutoRaise(true);
  connect(fit, &QToolButton::clicked, m_timeline, &ExecutionTimeline::fit);
  controls->addWidget(fit);
  // The legends have a row of their own: beside the controls they overflowed a 1,400 px window in
  // BSP mode (the BSP legend ran into the step count).
  auto* legendRow = new QHBoxLayout;
  legendRow->addWidget(legend(this));
  // BSP's own legend: the same kinds, plus tiles still busy while others wait, and idle ones.
  m_bspLegend = new QLabel(this);
  m_bspLegend->setObjectName(QStringLiteral("bspLegend"));
  m_bspLegend->setTextFormat(Qt::RichText);
  m_bspLegend->setText(tr("<span style='color:%1'>&#9632;</span> partly busy &nbsp; <span style='color:%2'>&#9632;</span> idle")
                           .arg(m_timeline->bspStillBusyColor(StepKind::Compute).name(), m_timeline->bspIdleColor().name()));
  m_bspLegend->setToolTip(tr("Partly busy: some tiles of the row still work on the step (its kind's colour, paler) while "
                             "others wait. Idle: every tile of the row waits for the sync."));
  m_bspLegend->setVisible(false);
  legendRow->addSpacing(12);
  legendRow->addWidget(m_bspLegend);
  legendRow->addStretch(1);
  // The status text changes as the steps are indexed ("indexing 1,024 of 3,488 steps"): it takes
  // the room left beside the controls and never widens the window (a screenshot or a small
  // screen keeps its size whatever the text is when the layout runs).
  m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  m_status->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  m_status->setObjectName(QStringLiteral("executionStatus"));
  controls->addWidget(m_status, 1);

  m_runs->setEnabled(false);
  connect(m_runs, qOverload<int>(&QComboBox::activated), this, [this](int i) { selectRun(i - 1); });

  // Tabs.
  m_summaryView->setModel(m_summaryModel);
  m_summaryView->setObjectName(QStringLiteral("executionSummary"));
  m_detailsView->setModel(m_detailsModel);
  m_detailsView->setObjectName(QStringLiteral("stepDetails"));
  auto* details = new QWidget(this);
  auto* dl = new QVBoxLayout(details);
  dl->setContentsMargins(0, 0, 0, 0);
  m_detailsHint->setText(tr("Click a step in the timeline to see its details."));
  dl->addWidget(m_detailsHint);
  dl->addWidget(m_detailsView);
  addSummaryPanels();
  m_tabs->addTab(details, tr("Details"));

  auto* splitter = new QSplitter(Qt::Vertical, this);
  auto* top = new QWidget(this);
  auto* tl = new QVBoxLayout(top);
  tl->setContentsMargins(0, 0, 0, 0);
  tl->setSpacing(2);
  tl->addWidget(m_overview);
  tl->addWidget(m_timeline, 1);
  splitter->addWidget(top);
  splitter->addWidget(m_tabs);
  // The summary's tables need about a third of the height; a timeline of a few IPUs leaves
  // empty space at any height.
  splitter->setSizes({560, 340}); // proportions, whatever the window's height
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addLayout(legendRow);
  layout->addWidget(splitter, 1);

  m_pool.setMaxThreadCount(4); // two reports' indexes, their analysis (one task), one on-demand read
  m_pollTimer.setInterval(100);
  connect(&m_pollTimer, &QTimer::timeout, this, &ExecutionPage::poll);
  m_summaryTimer.setSingleShot(true);
  m_summaryTimer.setInterval(30);
  connect(&m_summaryTimer, &QTimer::timeout, this, &ExecutionPage::updateSummary);
  m_tilesTimer.setSingleShot(true);
  m_tilesTimer.setInterval(120);
  connect(&m_tilesTimer, &QTimer::timeout, this, &ExecutionPage::loadTiles);
  connect(m_timeline, &ExecutionTimeline::viewChanged, this, [this] { m_summaryTimer.start(); });
  connect(m_timeline, &ExecutionTimeline::tileCyclesWanted, this, [this] { m_tilesTimer.start(); });
  connect(m_timeline, &ExecutionTimeline::stepClicked, this, &ExecutionPage::showDetails);
  connect(m_timeline, &ExecutionTimeline::flameBlockClicked, this, &ExecutionPage::showBlockDetails);
  connect(m_timeline, &ExecutionTimeline::modeChanged, this, [this](ExecutionTimeline::Mode mode) {
    m_modeButtons[std::size_t(mode)]->setChecked(true);
    m_bspLegend->setVisible(mode == ExecutionTimeline::Mode::Bsp);
  });
}

// Three tables side by side, so that each shows its rows without scrolling in the height the
// splitter gives the tabs: the run's figures, its figures per IPU, the visible range's cycles.
// Those that do not fit the window's width whole (compare mode below about 1,600 px) get tabs of
// their own rather than a clipped column.
void ExecutionPage::addSummaryPanels() {
  auto titled = [this](QLabel* heading, QTableView* view) {
    auto* w = new QWidget(this);
    auto* l = new QVBoxLayout(w);
    l->setContentsMargins(0, 0, 0, 0);
    l->setSpacing(2);
    l->addWidget(heading);
    l->addWidget(view, 1);
    return w;
  };
  m_figuresHeading->setObjectName(QStringLiteral("figuresHeading"));
  m_figuresHeading->setText(tr("Run figures: reading the execution…"));
  m_runFiguresView->setModel(m_runFiguresModel);
  m_runFiguresView->setObjectName(QStringLiteral("runFigures"));
  m_ipuFiguresView->setModel(m_ipuFiguresModel);
  m_ipuFiguresView->setObjectName(QStringLiteral("ipuFigures"));
  m_ipuFiguresView->horizontalHeader()->setStretchLastSection(false);
  m_ipuHeading = new QLabel(this);
  m_ipuHeading->setWordWrap(true);
  auto* rangeHeading = new QLabel(tr("Visible range (follows zoom and pan)"), this);
  m_summaryPanels = new FittingPanels(m_tabs, 0, tr("Summary"));
  m_summaryPanels->addPanel(titled(m_figuresHeading, m_runFiguresView), m_runFiguresView, tr("Run figures"));
  m_summaryPanels->addPanel(titled(m_ipuHeading, m_ipuFiguresView), m_ipuFiguresView, tr("Per IPU"));
  m_summaryPanels->addPanel(titled(rangeHeading, m_summaryView), m_summaryView, tr("Visible range"));
}

QWidget* ExecutionPage::imageWidget() { return m_timeline; }

bool ExecutionPage::parseMode(const QString& text, ExecutionTimeline::Mode* mode) {
  const QString t = text.trimmed().toLower();
  if (t == QLatin1String("flat")) *mode = ExecutionTimeline::Mode::Flat;
  else if (t == QLatin1String("flame")) *mode = ExecutionTimeline::Mode::Flame;
  else if (t == QLatin1String("bsp")) *mode = ExecutionTimeline::Mode::Bsp;
  else return false;
  return true;
}

void ExecutionPage::setMode(ExecutionTimeline::Mode mode) {
  m_timeline->setMode(mode);
  m_modeButtons[std::size_t(mode)]->setChecked(true);
  m_bspLegend->setVisible(mode == ExecutionTimeline::Mode::Bsp);
  if (mode == ExecutionTimeline::Mode::Bsp && !loading()) m_timeline->narrowViewForBsp();
}

bool ExecutionPage::loading() const {
  return std::any_of(m_sources.begin(), m_sources.end(), [](const Source& s) { return !s.filled; });
}

void ExecutionPage::setDocument(std::shared_ptr<const Document> doc) {
  setReady(false);
  m_pollTimer.stop();
  m_sources.clear(); // cancels every task of the previous document
  m_detailsTask = TaskHandle();
  m_doc = std::move(doc);
  m_tabs->setVisible(true);
  m_timeline->setTracks({});
  m_timeline->setMessage({});
  m_overview->setIndex(nullptr);
  m_summaryModel->setSnapshot(nullptr);
  m_detailsModel->setDetails(nullptr);
  m_figuresTask = TaskHandle();
  m_figures.reset();
  m_figuresPending = false;
  showFigures();
  m_detailsHint->show();
  m_runs->clear();
  m_runs->setEnabled(false);
  m_run = -1;
  m_runApplied = true;
  m_status->clear();
  if (!m_doc) return;
  for (auto d : {m_doc->base(), m_doc})
    if (d) {
      Source s;
      s.doc = std::move(d);
      m_sources.push_back(std::move(s));
    }
  for (std::size_t k = 0; k < m_sources.size(); ++k) {
    const auto source = m_sources[k].doc;
    m_sources[k].header = runInBackground<ExecutionHeader>(
        this, tr("Reading the execution"), [source](Progress& p) { return readExecutionHeader(*source, p); },
        [this, k](std::shared_ptr<const ExecutionHeader> h) { headerArrived(k, std::move(h)); },
        [this](const QString& error) {
          m_timeline->setMessage(tr("The execution could not be read."));
          emit errorOccurred(error);
        },
        &m_pool);
  }
}

void ExecutionPage::headerArrived(std::size_t k, std::shared_ptr<const ExecutionHeader> header) {
  Source& s = m_sources[k];
  s.headerDone = true;
  if (header->hasExecution) s.index = std::make_shared<ExecutionIndex>(*header);
  else {
    s.noExecution = header->noExecutionReason;
    s.filled = true;
  }
  if (std::all_of(m_sources.begin(), m_sources.end(), [](const Source& x) { return x.headerDone; })) allHeadersArrived();
}

void ExecutionPage::allHeadersArrived() {
  const bool compare = m_sources.size() > 1;
  std::vector<ExecutionTimeline::Track> tracks;
  QStringList missing;
  for (std::size_t k = 0; k < m_sources.size(); ++k) {
    Source& s = m_sources[k];
    const QString who = compare ? (k == 0 ? tr("Base") : tr("Current")) : QString();
    if (!s.index) {
      missing << (compare ? who + QStringLiteral(": ") : QString()) + s.noExecution;
      continue;
    }
    ExecutionTimeline::Track t;
    t.index = s.index;
    if (compare) t.label = who + QStringLiteral(": ") + s.doc->displayName();
    tracks.push_back(std::move(t));
  }
  if (tracks.empty()) {
    // Nothing ran: a state to explain, not an error.
    m_timeline->setMessage(tr("No execution in this report.") + QStringLiteral("\n\n") + missing.join(QLatin1Char('\n')));
    m_status->setText(tr("no execution"));
    m_tabs->setVisible(false); // no empty tables of figures under the message
    setReady(true);
    return;
  }
  if (!missing.isEmpty()) m_status->setText(missing.join(QStringLiteral("; ")));
  m_timeline->setTracks(std::move(tracks));
  m_overview->setIndex(m_sources.back().index ? m_sources.back().index : m_sources.front().index);

  // Runs of the current report (the base's when only it ran).
  const Source& runsOf = m_sources.back().index ? m_sources.back() : m_sources.front();
  m_runs->addItem(tr("All runs"));
  const std::vector<ExecRunInfo>& runs = runsOf.index->header().runs;
  for (const ExecRunInfo& r : runs)
    m_runs->addItem(tr("%1 (%2 steps, %3 cycles)").arg(r.name, formatCount(r.numSteps), formatCount(r.cycles)));
  // The run to open on: the one asked for, else the first of several (a run of a long report is
  // what a user reads; All runs stays one click away).
  const QString wanted = std::exchange(m_wantedRun, QString());
  if (!wanted.isEmpty()) {
    const auto it = std::find_if(runs.begin(), runs.end(), [&](const ExecRunInfo& r) { return r.name == wanted; });
    if (it != runs.end()) selectRun(int(it - runs.begin()));
    else emit unknownRun(wanted, runNames());
  } else if (runs.size() > 1) {
    selectRun(0);
  }

  // Fill every index; the timeline paints what has arrived on each poll.
  std::size_t track = 0;
  for (std::size_t k = 0; k < m_sources.size(); ++k) {
    Source& s = m_sources[k];
    if (!s.index) continue;
    const std::size_t t = track++;
    const auto doc = s.doc;
    const auto index = s.index;
    s.fill = runInBackground<FlameRows>(
        this, tr("Indexing execution steps"), [doc, index](Progress& p) { return fillExecutionIndex(*doc, *index, p); },
        [this, k, t](std::shared_ptr<const FlameRows> flame) {
          m_sources[k].filled = true;
          m_timeline->setFlame(t, std::move(flame));
          poll();
          finishIfDone();
        },
        [this, k](const QString& error) {
          m_sources[k].filled = true;
          emit errorOccurred(error);
          finishIfDone();
        },
        &m_pool);
  }
  loadFigures();
  m_pollTimer.start();
  poll();
}

void ExecutionPage::loadFigures() {
  const auto doc = m_doc;
  m_figuresPending = true;
  m_figuresTask = runInBackground<ExecutionFigures>(
      this, tr("Analysing the execution"), [doc](Progress& p) { return loadExecutionFigures(*doc, p); },
      [this](std::shared_ptr<const ExecutionFigures> figures) {
        m_figuresPending = false;
        m_figures = std::move(figures);
        showFigures();
        finishIfDone();
      },
      [this](const QString& error) {
        m_figuresPending = false;
        m_figuresHeading->setText(tr("Run figures: the execution could not be analysed."));
        emit errorOccurred(error);
        finishIfDone();
      },
      &m_pool);
}

void ExecutionPage::showFigures() {
  m_runFiguresModel->setFigures(m_figures, m_run);
  m_ipuFiguresModel->setFigures(m_figures, m_run);
  m_ipuHeading->setText((m_sources.size() > 1 ? tr("Per IPU of the current report") : tr("Per IPU")) +
                        tr(": share of tile cycles by kind; bytes moved by stream copies and global exchanges"));
  if (!m_figures) {
    m_figuresHeading->setText(m_figuresPending ? tr("Run figures: reading the execution…") : tr("Run figures"));
    return;
  }
  const QString scope = m_runFiguresModel->scope();
  m_figuresHeading->setText(m_figures->base ? tr("Figures of %1 (base and current reports)").arg(scope)
                                            : tr("Figures of %1").arg(scope));
  m_runFiguresView->resizeColumnsToContents();
  m_ipuFiguresView->resizeColumnsToContents();
  m_summaryPanels->rearrange();
}

void ExecutionPage::poll() {
  m_timeline->dataGrew();
  m_overview->update();
  std::uint64_t loaded = 0, total = 0;
  for (const Source& s : m_sources)
    if (s.index) {
      loaded += s.index->loadedSteps();
      total += s.index->numSteps();
    }
  if (loading()) m_status->setText(tr("indexing %1 of %2 steps").arg(formatCount(loaded), formatCount(total)));
  else if (total) m_status->setText(tr("%1 steps").arg(formatCount(total)));
  m_summaryTimer.start();
  if (!m_runApplied) applyRun();
}

void ExecutionPage::finishIfDone() {
  if (loading()) return;
  if (m_pollTimer.isActive()) {
    m_pollTimer.stop();
    m_runs->setEnabled(m_runs->count() > 2);
    poll();
    // Opened in BSP mode (--execution-mode bsp) on more steps than it can show per tile.
    if (m_timeline->mode() == ExecutionTimeline::Mode::Bsp) m_timeline->narrowViewForBsp();
    updateSummary();
    loadTiles(); // the BSP view's tiles, when it is the mode shown
  }
  // Ready once the indexes are complete and the BSP view has the tiles it shows.
  if (std::none_of(m_sources.begin(), m_sources.end(), [](const Source& s) { return s.tilesPending; }) && !m_figuresPending)
    setReady(true);
}

void ExecutionPage::updateSummary() {
  auto snap = std::make_shared<ExecutionSummarySnapshot>();
  const bool compare = m_sources.size() > 1;
  const double from = m_timeline->viewFrom(), to = m_timeline->viewTo();
  for (std::size_t k = 0; k < m_sources.size(); ++k) {
    const Source& s = m_sources[k];
    if (!s.index) continue;
    const bool isBase = compare && k == 0;
    ExecutionRangeSummary& r = isBase ? snap->base : snap->current;
    r = summarizeRange(*s.index, from, to);
    (isBase ? snap->baseRuns : snap->runs) = s.index->header().runs;
  }
  snap->compare = compare;
  if (m_sources.empty() || std::none_of(m_sources.begin(), m_sources.end(), [](const Source& s) { return bool(s.index); })) {
    m_summaryModel->setSnapshot(nullptr);
    return;
  }
  m_summaryModel->setSnapshot(std::move(snap));
  m_summaryView->resizeColumnsToContents();
  m_summaryPanels->rearrange();
}

QStringList ExecutionPage::runNames() const {
  QStringList names;
  for (auto it = m_sources.rbegin(); it != m_sources.rend(); ++it)
    if (it->index) {
      for (const ExecRunInfo& r : it->index->header().runs) names << r.name;
      break;
    }
  return names;
}

void ExecutionPage::selectRun(int run) {
  m_run = run;
  m_runApplied = false;
  if (m_runs->currentIndex() != run + 1) m_runs->setCurrentIndex(run + 1);
  applyRun();
  showFigures();
}

void ExecutionPage::applyRun() {
  if (m_run < 0) {
    m_timeline->setLimits(0, -1);
    m_runApplied = true;
    if (m_timeline->mode() == ExecutionTimeline::Mode::Bsp && !loading()) m_timeline->narrowViewForBsp();
    return;
  }
  // The union of the run's spans over the reports shown (compare mode: the same run number).
  double from = -1, to = -1;
  for (const Source& s : m_sources) {
    if (!s.index) continue;
    std::uint64_t a = 0, b = 0;
    if (!s.index->runSpan(unsigned(m_run), &a, &b)) continue;
    from = from < 0 ? double(a) : std::min(from, double(a));
    to = std::max(to, double(b));
  }
  if (to < 0) return; // not indexed yet: poll() tries again
  m_timeline->setLimits(from, to);
  m_runApplied = true;
  if (m_timeline->mode() == ExecutionTimeline::Mode::Bsp && !loading()) m_timeline->narrowViewForBsp();
}

void ExecutionPage::loadTiles() {
  if (m_timeline->mode() != ExecutionTimeline::Mode::Bsp) return;
  std::size_t track = 0;
  for (Source& s : m_sources) {
    if (!s.index) continue;
    const std::size_t t = track++;
    std::uint64_t first = 0, last = 0;
    if (!m_timeline->bspStepsNeeded(t, &first, &last)) continue;
    if (s.tilesPending && s.tilesFrom <= first && s.tilesTo >= last) continue; // on its way already
    // Read a margin either side, within the cap, so small pans need no new read.
    const unsigned tiles = std::max(1u, s.index->header().numIpus * s.index->header().tilesPerIpu);
    const std::uint64_t cap = std::max<std::uint64_t>(1, m_timeline->bspCellLimit() / tiles);
    const std::uint64_t span = last - first;
    const std::uint64_t margin = std::min(span / 2, (cap - std::min(cap, span)) / 2);
    const std::uint64_t a = first > margin ? first - margin : 0;
    const std::uint64_t b = std::min<std::uint64_t>(s.index->numSteps(), last + margin);
    const auto doc = s.doc;
    s.tilesPending = true;
    s.tilesFrom = a;
    s.tilesTo = b;
    if (!loading()) setReady(false);
    const std::size_t k = std::size_t(&s - m_sources.data());
    s.tiles = runInBackground<TileCycles>(
        this, tr("Reading per-tile cycles"), [doc, a, b](Progress& p) { return loadTileCycles(*doc, a, b, p); },
        [this, t, k](std::shared_ptr<const TileCycles> cycles) {
          m_sources[k].tilesPending = false;
          m_timeline->setTileCycles(t, std::move(cycles));
          finishIfDone();
        },
        [this, k](const QString& error) {
          m_sources[k].tilesPending = false;
          emit errorOccurred(error);
          finishIfDone();
        },
        &m_pool);
  }
}

const ExecutionPage::Source* ExecutionPage::sourceOfTrack(std::size_t track) const {
  // Track numbers count only reports with an execution.
  std::size_t t = 0;
  for (const Source& s : m_sources) {
    if (!s.index) continue;
    if (t++ == track) return &s;
  }
  return nullptr;
}

void ExecutionPage::showBlockDetails(const ExecutionTimeline::FlameBlock& block) {
  const Source* source = sourceOfTrack(block.track);
  if (!source || !source->index) return;
  const ExecutionIndex& index = *source->index;
  const auto& flame = m_timeline->tracks()[block.track].flame;
  if (!flame || block.lane >= index.numLanes() || block.lastEntry >= index.entries(block.lane)) return;
  FlameBlockQuery q;
  q.operations = flame->operations;
  if (q.operations) {
    if (block.id >= index.header().pathNodes.size()) return;
    q.path = index.header().pathNodes[block.id].path;
  } else {
    q.program = block.id;
  }
  q.ipu = block.lane;
  q.firstStep = index.step(block.lane, block.firstEntry);
  q.lastStep = index.step(block.lane, block.lastEntry);
  q.ipuSteps = block.lastEntry - block.firstEntry + 1;
  // The run shown (or all runs) from pva::analyseExecution, when it has arrived; the base
  // report's figures for the base track.
  const auto figures = m_figures;
  const pva::SpanFigures* scope = nullptr;
  if (figures) {
    const bool base = m_sources.size() > 1 && source == &m_sources.front();
    if (!base) scope = ExecutionFigures::span(figures->current, m_run);
    else if (figures->base) scope = ExecutionFigures::span(*figures->base, m_run);
  }
  const auto doc = source->doc;
  m_tabs->setCurrentIndex(1);
  m_detailsTask = runInBackground<StepDetails>(
      this, tr("Reading a block"), [doc, q, figures, scope](Progress&) { return loadBlockDetails(*doc, q, scope); },
      [this](std::shared_ptr<const StepDetails> d) {
        m_detailsHint->hide();
        m_detailsModel->setDetails(std::move(d));
        m_detailsView->resizeColumnToContents(0);
      },
      reportError(), &m_pool);
}

void ExecutionPage::showDetails(std::size_t track, std::uint64_t step) {
  const Source* source = sourceOfTrack(track);
  const std::shared_ptr<const Document> doc = source ? source->doc : nullptr;
  if (!doc) return;
  m_tabs->setCurrentIndex(1);
  m_detailsTask = runInBackground<StepDetails>(
      this, tr("Reading a step"), [doc, step](Progress&) { return loadStepDetails(*doc, step); },
      [this](std::shared_ptr<const StepDetails> d) {
        m_detailsHint->hide();
        m_detailsModel->setDetails(std::move(d));
        m_detailsView->resizeColumnToContents(0);
      },
      reportError(), &m_pool);
}

} // namespace tessera::viewer
