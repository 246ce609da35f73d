// The Compare page: warnings (targets differ, unrelated reports), then a filterable tree over
// ComparisonModel.
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
      m_view(new QTreeView(this)), m_filter(new QLineEdit(this)), m_header(new QLabel(this)),
      m_warnings(new QLabel(this)) {
  m_proxy->setSourceModel(m_model);
  m_proxy->setRecursiveFilteringEnabled(true);
  m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
  m_filter->setPlaceholderText(tr("Filter rows (variables, compute sets, programs, operations, categories…)"));
  m_filter->setClearButtonEnabled(true);
  connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
    m_proxy->setFilterFixedString(text);
    m_view->expandAll();
  });
  m_header->setWordWrap(true);
  // Said before any number: differences then mean little (different devices, different programs).
  m_warnings->setWordWrap(true);
  m_warnings->setTextFormat(Qt::RichText);
  m_warnings->setStyleSheet(QStringLiteral("QLabel { background: #fff3cd; color: #664d03; border: 1px solid #e0c36c;"
                                           " padding: 6px; }"));
  m_warnings->hide();
  m_view->setModel(m_proxy);
  m_view->setUniformRowHeights(true);
  m_view->setAlternatingRowColors(true);
  m_view->header()->setStretchLastSection(false);
  m_view->header()->setSectionResizeMode(ComparisonModel::NameColumn, QHeaderView::Stretch);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(m_header);
  layout->addWidget(m_warnings);
  layout->addWidget(m_filter);
  layout->addWidget(m_view);
}

void ComparePage::setDocument(std::shared_ptr<const Document> doc) {
  setReady(false);
  m_model->setData(nullptr);
  m_header->clear();
  m_warnings->clear();
  m_warnings->hide();
  m_task = TaskHandle();
  if (!doc || !doc->base()) return;
  m_task = runInBackground<ComparisonData>(
      this, tr("Comparing the reports"), [doc](Progress& p) { return loadComparison(*doc, p); },
      [this](std::shared_ptr<const ComparisonData> comparison) {
        m_header->setText(tr("<b>Base:</b> %1<br><b>Current:</b> %2").arg(comparison->baseName.toHtmlEscaped(),
                                                                          comparison->currentName.toHtmlEscaped()));
        QStringList warnings;
        for (const QString& w : comparison->warnings) warnings << QStringLiteral("<b>⚠</b> ") + w.toHtmlEscaped();
        m_warnings->setText(warnings.join(QStringLiteral("<br>")));
        m_warnings->setVisible(!warnings.isEmpty());
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
