// The Memory page: options, the per-tile chart, tile selection and the selection's tabs.
#include "widgets/MemoryPage.hpp"

#include "charts/MemoryChart.hpp"
#include "charts/MemoryMapWidget.hpp"
#include "charts/RangeOverview.hpp"
#include "core/NameTerms.hpp"
#include "core/Settings.hpp"
#include "models/LoweredVariablesModel.hpp"
#include "models/TileComputeSetsModel.hpp"
#include "models/TileExchangesModel.hpp"
#include "models/TileMemoryDetailsModel.hpp"
#include "models/TableModel.hpp"
#include "models/TileVerticesModel.hpp"
#include "widgets/ChartPageParts.hpp"
#include "widgets/TableViews.hpp"
#include "widgets/TotalledTable.hpp"

#include <QAction>
#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRadioButton>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace tessera::viewer {

MemoryPage::MemoryPage(QWidget* parent)
    : Page(parent), m_chart(new MemoryChart(this)), m_detailsModel(new TileMemoryDetailsModel(this)),
      m_variablesModel(new LoweredVariablesModel(this)), m_verticesModel(new TileVerticesModel(this)),
      m_computeSetsModel(new TileComputeSetsModel(this)), m_exchangesModel(new TileExchangesModel(this)) {
  QWidget* toolbar = createToolbar();
  m_overview = new RangeOverview(m_chart, this);
  m_overview->setItemNoun(tr("tile"));
  const ChartPageParts parts = layOutChartPage(this, toolbar, m_tilesError, m_chart, createTabs(), m_overview);
  m_summary = parts.summary;
  m_selectionLabel = parts.selection;

  connect(m_chart, &MemoryChart::selectionChanged, this, [this](const std::vector<std::size_t>& items) {
    selectionChanged(std::vector<unsigned>(items.begin(), items.end()));
  });
  connect(&Settings::instance(), &Settings::changed, this, [this] { updateTexts(); });
  updateTexts();
}

QWidget* MemoryPage::createToolbar() {
  auto* bar = new QWidget(this);
  auto* h = new QHBoxLayout(bar);
  h->setContentsMargins(0, 0, 0, 0);
  h->addWidget(new QLabel(tr("Breakdown:"), bar));
  m_breakdown = new QComboBox(bar);
  m_breakdown->addItem(tr("Total"), int(MemoryBreakdown::Total));
  m_breakdown->addItem(tr("By region"), int(MemoryBreakdown::Region));
  m_breakdown->addItem(tr("By category"), int(MemoryBreakdown::Category));
  m_breakdown->addItem(tr("By liveness"), int(MemoryBreakdown::Liveness));
  connect(m_breakdown, qOverload<int>(&QComboBox::currentIndexChanged), this,
          [this] { m_chart->setBreakdown(MemoryBreakdown(m_breakdown->currentData().toInt())); });
  h->addWidget(m_breakdown);

  m_gaps = new QCheckBox(tr("Include gaps"), bar);
  m_gaps->setChecked(true);
  m_gaps->setToolTip(tr("Count alignment padding and holes: a tile's total is then its highest used address"));
  connect(m_gaps, &QCheckBox::toggled, this, [this](bool on) { m_chart->setIncludeGaps(on); });
  h->addWidget(m_gaps);

  m_maxMemory = new QCheckBox(tr("Max memory"), bar);
  m_maxMemory->setToolTip(tr("Draw the tile's capacity: tiles above the line are out of memory"));
  connect(m_maxMemory, &QCheckBox::toggled, this, [this](bool on) { m_chart->setShowMaxMemory(on); });
  h->addWidget(m_maxMemory);

  m_difference = new QCheckBox(tr("Difference"), bar);
  m_difference->setToolTip(tr("Show current minus base per tile instead of both reports' totals"));
  m_difference->setVisible(false);
  connect(m_difference, &QCheckBox::toggled, this, [this](bool on) { m_chart->setDifference(on); });
  h->addWidget(m_difference);

  h->addSpacing(12);
  h->addWidget(new QLabel(tr("IPU:"), bar));
  m_ipu = new QComboBox(bar);
  connect(m_ipu, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
    if (m_ipu->currentIndex() >= 0) m_chart->setIpu(m_ipu->currentData().toInt());
  });
  h->addWidget(m_ipu);

  h->addSpacing(12);
  h->addWidget(new QLabel(tr("Tiles:"), bar));
  m_tiles = new QLineEdit(bar);
  m_tiles->setPlaceholderText(tr("e.g. 0,5,17 or 3-7"));
  m_tiles->setClearButtonEnabled(true);
  m_tiles->setMinimumWidth(140);
  connect(m_tiles, &QLineEdit::returnPressed, this, [this] { selectTiles(m_tiles->text()); });
  h->addWidget(m_tiles);

  h->addSpacing(12);
  h->addWidget(new QLabel(tr("Variables:"), bar));
  m_variableFilter = new QLineEdit(bar);
  m_variableFilter->setPlaceholderText(tr("name contains…"));
  m_variableFilter->setClearButtonEnabled(true);
  m_variableFilter->setMinimumWidth(140);
  m_variableFilter->setToolTip(tr("Chart the bytes, on each tile, of the variables whose name contains this text "
                                  "(code and state count under their category's name); the Variables tab lists them. "
                                  "Several names separated by ';' are charted as one line each"));
  m_filterTimer = new QTimer(this);
  m_filterTimer->setSingleShot(true);
  m_filterTimer->setInterval(250); // typing a name does not refilter on every key
  connect(m_filterTimer, &QTimer::timeout, this, [this] { applyVariableFilter(); });
  connect(m_variableFilter, &QLineEdit::textChanged, m_filterTimer, qOverload<>(&QTimer::start));
  connect(m_variableFilter, &QLineEdit::returnPressed, this, [this] { applyVariableFilter(); });
  h->addWidget(m_variableFilter);
  m_tilesError = createErrorLabel(this);
  m_tilesError->hide();
  h->addStretch(1);
  return bar;
}

