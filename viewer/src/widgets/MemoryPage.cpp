// The Memory page: options, the per-tile chart, tile selection and the selection's tabs.
#include "widgets/MemoryPage.hpp"

#include "charts/MemoryChart.hpp"
#include "charts/MemoryMapWidget.hpp"
#include "charts/RangeOverview.hpp"
#include "core/NameTerms.hpp"
#include "core/Settings.hpp"
#include "models/LoweredVariablesModel.hpp"
#include "models/TableModel.hpp"
#include "models/TileComputeSetsModel.hpp"
#include "models/TileExchangesModel.hpp"
#include "models/TileMemoryDetailsModel.hpp"
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
    : Page(parent), chart_(new MemoryChart(this)), detailsModel_(new TileMemoryDetailsModel(this)),
      variablesModel_(new LoweredVariablesModel(this)), verticesModel_(new TileVerticesModel(this)),
      computeSetsModel_(new TileComputeSetsModel(this)),
      exchangesModel_(new TileExchangesModel(this)) {
  QWidget* toolbar = createToolbar();
  overview_ = new RangeOverview(chart_, this);
  overview_->setItemNoun(tr("tile"));
  const ChartPageParts parts =
      layOutChartPage(this, toolbar, tilesError_, chart_, createTabs(), overview_);
  summary_ = parts.summary;
  selectionLabel_ = parts.selection;

  connect(chart_, &MemoryChart::selectionChanged, this,
          [this](const std::vector<std::size_t>& items) {
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
  breakdown_ = new QComboBox(bar);
  breakdown_->addItem(tr("Total"), int(MemoryBreakdown::Total));
  breakdown_->addItem(tr("By region"), int(MemoryBreakdown::Region));
  breakdown_->addItem(tr("By category"), int(MemoryBreakdown::Category));
  breakdown_->addItem(tr("By liveness"), int(MemoryBreakdown::Liveness));
  connect(breakdown_, qOverload<int>(&QComboBox::currentIndexChanged), this,
          [this] { chart_->setBreakdown(MemoryBreakdown(breakdown_->currentData().toInt())); });
  h->addWidget(breakdown_);

  gaps_ = new QCheckBox(tr("Include gaps"), bar);
  gaps_->setChecked(true);
  gaps_->setToolTip(
      tr("Count alignment padding and holes: a tile's total is then its highest used address"));
  connect(gaps_, &QCheckBox::toggled, this, [this](bool on) { chart_->setIncludeGaps(on); });
  h->addWidget(gaps_);

  maxMemory_ = new QCheckBox(tr("Max memory"), bar);
  maxMemory_->setToolTip(tr("Draw the tile's capacity: tiles above the line are out of memory"));
  connect(maxMemory_, &QCheckBox::toggled, this, [this](bool on) { chart_->setShowMaxMemory(on); });
  h->addWidget(maxMemory_);

  difference_ = new QCheckBox(tr("Difference"), bar);
  difference_->setToolTip(tr("Show current minus base per tile instead of both reports' totals"));
  difference_->setVisible(false);
  connect(difference_, &QCheckBox::toggled, this, [this](bool on) { chart_->setDifference(on); });
  h->addWidget(difference_);

  h->addSpacing(12);
  h->addWidget(new QLabel(tr("IPU:"), bar));
  ipu_ = new QComboBox(bar);
  connect(ipu_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
    if (ipu_->currentIndex() >= 0) chart_->setIpu(ipu_->currentData().toInt());
  });
  h->addWidget(ipu_);

  h->addSpacing(12);
  h->addWidget(new QLabel(tr("Tiles:"), bar));
  tiles_ = new QLineEdit(bar);
  tiles_->setPlaceholderText(tr("e.g. 0,5,17 or 3-7"));
  tiles_->setClearButtonEnabled(true);
  tiles_->setMinimumWidth(140);
  connect(tiles_, &QLineEdit::returnPressed, this, [this] { selectTiles(tiles_->text()); });
  h->addWidget(tiles_);

  h->addSpacing(12);
  h->addWidget(new QLabel(tr("Variables:"), bar));
  variableFilter_ = new QLineEdit(bar);
  variableFilter_->setPlaceholderText(tr("name contains…"));
  variableFilter_->setClearButtonEnabled(true);
  variableFilter_->setMinimumWidth(140);
  variableFilter_->setToolTip(
      tr("Chart the bytes, on each tile, of the variables whose name contains this text "
         "(code and state count under their category's name); the Variables tab lists them. "
         "Several names separated by ';' are charted as one line each"));
  filterTimer_ = new QTimer(this);
  filterTimer_->setSingleShot(true);
  filterTimer_->setInterval(250); // typing a name does not refilter on every key
  connect(filterTimer_, &QTimer::timeout, this, [this] { applyVariableFilter(); });
  connect(variableFilter_, &QLineEdit::textChanged, filterTimer_, qOverload<>(&QTimer::start));
  connect(variableFilter_, &QLineEdit::returnPressed, this, [this] { applyVariableFilter(); });
  h->addWidget(variableFilter_);
  tilesError_ = createErrorLabel(this);
  tilesError_->hide();
  h->addStretch(1);
  return bar;
}

QTabWidget* MemoryPage::createTabs() {
  tabs_ = new QTabWidget(this);
  auto* details = createSortableTable(detailsModel_, tabs_);
  details->setSortingEnabled(false); // categories, then totals: the order is the meaning
  tabs_->addTab(details, tr("Details"));

  auto* variables = new QWidget(tabs_);
  auto* v = new QVBoxLayout(variables);
  v->setContentsMargins(0, 0, 0, 0);
  auto* modeBar = new QHBoxLayout;
  auto* showTable = new QRadioButton(tr("Table"), variables);
  showMap_ = new QRadioButton(tr("Memory map"), variables);
  wholeTile_ = new QCheckBox(tr("Whole tile"), variables);
  wholeTile_->setToolTip(
      tr("Show the tile's whole capacity rather than up to its highest used address"));
  showTable->setChecked(true);
  auto* group = new QButtonGroup(variables);
  group->addButton(showTable);
  group->addButton(showMap_);
  modeBar->addWidget(showTable);
  modeBar->addWidget(showMap_);
  modeBar->addWidget(wholeTile_);
  modeBar->addStretch(1);
  v->addLayout(modeBar);
  variablesStack_ = new QStackedWidget(variables);
  variablesTable_ = new TotalledTable(variablesModel_, tr("variables"),
                                      LoweredVariablesModel::NameColumn, variablesStack_);
  variablesTable_->setTotalsNote(
      tr("bytes that variables with disjoint lives share count once for each"));
  // Choosing variables from the list: the selected rows' names join the Variables box, each a
  // line of its own on the chart (as if typed, separated by ';').
  auto* plot = new QAction(tr("Plot on the chart"), variablesTable_->view());
  variablesTable_->view()->setContextMenuPolicy(Qt::ActionsContextMenu);
  variablesTable_->view()->addAction(plot);
  connect(plot, &QAction::triggered, this, [this] { plotSelectedVariables(); });
  variablesStack_->addWidget(variablesTable_);
  map_ = new MemoryMapWidget(variablesStack_);
  variablesStack_->addWidget(map_);
  v->addWidget(variablesStack_);
  connect(showMap_, &QRadioButton::toggled, this, [this](bool map) {
    variablesStack_->setCurrentIndex(map ? 1 : 0);
    wholeTile_->setEnabled(map);
  });
  wholeTile_->setEnabled(false);
  connect(wholeTile_, &QCheckBox::toggled, map_, &MemoryMapWidget::setWholeTile);
  tabs_->addTab(variables, tr("Variables"));

  tabs_->addTab(new TotalledTable(verticesModel_, tr("vertex types"), 0, tabs_), tr("Vertices"));
  tabs_->addTab(new TotalledTable(computeSetsModel_, tr("compute sets"), 0, tabs_),
                tr("Compute sets"));
  auto* exchanges = new TotalledTable(exchangesModel_, tr("exchange programs"), 0, tabs_);
  exchanges->setTotalsNote(tr("data moved: each program's bytes over the whole replica"));
  tabs_->addTab(exchanges, tr("Exchanges"));
  return tabs_;
}

QWidget* MemoryPage::imageWidget() {
  return chart_;
}

void MemoryPage::setDocument(std::shared_ptr<const Document> doc) {
  setReady(false);
  task_ = TaskHandle();
  detailsTask_ = TaskHandle();
  doc_ = doc;
  followVariables_.follow(doc_, this, variableFilter_,
                          [this](const QString& names) { setVariableFilter(names); });
  data_.reset();
  baseData_.reset();
  details_.reset();
  selection_.clear();
  variableTask_ = TaskHandle();
  variableTiles_.reset();
  baseVariableTiles_.reset();
  matchedNames_ = 0;
  matchedTiles_ = 0;
  {
    const QSignalBlocker block(variableFilter_); // a new document starts unfiltered
    variableFilter_->clear();
  }
  filterTimer_->stop();
  chart_->setVariableBytes(nullptr, {});
  chart_->setVariableSeries({});
  variablesTable_->setNameFilter({});
  chart_->setData(nullptr);
  detailsModel_->setSelection(nullptr, {});
  variablesModel_->setDetails(nullptr);
  verticesModel_->setRows(nullptr);
  computeSetsModel_->setRows(nullptr);
  exchangesModel_->setRows(nullptr);
  map_->setDetails(nullptr);
  tiles_->clear();
  showTilesError({});
  updateTexts();
  if (!doc) return;
  task_ = runInBackground<Snapshots>(
      this, tr("Reading tile memory"),
      [doc](Progress& p) {
        Snapshots s;
        s.current = std::make_shared<const MemoryData>(loadMemory(*doc, p));
        if (doc->base()) s.base = std::make_shared<const MemoryData>(loadMemory(*doc->base(), p));
        return s;
      },
      [this](std::shared_ptr<const Snapshots> s) { showData(std::move(s)); }, reportError());
}

void MemoryPage::showData(std::shared_ptr<const Snapshots> snapshots) {
  data_ = snapshots->current;
  baseData_ = snapshots->base;
  const bool comparing = baseData_ != nullptr;
  difference_->setVisible(comparing);
  breakdown_->setEnabled(!comparing);
  breakdown_->setToolTip(comparing ? tr("Comparing reports: both totals are shown") : QString());
  fillIpuBox(ipu_, data_->numIpus);
  // The capacity line helps when some tile comes near it; otherwise it would flatten the chart.
  const std::uint64_t largest = data_->numTiles ? data_->includingGaps[data_->largestTile()] : 0;
  const QSignalBlocker blockMax(maxMemory_);
  maxMemory_->setChecked(data_->outOfMemory || largest * 2 >= data_->bytesPerTile);
  chart_->setShowMaxMemory(maxMemory_->isChecked());
  chart_->setIncludeGaps(gaps_->isChecked());
  chart_->setBreakdown(MemoryBreakdown(breakdown_->currentData().toInt()));
  chart_->setDifference(difference_->isChecked());
  chart_->setData(data_, baseData_);
  chart_->setIpu(-1);
  selectionChanged({});
}

void MemoryPage::plotSelectedVariables() {
  QStringList terms = nameTerms(variableFilter_->text());
  const QModelIndexList rows = variablesTable_->view()->selectionModel()
                                   ? variablesTable_->view()->selectionModel()->selectedRows(
                                         LoweredVariablesModel::NameColumn)
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
    const QSignalBlocker block(variableFilter_);
    variableFilter_->setText(text);
  }
  applyVariableFilter();
}

