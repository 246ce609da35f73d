// The Operations page.
#include "widgets/OperationsPage.hpp"

#include "core/Format.hpp"
#include "core/Settings.hpp"
#include "models/KeyValueModel.hpp"
#include "models/LayerTotalsModel.hpp"
#include "models/OperationsModel.hpp"
#include "widgets/OperationTilesPanel.hpp"
#include "widgets/Tables.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace tessera::viewer {

namespace {

QTableView* keyValueView(KeyValueModel* model, QWidget* parent) {
  auto* view = new QTableView(parent);
  view->setModel(model);
  makeCompact(view);
  // The names column follows its content whenever the selection brings new rows.
  QObject::connect(model, &QAbstractItemModel::modelReset, view, [view] { view->resizeColumnToContents(0); });
  return view;
}

} // namespace

OperationsPage::OperationsPage(QWidget* parent)
    : Page(parent), m_model(new OperationsModel(this)), m_layerTotals(new LayerTotalsModel(this)),
      m_summary(new KeyValueModel(this)),
      m_programs(new KeyValueModel(this)), m_variables(new KeyValueModel(this)), m_stack(new QStackedWidget(this)),
      m_noDebug(new QLabel(this)), m_layers(new QComboBox(this)), m_filter(new QLineEdit(this)),
      m_table(new QTableView(this)), m_tabs(new QTabWidget(this)), m_debug(new QPlainTextEdit(this)) {
  m_noDebug->setText(tr("This report has no debug information. Operations come from debug.cbor: write it with "
                        "the engine option autoReport.outputDebugInfo (or autoReport.all) and keep it beside "
                        "profile.pop."));
  m_noDebug->setWordWrap(true);
  m_noDebug->setAlignment(Qt::AlignCenter);

  m_filter->setPlaceholderText(tr("Filter operations by name or type"));
  m_filter->setClearButtonEnabled(true);
  connect(m_filter, &QLineEdit::textChanged, m_model, &OperationsModel::setTextFilter);
  connect(m_layers, &QComboBox::currentIndexChanged, this,
          [this](int i) { m_model->setLayer(i <= 0 ? QString() : m_layers->itemText(i)); });
  connect(m_model, &QAbstractItemModel::modelReset, this, &OperationsPage::showSelection);

  m_table->setModel(m_model);
  m_table->setSortingEnabled(true);
  m_table->sortByColumn(OperationsModel::ExecutedColumn, Qt::DescendingOrder);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setSelectionMode(QAbstractItemView::SingleSelection);
  makeCompact(m_table);
  m_table->horizontalHeader()->setStretchLastSection(false);
  connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &OperationsPage::showSelection);
  // The column chooser: the header's context menu lists every column with a check box.
  m_table->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(m_table->horizontalHeader(), &QHeaderView::customContextMenuRequested, this, &OperationsPage::showColumnMenu);

  auto* layersView = new QTableView(this);
  layersView->setModel(m_layerTotals);
  makeCompact(layersView);
  connect(m_layerTotals, &QAbstractItemModel::modelReset, layersView, [layersView] { layersView->resizeColumnsToContents(); });

  m_debug->setReadOnly(true);
  m_tabs->addTab(keyValueView(m_summary, this), tr("Summary"));
  m_tabs->addTab(keyValueView(m_programs, this), tr("Programs"));
  m_tabs->addTab(keyValueView(m_variables, this), tr("Variables"));
  m_tabs->addTab(m_debug, tr("Debug"));
  m_tabs->addTab(layersView, tr("Layers"));
  // The selected operation per tile (widgets/OperationTilesPanel), read when its tab is shown.
  m_tiles = new OperationTilesPanel(m_tabs);
  m_tabs->addTab(m_tiles, tr("Per tile"));
  connect(m_tiles, &OperationTilesPanel::errorOccurred, this, &Page::errorOccurred);

  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Layer:"), this));
  controls->addWidget(m_layers);
  controls->addWidget(m_filter, 1);
  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(m_table);
  splitter->addWidget(m_tabs);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 2);
  auto* content = new QWidget(this);
  auto* contentLayout = new QVBoxLayout(content);
  contentLayout->setContentsMargins(0, 0, 0, 0);
  contentLayout->addLayout(controls);
  contentLayout->addWidget(splitter);
  m_stack->addWidget(content);
  m_stack->addWidget(m_noDebug);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(m_stack);
  connect(&Settings::instance(), &Settings::changed, this, &OperationsPage::showSelection);
}

