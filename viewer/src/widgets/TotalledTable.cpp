// A sortable, name-filtered table with a totals line over the rows shown.
#include "widgets/TotalledTable.hpp"

#include "core/Format.hpp"
#include "core/NameTerms.hpp"
#include "core/Settings.hpp"
#include "models/TableModel.hpp"
#include "widgets/TableViews.hpp"

#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace tessera::viewer {

TotalledTable::TotalledTable(TableModel* model, QString rowsNoun, int nameColumn, QWidget* parent)
    : QWidget(parent), model_(model), noun_(std::move(rowsNoun)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  view_ = createSortableTable(model, this, nameColumn);
  proxy_ = static_cast<QSortFilterProxyModel*>(view_->model());
  proxy_->setFilterKeyColumn(nameColumn);
  proxy_->setFilterRole(TableModel::SortRole); // the plain name, as text
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  layout->addWidget(view_, 1);
  totals_ = new QLabel(this);
  totals_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  totals_->setWordWrap(true);
  layout->addWidget(totals_);
  connect(proxy_, &QAbstractItemModel::modelReset, this, [this] { updateTotals(); });
  connect(proxy_, &QAbstractItemModel::layoutChanged, this, [this] { updateTotals(); });
  connect(proxy_, &QAbstractItemModel::rowsInserted, this, [this] { updateTotals(); });
  connect(proxy_, &QAbstractItemModel::rowsRemoved, this, [this] { updateTotals(); });
  connect(&Settings::instance(), &Settings::changed, this, [this] { updateTotals(); });
  updateTotals();
}

void TotalledTable::setNameFilter(const QString& text) {
  // Several names separated by ';' list the rows containing any of them.
  const QStringList terms = nameTerms(text);
  if (terms.size() > 1)
    proxy_->setFilterRegularExpression(nameTermsPattern(terms));
  else
    proxy_->setFilterFixedString(terms.isEmpty() ? QString() : terms.front());
  updateTotals();
}

void TotalledTable::setTotalsNote(const QString& note) {
  note_ = note;
  updateTotals();
}

int TotalledTable::rowsShown() const {
  return proxy_->rowCount();
}

QVariant TotalledTable::total(int column) const {
  const auto kind =
      TableModel::Total(proxy_->headerData(column, Qt::Horizontal, TableModel::TotalRole).toInt());
  if (kind == TableModel::Total::None) return {};
  const int rows = proxy_->rowCount();
  if (kind == TableModel::Total::BytesDelta) {
    qlonglong sum = 0;
    for (int r = 0; r < rows; ++r)
      sum += proxy_->index(r, column).data(TableModel::SortRole).toLongLong();
    return sum;
  }
  qulonglong sum = 0;
  for (int r = 0; r < rows; ++r)
    sum += proxy_->index(r, column).data(TableModel::SortRole).toULongLong();
  return sum;
}

void TotalledTable::updateTotals() {
  const int shown = proxy_->rowCount(), all = model_->rowCount();
  if (all == 0) {
    totals_->clear();
    return;
  }
  const MemoryUnits units = Settings::instance().memoryUnits();
  QStringList parts;
  for (int c = 0; c < proxy_->columnCount(); ++c) {
    const QVariant sum = total(c);
    if (!sum.isValid()) continue;
    const auto kind =
        TableModel::Total(proxy_->headerData(c, Qt::Horizontal, TableModel::TotalRole).toInt());
    const QString name = proxy_->headerData(c, Qt::Horizontal).toString();
    QString value;
    if (kind == TableModel::Total::Bytes)
      value = formatBytes(sum.toULongLong(), units);
    else if (kind == TableModel::Total::Count)
      value = formatCount(sum.toULongLong());
    else
      value = formatBytesDelta(sum.toLongLong(), units);
    parts << tr("%1 <b>%2</b>").arg(name.toHtmlEscaped(), value);
  }
  const QString rows =
      shown == all
          ? tr("Total of the %1 %2").arg(formatCount(std::uint64_t(all)), noun_)
          : tr("Total of the %1 %2 shown (of %3)")
                .arg(formatCount(std::uint64_t(shown)), noun_, formatCount(std::uint64_t(all)));
  QString text = rows + QStringLiteral(": ") + parts.join(QStringLiteral(", "));
  if (!note_.isEmpty()) text += QStringLiteral(" (") + note_.toHtmlEscaped() + QStringLiteral(")");
  totals_->setText(text);
}

} // namespace tessera::viewer
