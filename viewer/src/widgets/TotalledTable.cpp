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
    : QWidget(parent), m_model(model), m_noun(std::move(rowsNoun)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  m_view = createSortableTable(model, this, nameColumn);
  m_proxy = static_cast<QSortFilterProxyModel*>(m_view->model());
  m_proxy->setFilterKeyColumn(nameColumn);
  m_proxy->setFilterRole(TableModel::SortRole); // the plain name, as text
  m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
  layout->addWidget(m_view, 1);
  m_totals = new QLabel(this);
  m_totals->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_totals->setWordWrap(true);
  layout->addWidget(m_totals);
  connect(m_proxy, &QAbstractItemModel::modelReset, this, [this] { updateTotals(); });
  connect(m_proxy, &QAbstractItemModel::layoutChanged, this, [this] { updateTotals(); });
  connect(m_proxy, &QAbstractItemModel::rowsInserted, this, [this] { updateTotals(); });
  connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, [this] { updateTotals(); });
  connect(&Settings::instance(), &Settings::changed, this, [this] { updateTotals(); });
  updateTotals();
}

void TotalledTable::setNameFilter(const QString& text) {
  // Several names separated by ';' list the rows containing any of them.
  const QStringList terms = nameTerms(text);
  if (terms.size() > 1) m_proxy->setFilterRegularExpression(nameTermsPattern(terms));
  else m_proxy->setFilterFixedString(terms.isEmpty() ? QString() : terms.front());
  updateTotals();
}

void TotalledTable::setTotalsNote(const QString& note) {
  m_note = note;
  updateTotals();
}

int TotalledTable::rowsShown() const { return m_proxy->rowCount(); }

QVariant TotalledTable::total(int column) const {
  const auto kind = TableModel::Total(m_proxy->headerData(column, Qt::Horizontal, TableModel::TotalRole).toInt());
  if (kind == TableModel::Total::None) return {};
  const int rows = m_proxy->rowCount();
  if (kind == TableModel::Total::BytesDelta) {
    qlonglong sum = 0;
    for (int r = 0; r < rows; ++r) sum += m_proxy->index(r, column).data(TableModel::SortRole).toLongLong();
    return sum;
  }
  qulonglong sum = 0;
  for (int r = 0; r < rows; ++r) sum += m_proxy->index(r, column).data(TableModel::SortRole).toULongLong();
  return sum;
}

void TotalledTable::updateTotals() {
  const int shown = m_proxy->rowCount(), all = m_model->rowCount();
  if (all == 0) {
    m_totals->clear();
    return;
  }
  const MemoryUnits units = Settings::instance().memoryUnits();
  QStringList parts;
  for (int c = 0; c < m_proxy->columnCount(); ++c) {
    const QVariant sum = total(c);
    if (!sum.isValid()) continue;
    const auto kind = TableModel::Total(m_proxy->headerData(c, Qt::Horizontal, TableModel::TotalRole).toInt());
    const QString name = m_proxy->headerData(c, Qt::Horizontal).toString();
    QString value;
    if (kind == TableModel::Total::Bytes) value = formatBytes(sum.toULongLong(), units);
    else if (kind == TableModel::Total::Count) value = formatCount(sum.toULongLong());
    else value = formatBytesDelta(sum.toLongLong(), units);
    parts << tr("%1 <b>%2</b>").arg(name.toHtmlEscaped(), value);
  }
  const QString rows = shown == all ? tr("Total of the %1 %2").arg(formatCount(std::uint64_t(all)), m_noun)
                                    : tr("Total of the %1 %2 shown (of %3)").arg(formatCount(std::uint64_t(shown)), m_noun,
                                                                              formatCount(std::uint64_t(all)));
  QString text = rows + QStringLiteral(": ") + parts.join(QStringLiteral(", "));
  if (!m_note.isEmpty()) text += QStringLiteral(" (") + m_note.toHtmlEscaped() + QStringLiteral(")");
  m_totals->setText(text);
}

} // namespace tessera::viewer
