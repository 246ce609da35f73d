// Index arithmetic over ProgramTreeData's nodes.
#include "models/ProgramTreeModel.hpp"

#include "core/Format.hpp"

namespace tessera::viewer {

ProgramTreeModel::ProgramTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void ProgramTreeModel::setTree(std::shared_ptr<const ProgramTreeData> tree) {
  beginResetModel();
  m_tree = std::move(tree);
  m_cycles.reset();
  endResetModel();
}

void ProgramTreeModel::setCycles(std::shared_ptr<const ProgramCycles> cycles) {
  m_cycles = std::move(cycles);
  if (!m_tree) return;
  // Every row of every parent gains its cycles columns.
  auto changed = [this](const QModelIndex& parent, std::size_t rows) {
    if (rows > 0) emit dataChanged(index(0, CyclesColumn, parent), index(int(rows) - 1, ExecutionsColumn, parent));
  };
  changed({}, m_tree->roots.size());
  for (std::uint32_t n = 0; n < m_tree->nodes.size(); ++n)
    if (!m_tree->nodes[n].children.empty()) changed(indexOfNode(n), m_tree->nodes[n].children.size());
}

const std::vector<std::uint32_t>& ProgramTreeModel::childrenOf(const QModelIndex& parent) const {
  return parent.isValid() ? m_tree->nodes[parent.internalId()].children : m_tree->roots;
}

QModelIndex ProgramTreeModel::indexOfNode(std::uint32_t node) const {
  if (!m_tree || node >= m_tree->nodes.size()) return {};
  return createIndex(int(m_tree->nodes[node].row), 0, quintptr(node));
}

QModelIndex ProgramTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (!m_tree || !hasIndex(row, column, parent)) return {};
  return createIndex(row, column, quintptr(childrenOf(parent)[std::size_t(row)]));
}

QModelIndex ProgramTreeModel::parent(const QModelIndex& child) const {
  if (!m_tree || !child.isValid()) return {};
  const std::uint32_t p = m_tree->nodes[child.internalId()].parent;
  if (p == ProgramTreeData::noParent) return {};
  return createIndex(int(m_tree->nodes[p].row), 0, quintptr(p));
}

int ProgramTreeModel::rowCount(const QModelIndex& parent) const {
  if (!m_tree || (parent.isValid() && parent.column() != 0)) return 0;
  return int(childrenOf(parent).size());
}

int ProgramTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant ProgramTreeModel::data(const QModelIndex& index, int role) const {
  if (!m_tree || !index.isValid()) return {};
  const std::uint32_t programId = m_tree->nodes[index.internalId()].program;
  const ProgramInfo& p = m_tree->programs[programId];
  if (role == ProgramIdRole) return programId;
  if (role == Qt::TextAlignmentRole && index.column() >= CyclesColumn) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ToolTipRole && index.column() == NameColumn) return p.debugPath.isEmpty() ? p.name : p.debugPath;
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
  case NameColumn: return p.name.isEmpty() ? QStringLiteral("(%1)").arg(p.type) : p.name;
  case TypeColumn: return p.type;
  case CyclesColumn:
    if (!m_cycles || !p.isStep) return {};
    return formatCount(m_cycles->cycles[programId]);
  case ExecutionsColumn:
    if (!m_cycles || !p.isStep) return {};
    return formatCount(m_cycles->executions[programId]);
  case EstimateColumn: return p.isStep ? formatCount(p.estimatedCyclesMaxTile) : QVariant();
  default: return {};
  }
}

QVariant ProgramTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
  case NameColumn: return tr("Program");
  case TypeColumn: return tr("Type");
  case CyclesColumn: return tr("Cycles (all runs)");
  case ExecutionsColumn: return tr("Times run (all runs)");
  case EstimateColumn: return tr("Estimate (one run of it, slowest tile)");
  default: return {};
  }
}

std::vector<std::uint32_t> ProgramTreeModel::find(const QString& text) const {
  std::vector<std::uint32_t> out;
  if (!m_tree || text.isEmpty()) return out;
  // Nodes are stored in depth-first order, which is the order the tree shows them.
  for (std::uint32_t n = 0; n < m_tree->nodes.size(); ++n) {
    const ProgramInfo& p = m_tree->programs[m_tree->nodes[n].program];
    if (p.name.contains(text, Qt::CaseInsensitive) || p.type.contains(text, Qt::CaseInsensitive)) out.push_back(n);
  }
  return out;
}

} // namespace tessera::viewer
