// Index arithmetic over ProgramTreeData's nodes.
#include "models/ProgramTreeModel.hpp"

#include "core/Format.hpp"
#include "core/RunBasisText.hpp"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <pva/Compare.hpp>
#include <pva/ProgramTotals.hpp>

namespace tessera::viewer {

ProgramTreeModel::ProgramTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void ProgramTreeModel::setTree(std::shared_ptr<const ProgramTreeData> tree) {
  beginResetModel();
  tree_ = std::move(tree);
  cycles_.reset();
  endResetModel();
}

void ProgramTreeModel::setCycles(std::shared_ptr<const ProgramCycles> cycles) {
  cycles_ = std::move(cycles);
  changedInside_.clear();
  if (!tree_) return;
  if (compared()) {
    // Nodes are in depth-first order: children after their parent, so one backward pass carries
    // "something below changed" up to the roots.
    changedInside_.assign(tree_->nodes.size(), false);
    for (std::size_t n = tree_->nodes.size(); n-- > 0;) {
      const ProgramTreeData::Node& node = tree_->nodes[n];
      if (node.parent == ProgramTreeData::noParent) continue;
      const Change c = changeAt(std::uint32_t(n));
      if (changedInside_[n] || (c != Change::None && c != Change::Inside))
        changedInside_[node.parent] = true;
    }
  }
  // Every row of every parent gains its cycles columns.
  auto changed = [this](const QModelIndex& parent, std::size_t rows) {
    if (rows > 0)
      emit dataChanged(index(0, 0, parent), index(int(rows) - 1, ColumnCount - 1, parent));
  };
  changed({}, tree_->roots.size());
  for (std::uint32_t n = 0; n < tree_->nodes.size(); ++n)
    if (!tree_->nodes[n].children.empty()) changed(indexOfNode(n), tree_->nodes[n].children.size());
}

const std::vector<std::uint32_t>& ProgramTreeModel::childrenOf(const QModelIndex& parent) const {
  return parent.isValid() ? tree_->nodes[parent.internalId()].children : tree_->roots;
}

QModelIndex ProgramTreeModel::indexOfNode(std::uint32_t node) const {
  if (!tree_ || node >= tree_->nodes.size()) return {};
  return createIndex(int(tree_->nodes[node].row), 0, quintptr(node));
}

QModelIndex ProgramTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (!tree_ || !hasIndex(row, column, parent)) return {};
  return createIndex(row, column, quintptr(childrenOf(parent)[std::size_t(row)]));
}

QModelIndex ProgramTreeModel::parent(const QModelIndex& child) const {
  if (!tree_ || !child.isValid()) return {};
  const std::uint32_t p = tree_->nodes[child.internalId()].parent;
  if (p == ProgramTreeData::noParent) return {};
  return createIndex(int(tree_->nodes[p].row), 0, quintptr(p));
}

int ProgramTreeModel::rowCount(const QModelIndex& parent) const {
  if (!tree_ || (parent.isValid() && parent.column() != 0)) return 0;
  return int(childrenOf(parent).size());
}

int ProgramTreeModel::columnCount(const QModelIndex&) const {
  return ColumnCount;
}

ProgramTreeModel::Change ProgramTreeModel::changeAt(std::uint32_t node) const {
  if (!tree_ || !compared() || node >= tree_->nodes.size()) return Change::None;
  const std::uint32_t programId = tree_->nodes[node].program;
  if (tree_->programs[programId].isStep && programId < cycles_->changes.size()) {
    const ProgramCycles::Change& c = cycles_->changes[programId];
    if (c.inCurrent && !c.inBase) return Change::New;
    if (c.inBase && !c.inCurrent) return Change::Gone;
    if (c.changed(cycles_->basis)) return Change::Changed;
  }
  return node < changedInside_.size() && changedInside_[node] ? Change::Inside : Change::None;
}