void OperationsPage::setDocument(std::shared_ptr<const Document> doc) {
  setReady(false);
  m_doc = doc;
  m_model->setData(nullptr);
  m_task = TaskHandle();
  if (!doc) return;
  m_task = runInBackground<OperationsData>(
      this, tr("Reading operations"), [doc](Progress& p) { return loadOperations(*doc, p); },
      [this](std::shared_ptr<const OperationsData> ops) {
        m_stack->setCurrentIndex(ops->hasDebugInfo ? 0 : 1);
        const QSignalBlocker block(m_layers);
        m_layers->clear();
        m_layers->addItem(tr("All layers"));
        m_layers->addItems(ops->layers);
        // PopLibs first, as Graph Analyser does, when the report has it.
        const int poplibs = m_layers->findText(QStringLiteral("poplibs"));
        m_layers->setCurrentIndex(poplibs > 0 ? poplibs : 0);
        m_model->setLayer(poplibs > 0 ? QStringLiteral("poplibs") : QString());
        const bool compared = ops->compared;
        m_model->setData(std::move(ops));
        showCompareColumns(compared);
        // Every column, the operation's name too, is as wide as its content: a name is never
        // elided to make room ("bwd/l…atMul"); when the figures do not fit, the table scrolls.
        // The last column takes what room is left.
        QHeaderView* header = m_table->horizontalHeader();
        header->setSectionResizeMode(QHeaderView::ResizeToContents);
        header->setStretchLastSection(true);
        setReady(true);
      },
      reportError());
}

void OperationsPage::showCompareColumns(bool compared) {
  // Comparing: each base column and its difference right after the current report's column.
  QHeaderView* header = m_table->horizontalHeader();
  const std::pair<int, int> after[] = {{OperationsModel::ExecutedColumn, OperationsModel::BaseExecutedColumn},
                                       {OperationsModel::AlwaysLiveColumn, OperationsModel::BaseAlwaysLiveColumn},
                                       {OperationsModel::CodeColumn, OperationsModel::BaseCodeColumn}};
  for (const auto& [current, base] : after) {
    // Base | Current | Difference, the order of the Compare view (the compare columns start at
    // the end, right of their place; once moved they stay).
    if (header->visualIndex(base) > header->visualIndex(current)) header->moveSection(header->visualIndex(base), header->visualIndex(current));
    if (header->visualIndex(base + 1) > header->visualIndex(current) + 1)
      header->moveSection(header->visualIndex(base + 1), header->visualIndex(current) + 1);
  }
  for (int c = 0; c < OperationsModel::ColumnCount; ++c)
    if (OperationsModel::isCompareColumn(c)) header->setSectionHidden(c, !compared);
}

void OperationsPage::setColumnShown(int column, bool shown) {
  // The operation's name stays: a table of figures without it says nothing.
  if (column == OperationsModel::NameColumn || column < 0 || column >= OperationsModel::ColumnCount) return;
  m_table->horizontalHeader()->setSectionHidden(column, !shown);
}

void OperationsPage::showColumnMenu(const QPoint& at) {
  QMenu menu(this);
  QHeaderView* header = m_table->horizontalHeader();
  for (int c = 0; c < OperationsModel::ColumnCount; ++c) {
    QAction* action = menu.addAction(m_model->headerData(c, Qt::Horizontal).toString());
    action->setCheckable(true);
    action->setChecked(!header->isSectionHidden(c));
    action->setEnabled(c != OperationsModel::NameColumn);
    connect(action, &QAction::toggled, this, [this, c](bool on) { setColumnShown(c, on); });
  }
  menu.exec(header->mapToGlobal(at));
}

