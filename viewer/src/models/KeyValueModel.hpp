// A two-column table of names and values: the details panels of the Program Tree and
// Operations pages. Rows are replaced as a whole when the selection changes.
#pragma once

#include <QAbstractTableModel>
#include <QString>
#include <utility>
#include <vector>

namespace tessera::viewer {

class KeyValueModel : public QAbstractTableModel {
  Q_OBJECT
public:
  using Rows = std::vector<std::pair<QString, QString>>;
  explicit KeyValueModel(QObject* parent = nullptr) : QAbstractTableModel(parent) {}
  void setRows(Rows rows);
  /// The value of the first row with this name ("" when none).
  QString value(const QString& name) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

private:
  Rows rows_;
};

} // namespace tessera::viewer
