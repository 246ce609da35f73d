// The Program Tree page's tree over ProgramTreeData: each index's internal id is its node, so the
// model holds no item objects. Executed cycles fill in when the second loading stage arrives.
#pragma once

#include "core/ProgramTreeData.hpp"

#include <QAbstractItemModel>
#include <memory>

namespace tessera::viewer {

class ProgramTreeModel : public QAbstractItemModel {
  Q_OBJECT
public:
  /// BaseCyclesColumn and CyclesDeltaColumn: comparing only (ProgramCycles::compared).
  enum Column {
    NameColumn,
    TypeColumn,
    IpusColumn, ///< the IPUs it (or what it holds) ran on
    CyclesColumn,
    ExecutionsColumn,
    EstimateColumn,
    BaseCyclesColumn,
    CyclesDeltaColumn,
    ColumnCount
  };
  static constexpr int ProgramIdRole = Qt::UserRole + 1;
  /// Comparing: what changed at a node. Its step's cycles, or a step below it (containers).
  enum class Change { None, Changed, New, Gone, Inside };
  static constexpr int ChangeRole = Qt::UserRole + 2; ///< int(Change)
  Change changeAt(std::uint32_t node) const;
  bool compared() const { return cycles_ && cycles_->compared; }

  explicit ProgramTreeModel(QObject* parent = nullptr);
  void setTree(std::shared_ptr<const ProgramTreeData> tree);
  void setCycles(std::shared_ptr<const ProgramCycles> cycles);
  const ProgramTreeData* tree() const { return tree_.get(); }
  /// The index of a node (column 0).
  QModelIndex indexOfNode(std::uint32_t node) const;
  /// Nodes whose program name or type contains `text` (case-insensitive), in tree order.
  std::vector<std::uint32_t> find(const QString& text) const;

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

private:
  const std::vector<std::uint32_t>& childrenOf(const QModelIndex& parent) const;
  std::shared_ptr<const ProgramTreeData> tree_;
  std::shared_ptr<const ProgramCycles> cycles_;
  std::vector<bool> changedInside_; ///< by node: a step below it changed (comparing)
};

} // namespace tessera::viewer
