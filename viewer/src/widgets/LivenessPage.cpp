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
    : Page(parent), m_chart(new LivenessChart(this)), m_alwaysLiveModel(new AlwaysLiveVariablesModel(this)),
      m_liveModel(new LiveVariablesModel(this)), m_verticesModel(new TileVerticesModel(this)),
      m_cyclesModel(new StepCyclesModel(this)) {
  m_tabs = new QTabWidget(this);
  m_liveTable = new TotalledTable(m_liveModel, tr("variables"), LiveVariablesModel::NameColumn, m_tabs);
  m_tabs->addTab(m_liveTable, tr("Not always live variables"));
  m_alwaysLiveTable = new TotalledTable(m_alwaysLiveModel, tr("always-live variables"), AlwaysLiveVariablesModel::NameColumn, m_tabs);
  m_tabs->addTab(m_alwaysLiveTable, tr("Always live variables"));
  m_tabs->addTab(new TotalledTable(m_verticesModel, tr("vertex types"), 0, m_tabs), tr("Vertices"));
  m_tabs->addTab(createSortableTable(m_cyclesModel, m_tabs, StepCyclesModel::ProgramColumn), tr("Cycle estimates"));
  m_overview = new RangeOverview(m_chart, this);
  m_overview->setItemNoun(tr("step"));
  const ChartPageParts parts = layOutChartPage(this, createToolbar(), nullptr, m_chart, m_tabs, m_overview, createTablesBar());
  m_summary = parts.summary;
  m_selectionLabel = parts.selection;

  connect(m_chart, &LivenessChart::selectionChanged, this, [this](const std::vector<std::size_t>& steps) {
    if (steps == m_steps) return;
    m_steps = steps;
    loadDetails();
  });
  connect(&Settings::instance(), &Settings::changed, this, [this] { updateTexts(); });
  updateTexts();
}

QWidget* LivenessPage::createToolbar() {
  auto* bar = new QWidget(this);
  auto* h = new QHBoxLayout(bar);
  h->setContentsMargins(0, 0, 0, 0);
  m_alwaysLive = new QCheckBox(tr("Include always live"), bar);
  m_alwaysLive->setToolTip(tr("Add the always-live bytes (the same at every step) under the curve"));
  connect(m_alwaysLive, &QCheckBox::toggled, this, [this](bool on) {
    m_chart->setIncludeAlwaysLive(on);
    updateTexts();
  });
  h->addWidget(m_alwaysLive);
  m_difference = new QCheckBox(tr("Difference"), bar);
  m_difference->setToolTip(tr("Show current minus base per step instead of both curves"));
  m_difference->setVisible(false);
  connect(m_difference, &QCheckBox::toggled, this, [this](bool on) { m_chart->setDifference(on); });
  h->addWidget(m_difference);
  h->addSpacing(12);
  h->addWidget(new QLabel(tr("IPU:"), bar));
  m_ipu = new QComboBox(bar);
  connect(m_ipu, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { scopeEdited(); });
  h->addWidget(m_ipu);
  h->addSpacing(12);
  h->addWidget(new QLabel(tr("Tile:"), bar));
  m_tile = new QLineEdit(bar);
  m_tile->setPlaceholderText(tr("all"));
  m_tile->setClearButtonEnabled(true);
  m_tile->setMaximumWidth(90);
  m_tile->setToolTip(tr("Only this tile's memory (empty: the IPU's or all tiles)"));
  connect(m_tile, &QLineEdit::returnPressed, this, [this] { scopeEdited(); });
  connect(m_tile, &QLineEdit::textChanged, this, [this](const QString& t) {
    if (t.isEmpty() && m_scope.tile >= 0) scopeEdited(); // clearing the box goes back to all tiles
  });
  h->addWidget(m_tile);
  h->addSpacing(12);
  h->addWidget(new QLabel(tr("Steps:"), bar));
  m_stepRange = new QLineEdit(bar);
  m_stepRange->setPlaceholderText(tr("all, or e.g. 80-100"));
  m_stepRange->setClearButtonEnabled(true);
  m_stepRange->setMaximumWidth(130);
  m_stepRange->setToolTip(tr("Show only these liveness steps (first-last); empty: every step"));
  connect(m_stepRange, &QLineEdit::returnPressed, this, [this] { setStepRange(m_stepRange->text()); });
  connect(m_stepRange, &QLineEdit::textChanged, this, [this](const QString& t) {
    if (t.isEmpty()) setStepRange({}); // clearing the box shows every step again
  });
  h->addWidget(m_stepRange);
  m_tileError = createErrorLabel(bar);
  h->addWidget(m_tileError);
  h->addStretch(1);
  return bar;
}

