// The Operations page.
#include "widgets/OperationsPage.hpp"

#include "core/Format.hpp"
#include "core/Settings.hpp"
#include "models/KeyValueModel.hpp"
#include "models/LayerTotalsModel.hpp"
#include "models/OperationsModel.hpp"
#include "widgets/OperationTilesPanel.hpp"
#include "widgets/Tables.hpp"
#include "widgets/WrappingHeader.hpp"

#include <QComboBox>
#include <QEvent>
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
  QObject::connect(model, &QAbstractItemModel::modelReset, view,
                   [view] { view->resizeColumnToContents(0); });
  return view;
}

} // namespace

OperationsPage::OperationsPage(QWidget* parent)
    : Page(parent), model_(new OperationsModel(this)), layerTotals_(new LayerTotalsModel(this)),
      summary_(new KeyValueModel(this)), programs_(new KeyValueModel(this)),
      variables_(new KeyValueModel(this)), stack_(new QStackedWidget(this)),
      noDebug_(new QLabel(this)), layers_(new QComboBox(this)), filter_(new QLineEdit(this)),
      table_(new QTableView(this)), tabs_(new QTabWidget(this)), debug_(new QPlainTextEdit(this)) {
  noDebug_->setText(
      tr("This report has no debug information. Operations come from debug.cbor: write it with "
         "the engine option autoReport.outputDebugInfo (or autoReport.all) and keep it beside "
         "profile.pop."));
  noDebug_->setWordWrap(true);
  noDebug_->setAlignment(Qt::AlignCenter);

  filter_->setPlaceholderText(tr("Filter operations by name or type"));
  filter_->setClearButtonEnabled(true);
  connect(filter_, &QLineEdit::textChanged, model_, &OperationsModel::setTextFilter);
  connect(layers_, &QComboBox::currentIndexChanged, this,
          [this](int i) { model_->setLayer(i <= 0 ? QString() : layers_->itemText(i)); });
  connect(model_, &QAbstractItemModel::modelReset, this, &OperationsPage::showSelection);

  // Long column titles on two lines: the figure columns are then as wide as their figures.
  table_->setHorizontalHeader(new WrappingHeader(table_));
  table_->setModel(model_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(OperationsModel::ExecutedColumn, Qt::DescendingOrder);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  makeCompact(table_);
  table_->horizontalHeader()->setStretchLastSection(false);
  connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          &OperationsPage::showSelection);
  connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          &OperationsPage::publishOperation);
  table_->viewport()->installEventFilter(this);
  // A figure column growing (its contents changed, a column shown) leaves less to the name.
  connect(table_->horizontalHeader(), &QHeaderView::sectionResized, this, [this](int logical) {
    if (logical != OperationsModel::NameColumn) fitNameColumn();
  });
  // The column chooser: the header's context menu lists every column with a check box.
  table_->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(table_->horizontalHeader(), &QHeaderView::customContextMenuRequested, this,
          &OperationsPage::showColumnMenu);

  auto* layersView = layersView_ = new QTableView(this);
  layersView->setModel(layerTotals_);
  makeCompact(layersView);
  connect(layerTotals_, &QAbstractItemModel::modelReset, layersView,
          [layersView] { layersView->resizeColumnsToContents(); });
  // A layer selected here highlights the steps of all its operations (the variables of a whole
  // layer are too many to show one by one).
  layersView->setSelectionBehavior(QAbstractItemView::SelectRows);
  layersView->setSelectionMode(QAbstractItemView::SingleSelection);
  connect(layersView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (!current.isValid() || current.row() >= layerTotals_->rowCount()) return;
            publishLayer(layerTotals_->row(current.row()).layer);
          });

  debug_->setReadOnly(true);
  tabs_->addTab(keyValueView(summary_, this), tr("Summary"));
  tabs_->addTab(keyValueView(programs_, this), tr("Programs"));
  tabs_->addTab(keyValueView(variables_, this), tr("Variables"));
  tabs_->addTab(debug_, tr("Debug"));
  tabs_->addTab(layersView, tr("Layers"));
  // The selected operation per tile (widgets/OperationTilesPanel), read when its tab is shown.
  tiles_ = new OperationTilesPanel(tabs_);
  tabs_->addTab(tiles_, tr("Per tile"));
  connect(tiles_, &OperationTilesPanel::errorOccurred, this, &Page::errorOccurred);

  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Layer:"), this));
  controls->addWidget(layers_);
  controls->addWidget(filter_, 1);
  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(table_);
  splitter->addWidget(tabs_);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 2);
  auto* content = new QWidget(this);
  auto* contentLayout = new QVBoxLayout(content);
  contentLayout->setContentsMargins(0, 0, 0, 0);
  contentLayout->addLayout(controls);
  contentLayout->addWidget(splitter);
  stack_->addWidget(content);
  stack_->addWidget(noDebug_);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(stack_);
  connect(&Settings::instance(), &Settings::changed, this, &OperationsPage::showSelection);
}