QTabWidget* MemoryPage::createTabs() {
  m_tabs = new QTabWidget(this);
  auto* details = createSortableTable(m_detailsModel, m_tabs);
  details->setSortingEnabled(false); // categories, then totals: the order is the meaning
  m_tabs->addTab(details, tr("Details"));

  auto* variables = new QWidget(m_tabs);
  auto* v = new QVBoxLayout(variables);
  v->setContentsMargins(0, 0, 0, 0);
  auto* modeBar = new QHBoxLayout;
  auto* showTable = new QRadioButton(tr("Table"), variables);
  m_showMap = new QRadioButton(tr("Memory map"), variables);
  m_wholeTile = new QCheckBox(tr("Whole tile"), variables);
  m_wholeTile->setToolTip(tr("Show the tile's whole capacity rather than up to its highest used address"));
  showTable->setChecked(true);
  auto* group = new QButtonGroup(variables);
  group->addButton(showTable);
  group->addButton(m_showMap);
  modeBar->addWidget(showTable);
  modeBar->addWidget(m_showMap);
  modeBar->addWidget(m_wholeTile);
  modeBar->addStretch(1);
  v->addLayout(modeBar);
  m_variablesStack = new QStackedWidget(variables);
  m_variablesTable = new TotalledTable(m_variablesModel, tr("variables"), LoweredVariablesModel::NameColumn, m_variablesStack);
  m_variablesTable->setTotalsNote(tr("bytes that variables with disjoint lives share count once for each"));
  // Choosing variables from the list: the selected rows' names join the Variables box, each a
  // line of its own on the chart (as if typed, separated by ';').
  auto* plot = new QAction(tr("Plot on the chart"), m_variablesTable->view());
  m_variablesTable->view()->setContextMenuPolicy(Qt::ActionsContextMenu);
  m_variablesTable->view()->addAction(plot);
  connect(plot, &QAction::triggered, this, [this] { plotSelectedVariables(); });
  m_variablesStack->addWidget(m_variablesTable);
  m_map = new MemoryMapWidget(m_variablesStack);
  m_variablesStack->addWidget(m_map);
  v->addWidget(m_variablesStack);
  connect(m_showMap, &QRadioButton::toggled, this, [this](bool map) {
    m_variablesStack->setCurrentIndex(map ? 1 : 0);
    m_wholeTile->setEnabled(map);
  });
  m_wholeTile->setEnabled(false);
  connect(m_wholeTile, &QCheckBox::toggled, m_map, &MemoryMapWidget::setWholeTile);
  m_tabs->addTab(variables, tr("Variables"));

  m_tabs->addTab(new TotalledTable(m_verticesModel, tr("vertex types"), 0, m_tabs), tr("Vertices"));
  m_tabs->addTab(new TotalledTable(m_computeSetsModel, tr("compute sets"), 0, m_tabs), tr("Compute sets"));
  auto* exchanges = new TotalledTable(m_exchangesModel, tr("exchange programs"), 0, m_tabs);
  exchanges->setTotalsNote(tr("data moved: each program's bytes over the whole replica"));
  m_tabs->addTab(exchanges, tr("Exchanges"));
  return m_tabs;
}