QWidget* LivenessPage::createTablesBar() {
  auto* bar = new QWidget(this);
  auto* h = new QHBoxLayout(bar);
  h->setContentsMargins(0, 0, 0, 0);
  h->addWidget(new QLabel(tr("Variables:"), bar));
  m_variableFilter = new QLineEdit(bar);
  m_variableFilter->setPlaceholderText(tr("name contains…"));
  m_variableFilter->setClearButtonEnabled(true);
  m_variableFilter->setToolTip(tr("List only the variables whose name contains this text, in both variable tables, "
                                  "and draw their lives on the chart (the %1 largest); several names separated by ';'")
                                   .arg(LivenessChart::kMaxLifetimes));
  connect(m_variableFilter, &QLineEdit::textChanged, this, [this](const QString& text) {
    m_liveTable->setNameFilter(text);
    m_alwaysLiveTable->setNameFilter(text);
    showLifetimes();
  });
  h->addWidget(m_variableFilter, 1);
  h->addStretch(2);
  return bar;
}

void LivenessPage::showLifetimes() {
  const QStringList terms = nameTerms(m_variableFilter->text());
  if (terms.isEmpty() || !m_doc) {
    m_chart->setLifetimes({});
    emit lifetimesShown();
    return;
  }
  if (!m_lives) {
    // Every variable's life is read once, the first time a name is typed.
    if (!m_livesTask.active()) {
      const auto doc = m_doc;
      m_livesTask = runInBackground<VariableLives>(
          this, tr("Reading variables' lives"), [doc](Progress& p) { return loadVariableLives(*doc, p); },
          [this](std::shared_ptr<const VariableLives> lives) {
            m_lives = std::move(lives);
            m_livesTask = TaskHandle();
            showLifetimes();
          },
          reportError());
    }
    return;
  }
  std::size_t matched = 0;
  const std::vector<std::size_t> picked = m_lives->matching(terms, &matched);
  std::vector<VariableLife> lives;
  for (std::size_t i = 0; i < picked.size() && i < LivenessChart::kMaxLifetimes; ++i) lives.push_back(m_lives->variables[picked[i]]);
  m_chart->setLifetimes(std::move(lives), matched - std::min(matched, LivenessChart::kMaxLifetimes));
  emit lifetimesShown();
}

bool LivenessPage::setStepRange(const QString& text) {
  const QString t = text.trimmed();
  const std::size_t steps = m_data ? m_data->steps() : 0;
  if (t.isEmpty()) {
    m_tileError->clear();
    m_chart->setStepRange(0, SIZE_MAX);
    updateTexts();
    return true;
  }
  const QStringList ends = t.split(QLatin1Char('-'));
  bool ok1 = false, ok2 = false;
  const qulonglong first = ends.value(0).trimmed().toULongLong(&ok1);
  const qulonglong last = ends.size() > 1 ? ends.value(1).trimmed().toULongLong(&ok2) : first;
  if (ends.size() == 1) ok2 = ok1;
  if (ends.size() > 2 || !ok1 || !ok2 || last < first || last >= steps) {
    m_tileError->setText(tr("'%1' is not a step range like 80-100 (steps 0-%2)").arg(t).arg(steps ? steps - 1 : 0));
    return false;
  }
  m_tileError->clear();
  if (m_stepRange->text() != text) m_stepRange->setText(text);
  m_chart->setStepRange(std::size_t(first), std::size_t(last) + 1);
  updateTexts();
  return true;
}