void OperationsPage::setDocument(std::shared_ptr<const Document> doc) {
  setReady(false);
  doc_ = doc;
  // A step clicked in the trace, or a program chosen in the Program tree, selects the operation
  // that owns it here.
  QObject::disconnect(selectionLink_);
  if (doc && doc->isReport())
    selectionLink_ = connect(&doc->session().selection(), &SelectionModel::changed, this,
                             [this](const Selection& sel) {
                               if ((sel.origin == Selection::Origin::ExecutionStep ||
                                    sel.origin == Selection::Origin::ProgramTree) &&
                                   sel.programs.size() == 1)
                                 selectOperationOfProgram(sel.programs.front());
                             });
  model_->setData(nullptr);
  task_ = TaskHandle();
  if (!doc) return;
  task_ = runInBackground<OperationsData>(
      this, tr("Reading operations"), [doc](Progress& p) { return loadOperations(*doc, p); },
      [this](std::shared_ptr<const OperationsData> ops) {
        stack_->setCurrentIndex(ops->hasDebugInfo ? 0 : 1);
        const QSignalBlocker block(layers_);
        layers_->clear();
        layers_->addItem(tr("All layers"));
        layers_->addItems(ops->layers);
        // PopLibs first, as Graph Analyser does, when the report has it.
        const int poplibs = layers_->findText(QStringLiteral("poplibs"));
        layers_->setCurrentIndex(poplibs > 0 ? poplibs : 0);
        model_->setLayer(poplibs > 0 ? QStringLiteral("poplibs") : QString());
        const bool compared = ops->compared;
        model_->setData(std::move(ops));
        showCompareColumns(compared);
        // Every figure column is as wide as its figures (titles take two lines) and the
        // operation's name takes the rest of the width, elided in the middle when it must be
        // ("fwd/softmax/…/SubInPlace": where it is and what it is stay; the tooltip has it
        // whole), so at 1600 px every default column shows without scrolling sideways. Below
        // the name's minimum the table scrolls rather than squeezing figures.
        QHeaderView* header = table_->horizontalHeader();
        header->setStretchLastSection(false);
        header->setSectionResizeMode(QHeaderView::ResizeToContents);
        header->setSectionResizeMode(OperationsModel::NameColumn, QHeaderView::Interactive);
        fitNameColumn();
        setReady(true);
      },
      reportError(),
      // With debug.cbor the rows wait for the whole-steps pass; without, they are at once.
      doc->report().hasDebugInfo() || (doc->base() && doc->base()->report().hasDebugInfo())
          ? stepsPool()
          : nullptr);
}

bool OperationsPage::eventFilter(QObject* watched, QEvent* event) {
  if (watched == table_->viewport() && event->type() == QEvent::Resize) fitNameColumn();
  return Page::eventFilter(watched, event);
}

void OperationsPage::fitNameColumn() {
  QHeaderView* header = table_->horizontalHeader();
  if (header->count() <= OperationsModel::NameColumn) return;
  int others = 0;
  for (int c = 0; c < header->count(); ++c)
    if (c != OperationsModel::NameColumn && !header->isSectionHidden(c))
      others += header->sectionSize(c);
  const int width = std::max(kMinNameWidth, table_->viewport()->width() - others);
  if (header->sectionSize(OperationsModel::NameColumn) != width)
    header->resizeSection(OperationsModel::NameColumn, width);
}

void OperationsPage::showCompareColumns(bool compared) {
  // Comparing: each base column and its difference right after the current report's column.
  QHeaderView* header = table_->horizontalHeader();
  const std::pair<int, int> after[] = {
      {OperationsModel::ExecutedColumn, OperationsModel::BaseExecutedColumn},
      {OperationsModel::AlwaysLiveColumn, OperationsModel::BaseAlwaysLiveColumn},
      {OperationsModel::CodeColumn, OperationsModel::BaseCodeColumn}};
  for (const auto& [current, base] : after) {
    // Base | Current | Difference, the order of the Compare view (the compare columns start at
    // the end, right of their place; once moved they stay).
    if (header->visualIndex(base) > header->visualIndex(current))
      header->moveSection(header->visualIndex(base), header->visualIndex(current));
    if (header->visualIndex(base + 1) > header->visualIndex(current) + 1)
      header->moveSection(header->visualIndex(base + 1), header->visualIndex(current) + 1);
  }
  for (int c = 0; c < OperationsModel::ColumnCount; ++c)
    if (OperationsModel::isCompareColumn(c)) header->setSectionHidden(c, !compared);
  fitNameColumn();
}