void MemoryPage::applyVariableFilter() {
  filterTimer_->stop();
  const QString text = variableFilter_->text().trimmed();
  variablesTable_->setNameFilter(text);
  if (text.isEmpty() || !doc_) {
    variableTask_ = TaskHandle();
    chart_->setVariableBytes(nullptr, {});
    chart_->setVariableSeries({});
    matchedNames_ = matchedTiles_ = 0;
    updateTexts();
    emit variableFilterApplied();
    return;
  }
  if (!variableTiles_) {
    // The lowered variables of every tile are read once, the first time a filter is typed.
    if (!variableTask_.active()) {
      const auto doc = doc_;
      variableTask_ = runInBackground<VariableSnapshots>(
          this, tr("Reading variables per tile"),
          [doc](Progress& p) {
            VariableSnapshots v;
            v.current = std::make_shared<const VariableTiles>(loadVariableTiles(*doc, p));
            if (doc->base())
              v.base = std::make_shared<const VariableTiles>(loadVariableTiles(*doc->base(), p));
            return v;
          },
          [this](std::shared_ptr<const VariableSnapshots> v) {
            variableTiles_ = v->current;
            baseVariableTiles_ = v->base;
            variableTask_ = TaskHandle();
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
  const std::vector<std::uint32_t> names = variableTiles_->matching(terms);
  auto bytes =
      std::make_shared<const std::vector<std::uint64_t>>(variableTiles_->bytesPerTile(names));
  matchedNames_ = unsigned(names.size());
  matchedTiles_ =
      unsigned(std::count_if(bytes->begin(), bytes->end(), [](std::uint64_t b) { return b > 0; }));
  std::shared_ptr<const std::vector<std::uint64_t>> baseBytes;
  if (baseVariableTiles_)
    baseBytes = std::make_shared<const std::vector<std::uint64_t>>(
        baseVariableTiles_->bytesPerTile(baseVariableTiles_->matching(terms)));
  std::vector<MemoryChart::VariableSeries> series;
  if (terms.size() > 1)
    for (const QString& term : terms) {
      const std::vector<std::uint32_t> own = variableTiles_->matching(QStringList{term});
      series.push_back(
          {tr("'%1' (%2)").arg(term).arg(own.size()),
           std::make_shared<const std::vector<std::uint64_t>>(variableTiles_->bytesPerTile(own))});
    }
  chart_->setVariableSeries(std::move(series));
  chart_->setVariableBytes(bytes,
                           tr("Variables matching '%1' (%2)")
                               .arg(terms.join(QStringLiteral("' or '")))
                               .arg(names.size()),
                           baseBytes);
  updateTexts();
  emit variableFilterApplied();
}

bool MemoryPage::selectTiles(const QString& text) {
  if (!data_) return false;
  QString error;
  const auto tiles = parseTileList(text, chart_->numTiles(), &error);
  if (!tiles) {
    showTilesError(error);
    return false;
  }
  showTilesError({});
  chart_->setSelection(std::vector<std::size_t>(tiles->begin(), tiles->end()));
  // The chart only signals a change; typing the current selection again still reloads nothing.
  return true;
}

void MemoryPage::showTilesError(const QString& message) {
  tilesError_->setText(message);
  tilesError_->setVisible(!message.isEmpty());
}

void MemoryPage::selectionChanged(const std::vector<unsigned>& tiles) {
  selection_ = tiles;
  std::vector<unsigned> inReport;
  for (unsigned t : tiles)
    if (data_ && t < data_->numTiles) inReport.push_back(t);
  selection_ = inReport;
  tiles_->setText(formatTileList(selection_));
  showTilesError({});
  detailsModel_->setSelection(data_, selection_);
  updateTexts();
  loadDetails();
}

void MemoryPage::loadDetails() {
  detailsTask_ = TaskHandle();
  details_.reset();
  if (!doc_ || !data_) return;
  const auto doc = doc_;
  const std::vector<unsigned> tiles = selection_;
  detailsTask_ = runInBackground<TileDetailsData>(
      this, tr("Reading tile details"),
      [doc, tiles](Progress& p) { return loadTileDetails(*doc, tiles, p); },
      [this](std::shared_ptr<const TileDetailsData> details) {
        details_ = details;
        variablesModel_->setDetails(details);
        verticesModel_->setRows({details, &details->vertices});
        computeSetsModel_->setRows({details, &details->computeSets});
        exchangesModel_->setRows({details, &details->exchanges});
        map_->setDetails(details);
        updateTexts();
        emit detailsLoaded();
        setReady(true); // once the first details are on screen (later loads leave it true)
      },
      reportError());
}

void MemoryPage::updateTexts() {
  const MemoryUnits u = Settings::instance().memoryUnits();
  if (!data_) {
    summary_->setText(doc_ ? tr("Reading tile memory…") : QString());
    selectionLabel_->clear();
    return;
  }
  const unsigned largest = data_->largestTile();
  QString summary =
      tr("%1 tiles, %2 per tile. Largest tile %3: %4 (%5 of the tile)")
          .arg(formatCount(data_->numTiles), formatBytes(data_->bytesPerTile, u))
          .arg(largest)
          .arg(formatBytes(data_->includingGaps[largest], u),
               formatPercent(double(data_->includingGaps[largest]) /
                             double(std::max<std::uint64_t>(1, data_->bytesPerTile))));
  if (data_->outOfMemory) {
    unsigned over = 0;
    for (unsigned t = 0; t < data_->numTiles; ++t)
      over += data_->includingGaps[t] > data_->bytesPerTile ? 1 : 0;
    summary +=
        tr(". <b>Out of memory</b>: %1 tiles need more than their capacity").arg(formatCount(over));
  }
  const QString filter = nameTerms(variableFilter_->text()).join(QStringLiteral("' or '"));
  if (!filter.isEmpty()) {
    if (!variableTiles_)
      summary += tr(". Variables matching '%1': reading…").arg(filter.toHtmlEscaped());
    else
      summary += tr(". <b>%1</b> '%2', on %3 tiles%4")
                     .arg(matchedNames_ == 1 ? tr("1 variable matches")
                                             : tr("%1 variables match").arg(matchedNames_))
                     .arg(filter.toHtmlEscaped(), formatCount(matchedTiles_),
                          baseData_ ? tr(" (current)") : QString());
  }
  if (baseData_) {
    std::uint64_t base = 0, cur = 0;
    for (unsigned t = 0; t < baseData_->numTiles; ++t)
      base += baseData_->includingGaps[t];
    for (unsigned t = 0; t < data_->numTiles; ++t)
      cur += data_->includingGaps[t];
    summary += tr(". Compared with the base: %1 → %2 (%3)")
                   .arg(formatBytes(base, u), formatBytes(cur, u),
                        formatBytesDelta(std::int64_t(cur) - std::int64_t(base), u));
  }
  summary_->setText(summary);
  // A list of a thousand tiles is cut to a line's worth (the Tiles box holds all of it).
  auto shortTileList = [](const std::vector<unsigned>& tiles) {
    const QString all = formatTileList(tiles);
    constexpr int kMax = 60;
    if (all.size() <= kMax) return all;
    const int cut = all.lastIndexOf(QLatin1Char(','), kMax);
    return all.left(cut > 0 ? cut : kMax) + QStringLiteral(",…");
  };
  QString selection;
  if (selection_.empty()) {
    selection = tr("No tile selected: the tabs below describe <b>all %1 tiles</b>. Click the chart "
                   "to pick a tile, "
                   "shift-click to add tiles, or type a list.")
                    .arg(formatCount(data_->numTiles));
  } else {
    std::uint64_t sum = 0;
    for (unsigned t : selection_)
      sum += data_->includingGaps[t];
    selection = selection_.size() == 1 ? tr("<b>Tile %1</b> (IPU %2): %3")
                                             .arg(selection_[0])
                                             .arg(data_->ipuOf(selection_[0]))
                                             .arg(formatBytes(sum, u))
                                       : tr("<b>%1 tiles</b> (%2): %3 together")
                                             .arg(selection_.size())
                                             .arg(shortTileList(selection_), formatBytes(sum, u));
  }
  if (baseData_) selection += tr(" (tabs describe the current report)");
  if (!details_) selection += tr(" — reading…");
  selectionLabel_->setText(selection);
}

} // namespace tessera::viewer