QVariant ProgramTreeModel::data(const QModelIndex& index, int role) const {
  if (!tree_ || !index.isValid()) return {};
  const std::uint32_t programId = tree_->nodes[index.internalId()].program;
  const ProgramInfo& p = tree_->programs[programId];
  if (role == ProgramIdRole) return programId;
  if (compared()) {
    const Change change = changeAt(std::uint32_t(index.internalId()));
    if (role == ChangeRole) return int(change);
    const ProgramCycles::Change* c =
        p.isStep && programId < cycles_->changes.size() ? &cycles_->changes[programId] : nullptr;
    // What changed stands out: the step's name in bold, its difference in colour; a container
    // with a change below it in italics.
    if (role == Qt::FontRole && index.column() == NameColumn && change != Change::None) {
      QFont f;
      f.setBold(change != Change::Inside);
      f.setItalic(change == Change::Inside);
      return f;
    }
    const pva::RunBasis& basis = cycles_->basis;
    const std::int64_t delta = c ? roundedDelta(basis, {c->base, c->current}) : 0;
    if (role == Qt::ForegroundRole && c && index.column() == CyclesDeltaColumn && c->inBase &&
        c->inCurrent && delta != 0)
      return QBrush(delta > 0 ? QColor(0xd0, 0x3a, 0x3a) : QColor(0x2e, 0x9a, 0x4a));
    if (role == Qt::ToolTipRole && index.column() == CyclesDeltaColumn && c) {
      QString tip =
          tr("Cycles of the steps named %1, all runs: %2 in the base, %3 in the current report")
              .arg(p.name, c->inBase ? formatCount(c->base) : tr("none"),
                   c->inCurrent ? formatCount(c->current) : tr("none"));
      if (c->inBase && c->inCurrent && basis.perRun())
        tip += QStringLiteral("\n") + perRunTip(basis, {c->base, c->current});
      return tip;
    }
    // By name, as the Compare view's Programs: the steps sharing a name (a stream copy's Begin,
    // Mid and End) add up, so both sides are shown, not the base beside one program's cycles.
    if (role == Qt::DisplayRole && index.column() == BaseCyclesColumn)
      return c && (c->inBase || c->inCurrent)
                 ? QStringLiteral("%1 → %2").arg(c->inBase ? formatCount(c->base) : tr("missing"),
                                                 c->inCurrent ? formatCount(c->current)
                                                              : tr("missing"))
                 : QVariant();
    if (role == Qt::DisplayRole && index.column() == CyclesDeltaColumn) {
      if (!c) return change == Change::Inside ? tr("changed inside") : QVariant();
      if (!c->inBase && !c->inCurrent) return QVariant();
      if (!c->inBase) return tr("new");
      if (!c->inCurrent) return tr("missing in current");
      return delta == 0 ? tr("same") : formatCountDelta(delta) + perRunSuffix(basis);
    }
  }
  if (role == Qt::TextAlignmentRole && index.column() >= CyclesColumn)
    return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ToolTipRole && index.column() == CyclesColumn && !p.isStep && cycles_ &&
      programId < cycles_->totals.size() && cycles_->totals[programId].steps > 0)
    return tr("Σ of the %1 step executions under it, all runs, each step program once (a "
              "program called from several places counts once: its cycles sum them all)")
        .arg(formatCount(cycles_->totals[programId].steps));
  if (role == Qt::ToolTipRole && index.column() == IpusColumn)
    return tr("The IPUs of one replica its steps ran on (a step's IPU entry with cycles)");
  if (role == Qt::ToolTipRole && index.column() == NameColumn)
    return p.debugPath.isEmpty() ? p.name : p.debugPath;
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
  case NameColumn:
    return p.name.isEmpty() ? QStringLiteral("(%1)").arg(p.type) : p.name;
  case TypeColumn:
    return p.type;
  case IpusColumn:
    if (!cycles_ || programId >= cycles_->totals.size()) return {};
    return QString::fromStdString(pva::ipusText(cycles_->totals[programId].ipuMask));
  case CyclesColumn:
    if (!cycles_) return {};
    if (p.isStep) return formatCount(cycles_->cycles[programId]);
    // A Sequence, Repeat or Call: everything it holds (libpva's programTotals), "Σ" so it does
    // not read as a step's own cycles.
    if (programId < cycles_->totals.size() && cycles_->totals[programId].steps > 0)
      return QStringLiteral("Σ ") + formatCount(cycles_->totals[programId].cycles);
    return {};
  case ExecutionsColumn:
    if (!cycles_ || !p.isStep) return {};
    return formatCount(cycles_->executions[programId]);
  case EstimateColumn:
    return p.isStep ? formatCount(p.estimatedCyclesMaxTile) : QVariant();
  default:
    return {};
  }
}

QVariant ProgramTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
  case NameColumn:
    return tr("Program");
  case TypeColumn:
    return tr("Type");
  case IpusColumn:
    return tr("IPU");
  case CyclesColumn:
    return tr("Cycles (all runs)");
  case ExecutionsColumn:
    return tr("Times run (all runs)");
  case EstimateColumn:
    return tr("Estimate (one run of it, slowest tile)");
  case BaseCyclesColumn:
    return tr("Cycles of its name: base → current");
  case CyclesDeltaColumn:
    return cycles_ && cycles_->basis.perRun() ? tr("Cycles Δ per run (by name)")
                                              : tr("Cycles Δ (by name)");
  default:
    return {};
  }
}

std::vector<std::uint32_t> ProgramTreeModel::find(const QString& text) const {
  std::vector<std::uint32_t> out;
  if (!tree_ || text.isEmpty()) return out;
  // Nodes are stored in depth-first order, which is the order the tree shows them.
  for (std::uint32_t n = 0; n < tree_->nodes.size(); ++n) {
    const ProgramInfo& p = tree_->programs[tree_->nodes[n].program];
    if (p.name.contains(text, Qt::CaseInsensitive) || p.type.contains(text, Qt::CaseInsensitive))
      out.push_back(n);
  }
  return out;
}

} // namespace tessera::viewer
