// The Program Tree page.
#include "widgets/ProgramTreePage.hpp"

#include "core/Format.hpp"
#include "core/Settings.hpp"
#include "models/KeyValueModel.hpp"
#include "models/ProgramTreeModel.hpp"
#include "widgets/Tables.hpp"
#include "widgets/WrappingHeader.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>

namespace tessera::viewer {

ProgramTreePage::ProgramTreePage(QWidget* parent)
    : Page(parent), model_(new ProgramTreeModel(this)), details_(new KeyValueModel(this)),
      tree_(new QTreeView(this)), detailsView_(new QTableView(this)), search_(new QLineEdit(this)),
      matchLabel_(new QLabel(this)) {
  search_->setPlaceholderText(
      tr("Find a program by name or type (Enter: next, Shift+Enter: previous)"));
  search_->setClearButtonEnabled(true);
  connect(search_, &QLineEdit::textChanged, this, [this](const QString& text) {
    matches_ = model_->find(text);
    match_ = -1;
    matchLabel_->setText(text.isEmpty() ? QString()
                                        : tr("%n match(es)", nullptr, int(matches_.size())));
  });
  search_->installEventFilter(this); // Enter: next match, Shift+Enter: previous

  // Long column titles ("Estimate (one run of it, slowest tile)") take two lines, so each figure
  // column is as wide as its figures and the names keep the rest: in compare mode at 1400 px the
  // titles alone used to squeeze the names to "fwd/layer1/matm…".
  tree_->setHeader(new WrappingHeader(tree_));
  tree_->setModel(model_);
  tree_->setUniformRowHeights(true);
  tree_->setAlternatingRowColors(true);
  tree_->header()->setStretchLastSection(false);
  tree_->header()->setSectionResizeMode(ProgramTreeModel::NameColumn, QHeaderView::Stretch);
  connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this,
          [this](const QModelIndex& current) {
            showDetails(current);
            const ProgramTreeData* tree = model_->tree();
            if (!tree || !current.isValid() || current.internalId() >= tree->nodes.size()) return;
            auto programs = programsUnder(*tree, std::uint32_t(current.internalId()));
            emit programsSelected(programs);
            // The document's selection: the trace highlights these programs' steps.
            if (doc_ && doc_->isReport()) {
              Selection s;
              s.origin = Selection::Origin::ProgramTree;
              s.label = tr("program %1").arg(current.siblingAtColumn(0).data().toString());
              s.programs = std::move(programs);
              doc_->session().selection().select(std::move(s));
            }
          });

  detailsView_->setModel(details_);
  makeCompact(detailsView_);

  auto* searchRow = new QHBoxLayout;
  searchRow->addWidget(search_, 1);
  searchRow->addWidget(matchLabel_);
  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(tree_);
  splitter->addWidget(detailsView_);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 1);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(searchRow);
  layout->addWidget(splitter);
}

