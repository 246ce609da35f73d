// The Summary page: a filterable tree over SummaryModel.
#include "widgets/SummaryPage.hpp"

#include "models/SummaryModel.hpp"

#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace tessera::viewer {

SummaryPage::SummaryPage(QWidget* parent)
    : Page(parent), m_model(new SummaryModel(this)), m_proxy(new QSortFilterProxyModel(this)),
      m_view(new QTreeView(this)), m_filter(new QLineEdit(this)) {
  m_proxy->setSourceModel(m_model);
  m_proxy->setRecursiveFilteringEnabled(true); // a matching value keeps its section visible
  m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
  m_proxy->setFilterKeyColumn(-1);
  m_filter->setPlaceholderText(tr("Filter (names, values, engine options)"));
  m_filter->setClearButtonEnabled(true);
  connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
    m_proxy->setFilterFixedString(text);
    m_view->expandAll();
  });
  m_view->setModel(m_proxy);
  m_view->setUniformRowHeights(true);
  m_view->setAlternatingRowColors(true);
  m_view->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(m_filter);
  layout->addWidget(m_view);
}

void SummaryPage::fitColumns(bool compared) {
  QHeaderView* header = m_view->header();
  header->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_view->setTextElideMode(Qt::ElideRight);
  if (!compared) return;
  // Two reports' values side by side: long texts (paths, engine options) get at most a quarter of
  // the width each, elided in the middle (the whole text is the tooltip), so the difference and
  // note columns stay in view.
  m_view->setTextElideMode(Qt::ElideMiddle);
  const int most = std::max(160, m_view->viewport()->width() / 4);
  for (int c : {int(SummaryModel::BaseColumn), int(SummaryModel::CurrentColumn)}) {
    header->setSectionResizeMode(c, QHeaderView::Interactive);
    header->resizeSection(c, std::min(most, static_cast<QAbstractItemView*>(m_view)->sizeHintForColumn(c)));
  }
}

void SummaryPage::setDocument(std::shared_ptr<const Document> doc) {
  setReady(false);
  m_model->setData(nullptr);
  m_task = TaskHandle();
  if (!doc) return;
  m_task = runInBackground<SummaryData>(
      this, tr("Reading the summary"), [doc](Progress& p) { return loadSummary(*doc, p); },
      [this](std::shared_ptr<const SummaryData> summary) {
        const bool compared = summary->compared;
        m_model->setData(std::move(summary));
        m_view->expandAll();
        fitColumns(compared);
        setReady(true);
      },
      reportError());
}

} // namespace tessera::viewer