QWidget* MemoryPage::imageWidget() { return m_chart; }

void MemoryPage::setDocument(std::shared_ptr<const Document> doc) {
  setReady(false);
  m_task = TaskHandle();
  m_detailsTask = TaskHandle();
  m_doc = doc;
  m_data.reset();
  m_baseData.reset();
  m_details.reset();
  m_selection.clear();
  m_variableTask = TaskHandle();
  m_variableTiles.reset();
  m_baseVariableTiles.reset();
  m_matchedNames = 0;
  m_matchedTiles = 0;
  {
    const QSignalBlocker block(m_variableFilter); // a new document starts unfiltered
    m_variableFilter->clear();
  }
  m_filterTimer->stop();
  m_chart->setVariableBytes(nullptr, {});
  m_chart->setVariableSeries({});
  m_variablesTable->setNameFilter({});
  m_chart->setData(nullptr);
  m_detailsModel->setSelection(nullptr, {});
  m_variablesModel->setDetails(nullptr);
  m_verticesModel->setRows(nullptr);
  m_computeSetsModel->setRows(nullptr);
  m_exchangesModel->setRows(nullptr);
  m_map->setDetails(nullptr);
  m_tiles->clear();
  showTilesError({});
  updateTexts();
  if (!doc) return;
  m_task = runInBackground<Snapshots>(
      this, tr("Reading tile memory"),
      [doc](Progress& p) {
        Snapshots s;
        s.current = std::make_shared<const MemoryData>(loadMemory(*doc, p));
        if (doc->base()) s.base = std::make_shared<const MemoryData>(loadMemory(*doc->base(), p));
        return s;
      },
      [this](std::shared_ptr<const Snapshots> s) { showData(std::move(s)); },
      reportError());
}

void MemoryPage::showData(std::shared_ptr<const Snapshots> snapshots) {
  m_data = snapshots->current;
  m_baseData = snapshots->base;
  const bool comparing = m_baseData != nullptr;
  m_difference->setVisible(comparing);
  m_breakdown->setEnabled(!comparing);
  m_breakdown->setToolTip(comparing ? tr("Comparing reports: both totals are shown") : QString());
  fillIpuBox(m_ipu, m_data->numIpus);
  // The capacity line helps when some tile comes near it; otherwise it would flatten the chart.
  const std::uint64_t largest = m_data->numTiles ? m_data->includingGaps[m_data->largestTile()] : 0;
  const QSignalBlocker blockMax(m_maxMemory);
  m_maxMemory->setChecked(m_data->outOfMemory || largest * 2 >= m_data->bytesPerTile);
  m_chart->setShowMaxMemory(m_maxMemory->isChecked());
  m_chart->setIncludeGaps(m_gaps->isChecked());
  m_chart->setBreakdown(MemoryBreakdown(m_breakdown->currentData().toInt()));
  m_chart->setDifference(m_difference->isChecked());
  m_chart->setData(m_data, m_baseData);
  m_chart->setIpu(-1);
  selectionChanged({});
}

void MemoryPage::plotSelectedVariables() {
  QStringList terms = nameTerms(m_variableFilter->text());
  const QModelIndexList rows = m_variablesTable->view()->selectionModel()
                                   ? m_variablesTable->view()->selectionModel()->selectedRows(LoweredVariablesModel::NameColumn)
                                   : QModelIndexList();
  for (const QModelIndex& row : rows) {
    const QString name = row.data(TableModel::SortRole).toString();
    if (!name.isEmpty() && !terms.contains(name, Qt::CaseInsensitive)) terms << name;
  }
  if (rows.isEmpty()) return;
  setVariableFilter(terms.join(QStringLiteral("; ")));
}

void MemoryPage::setVariableFilter(const QString& text) {
  {
    const QSignalBlocker block(m_variableFilter);
    m_variableFilter->setText(text);
  }
  applyVariableFilter();
}

