// The Summary page's tree: one top-level row per section (Report, Target, Graph, Memory,
// Execution, Runs, Engine options), one child per value; columns Name, Value, Note. Comparing two
// reports: Name, Base, Current, Difference, Note (a row on one side says "missing"). Values are
// formatted at data() time, in the units of Settings.
#pragma once

#include "core/SummaryData.hpp"
#include "models/SectionTreeModel.hpp"

#include <memory>

namespace tessera::viewer {

class SummaryModel : public SectionTreeModel {
  Q_OBJECT
public:
  enum Column { NameColumn, ValueColumn, NoteColumn, ColumnCount };
  /// The columns when SummaryData::compared.
  enum CompareColumn {
    BaseColumn = 1,
    CurrentColumn,
    DeltaColumn,
    CompareNoteColumn,
    CompareColumnCount
  };
  /// Raw number behind a Bytes or Count value (for sorting and tests).
  static constexpr int NumberRole = Qt::UserRole + 1;
  /// Comparing: the saturated difference (current - base) of a number both reports have.
  static constexpr int DeltaRole = Qt::UserRole + 2;

  explicit SummaryModel(QObject* parent = nullptr);
  void setData(std::shared_ptr<const SummaryData> data);
  const SummaryData* summary() const { return data_.get(); }

  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

protected:
  int sectionCount() const override;
  int rowsInSection(int section) const override;

private:
  QVariant compareData(const SummaryRow& r, int column, int role) const;
  std::shared_ptr<const SummaryData> data_;
};

} // namespace tessera::viewer
