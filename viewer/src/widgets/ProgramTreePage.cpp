// The Program Tree page.
#include "widgets/ProgramTreePage.hpp"

#include "core/Format.hpp"
#include "core/Settings.hpp"
#include "models/KeyValueModel.hpp"
#include "models/ProgramTreeModel.hpp"
#include "widgets/Tables.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QKeyEvent>
#include <QSplitter>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>

namespace tessera::viewer {

ProgramTreePage::ProgramTreePage(QWidget* parent)
    : Page(parent), m_model(new ProgramTreeModel(this)), m_details(new KeyValueModel(this)),
      m_tree(new QTreeView(this)), m_detailsView(new QTableView(this)), m_search(new QLineEdit(this)),
      m_matchLabel(new QLabel(this)) {
  m_search->setPlaceholderText(tr("Find a program by name or type (Enter: next, Shift+Enter: previous)"));
  m_search->setClearButtonEnabled(true);
  connect(m_search, &QLineEdit::textChanged, this, [this](const QString& text) {
    m_matches = m_model->find(text);
    m_match = -1;
    m_matchLabel->setText(text.isEmpty() ? QString() : tr("%n match(es)", nullptr, int(m_matches.size())));
  });
  m_search->installEventFilter(this); // Enter: next match, Shift+Enter: previous

  m_tree->setModel(m_model);
  m_tree->setUniformRowHeights(true);
  m_tree->setAlternatingRowColors(true);
  m_tree->header()->setStretchLastSection(false);
  m_tree->header()->setSectionResizeMode(ProgramTreeModel::NameColumn, QHeaderView::Stretch);
  connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
          [this](const QModelIndex& current) { showDetails(current); });

  m_detailsView->setModel(m_details);
  makeCompact(m_detailsView);

  auto* searchRow = new QHBoxLayout;
  searchRow->addWidget(m_search, 1);
  searchRow->addWidget(m_matchLabel);
  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(m_tree);
  splitter->addWidget(m_detailsView);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 1);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(searchRow);
  layout->addWidget(splitter);
}

void ProgramTreePage::setDocument(std::shared_ptr<const Document> doc) {
  setReady(false);
  m_model->setTree(nullptr);
  m_details->setRows({});
  m_treeTask = TaskHandle();
  m_cyclesTask = TaskHandle();
  m_cyclesLoaded = false;
  if (!doc) return;
  auto failed = reportError();
  // Stage one: the structure, shown at once; stage two: executed cycles from every step.
  m_treeTask = runInBackground<ProgramTreeData>(
      this, tr("Reading the program tree"), [doc](Progress& p) { return loadProgramTree(*doc, p); },
      [this, doc, failed](std::shared_ptr<const ProgramTreeData> tree) {
        m_model->setTree(std::move(tree));
        showCompareColumns(false); // until the cycles say what changed
        m_tree->expandToDepth(2);
        m_tree->header()->resizeSections(QHeaderView::ResizeToContents);
        m_tree->header()->setSectionResizeMode(ProgramTreeModel::NameColumn, QHeaderView::Stretch);
        if (m_model->rowCount() > 0) m_tree->setCurrentIndex(m_model->index(0, 0));
        m_cyclesTask = runInBackground<ProgramCycles>(
            this, tr("Adding up executed cycles per program"), [doc](Progress& p) { return loadProgramCycles(*doc, p); },
            [this](std::shared_ptr<const ProgramCycles> cycles) {
              m_model->setCycles(std::move(cycles));
              showCompareColumns(m_model->compared());
              m_cyclesLoaded = true;
              showDetails(m_tree->currentIndex());
              setReady(true);
            },
            failed);
      },
      failed);
}

void ProgramTreePage::showCompareColumns(bool compared) {
  QHeaderView* header = m_tree->header();
  for (int c : {int(ProgramTreeModel::BaseCyclesColumn), int(ProgramTreeModel::CyclesDeltaColumn)}) {
    header->setSectionHidden(c, !compared);
    if (compared) m_tree->resizeColumnToContents(c);
  }
  // Base | Current | Difference, as everywhere: the base's cycles before the current's.
  if (compared && header->visualIndex(ProgramTreeModel::BaseCyclesColumn) > header->visualIndex(ProgramTreeModel::CyclesColumn))
    header->moveSection(header->visualIndex(ProgramTreeModel::BaseCyclesColumn), header->visualIndex(ProgramTreeModel::CyclesColumn));
  if (compared && header->visualIndex(ProgramTreeModel::CyclesDeltaColumn) > header->visualIndex(ProgramTreeModel::CyclesColumn) + 1)
    header->moveSection(header->visualIndex(ProgramTreeModel::CyclesDeltaColumn), header->visualIndex(ProgramTreeModel::CyclesColumn) + 1);
}