void ProgramTreePage::setDocument(std::shared_ptr<const Document> doc) {
  setReady(false);
  model_->setTree(nullptr);
  details_->setRows({});
  treeTask_ = TaskHandle();
  cyclesTask_ = TaskHandle();
  cyclesLoaded_ = false;
  doc_ = doc;
  // A step clicked in the trace, or an operation chosen in Operations, selects its (first)
  // program here; what this page selects itself is not followed back.
  QObject::disconnect(selectionLink_);
  if (doc && doc->isReport())
    selectionLink_ = connect(&doc->session().selection(), &SelectionModel::changed, this,
                             [this](const Selection& sel) {
                               if (sel.origin != Selection::Origin::ExecutionStep &&
                                   sel.origin != Selection::Origin::Operation)
                                 return;
                               for (const std::uint32_t id : sel.programs)
                                 if (selectProgram(id)) break;
                             });
  if (!doc) return;
  auto failed = reportError();
  // Stage one: the structure, shown at once; stage two: executed cycles from every step.
  treeTask_ = runShared<ProgramTreeData>(
      this, tr("Reading the program tree"), [doc](Progress& p) { return loadProgramTree(*doc, p); },
      [this, doc, failed](std::shared_ptr<const ProgramTreeData> tree) {
        model_->setTree(std::move(tree));
        showCompareColumns(false); // until the cycles say what changed
        tree_->expandToDepth(2);
        tree_->header()->resizeSections(QHeaderView::ResizeToContents);
        tree_->header()->setSectionResizeMode(ProgramTreeModel::NameColumn, QHeaderView::Stretch);
        if (model_->rowCount() > 0) tree_->setCurrentIndex(model_->index(0, 0));
        cyclesTask_ = runInBackground<ProgramCycles>(
            this, tr("Adding up executed cycles per program"),
            [doc](Progress& p) { return loadProgramCycles(*doc, p); },
            [this](std::shared_ptr<const ProgramCycles> cycles) {
              model_->setCycles(std::move(cycles));
              showCompareColumns(model_->compared());
              // The cycle columns now hold figures: fit them (titles wrap, so they are narrow).
              tree_->header()->resizeSections(QHeaderView::ResizeToContents);
              tree_->header()->setSectionResizeMode(ProgramTreeModel::NameColumn,
                                                    QHeaderView::Stretch);
              cyclesLoaded_ = true;
              showDetails(tree_->currentIndex());
              setReady(true);
            },
            failed, stepsPool());
      },
      failed);
}

std::vector<std::uint32_t> ProgramTreePage::programsUnder(const ProgramTreeData& tree,
                                                          std::uint32_t node) {
  std::vector<std::uint32_t> out;
  std::vector<bool> seen(tree.programs.size(), false);
  std::vector<std::uint32_t> stack{node};
  while (!stack.empty()) {
    const ProgramTreeData::Node& n = tree.nodes[stack.back()];
    stack.pop_back();
    if (n.program < seen.size() && !seen[n.program]) {
      seen[n.program] = true;
      out.push_back(n.program);
    }
    stack.insert(stack.end(), n.children.begin(), n.children.end());
  }
  return out;
}

bool ProgramTreePage::selectProgram(std::uint32_t programId) {
  const ProgramTreeData* tree = model_->tree();
  if (!tree) return false;
  for (std::uint32_t n = 0; n < tree->nodes.size(); ++n)
    if (tree->nodes[n].program == programId) {
      const QModelIndex index = model_->indexOfNode(n);
      if (!index.isValid()) return false;
      tree_->setCurrentIndex(index);
      tree_->scrollTo(index, QAbstractItemView::PositionAtCenter);
      return true;
    }
  return false;
}

void ProgramTreePage::showCompareColumns(bool compared) {
  QHeaderView* header = tree_->header();
  for (int c :
       {int(ProgramTreeModel::BaseCyclesColumn), int(ProgramTreeModel::CyclesDeltaColumn)}) {
    header->setSectionHidden(c, !compared);
    if (compared) tree_->resizeColumnToContents(c);
  }
  // Base | Current | Difference, as everywhere: the base's cycles before the current's.
  if (compared && header->visualIndex(ProgramTreeModel::BaseCyclesColumn) >
                      header->visualIndex(ProgramTreeModel::CyclesColumn))
    header->moveSection(header->visualIndex(ProgramTreeModel::BaseCyclesColumn),
                        header->visualIndex(ProgramTreeModel::CyclesColumn));
  if (compared && header->visualIndex(ProgramTreeModel::CyclesDeltaColumn) >
                      header->visualIndex(ProgramTreeModel::CyclesColumn) + 1)
    header->moveSection(header->visualIndex(ProgramTreeModel::CyclesDeltaColumn),
                        header->visualIndex(ProgramTreeModel::CyclesColumn) + 1);
}

