// The Execution trace page: staged loading of one or two reports' execution, the timeline's
// controls, and the Summary and Details tabs.
#include "widgets/ExecutionPage.hpp"

#include "charts/ExecutionOverview.hpp"
#include "core/ExecutionBlocks.hpp"
#include "core/ExecutionFigures.hpp"
#include "core/Format.hpp"
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
    item->setText(
        QStringLiteral("<span style='color:%1'>&#9632;</span> %2")
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
    : Page(parent), timeline_(new ExecutionTimeline(this)),
      overview_(new ExecutionOverview(timeline_, this)), runs_(new QComboBox(this)),
      status_(new QLabel(this)), tabs_(new QTabWidget(this)), summaryView_(makeTable(this)),
      detailsView_(makeTable(this)), detailsHint_(new QLabel(this)),
      summaryModel_(new ExecutionSummaryModel(this)), detailsModel_(new StepDetailsModel(this)),
      runFiguresModel_(new RunFiguresModel(this)), ipuFiguresModel_(new IpuFiguresModel(this)),
      figuresHeading_(new QLabel(this)), runFiguresView_(makeTable(this)),
      ipuFiguresView_(makeTable(this)) {
  // Controls: run, mode, fit, legend, indexing status.
  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Run:"), this));
  runs_->setObjectName(QStringLiteral("runSelector"));
  runs_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  controls->addWidget(runs_);
  auto* group = new QButtonGroup(this);
  const QString names[] = {tr("Flat"), tr("Flame"), tr("BSP")};
  const QString tips[] = {tr("One lane per IPU, steps coloured by kind"),
                          tr("Lanes above the steps by operation and layer path from the debug "
                             "contexts (the program tree "
                             "without debug.cbor); steps of one operation merge into one block"),
                          tr("Per tile: compute or exchange, still busy, idle until the sync "
                             "(Ctrl+wheel zooms tiles)")};
  for (int i = 0; i < 3; ++i) {
    auto* b = new QToolButton(this);
    b->setText(names[i]);
    b->setToolTip(tips[i]);
    b->setCheckable(true);
    b->setAutoRaise(true);
    group->addButton(b, i);
    controls->addWidget(b);
    modeButtons_[std::size_t(i)] = b;
  }
  modeButtons_[0]->setChecked(true);
  connect(group, &QButtonGroup::idClicked, this,
          [this](int id) { setMode(ExecutionTimeline::Mode(id)); });
  auto* fit = new QToolButton(this);
  fit->setText(tr("Fit"));
  fit->setToolTip(tr("Zoom to fit (0 or Home)"));
  fit->setAutoRaise(true);
  connect(fit, &QToolButton::clicked, timeline_, &ExecutionTimeline::fit);
  controls->addWidget(fit);
  // The legends have a row of their own: beside the controls they overflowed a 1,400 px window in
  // BSP mode (the BSP legend ran into the step count).
  auto* legendRow = new QHBoxLayout;
  legendRow->addWidget(legend(this));
  // BSP's own legend: the same kinds, plus tiles still busy while others wait, and idle ones.
  bspLegend_ = new QLabel(this);
  bspLegend_->setObjectName(QStringLiteral("bspLegend"));
  bspLegend_->setTextFormat(Qt::RichText);
  bspLegend_->setText(tr("<span style='color:%1'>&#9632;</span> partly busy &nbsp; <span "
                         "style='color:%2'>&#9632;</span> idle")
                          .arg(timeline_->bspStillBusyColor(StepKind::Compute).name(),
                               timeline_->bspIdleColor().name()));
  bspLegend_->setToolTip(tr(
      "Partly busy: some tiles of the row still work on the step (its kind's colour, paler) while "
      "others wait. Idle: every tile of the row waits for the sync."));
  bspLegend_->setVisible(false);
  legendRow->addSpacing(12);
  legendRow->addWidget(bspLegend_);
  legendRow->addStretch(1);
  // The status text changes as the steps are indexed ("indexing 1,024 of 3,488 steps"): it takes
  // the room left beside the controls and never widens the window (a screenshot or a small
  // screen keeps its size whatever the text is when the layout runs).
  status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  status_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  status_->setObjectName(QStringLiteral("executionStatus"));
  controls->addWidget(status_, 1);

  runs_->setEnabled(false);
  connect(runs_, qOverload<int>(&QComboBox::activated), this, [this](int i) { selectRun(i - 1); });

  // Tabs.
  summaryView_->setModel(summaryModel_);
  summaryView_->setObjectName(QStringLiteral("executionSummary"));
  detailsView_->setModel(detailsModel_);
  detailsView_->setObjectName(QStringLiteral("stepDetails"));
  auto* details = new QWidget(this);
  auto* dl = new QVBoxLayout(details);
  dl->setContentsMargins(0, 0, 0, 0);
  detailsHint_->setText(tr("Click a step in the timeline to see its details."));
  dl->addWidget(detailsHint_);
  dl->addWidget(detailsView_);
  addSummaryPanels();
  tabs_->addTab(details, tr("Details"));

  auto* splitter = new QSplitter(Qt::Vertical, this);
  auto* top = new QWidget(this);
  auto* tl = new QVBoxLayout(top);
  tl->setContentsMargins(0, 0, 0, 0);
  tl->setSpacing(2);
  tl->addWidget(overview_);
  tl->addWidget(timeline_, 1);
  splitter->addWidget(top);
  splitter->addWidget(tabs_);
  // The summary's tables need about a third of the height; a timeline of a few IPUs leaves
  // empty space at any height.
  splitter->setSizes({560, 340}); // proportions, whatever the window's height
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addLayout(legendRow);
  layout->addWidget(splitter, 1);

  pool_.setMaxThreadCount(4); // two reports' indexes, their analysis (one task), one on-demand read
  pollTimer_.setInterval(100);
  connect(&pollTimer_, &QTimer::timeout, this, &ExecutionPage::poll);
  summaryTimer_.setSingleShot(true);
  summaryTimer_.setInterval(30);
  connect(&summaryTimer_, &QTimer::timeout, this, &ExecutionPage::updateSummary);
  tilesTimer_.setSingleShot(true);
  tilesTimer_.setInterval(120);
  connect(&tilesTimer_, &QTimer::timeout, this, &ExecutionPage::loadTiles);
  connect(timeline_, &ExecutionTimeline::viewChanged, this, [this] { summaryTimer_.start(); });
  connect(timeline_, &ExecutionTimeline::tileCyclesWanted, this, [this] { tilesTimer_.start(); });
  connect(timeline_, &ExecutionTimeline::stepClicked, this, &ExecutionPage::showDetails);
  connect(timeline_, &ExecutionTimeline::stepClicked, this,
          [this](std::size_t track, std::uint64_t step) {
            const auto& tracks = timeline_->tracks();
            if (track + 1 != tracks.size() || !tracks[track].index) return; // the current report
            const ExecutionIndex& index = *tracks[track].index;
            if (step >= index.loadedSteps()) return;
            const std::uint32_t program = index.stepProgram(step);
            emit stepProgramClicked(program);
            // The document's selection: the Program tree selects the program, Operations its
            // operation, and the trace highlights every step of it.
            if (doc_ && doc_->isReport()) {
              Selection s;
              s.origin = Selection::Origin::ExecutionStep;
              s.programs = {program};
              s.label = program < index.header().programs.size()
                            ? tr("program %1").arg(index.header().programs[program].name)
                            : tr("step %1").arg(step);
              doc_->session().selection().select(std::move(s));
            }
          });
  connect(timeline_, &ExecutionTimeline::flameBlockClicked, this, &ExecutionPage::showBlockDetails);
  connect(timeline_, &ExecutionTimeline::modeChanged, this, [this](ExecutionTimeline::Mode mode) {
    modeButtons_[std::size_t(mode)]->setChecked(true);
    bspLegend_->setVisible(mode == ExecutionTimeline::Mode::Bsp);
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
  figuresHeading_->setObjectName(QStringLiteral("figuresHeading"));
  figuresHeading_->setText(tr("Run figures: reading the execution…"));
  runFiguresView_->setModel(runFiguresModel_);
  runFiguresView_->setObjectName(QStringLiteral("runFigures"));
  ipuFiguresView_->setModel(ipuFiguresModel_);
  ipuFiguresView_->setObjectName(QStringLiteral("ipuFigures"));
  ipuFiguresView_->horizontalHeader()->setStretchLastSection(false);
  ipuHeading_ = new QLabel(this);
  ipuHeading_->setWordWrap(true);
  auto* rangeHeading = new QLabel(tr("Visible range (follows zoom and pan)"), this);
  summaryPanels_ = new FittingPanels(tabs_, 0, tr("Summary"));
  summaryPanels_->addPanel(titled(figuresHeading_, runFiguresView_), runFiguresView_,
                           tr("Run figures"));
  summaryPanels_->addPanel(titled(ipuHeading_, ipuFiguresView_), ipuFiguresView_, tr("Per IPU"));
  summaryPanels_->addPanel(titled(rangeHeading, summaryView_), summaryView_, tr("Visible range"));
}

QWidget* ExecutionPage::imageWidget() {
  return timeline_;
}

bool ExecutionPage::parseMode(const QString& text, ExecutionTimeline::Mode* mode) {
  const QString t = text.trimmed().toLower();
  if (t == QLatin1String("flat"))
    *mode = ExecutionTimeline::Mode::Flat;
  else if (t == QLatin1String("flame"))
    *mode = ExecutionTimeline::Mode::Flame;
  else if (t == QLatin1String("bsp"))
    *mode = ExecutionTimeline::Mode::Bsp;
  else
    return false;
  return true;
}

void ExecutionPage::setMode(ExecutionTimeline::Mode mode) {
  timeline_->setMode(mode);
  modeButtons_[std::size_t(mode)]->setChecked(true);
  bspLegend_->setVisible(mode == ExecutionTimeline::Mode::Bsp);
  if (mode == ExecutionTimeline::Mode::Bsp && !loading()) timeline_->narrowViewForBsp();
}

bool ExecutionPage::loading() const {
  return std::any_of(sources_.begin(), sources_.end(), [](const Source& s) { return !s.filled; });
}

void ExecutionPage::setDocument(std::shared_ptr<const Document> doc) {
  setReady(false);
  pollTimer_.stop();
  sources_.clear(); // cancels every task of the previous document
  detailsTask_ = TaskHandle();
  doc_ = std::move(doc);
  // Follow the document's selection: whatever is selected, in any page, has its steps
  // highlighted (an operation, a layer, a place of the program tree, a clicked step's program).
  QObject::disconnect(selectionLink_);
  timeline_->setHighlightedPrograms({});
  if (doc_ && doc_->isReport()) {
    SelectionModel& selection = doc_->session().selection();
    selectionLink_ = connect(&selection, &SelectionModel::changed, this,
                             [this](const Selection& s) { highlightPrograms(s.programs); });
    if (!selection.current().empty()) highlightPrograms(selection.current().programs);
  }
  tabs_->setVisible(true);
  timeline_->setTracks({});
  timeline_->setMessage({});
  overview_->setIndex(nullptr);
  summaryModel_->setSnapshot(nullptr);
  detailsModel_->setDetails(nullptr);
  figuresTask_ = TaskHandle();
  figures_.reset();
  figuresPending_ = false;
  showFigures();
  detailsHint_->show();
  runs_->clear();
  runs_->setEnabled(false);
  run_ = -1;
  runApplied_ = true;
  status_->clear();
  if (!doc_) return;
  for (auto d : {doc_->base(), doc_})
    if (d) {
      Source s;
      s.doc = std::move(d);
      sources_.push_back(std::move(s));
    }
  for (std::size_t k = 0; k < sources_.size(); ++k) {
    const auto source = sources_[k].doc;
    sources_[k].header = runInBackground<ExecutionHeader>(
        this, tr("Reading the execution"),
        [source](Progress& p) { return readExecutionHeader(*source, p); },
        [this, k](std::shared_ptr<const ExecutionHeader> h) { headerArrived(k, std::move(h)); },
        [this](const QString& error) {
          timeline_->setMessage(tr("The execution could not be read."));
          emit errorOccurred(error);
        },
        &pool_);
  }
}

void ExecutionPage::headerArrived(std::size_t k, std::shared_ptr<const ExecutionHeader> header) {
  Source& s = sources_[k];
  s.headerDone = true;
  if (header->hasExecution)
    s.index = std::make_shared<ExecutionIndex>(*header);
  else {
    s.noExecution = header->noExecutionReason;
    s.filled = true;
  }
  if (std::all_of(sources_.begin(), sources_.end(), [](const Source& x) { return x.headerDone; }))
    allHeadersArrived();
}

void ExecutionPage::allHeadersArrived() {
  const bool compare = sources_.size() > 1;
  std::vector<ExecutionTimeline::Track> tracks;
  QStringList missing;
  for (std::size_t k = 0; k < sources_.size(); ++k) {
    Source& s = sources_[k];
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
    timeline_->setMessage(tr("No execution in this report.") + QStringLiteral("\n\n") +
                          missing.join(QLatin1Char('\n')));
    status_->setText(tr("no execution"));
    tabs_->setVisible(false); // no empty tables of figures under the message
    setReady(true);
    return;
  }
  if (!missing.isEmpty()) status_->setText(missing.join(QStringLiteral("; ")));
  timeline_->setTracks(std::move(tracks));
  overview_->setIndex(sources_.back().index ? sources_.back().index : sources_.front().index);

  // Runs of the current report (the base's when only it ran).
  const Source& runsOf = sources_.back().index ? sources_.back() : sources_.front();
  runs_->addItem(tr("All runs"));
  const std::vector<ExecRunInfo>& runs = runsOf.index->header().runs;
  for (const ExecRunInfo& r : runs)
    runs_->addItem(
        tr("%1 (%2 steps, %3 cycles)").arg(r.name, formatCount(r.numSteps), formatCount(r.cycles)));
  // The run to open on: the one asked for, else the first of several (a run of a long report is
  // what a user reads; All runs stays one click away).
  const QString wanted = std::exchange(wantedRun_, QString());
  if (!wanted.isEmpty()) {
    const auto it = std::find_if(runs.begin(), runs.end(),
                                 [&](const ExecRunInfo& r) { return r.name == wanted; });
    if (it != runs.end())
      selectRun(int(it - runs.begin()));
    else
      emit unknownRun(wanted, runNames());
  } else if (runs.size() > 1) {
    selectRun(0);
  }

  // Fill every index; the timeline paints what has arrived on each poll.
  std::size_t track = 0;
  for (std::size_t k = 0; k < sources_.size(); ++k) {
    Source& s = sources_[k];
    if (!s.index) continue;
    const std::size_t t = track++;
    const auto doc = s.doc;
    const auto index = s.index;
    s.fill = runInBackground<FlameRows>(
        this, tr("Indexing execution steps"),
        [doc, index](Progress& p) { return fillExecutionIndex(*doc, *index, p); },
        [this, k, t](std::shared_ptr<const FlameRows> flame) {
          sources_[k].filled = true;
          timeline_->setFlame(t, std::move(flame));
          poll();
          loadFiguresOnceFilled();
          finishIfDone();
        },
        [this, k](const QString& error) {
          sources_[k].filled = true;
          emit errorOccurred(error);
          loadFiguresOnceFilled();
          finishIfDone();
        },
        &pool_);
  }
  // The run figures come from the pass the indexes ride on (fillExecutionIndex): asked for
  // now, they could start that pass on their own, and the index would read every step again.
  // They are asked for once the indexes are filled, when libpva has them (no step read).
  figuresPending_ = true;
  showFigures();
  loadFiguresOnceFilled();
  pollTimer_.setInterval(100);
  pollTimer_.start();
  poll();
}

void ExecutionPage::loadFiguresOnceFilled() {
  if (!loading() && !figuresTask_.active()) loadFigures();
}

void ExecutionPage::loadFigures() {
  const auto doc = doc_;
  figuresPending_ = true;
  figuresTask_ = runInBackground<ExecutionFigures>(
      this, tr("Analysing the execution"),
      [doc](Progress& p) { return loadExecutionFigures(*doc, p); },
      [this](std::shared_ptr<const ExecutionFigures> figures) {
        figuresPending_ = false;
        figures_ = std::move(figures);
        showFigures();
        finishIfDone();
      },
      [this](const QString& error) {
        figuresPending_ = false;
        figuresHeading_->setText(tr("Run figures: the execution could not be analysed."));
        emit errorOccurred(error);
        finishIfDone();
      },
      &pool_);
}

void ExecutionPage::showFigures() {
  runFiguresModel_->setFigures(figures_, run_);
  ipuFiguresModel_->setFigures(figures_, run_);
  ipuHeading_->setText(
      (sources_.size() > 1 ? tr("Per IPU of the current report") : tr("Per IPU")) +
      tr(": share of tile cycles by kind; bytes moved by stream copies and global exchanges"));
  if (!figures_) {
    figuresHeading_->setText(figuresPending_ ? tr("Run figures: reading the execution…")
                                             : tr("Run figures"));
    return;
  }
  QString scope = runFiguresModel_->scope();
  // Which replica the trace and figures are: the profile records replica 0.
  unsigned replicas = 1;
  for (const auto& s : sources_)
    if (s.index) replicas = std::max(replicas, s.index->header().replicas);
  if (replicas > 1) scope += tr(", replica 0 of %1 (the one the profile records)").arg(replicas);
  figuresHeading_->setText(figures_->base
                               ? tr("Figures of %1 (base and current reports)").arg(scope)
                               : tr("Figures of %1").arg(scope));
  runFiguresView_->resizeColumnsToContents();
  ipuFiguresView_->resizeColumnsToContents();
  summaryPanels_->rearrange();
}

void ExecutionPage::poll() {
  // Each poll repaints the timeline, the overview and the range's tables over everything loaded
  // so far (about 10 ms of CPU at full zoom-out on 16 lanes): every 100 ms, a load that a busy
  // machine stretched to 20 s spent 2 s of CPU repainting (the bench's 1 M-step report). The
  // interval doubles up to a second: the first steps still show at once, later growth every
  // second, and the repaints no longer grow with the wall time of the load.
  if (pollTimer_.isActive() && pollTimer_.interval() < 1000)
    pollTimer_.setInterval(std::min(pollTimer_.interval() * 2, 1000));
  timeline_->dataGrew();
  overview_->update();
  std::uint64_t loaded = 0, total = 0;
  for (const Source& s : sources_)
    if (s.index) {
      loaded += s.index->loadedSteps();
      total += s.index->numSteps();
    }
  if (loading())
    status_->setText(tr("indexing %1 of %2 steps").arg(formatCount(loaded), formatCount(total)));
  else if (total) {
    // Lightweight profiling of the current report (the base's when only it ran): said either way.
    const ExecutionHeader& h =
        (sources_.back().index ? sources_.back() : sources_.front()).index->header();
    status_->setText(tr("%1 steps · %2").arg(formatCount(total), blocksStatus(h)));
    status_->setToolTip(blocksStatusTip(h));
  }
  summaryTimer_.start();
  if (!runApplied_) applyRun();
}

void ExecutionPage::finishIfDone() {
  if (loading()) return;
  if (pollTimer_.isActive()) {
    pollTimer_.stop();
    runs_->setEnabled(runs_->count() > 2);
    poll();
    // Opened in BSP mode (--execution-mode bsp) on more steps than it can show per tile.
    if (timeline_->mode() == ExecutionTimeline::Mode::Bsp) timeline_->narrowViewForBsp();
    updateSummary();
    loadTiles(); // the BSP view's tiles, when it is the mode shown
  }
  // Ready once the indexes are complete and the BSP view has the tiles it shows.
  if (std::none_of(sources_.begin(), sources_.end(),
                   [](const Source& s) { return s.tilesPending; }) &&
      !figuresPending_)
    setReady(true);
}

void ExecutionPage::updateSummary() {
  auto snap = std::make_shared<ExecutionSummarySnapshot>();
  const bool compare = sources_.size() > 1;
  const double from = timeline_->viewFrom(), to = timeline_->viewTo();
  for (std::size_t k = 0; k < sources_.size(); ++k) {
    const Source& s = sources_[k];
    if (!s.index) continue;
    const bool isBase = compare && k == 0;
    ExecutionRangeSummary& r = isBase ? snap->base : snap->current;
    r = summarizeRange(*s.index, from, to);
    (isBase ? snap->baseRuns : snap->runs) = s.index->header().runs;
  }
  snap->compare = compare;
  if (sources_.empty() || std::none_of(sources_.begin(), sources_.end(),
                                       [](const Source& s) { return bool(s.index); })) {
    summaryModel_->setSnapshot(nullptr);
    return;
  }
  summaryModel_->setSnapshot(std::move(snap));
  summaryView_->resizeColumnsToContents();
  summaryPanels_->rearrange();
}

QStringList ExecutionPage::runNames() const {
  QStringList names;
  for (auto it = sources_.rbegin(); it != sources_.rend(); ++it)
    if (it->index) {
      for (const ExecRunInfo& r : it->index->header().runs)
        names << r.name;
      break;
    }
  return names;
}

void ExecutionPage::selectRun(int run) {
  run_ = run;
  runApplied_ = false;
  if (runs_->currentIndex() != run + 1) runs_->setCurrentIndex(run + 1);
  applyRun();
  showFigures();
}

void ExecutionPage::applyRun() {
  if (run_ < 0) {
    timeline_->setLimits(0, -1);
    runApplied_ = true;
    if (timeline_->mode() == ExecutionTimeline::Mode::Bsp && !loading())
      timeline_->narrowViewForBsp();
    return;
  }
  // The union of the run's spans over the reports shown (compare mode: the same run number).
  double from = -1, to = -1;
  for (const Source& s : sources_) {
    if (!s.index) continue;
    std::uint64_t a = 0, b = 0;
    if (!s.index->runSpan(unsigned(run_), &a, &b)) continue;
    from = from < 0 ? double(a) : std::min(from, double(a));
    to = std::max(to, double(b));
  }
  if (to < 0) return; // not indexed yet: poll() tries again
  timeline_->setLimits(from, to);
  runApplied_ = true;
  if (timeline_->mode() == ExecutionTimeline::Mode::Bsp && !loading())
    timeline_->narrowViewForBsp();
}

void ExecutionPage::loadTiles() {
  if (timeline_->mode() != ExecutionTimeline::Mode::Bsp) return;
  std::size_t track = 0;
  for (Source& s : sources_) {
    if (!s.index) continue;
    const std::size_t t = track++;
    std::uint64_t first = 0, last = 0;
    if (!timeline_->bspStepsNeeded(t, &first, &last)) continue;
    if (s.tilesPending && s.tilesFrom <= first && s.tilesTo >= last) continue; // on its way already
    // Read a margin either side, within the cap, so small pans need no new read.
    const unsigned tiles = std::max(1u, s.index->header().numIpus * s.index->header().tilesPerIpu);
    const std::uint64_t cap = std::max<std::uint64_t>(1, timeline_->bspCellLimit() / tiles);
    const std::uint64_t span = last - first;
    const std::uint64_t margin = std::min(span / 2, (cap - std::min(cap, span)) / 2);
    const std::uint64_t a = first > margin ? first - margin : 0;
    const std::uint64_t b = std::min<std::uint64_t>(s.index->numSteps(), last + margin);
    const auto doc = s.doc;
    s.tilesPending = true;
    s.tilesFrom = a;
    s.tilesTo = b;
    if (!loading()) setReady(false);
    const std::size_t k = std::size_t(&s - sources_.data());
    s.tiles = runInBackground<TileCycles>(
        this, tr("Reading per-tile cycles"),
        [doc, a, b](Progress& p) { return loadTileCycles(*doc, a, b, p); },
        [this, t, k](std::shared_ptr<const TileCycles> cycles) {
          sources_[k].tilesPending = false;
          timeline_->setTileCycles(t, std::move(cycles));
          finishIfDone();
        },
        [this, k](const QString& error) {
          sources_[k].tilesPending = false;
          emit errorOccurred(error);
          finishIfDone();
        },
        &pool_);
  }
}

const ExecutionPage::Source* ExecutionPage::sourceOfTrack(std::size_t track) const {
  // Track numbers count only reports with an execution.
  std::size_t t = 0;
  for (const Source& s : sources_) {
    if (!s.index) continue;
    if (t++ == track) return &s;
  }
  return nullptr;
}

void ExecutionPage::showBlockDetails(const ExecutionTimeline::FlameBlock& block) {
  const Source* source = sourceOfTrack(block.track);
  if (!source || !source->index) return;
  const ExecutionIndex& index = *source->index;
  const auto& flame = timeline_->tracks()[block.track].flame;
  if (!flame || block.lane >= index.numLanes() || block.lastEntry >= index.entries(block.lane))
    return;
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
  const auto figures = figures_;
  const pva::SpanFigures* scope = nullptr;
  if (figures) {
    const bool base = sources_.size() > 1 && source == &sources_.front();
    if (!base)
      scope = ExecutionFigures::span(*figures->current, run_);
    else if (figures->base)
      scope = ExecutionFigures::span(*figures->base, run_);
  }
  const auto doc = source->doc;
  tabs_->setCurrentIndex(1);
  detailsTask_ = runInBackground<StepDetails>(
      this, tr("Reading a block"),
      [doc, q, figures, scope](Progress&) { return loadBlockDetails(*doc, q, scope); },
      [this](std::shared_ptr<const StepDetails> d) {
        detailsHint_->hide();
        detailsModel_->setDetails(std::move(d));
        detailsView_->resizeColumnToContents(0);
      },
      reportError(), &pool_);
}

void ExecutionPage::highlightPrograms(const std::vector<std::uint32_t>& programIds) {
  timeline_->setHighlightedPrograms(programIds);
}

void ExecutionPage::showDetails(std::size_t track, std::uint64_t step) {
  const Source* source = sourceOfTrack(track);
  const std::shared_ptr<const Document> doc = source ? source->doc : nullptr;
  if (!doc) return;
  tabs_->setCurrentIndex(1);
  detailsTask_ = runInBackground<StepDetails>(
      this, tr("Reading a step"), [doc, step](Progress&) { return loadStepDetails(*doc, step); },
      [this](std::shared_ptr<const StepDetails> d) {
        detailsHint_->hide();
        detailsModel_->setDetails(std::move(d));
        detailsView_->resizeColumnToContents(0);
      },
      reportError(), &pool_);
}

} // namespace tessera::viewer
