// The Execution page's Details tab: the clicked step's fields (program, type, compute set,
// per-IPU cycles, active tiles, tile balance, debug context) as a two-column table over an
// immutable StepDetails. Bytes are formatted at data() time in the units of Settings.
#pragma once

#include "core/ExecutionDetails.hpp"

#include <QAbstractTableModel>
#include <memory>

namespace tessera::viewer {

class StepDetailsModel : public QAbstractTableModel {
  Q_OBJECT
public:
  enum Column { NameColumn, ValueColumn, ColumnCount };
  /// The raw value (number or text) behind a row.
  static constexpr int RawRole = Qt::UserRole + 1;

  explicit StepDetailsModel(QObject* parent = nullptr);
  /// Null clears the table.
  void setDetails(std::shared_ptr<const StepDetails> details);
  const StepDetails* details() const { return details_.get(); }
  /// The value of the field called `name` as displayed, or an empty string (for tests).
  QString value(const QString& name) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

private:
  std::shared_ptr<const StepDetails> details_;
};

} // namespace tessera::viewer
