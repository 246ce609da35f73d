// The Liveness page: options and scope, the step chart, step selection and the step tabs.
#include "widgets/LivenessPage.hpp"

#include "charts/LivenessChart.hpp"
#include "charts/RangeOverview.hpp"
#include "core/NameTerms.hpp"
#include "core/Settings.hpp"
#include "models/AlwaysLiveVariablesModel.hpp"
#include "models/LiveVariablesModel.hpp"
#include "models/StepCyclesModel.hpp"
#include "models/TileVerticesModel.hpp"
#include "widgets/ChartPageParts.hpp"
#include "widgets/TableViews.hpp"
#include "widgets/TotalledTable.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QIntValidator>
#include <QLabel>
#include <QLineEdit>
#include <QTabWidget>
#include <QTableView>

namespace tessera::viewer {

LivenessPage::LivenessPage(QWidget* parent)
    : Page(parent), chart_(new LivenessChart(this)),
      alwaysLiveModel_(new AlwaysLiveVariablesModel(this)),
      liveModel_(new LiveVariablesModel(this)), verticesModel_(new TileVerticesModel(this)),
      cyclesModel_(new StepCyclesModel(this)) {
  tabs_ = new QTabWidget(this);
  liveTable_ =
      new TotalledTable(liveModel_, tr("variables"), LiveVariablesModel::NameColumn, tabs_);
  tabs_->addTab(liveTable_, tr("Not always live variables"));
  alwaysLiveTable_ = new TotalledTable(alwaysLiveModel_, tr("always-live variables"),
                                       AlwaysLiveVariablesModel::NameColumn, tabs_);
  tabs_->addTab(alwaysLiveTable_, tr("Always live variables"));
  tabs_->addTab(new TotalledTable(verticesModel_, tr("vertex types"), 0, tabs_), tr("Vertices"));
  tabs_->addTab(createSortableTable(cyclesModel_, tabs_, StepCyclesModel::ProgramColumn),
                tr("Cycle estimates"));
  overview_ = new RangeOverview(chart_, this);
  overview_->setItemNoun(tr("step"));
  const ChartPageParts parts =
      layOutChartPage(this, createToolbar(), nullptr, chart_, tabs_, overview_, createTablesBar());
  summary_ = parts.summary;
  selectionLabel_ = parts.selection;

  connect(chart_, &LivenessChart::selectionChanged, this,
          [this](const std::vector<std::size_t>& steps) {
            if (steps == steps_) return;
            steps_ = steps;
            loadDetails();
          });
  connect(&Settings::instance(), &Settings::changed, this, [this] { updateTexts(); });
  updateTexts();
}

QWidget* LivenessPage::createToolbar() {
  auto* bar = new QWidget(this);
  auto* h = new QHBoxLayout(bar);
  h->setContentsMargins(0, 0, 0, 0);
  alwaysLive_ = new QCheckBox(tr("Include always live"), bar);
  alwaysLive_->setToolTip(tr("Add the always-live bytes (the same at every step) under the curve"));
  connect(alwaysLive_, &QCheckBox::toggled, this, [this](bool on) {
    chart_->setIncludeAlwaysLive(on);
    updateTexts();
  });
  h->addWidget(alwaysLive_);
  difference_ = new QCheckBox(tr("Difference"), bar);
  difference_->setToolTip(tr("Show current minus base per step instead of both curves"));
  difference_->setVisible(false);
  connect(difference_, &QCheckBox::toggled, this, [this](bool on) { chart_->setDifference(on); });
  h->addWidget(difference_);
  h->addSpacing(12);
  h->addWidget(new QLabel(tr("IPU:"), bar));
  ipu_ = new QComboBox(bar);
  connect(ipu_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { scopeEdited(); });
  h->addWidget(ipu_);
  h->addSpacing(12);
  h->addWidget(new QLabel(tr("Tile:"), bar));
  tile_ = new QLineEdit(bar);
  tile_->setPlaceholderText(tr("all"));
  tile_->setClearButtonEnabled(true);
  tile_->setMaximumWidth(90);
  tile_->setToolTip(tr("Only this tile's memory (empty: the IPU's or all tiles)"));
  connect(tile_, &QLineEdit::returnPressed, this, [this] { scopeEdited(); });
  connect(tile_, &QLineEdit::textChanged, this, [this](const QString& t) {
    if (t.isEmpty() && scope_.tile >= 0) scopeEdited(); // clearing the box goes back to all tiles
  });
  h->addWidget(tile_);
  h->addSpacing(12);
  h->addWidget(new QLabel(tr("Steps:"), bar));
  stepRange_ = new QLineEdit(bar);
  stepRange_->setPlaceholderText(tr("all, or e.g. 80-100"));
  stepRange_->setClearButtonEnabled(true);
  stepRange_->setMaximumWidth(130);
  stepRange_->setToolTip(tr("Show only these liveness steps (first-last); empty: every step"));
  connect(stepRange_, &QLineEdit::returnPressed, this,
          [this] { setStepRange(stepRange_->text()); });
  connect(stepRange_, &QLineEdit::textChanged, this, [this](const QString& t) {
    if (t.isEmpty()) setStepRange({}); // clearing the box shows every step again
  });
  h->addWidget(stepRange_);
  tileError_ = createErrorLabel(bar);
  h->addWidget(tileError_);
  h->addStretch(1);
  return bar;
}

QWidget* LivenessPage::createTablesBar() {
  auto* bar = new QWidget(this);
  auto* h = new QHBoxLayout(bar);
  h->setContentsMargins(0, 0, 0, 0);
  h->addWidget(new QLabel(tr("Variables:"), bar));
  variableFilter_ = new QLineEdit(bar);
  variableFilter_->setPlaceholderText(tr("name contains…"));
  variableFilter_->setClearButtonEnabled(true);
  variableFilter_->setToolTip(
      tr("List only the variables whose name contains this text, in both variable tables, "
         "and draw their lives on the chart (the %1 largest); several names separated by ';'")
          .arg(LivenessChart::kMaxLifetimes));
  connect(variableFilter_, &QLineEdit::textChanged, this, [this](const QString& text) {
    liveTable_->setNameFilter(text);
    alwaysLiveTable_->setNameFilter(text);
    showLifetimes();
  });
  h->addWidget(variableFilter_, 1);
  h->addStretch(2);
  return bar;
}

void LivenessPage::showLifetimes() {
  const QStringList terms = nameTerms(variableFilter_->text());
  if (terms.isEmpty() || !doc_) {
    chart_->setLifetimes({});
    emit lifetimesShown();
    return;
  }
  if (!lives_) {
    // Every variable's life is read once, the first time a name is typed.
    if (!livesTask_.active()) {
      const auto doc = doc_;
      livesTask_ = runInBackground<VariableLives>(
          this, tr("Reading variables' lives"),
          [doc](Progress& p) { return loadVariableLives(*doc, p); },
          [this](std::shared_ptr<const VariableLives> lives) {
            lives_ = std::move(lives);
            livesTask_ = TaskHandle();
            showLifetimes();
          },
          reportError());
    }
    return;
  }
  std::size_t matched = 0;
  const std::vector<std::size_t> picked = lives_->matching(terms, &matched);
  std::vector<VariableLife> lives;
  for (std::size_t i = 0; i < picked.size() && i < LivenessChart::kMaxLifetimes; ++i)
    lives.push_back(lives_->variables[picked[i]]);
  chart_->setLifetimes(std::move(lives), matched - std::min(matched, LivenessChart::kMaxLifetimes));
  emit lifetimesShown();
}

bool LivenessPage::setStepRange(const QString& text) {
  const QString t = text.trimmed();
  const std::size_t steps = data_ ? data_->steps() : 0;
  if (t.isEmpty()) {
    tileError_->clear();
    chart_->setStepRange(0, SIZE_MAX);
    updateTexts();
    return true;
  }
  const QStringList ends = t.split(QLatin1Char('-'));
  bool ok1 = false, ok2 = false;
  const qulonglong first = ends.value(0).trimmed().toULongLong(&ok1);
  const qulonglong last = ends.size() > 1 ? ends.value(1).trimmed().toULongLong(&ok2) : first;
  if (ends.size() == 1) ok2 = ok1;
  if (ends.size() > 2 || !ok1 || !ok2 || last < first || last >= steps) {
    tileError_->setText(
        tr("'%1' is not a step range like 80-100 (steps 0-%2)").arg(t).arg(steps ? steps - 1 : 0));
    return false;
  }
  tileError_->clear();
  if (stepRange_->text() != text) stepRange_->setText(text);
  chart_->setStepRange(std::size_t(first), std::size_t(last) + 1);
  updateTexts();
  return true;
}

void LivenessPage::setVariableFilter(const QString& text) {
  variableFilter_->setText(text);
}

QWidget* LivenessPage::imageWidget() {
  return chart_;
}

void LivenessPage::setDocument(std::shared_ptr<const Document> doc) {
  setReady(false);
  task_ = TaskHandle();
  detailsTask_ = TaskHandle();
  livesTask_ = TaskHandle();
  lives_.reset();
  doc_ = std::move(doc);
  followVariables_.follow(doc_, this, variableFilter_,
                          [this](const QString& names) { setVariableFilter(names); });
  data_.reset();
  baseData_.reset();
  details_.reset();
  steps_.clear();
  scope_ = {};
  chart_->setData(nullptr);
  chart_->setSelection({});
  alwaysLiveModel_->setRows(nullptr);
  liveModel_->setDetails(nullptr);
  verticesModel_->setRows(nullptr);
  cyclesModel_->setRows(nullptr);
  tile_->clear();
  tileError_->clear();
  {
    const QSignalBlocker block(stepRange_); // a new document shows every step
    stepRange_->clear();
  }
  chart_->setStepRange(0, SIZE_MAX);
  variableFilter_->clear();
  chart_->setLifetimes({});
  {
    const QSignalBlocker block(ipu_); // clearing is not the user choosing a scope
    ipu_->clear();
  }
  difference_->setVisible(doc_ && doc_->base());
  updateTexts();
  if (doc_) loadCurves();
}

void LivenessPage::scopeEdited() {
  LivenessScope scope;
  scope.ipu = ipu_->currentIndex() >= 0 ? ipu_->currentData().toInt() : -1;
  const QString text = tile_->text().trimmed();
  if (!text.isEmpty()) {
    bool ok = false;
    const unsigned tile = text.toUInt(&ok);
    const unsigned tiles = data_ ? data_->numTiles : 0;
    if (!ok || tile >= tiles) {
      tileError_->setText(tr("'%1' is not a tile (0-%2)").arg(text).arg(tiles ? tiles - 1 : 0));
      return;
    }
    scope.tile = int(tile);
  }
  tileError_->clear();
  setScope(scope);
}

void LivenessPage::setScope(LivenessScope scope) {
  if (scope == scope_ && data_) return;
  scope_ = scope;
  const QSignalBlocker block(ipu_);
  const int index = ipu_->findData(scope.ipu);
  if (index >= 0) ipu_->setCurrentIndex(index);
  if (scope.tile >= 0) tile_->setText(QString::number(scope.tile));
  loadCurves();
}

void LivenessPage::loadCurves() {
  task_ = TaskHandle();
  if (!doc_) return;
  const auto doc = doc_;
  const LivenessScope scope = scope_;
  updateTexts();
  task_ = runInBackground<Curves>(
      this, tr("Reading liveness"),
      [doc, scope](Progress& p) {
        Curves c;
        c.current = std::make_shared<const LivenessData>(loadLiveness(*doc, scope, p));
        if (doc->base())
          c.base = std::make_shared<const LivenessData>(loadLiveness(*doc->base(), scope, p));
        return c;
      },
      [this](std::shared_ptr<const Curves> c) { showCurves(std::move(c)); }, reportError());
}

void LivenessPage::showCurves(std::shared_ptr<const Curves> curves) {
  const bool first = !data_;
  data_ = curves->current;
  baseData_ = curves->base;
  if (ipu_->count() == 0) fillIpuBox(ipu_, data_->numIpus);
  alwaysLiveModel_->setRows({data_, &data_->alwaysLiveVariables});
  chart_->setData(data_, baseData_);
  // The peak step is selected at first, so the tabs show the moment memory matters most.
  if (first && chart_->selection().empty() && data_->steps() > 0)
    chart_->setSelection({data_->peakStep()});
  else
    loadDetails(); // the same steps, in the new scope
  updateTexts();
  emit curveLoaded();
}

void LivenessPage::loadDetails() {
  detailsTask_ = TaskHandle();
  details_.reset();
  updateTexts();
  if (!doc_ || !data_) return;
  const auto doc = doc_;
  const LivenessScope scope = scope_;
  const std::vector<std::size_t> steps = steps_;
  detailsTask_ = runInBackground<StepDetailsData>(
      this, tr("Reading live variables"),
      [doc, scope, steps](Progress& p) { return loadStepDetails(*doc, scope, steps, p); },
      [this](std::shared_ptr<const StepDetailsData> d) {
        details_ = d;
        liveModel_->setDetails(d);
        verticesModel_->setRows({d, &d->vertices});
        cyclesModel_->setRows({d, &d->cycles});
        updateTexts();
        emit detailsLoaded();
        setReady(true); // once the first details are on screen (later loads leave it true)
      },
      reportError());
}

void LivenessPage::updateTexts() {
  const MemoryUnits u = Settings::instance().memoryUnits();
  if (!data_) {
    summary_->setText(doc_ ? tr("Reading liveness…") : QString());
    selectionLabel_->clear();
    return;
  }
  const std::size_t peak = data_->peakStep();
  QString summary;
  const auto [rangeFirst, rangeLast] = chart_->stepRange();
  if (data_->steps() && (rangeFirst > 0 || rangeLast < data_->steps()))
    summary =
        tr("<b>Showing steps %1-%2</b> of ").arg(rangeFirst).arg(rangeLast ? rangeLast - 1 : 0);
  summary += tr("%1 steps (%2). Peak not always live: %3 at step %4 (%5). Always live: %6.")
                 .arg(formatCount(data_->steps()), data_->scope.describe(),
                      formatBytes(data_->steps() ? data_->notAlwaysLive[peak] : 0, u))
                 .arg(peak)
                 .arg(data_->programName(peak).toHtmlEscaped(), formatBytes(data_->alwaysLive, u));
  if (baseData_ && baseData_->steps()) {
    const std::size_t bp = baseData_->peakStep();
    summary += tr(" Base: peak %1 at step %2, always live %3 (%4 steps).")
                   .arg(formatBytes(baseData_->notAlwaysLive[bp], u))
                   .arg(bp)
                   .arg(formatBytes(baseData_->alwaysLive, u), formatCount(baseData_->steps()));
  }
  summary_->setText(summary);
  QString selection;
  if (steps_.empty()) {
    selection = tr("No step selected: click the chart to pick a step, shift-click to add steps.");
  } else if (steps_.size() == 1) {
    const std::size_t s = steps_[0];
    selection = tr("<b>Step %1</b>: %2 (%3)")
                    .arg(s)
                    .arg(data_->programName(s).toHtmlEscaped(), data_->programType(s));
    if (s < data_->steps())
      selection += tr(", %1 not always live").arg(formatBytes(data_->notAlwaysLive[s], u));
  } else {
    QStringList list;
    for (std::size_t s : steps_)
      list << QString::number(s);
    selection = tr("<b>%1 steps</b>: %2 (a column each in the variables table)")
                    .arg(steps_.size())
                    .arg(list.join(QStringLiteral(", ")));
  }
  if (details_ && !details_->computeSet.isEmpty())
    selection += tr(". Vertices of compute set %1").arg(details_->computeSet.toHtmlEscaped());
  if (baseData_) selection += tr(" (tabs describe the current report)");
  if (!details_ && !steps_.empty()) selection += tr(" — reading…");
  selectionLabel_->setText(selection);
}

} // namespace tessera::viewer