void OperationsPage::showSelection() {
  const MemoryUnits units = Settings::instance().memoryUnits();
  m_layerTotals->setRows(std::make_shared<const std::vector<LayerTotals>>(m_model->layerTotals()));
  const QModelIndexList rows = m_table->selectionModel() ? m_table->selectionModel()->selectedRows() : QModelIndexList();
  const OperationInfo* op = rows.isEmpty() ? nullptr : m_model->operationAt(rows.front().row());
  m_tiles->setOperation(m_doc, op ? std::optional<std::size_t>(op->index) : std::nullopt);
  if (!op) {
    const OperationInfo t = m_model->totals();
    m_summary->setRows({{tr("Operations shown"), formatCount(std::uint64_t(m_model->rowCount()))},
                        {tr("Executed cycles (all runs)"), formatCount(t.executedCycles)},
                        {tr("Estimated cycles (each step once)"), formatCount(t.estimatedCycles)},
                        {tr("Always-live bytes"), formatBytes(t.alwaysLiveBytes, units)},
                        {tr("Not-always-live bytes at their peak"), formatBytes(t.notAlwaysLiveBytes, units)},
                        {tr("Code (control and exchange)"), formatBytes(t.codeBytes, units)},
                        {tr("Vertices"), formatCount(t.vertices)},
                        {tr("Exchanged bytes (each once)"), formatBytes(t.exchangeBytes, units)},
                        {tr("FLOPs (estimate, each compute set once)"), formatFlops(t.estimatedFlops, t.verticesWithoutFlopEstimate)},
                        {tr("Selection"), tr("none: select an operation for its details")}});
    m_programs->setRows({});
    m_variables->setRows({});
    m_debug->clear();
    return;
  }
  KeyValueModel::Rows figures{{tr("Operation"), op->name},
                           {tr("Type"), op->type},
                           {tr("Layer"), op->layer},
                           {tr("Executed cycles (all runs)"), formatCount(op->executedCycles)},
                           {tr("Estimated cycles (each step once)"), formatCount(op->estimatedCycles)},
                           {tr("Always-live bytes"), formatBytes(op->alwaysLiveBytes, units)},
                           {tr("Not-always-live bytes at their peak"), formatBytes(op->notAlwaysLiveBytes, units)},
                           {tr("Code (control and exchange)"), formatBytes(op->codeBytes, units)},
                           {tr("Vertices"), formatCount(op->vertices)},
                           {tr("Exchanged bytes (each once)"), formatBytes(op->exchangeBytes, units)},
                           {tr("FLOPs (estimate, each compute set once)"), formatFlops(op->estimatedFlops, op->verticesWithoutFlopEstimate)},
                           {tr("Liveness steps"), op->firstStep < 0 ? QStringLiteral("-")
                                                                    : QStringLiteral("%1 – %2").arg(op->firstStep).arg(op->lastStep)},
                           {tr("Location"), op->location}};
  if (op->change) {
    // Comparing: the base report's figures of this operation.
    const OperationInfo::Change& c = *op->change;
    figures.insert(figures.begin() + 3, {tr("In the reports"), c.inBase && c.inCurrent ? tr("base and current")
                                                         : c.inBase             ? tr("base only")
                                                                                : tr("current only")});
    if (c.inBase) {
      figures.push_back({tr("Base: executed cycles (all runs)"), formatCount(c.executedCycles)});
      figures.push_back({tr("Base: estimated cycles"), formatCount(c.estimatedCycles)});
      figures.push_back({tr("Base: always-live bytes"), formatBytes(c.alwaysLiveBytes, units)});
      figures.push_back({tr("Base: not-always-live bytes at their peak"), formatBytes(c.notAlwaysLiveBytes, units)});
      figures.push_back({tr("Base: code"), formatBytes(c.codeBytes, units)});
    }
  }
  m_summary->setRows(std::move(figures));
  KeyValueModel::Rows programs;
  for (const OperationProgram& p : op->programs)
    programs.push_back({QStringLiteral("%1 (%2)").arg(p.name, p.type), tr("%1 cycles").arg(formatCount(p.executedCycles))});
  m_programs->setRows(std::move(programs));
  KeyValueModel::Rows vars;
  for (const OperationVariable& v : op->variables)
    vars.push_back({v.name, formatBytes(v.bytes, units) + (v.alwaysLive ? tr(", always live") : QString())});
  m_variables->setRows(std::move(vars));
  const QJsonDocument json = QJsonDocument::fromJson(op->json.toUtf8());
  m_debug->setPlainText(tr("Path: %1\n\n").arg(op->debugPath) +
                        QString::fromUtf8(json.isNull() ? op->json.toUtf8() : json.toJson(QJsonDocument::Indented)));
}

bool OperationsPage::selectOperationOf(const QString& programOrVariable) {
  auto find = [&] {
    for (int row = 0; row < m_model->rowCount(); ++row) {
      const OperationInfo* op = m_model->operationAt(row);
      for (const auto& p : op->programs)
        if (p.name == programOrVariable) return row;
      for (const auto& v : op->variables)
        if (v.name == programOrVariable) return row;
    }
    return -1;
  };
  int row = find();
  if (row < 0 && m_model->operations()) {
    m_filter->clear();
    m_layers->setCurrentIndex(0); // all layers
    row = find();
  }
  if (row < 0) return false;
  m_table->selectRow(row);
  m_table->scrollTo(m_model->index(row, 0));
  return true;
}

} // namespace tessera::viewer
