// The Summary page: a filterable tree over SummaryModel.
#include "widgets/SummaryPage.hpp"

#include "models/SummaryModel.hpp"

#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

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

void SummaryPage::setDocument(std::shared_ptr<const Document> doc) {
  setReady(false);
  m_model->setData(nullptr);
  m_task = TaskHandle();
  if (!doc) return;
  m_task = runInBackground<SummaryData>(
      this, tr("Reading the summary"), [doc](Progress& p) { return loadSummary(*doc, p); },
      [this](std::shared_ptr<const SummaryData> summary) {
        m_model->setData(std::move(summary));
        m_view->expandAll();
        setReady(true);
      },
      reportError());
}

} // namespace tessera::viewer