void LivenessPage::setVariableFilter(const QString& text) { m_variableFilter->setText(text); }

QWidget* LivenessPage::imageWidget() { return m_chart; }

void LivenessPage::setDocument(std::shared_ptr<const Document> doc) {
  setReady(false);
  m_task = TaskHandle();
  m_detailsTask = TaskHandle();
  m_livesTask = TaskHandle();
  m_lives.reset();
  m_doc = std::move(doc);
  m_data.reset();
  m_baseData.reset();
  m_details.reset();
  m_steps.clear();
  m_scope = {};
  m_chart->setData(nullptr);
  m_chart->setSelection({});
  m_alwaysLiveModel->setRows(nullptr);
  m_liveModel->setDetails(nullptr);
  m_verticesModel->setRows(nullptr);
  m_cyclesModel->setRows(nullptr);
  m_tile->clear();
  m_tileError->clear();
  {
    const QSignalBlocker block(m_stepRange); // a new document shows every step
    m_stepRange->clear();
  }
  m_chart->setStepRange(0, SIZE_MAX);
  m_variableFilter->clear();
  m_chart->setLifetimes({});
  {
    const QSignalBlocker block(m_ipu); // clearing is not the user choosing a scope
    m_ipu->clear();
  }
  m_difference->setVisible(m_doc && m_doc->base());
  updateTexts();
  if (m_doc) loadCurves();
}

void LivenessPage::scopeEdited() {
  LivenessScope scope;
  scope.ipu = m_ipu->currentIndex() >= 0 ? m_ipu->currentData().toInt() : -1;
  const QString text = m_tile->text().trimmed();
  if (!text.isEmpty()) {
    bool ok = false;
    const unsigned tile = text.toUInt(&ok);
    const unsigned tiles = m_data ? m_data->numTiles : 0;
    if (!ok || tile >= tiles) {
      m_tileError->setText(tr("'%1' is not a tile (0-%2)").arg(text).arg(tiles ? tiles - 1 : 0));
      return;
    }
    scope.tile = int(tile);
  }
  m_tileError->clear();
  setScope(scope);
}

void LivenessPage::setScope(LivenessScope scope) {
  if (scope == m_scope && m_data) return;
  m_scope = scope;
  const QSignalBlocker block(m_ipu);
  const int index = m_ipu->findData(scope.ipu);
  if (index >= 0) m_ipu->setCurrentIndex(index);
  if (scope.tile >= 0) m_tile->setText(QString::number(scope.tile));
  loadCurves();
}

void LivenessPage::loadCurves() {
  m_task = TaskHandle();
  if (!m_doc) return;
  const auto doc = m_doc;
  const LivenessScope scope = m_scope;
  updateTexts();
  m_task = runInBackground<Curves>(
      this, tr("Reading liveness"),
      [doc, scope](Progress& p) {
        Curves c;
        c.current = std::make_shared<const LivenessData>(loadLiveness(*doc, scope, p));
        if (doc->base()) c.base = std::make_shared<const LivenessData>(loadLiveness(*doc->base(), scope, p));
        return c;
      },
      [this](std::shared_ptr<const Curves> c) { showCurves(std::move(c)); },
      reportError());
}

void LivenessPage::showCurves(std::shared_ptr<const Curves> curves) {
  const bool first = !m_data;
  m_data = curves->current;
  m_baseData = curves->base;
  if (m_ipu->count() == 0) fillIpuBox(m_ipu, m_data->numIpus);
  m_alwaysLiveModel->setRows({m_data, &m_data->alwaysLiveVariables});
  m_chart->setData(m_data, m_baseData);
  // The peak step is selected at first, so the tabs show the moment memory matters most.
  if (first && m_chart->selection().empty() && m_data->steps() > 0) m_chart->setSelection({m_data->peakStep()});
  else loadDetails(); // the same steps, in the new scope
  updateTexts();
  emit curveLoaded();
}