bool ProgramTreePage::eventFilter(QObject* watched, QEvent* event) {
  // QLineEdit takes Return with any modifier as returnPressed, so the direction is read here.
  if (watched == m_search && event->type() == QEvent::KeyPress) {
    const auto* key = static_cast<QKeyEvent*>(event);
    if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
      findNext(key->modifiers() & Qt::ShiftModifier);
      return true;
    }
  }
  return Page::eventFilter(watched, event);
}

bool ProgramTreePage::findNext(bool backwards) {
  if (m_matches.empty()) return false;
  const int n = int(m_matches.size());
  m_match = m_match < 0 ? (backwards ? n - 1 : 0) : (m_match + (backwards ? n - 1 : 1)) % n;
  const QModelIndex index = m_model->indexOfNode(m_matches[std::size_t(m_match)]);
  m_tree->setCurrentIndex(index); // expands nothing by itself: scrollTo opens the parents
  m_tree->scrollTo(index);
  m_matchLabel->setText(tr("%1 of %2").arg(m_match + 1).arg(n));
  return true;
}

void ProgramTreePage::showDetails(const QModelIndex& index) {
  const ProgramTreeData* tree = m_model->tree();
  if (!tree || !index.isValid()) {
    m_details->setRows({});
    return;
  }
  const std::uint32_t id = m_model->data(index, ProgramTreeModel::ProgramIdRole).toUInt();
  const ProgramInfo& p = tree->programs[id];
  const MemoryUnits units = Settings::instance().memoryUnits();
  KeyValueModel::Rows rows{{tr("Name"), p.name}, {tr("Type"), p.type}, {tr("Program id"), QString::number(id)}};
  const QModelIndex node = index.siblingAtColumn(0);
  rows.push_back({tr("Children"), formatCount(std::uint64_t(m_model->rowCount(node)))});
  if (!p.computeSet.isEmpty()) rows.push_back({tr("Compute set"), p.computeSet});
  if (p.repeatCount >= 0) rows.push_back({tr("Repeat count"), formatCount(std::uint64_t(p.repeatCount))});
  if (!p.syncType.isEmpty()) rows.push_back({tr("Sync type"), p.syncType});
  if (p.dataBytes > 0) rows.push_back({tr("Data moved"), formatBytes(p.dataBytes, units)});
  if (p.isStep) {
    rows.push_back({tr("Estimated cycles (slowest tile)"), formatCount(p.estimatedCyclesMaxTile)});
    const QModelIndex cycles = index.siblingAtColumn(ProgramTreeModel::CyclesColumn);
    const QModelIndex runs = index.siblingAtColumn(ProgramTreeModel::ExecutionsColumn);
    rows.push_back({tr("Executed cycles (all runs)"), m_cyclesLoaded ? cycles.data().toString() : tr("reading…")});
    rows.push_back({tr("Times run (all runs)"), m_cyclesLoaded ? runs.data().toString() : tr("reading…")});
    if (m_model->compared()) {
      rows.push_back({tr("Cycles of its name, base → current (all runs)"), index.siblingAtColumn(ProgramTreeModel::BaseCyclesColumn).data().toString()});
      rows.push_back({tr("Difference (by name)"), index.siblingAtColumn(ProgramTreeModel::CyclesDeltaColumn).data().toString()});
    }
  }
  rows.push_back({tr("Control code"), formatBytes(p.controlCodeBytes, units)});
  if (p.exchangeCodeBytes > 0) rows.push_back({tr("Exchange code"), formatBytes(p.exchangeCodeBytes, units)});
  rows.push_back({tr("Variables used"), formatCount(p.numVars)});
  if (!p.debugPath.isEmpty()) rows.push_back({tr("Debug context"), p.debugPath});
  m_details->setRows(std::move(rows));
  m_detailsView->resizeColumnToContents(0);
}

} // namespace tessera::viewer
