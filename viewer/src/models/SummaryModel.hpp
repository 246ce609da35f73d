// The Summary page's tree: one top-level row per section (Report, Target, Graph, Memory,
// Execution, Runs, Engine options), one child per value; columns Name, Value, Note. Values are
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
  /// Raw number behind a Bytes or Count value (for sorting and tests).
  static constexpr int NumberRole = Qt::UserRole + 1;

  explicit SummaryModel(QObject* parent = nullptr);
  void setData(std::shared_ptr<const SummaryData> data);
  const SummaryData* summary() const { return m_data.get(); }

  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
  int sectionCount() const override;
  int rowsInSection(int section) const override;

private:
  std::shared_ptr<const SummaryData> m_data;
};

} // namespace tessera::viewer