void LivenessPage::loadDetails() {
  m_detailsTask = TaskHandle();
  m_details.reset();
  updateTexts();
  if (!m_doc || !m_data) return;
  const auto doc = m_doc;
  const LivenessScope scope = m_scope;
  const std::vector<std::size_t> steps = m_steps;
  m_detailsTask = runInBackground<StepDetailsData>(
      this, tr("Reading live variables"), [doc, scope, steps](Progress& p) { return loadStepDetails(*doc, scope, steps, p); },
      [this](std::shared_ptr<const StepDetailsData> d) {
        m_details = d;
        m_liveModel->setDetails(d);
        m_verticesModel->setRows({d, &d->vertices});
        m_cyclesModel->setRows({d, &d->cycles});
        updateTexts();
        emit detailsLoaded();
        setReady(true); // once the first details are on screen (later loads leave it true)
      },
      reportError());
}

void LivenessPage::updateTexts() {
  const MemoryUnits u = Settings::instance().memoryUnits();
  if (!m_data) {
    m_summary->setText(m_doc ? tr("Reading liveness…") : QString());
    m_selectionLabel->clear();
    return;
  }
  const std::size_t peak = m_data->peakStep();
  QString summary;
  const auto [rangeFirst, rangeLast] = m_chart->stepRange();
  if (m_data->steps() && (rangeFirst > 0 || rangeLast < m_data->steps()))
    summary = tr("<b>Showing steps %1-%2</b> of ").arg(rangeFirst).arg(rangeLast ? rangeLast - 1 : 0);
  summary += tr("%1 steps (%2). Peak not always live: %3 at step %4 (%5). Always live: %6.")
                        .arg(formatCount(m_data->steps()), m_data->scope.describe(),
                             formatBytes(m_data->steps() ? m_data->notAlwaysLive[peak] : 0, u))
                        .arg(peak)
                        .arg(m_data->programName(peak).toHtmlEscaped(), formatBytes(m_data->alwaysLive, u));
  if (m_baseData && m_baseData->steps()) {
    const std::size_t bp = m_baseData->peakStep();
    summary += tr(" Base: peak %1 at step %2, always live %3 (%4 steps).")
                   .arg(formatBytes(m_baseData->notAlwaysLive[bp], u))
                   .arg(bp)
                   .arg(formatBytes(m_baseData->alwaysLive, u), formatCount(m_baseData->steps()));
  }
  m_summary->setText(summary);
  QString selection;
  if (m_steps.empty()) {
    selection = tr("No step selected: click the chart to pick a step, shift-click to add steps.");
  } else if (m_steps.size() == 1) {
    const std::size_t s = m_steps[0];
    selection = tr("<b>Step %1</b>: %2 (%3)").arg(s).arg(m_data->programName(s).toHtmlEscaped(), m_data->programType(s));
    if (s < m_data->steps())
      selection += tr(", %1 not always live").arg(formatBytes(m_data->notAlwaysLive[s], u));
  } else {
    QStringList list;
    for (std::size_t s : m_steps) list << QString::number(s);
    selection = tr("<b>%1 steps</b>: %2 (a column each in the variables table)").arg(m_steps.size()).arg(list.join(QStringLiteral(", ")));
  }
  if (m_details && !m_details->computeSet.isEmpty())
    selection += tr(". Vertices of compute set %1").arg(m_details->computeSet.toHtmlEscaped());
  if (m_baseData) selection += tr(" (tabs describe the current report)");
  if (!m_details && !m_steps.empty()) selection += tr(" — reading…");
  m_selectionLabel->setText(selection);
}

} // namespace tessera::viewer