void OperationsPage::setColumnShown(int column, bool shown) {
  // The operation's name stays: a table of figures without it says nothing.
  if (column == OperationsModel::NameColumn || column < 0 || column >= OperationsModel::ColumnCount)
    return;
  table_->horizontalHeader()->setSectionHidden(column, !shown);
  fitNameColumn();
}

void OperationsPage::showColumnMenu(const QPoint& at) {
  QMenu menu(this);
  QHeaderView* header = table_->horizontalHeader();
  for (int c = 0; c < OperationsModel::ColumnCount; ++c) {
    QAction* action = menu.addAction(model_->headerData(c, Qt::Horizontal).toString());
    action->setCheckable(true);
    action->setChecked(!header->isSectionHidden(c));
    action->setEnabled(c != OperationsModel::NameColumn);
    connect(action, &QAction::toggled, this, [this, c](bool on) { setColumnShown(c, on); });
  }
  menu.exec(header->mapToGlobal(at));
}

void OperationsPage::showSelection() {
  const MemoryUnits units = Settings::instance().memoryUnits();
  layerTotals_->setRows(std::make_shared<const std::vector<LayerTotals>>(model_->layerTotals()));
  const QModelIndexList rows =
      table_->selectionModel() ? table_->selectionModel()->selectedRows() : QModelIndexList();
  const OperationInfo* op = rows.isEmpty() ? nullptr : model_->operationAt(rows.front().row());
  tiles_->setOperation(doc_, op ? std::optional<std::size_t>(op->index) : std::nullopt);
  if (!op) {
    const OperationInfo t = model_->totals();
    summary_->setRows(
        {{tr("Operations shown"), formatCount(std::uint64_t(model_->rowCount()))},
         {tr("Executed cycles (all runs)"),
          model_->operations() ? model_->operations()->executedCyclesText(t.executedCycles)
                               : formatCount(t.executedCycles)},
         {tr("Estimated cycles (each step once)"), formatCount(t.estimatedCycles)},
         {tr("Always-live bytes"), formatBytes(t.alwaysLiveBytes, units)},
         {tr("Not-always-live bytes at their peak"), formatBytes(t.notAlwaysLiveBytes, units)},
         {tr("Code (control and exchange)"), formatBytes(t.codeBytes, units)},
         {tr("Vertices"), formatCount(t.vertices)},
         {tr("Exchanged bytes (each once)"), formatBytes(t.exchangeBytes, units)},
         {tr("FLOPs (estimate, each compute set once)"),
          formatFlops(t.estimatedFlops, t.verticesWithoutFlopEstimate)},
         {tr("Selection"), tr("none: select an operation for its details")}});
    programs_->setRows({});
    variables_->setRows({});
    debug_->clear();
    return;
  }
  KeyValueModel::Rows figures{
      {tr("Operation"), op->name},
      {tr("Type"), op->type},
      {tr("Layer"), op->layer},
      {tr("Executed cycles (all runs)"), formatCount(op->executedCycles)},
      {tr("Estimated cycles (each step once)"), formatCount(op->estimatedCycles)},
      {tr("Always-live bytes"), formatBytes(op->alwaysLiveBytes, units)},
      {tr("Not-always-live bytes at their peak"), formatBytes(op->notAlwaysLiveBytes, units)},
      {tr("Code (control and exchange)"), formatBytes(op->codeBytes, units)},
      {tr("Vertices"), formatCount(op->vertices)},
      {tr("Exchanged bytes (each once)"), formatBytes(op->exchangeBytes, units)},
      {tr("FLOPs (estimate, each compute set once)"),
       formatFlops(op->estimatedFlops, op->verticesWithoutFlopEstimate)},
      {tr("Liveness steps"), op->firstStep < 0
                                 ? QStringLiteral("-")
                                 : QStringLiteral("%1 – %2").arg(op->firstStep).arg(op->lastStep)},
      {tr("Location"), op->location}};
  if (op->change) {
    // Comparing: the base report's figures of this operation.
    const OperationInfo::Change& c = *op->change;
    figures.insert(figures.begin() + 3,
                   {tr("In the reports"), c.inBase && c.inCurrent ? tr("base and current")
                                          : c.inBase              ? tr("base only")
                                                                  : tr("current only")});
    if (c.inBase) {
      figures.push_back({tr("Base: executed cycles (all runs)"), formatCount(c.executedCycles)});
      figures.push_back({tr("Base: estimated cycles"), formatCount(c.estimatedCycles)});
      figures.push_back({tr("Base: always-live bytes"), formatBytes(c.alwaysLiveBytes, units)});
      figures.push_back({tr("Base: not-always-live bytes at their peak"),
                         formatBytes(c.notAlwaysLiveBytes, units)});
      figures.push_back({tr("Base: code"), formatBytes(c.codeBytes, units)});
    }
  }
  summary_->setRows(std::move(figures));
  KeyValueModel::Rows programs;
  for (const OperationProgram& p : op->programs)
    programs.push_back({QStringLiteral("%1 (%2)").arg(p.name, p.type),
                        tr("%1 cycles").arg(formatCount(p.executedCycles))});
  programs_->setRows(std::move(programs));
  KeyValueModel::Rows vars;
  for (const OperationVariable& v : op->variables)
    vars.push_back(
        {v.name, formatBytes(v.bytes, units) + (v.alwaysLive ? tr(", always live") : QString())});
  variables_->setRows(std::move(vars));
  const QJsonDocument json = QJsonDocument::fromJson(op->json.toUtf8());
  debug_->setPlainText(
      tr("Path: %1\n\n").arg(op->debugPath) +
      QString::fromUtf8(json.isNull() ? op->json.toUtf8() : json.toJson(QJsonDocument::Indented)));
}