bool ProgramTreePage::eventFilter(QObject* watched, QEvent* event) {
  // QLineEdit takes Return with any modifier as returnPressed, so the direction is read here.
  if (watched == search_ && event->type() == QEvent::KeyPress) {
    const auto* key = static_cast<QKeyEvent*>(event);
    if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
      findNext(key->modifiers() & Qt::ShiftModifier);
      return true;
    }
  }
  return Page::eventFilter(watched, event);
}

bool ProgramTreePage::findNext(bool backwards) {
  if (matches_.empty()) return false;
  const int n = int(matches_.size());
  match_ = match_ < 0 ? (backwards ? n - 1 : 0) : (match_ + (backwards ? n - 1 : 1)) % n;
  const QModelIndex index = model_->indexOfNode(matches_[std::size_t(match_)]);
  tree_->setCurrentIndex(index); // expands nothing by itself: scrollTo opens the parents
  // In the middle of the view, with what surrounds it: scrolled only as far as needed, a match
  // below the view would land on the last visible row, its context out of sight.
  tree_->scrollTo(index, QAbstractItemView::PositionAtCenter);
  matchLabel_->setText(tr("%1 of %2").arg(match_ + 1).arg(n));
  return true;
}

void ProgramTreePage::showDetails(const QModelIndex& index) {
  const ProgramTreeData* tree = model_->tree();
  if (!tree || !index.isValid()) {
    details_->setRows({});
    return;
  }
  const std::uint32_t id = model_->data(index, ProgramTreeModel::ProgramIdRole).toUInt();
  const ProgramInfo& p = tree->programs[id];
  const MemoryUnits units = Settings::instance().memoryUnits();
  KeyValueModel::Rows rows{
      {tr("Name"), p.name}, {tr("Type"), p.type}, {tr("Program id"), QString::number(id)}};
  const QModelIndex node = index.siblingAtColumn(0);
  rows.push_back({tr("Children"), formatCount(std::uint64_t(model_->rowCount(node)))});
  if (!p.computeSet.isEmpty()) rows.push_back({tr("Compute set"), p.computeSet});
  if (p.repeatCount >= 0)
    rows.push_back({tr("Repeat count"), formatCount(std::uint64_t(p.repeatCount))});
  if (!p.syncType.isEmpty()) rows.push_back({tr("Sync type"), p.syncType});
  if (p.dataBytes > 0) rows.push_back({tr("Data moved"), formatBytes(p.dataBytes, units)});
  if (p.isStep) {
    rows.push_back({tr("Estimated cycles (slowest tile)"), formatCount(p.estimatedCyclesMaxTile)});
    const QModelIndex cycles = index.siblingAtColumn(ProgramTreeModel::CyclesColumn);
    const QModelIndex runs = index.siblingAtColumn(ProgramTreeModel::ExecutionsColumn);
    rows.push_back({tr("Executed cycles (all runs)"),
                    cyclesLoaded_ ? cycles.data().toString() : tr("reading…")});
    rows.push_back(
        {tr("Times run (all runs)"), cyclesLoaded_ ? runs.data().toString() : tr("reading…")});
    if (model_->compared()) {
      rows.push_back({tr("Cycles of its name, base → current (all runs)"),
                      index.siblingAtColumn(ProgramTreeModel::BaseCyclesColumn).data().toString()});
      rows.push_back(
          {tr("Difference (by name)"),
           index.siblingAtColumn(ProgramTreeModel::CyclesDeltaColumn).data().toString()});
    }
  }
  rows.push_back({tr("Control code"), formatBytes(p.controlCodeBytes, units)});
  if (p.exchangeCodeBytes > 0)
    rows.push_back({tr("Exchange code"), formatBytes(p.exchangeCodeBytes, units)});
  rows.push_back({tr("Variables used"), formatCount(p.numVars)});
  if (!p.debugPath.isEmpty()) rows.push_back({tr("Debug context"), p.debugPath});
  details_->setRows(std::move(rows));
  detailsView_->resizeColumnToContents(0);
}

} // namespace tessera::viewer
