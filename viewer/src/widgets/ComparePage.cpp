// The Compare page: a filterable tree over ComparisonModel.
#include "widgets/ComparePage.hpp"

#include "models/ComparisonModel.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

namespace tessera::viewer {

ComparePage::ComparePage(QWidget* parent)
    : Page(parent), m_model(new ComparisonModel(this)), m_proxy(new QSortFilterProxyModel(this)),
      m_view(new QTreeView(this)), m_filter(new QLineEdit(this)), m_header(new QLabel(this)) {
  m_proxy->setSourceModel(m_model);
  m_proxy->setRecursiveFilteringEnabled(true);
  m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
  m_filter->setPlaceholderText(tr("Filter rows (compute sets, programs, categories…)"));
  m_filter->setClearButtonEnabled(true);
  connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
    m_proxy->setFilterFixedString(text);
    m_view->expandAll();
  });
  m_header->setWordWrap(true);
  m_view->setModel(m_proxy);
  m_view->setUniformRowHeights(true);
  m_view->setAlternatingRowColors(true);
  m_view->header()->setStretchLastSection(false);
  m_view->header()->setSectionResizeMode(ComparisonModel::NameColumn, QHeaderView::Stretch);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(m_header);
  layout->addWidget(m_filter);
  layout->addWidget(m_view);
}

void ComparePage::setDocument(std::shared_ptr<const Document> doc) {
  setReady(false);
  m_model->setData(nullptr);
  m_header->clear();
  m_task = TaskHandle();
  if (!doc || !doc->base()) return;
  m_task = runInBackground<ComparisonData>(
      this, tr("Comparing the reports"), [doc](Progress& p) { return loadComparison(*doc, p); },
      [this](std::shared_ptr<const ComparisonData> comparison) {
        m_header->setText(tr("<b>Base:</b> %1<br><b>Current:</b> %2").arg(comparison->baseName.toHtmlEscaped(),
                                                                          comparison->currentName.toHtmlEscaped()));
        m_model->setData(std::move(comparison));
        // Sections with few rows open; long lists (compute sets, programs) stay folded.
        for (int s = 0; s < m_proxy->rowCount(); ++s) {
          const QModelIndex section = m_proxy->index(s, 0);
          m_view->setExpanded(section, m_proxy->rowCount(section) <= 20);
        }
        for (int c = ComparisonModel::BaseColumn; c < ComparisonModel::ColumnCount; ++c)
          m_view->resizeColumnToContents(c);
        setReady(true);
      },
      reportError());
}

} // namespace tessera::viewer