void MemoryPage::applyVariableFilter() {
  m_filterTimer->stop();
  const QString text = m_variableFilter->text().trimmed();
  m_variablesTable->setNameFilter(text);
  if (text.isEmpty() || !m_doc) {
    m_variableTask = TaskHandle();
    m_chart->setVariableBytes(nullptr, {});
    m_chart->setVariableSeries({});
    m_matchedNames = m_matchedTiles = 0;
    updateTexts();
    emit variableFilterApplied();
    return;
  }
  if (!m_variableTiles) {
    // The lowered variables of every tile are read once, the first time a filter is typed.
    if (!m_variableTask.active()) {
      const auto doc = m_doc;
      m_variableTask = runInBackground<VariableSnapshots>(
          this, tr("Reading variables per tile"),
          [doc](Progress& p) {
            VariableSnapshots v;
            v.current = std::make_shared<const VariableTiles>(loadVariableTiles(*doc, p));
            if (doc->base()) v.base = std::make_shared<const VariableTiles>(loadVariableTiles(*doc->base(), p));
            return v;
          },
          [this](std::shared_ptr<const VariableSnapshots> v) {
            m_variableTiles = v->current;
            m_baseVariableTiles = v->base;
            m_variableTask = TaskHandle();
            applyVariableFilter();
          },
          reportError());
    }
    updateTexts();
    return;
  }
  // Several names separated by ';' are charted as one series each; the filter's total (every
  // name any term matches, each once) is what the single series, the overview and compare show.
  const QStringList terms = nameTerms(text);
  const std::vector<std::uint32_t> names = m_variableTiles->matching(terms);
  auto bytes = std::make_shared<const std::vector<std::uint64_t>>(m_variableTiles->bytesPerTile(names));
  m_matchedNames = unsigned(names.size());
  m_matchedTiles = unsigned(std::count_if(bytes->begin(), bytes->end(), [](std::uint64_t b) { return b > 0; }));
  std::shared_ptr<const std::vector<std::uint64_t>> baseBytes;
  if (m_baseVariableTiles)
    baseBytes = std::make_shared<const std::vector<std::uint64_t>>(
        m_baseVariableTiles->bytesPerTile(m_baseVariableTiles->matching(terms)));
  std::vector<MemoryChart::VariableSeries> series;
  if (terms.size() > 1)
    for (const QString& term : terms) {
      const std::vector<std::uint32_t> own = m_variableTiles->matching(QStringList{term});
      series.push_back({tr("'%1' (%2)").arg(term).arg(own.size()),
                        std::make_shared<const std::vector<std::uint64_t>>(m_variableTiles->bytesPerTile(own))});
    }
  m_chart->setVariableSeries(std::move(series));
  m_chart->setVariableBytes(bytes, tr("Variables matching '%1' (%2)").arg(terms.join(QStringLiteral("' or '"))).arg(names.size()),
                            baseBytes);
  updateTexts();
  emit variableFilterApplied();
}

bool MemoryPage::selectTiles(const QString& text) {
  if (!m_data) return false;
  QString error;
  const auto tiles = parseTileList(text, m_chart->numTiles(), &error);
  if (!tiles) {
    showTilesError(error);
    return false;
  }
  showTilesError({});
  m_chart->setSelection(std::vector<std::size_t>(tiles->begin(), tiles->end()));
  // The chart only signals a change; typing the current selection again still reloads nothing.
  return true;
}

void MemoryPage::showTilesError(const QString& message) {
  m_tilesError->setText(message);
  m_tilesError->setVisible(!message.isEmpty());
}

void MemoryPage::selectionChanged(const std::vector<unsigned>& tiles) {
  m_selection = tiles;
  std::vector<unsigned> inReport;
  for (unsigned t : tiles)
    if (m_data && t < m_data->numTiles) inReport.push_back(t);
  m_selection = inReport;
  m_tiles->setText(formatTileList(m_selection));
  showTilesError({});
  m_detailsModel->setSelection(m_data, m_selection);
  updateTexts();
  loadDetails();
}