static Selection operationSelection(const OperationInfo& op) {
  Selection s;
  s.origin = Selection::Origin::Operation;
  s.label = QObject::tr("operation %1").arg(op.name);
  for (const OperationProgram& p : op.programs)
    s.programs.push_back(std::uint32_t(p.id));
  // Memory and Liveness draw a line per variable: the largest few say where the bytes are.
  std::vector<const OperationVariable*> vars;
  for (const OperationVariable& v : op.variables)
    vars.push_back(&v);
  std::stable_sort(vars.begin(), vars.end(),
                   [](const auto* a, const auto* b) { return a->bytes > b->bytes; });
  for (std::size_t i = 0; i < vars.size() && i < OperationsPage::kMaxSelectedVariables; ++i)
    s.variables << vars[i]->name;
  return s;
}

void OperationsPage::publishOperation() {
  if (!doc_ || !doc_->isReport()) return;
  const QModelIndexList rows =
      table_->selectionModel() ? table_->selectionModel()->selectedRows() : QModelIndexList();
  const OperationInfo* op = rows.isEmpty() ? nullptr : model_->operationAt(rows.front().row());
  if (op) doc_->session().selection().select(operationSelection(*op));
}

void OperationsPage::publishLayer(const QString& layer) {
  if (!doc_ || !doc_->isReport() || !model_->operations()) return;
  Selection s;
  s.origin = Selection::Origin::Layer;
  s.label = tr("layer %1").arg(layer);
  for (const OperationInfo& op : model_->operations()->operations)
    if (op.layer == layer)
      for (const OperationProgram& p : op.programs)
        s.programs.push_back(std::uint32_t(p.id));
  doc_->session().selection().select(std::move(s));
}

bool OperationsPage::selectOperationOfProgram(std::uint32_t programId) {
  auto find = [&] {
    for (int row = 0; row < model_->rowCount(); ++row)
      for (const auto& p : model_->operationAt(row)->programs)
        if (p.id == programId) return row;
    return -1;
  };
  int row = find();
  if (row < 0 && model_->operations()) {
    filter_->clear();
    layers_->setCurrentIndex(0); // all layers
    row = find();
  }
  if (row < 0) return false;
  table_->selectRow(row);
  table_->scrollTo(model_->index(row, 0));
  return true;
}

bool OperationsPage::selectOperationOf(const QString& programOrVariable) {
  auto find = [&] {
    for (int row = 0; row < model_->rowCount(); ++row) {
      const OperationInfo* op = model_->operationAt(row);
      for (const auto& p : op->programs)
        if (p.name == programOrVariable) return row;
      for (const auto& v : op->variables)
        if (v.name == programOrVariable) return row;
    }
    return -1;
  };
  int row = find();
  if (row < 0 && model_->operations()) {
    filter_->clear();
    layers_->setCurrentIndex(0); // all layers
    row = find();
  }
  if (row < 0) return false;
  table_->selectRow(row);
  table_->scrollTo(model_->index(row, 0));
  return true;
}

} // namespace tessera::viewer