void MemoryPage::loadDetails() {
  m_detailsTask = TaskHandle();
  m_details.reset();
  if (!m_doc || !m_data) return;
  const auto doc = m_doc;
  const std::vector<unsigned> tiles = m_selection;
  m_detailsTask = runInBackground<TileDetailsData>(
      this, tr("Reading tile details"), [doc, tiles](Progress& p) { return loadTileDetails(*doc, tiles, p); },
      [this](std::shared_ptr<const TileDetailsData> details) {
        m_details = details;
        m_variablesModel->setDetails(details);
        m_verticesModel->setRows({details, &details->vertices});
        m_computeSetsModel->setRows({details, &details->computeSets});
        m_exchangesModel->setRows({details, &details->exchanges});
        m_map->setDetails(details);
        updateTexts();
        emit detailsLoaded();
        setReady(true); // once the first details are on screen (later loads leave it true)
      },
      reportError());
}

void MemoryPage::updateTexts() {
  const MemoryUnits u = Settings::instance().memoryUnits();
  if (!m_data) {
    m_summary->setText(m_doc ? tr("Reading tile memory…") : QString());
    m_selectionLabel->clear();
    return;
  }
  const unsigned largest = m_data->largestTile();
  QString summary = tr("%1 tiles, %2 per tile. Largest tile %3: %4 (%5 of the tile)")
                        .arg(formatCount(m_data->numTiles), formatBytes(m_data->bytesPerTile, u))
                        .arg(largest)
                        .arg(formatBytes(m_data->includingGaps[largest], u),
                             formatPercent(double(m_data->includingGaps[largest]) / double(std::max<std::uint64_t>(1, m_data->bytesPerTile))));
  if (m_data->outOfMemory) {
    unsigned over = 0;
    for (unsigned t = 0; t < m_data->numTiles; ++t) over += m_data->includingGaps[t] > m_data->bytesPerTile ? 1 : 0;
    summary += tr(". <b>Out of memory</b>: %1 tiles need more than their capacity").arg(formatCount(over));
  }
  const QString filter = nameTerms(m_variableFilter->text()).join(QStringLiteral("' or '"));
  if (!filter.isEmpty()) {
    if (!m_variableTiles)
      summary += tr(". Variables matching '%1': reading…").arg(filter.toHtmlEscaped());
    else
      summary += tr(". <b>%1</b> '%2', on %3 tiles%4")
                     .arg(m_matchedNames == 1 ? tr("1 variable matches") : tr("%1 variables match").arg(m_matchedNames))
                     .arg(filter.toHtmlEscaped(), formatCount(m_matchedTiles), m_baseData ? tr(" (current)") : QString());
  }
  if (m_baseData) {
    std::uint64_t base = 0, cur = 0;
    for (unsigned t = 0; t < m_baseData->numTiles; ++t) base += m_baseData->includingGaps[t];
    for (unsigned t = 0; t < m_data->numTiles; ++t) cur += m_data->includingGaps[t];
    summary += tr(". Compared with the base: %1 → %2 (%3)")
                   .arg(formatBytes(base, u), formatBytes(cur, u), formatBytesDelta(std::int64_t(cur) - std::int64_t(base), u));
  }
  m_summary->setText(summary);
  // A list of a thousand tiles is cut to a line's worth (the Tiles box holds all of it).
  auto shortTileList = [](const std::vector<unsigned>& tiles) {
    const QString all = formatTileList(tiles);
    constexpr int kMax = 60;
    if (all.size() <= kMax) return all;
    const int cut = all.lastIndexOf(QLatin1Char(','), kMax);
    return all.left(cut > 0 ? cut : kMax) + QStringLiteral(",…");
  };
  QString selection;
  if (m_selection.empty()) {
    selection = tr("No tile selected: the tabs below describe <b>all %1 tiles</b>. Click the chart to pick a tile, "
                   "shift-click to add tiles, or type a list.").arg(formatCount(m_data->numTiles));
  } else {
    std::uint64_t sum = 0;
    for (unsigned t : m_selection) sum += m_data->includingGaps[t];
    selection = m_selection.size() == 1 ? tr("<b>Tile %1</b> (IPU %2): %3").arg(m_selection[0]).arg(m_data->ipuOf(m_selection[0])).arg(formatBytes(sum, u))
                                        : tr("<b>%1 tiles</b> (%2): %3 together").arg(m_selection.size()).arg(shortTileList(m_selection), formatBytes(sum, u));
  }
  if (m_baseData) selection += tr(" (tabs describe the current report)");
  if (!m_details) selection += tr(" — reading…");
  m_selectionLabel->setText(selection);
}

} // namespace tessera::viewer
