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
    : Page(parent), model_(new ComparisonModel(this)), proxy_(new QSortFilterProxyModel(this)),
      view_(new QTreeView(this)), filter_(new QLineEdit(this)), header_(new QLabel(this)),
      warnings_(new QLabel(this)) {
  proxy_->setSourceModel(model_);
  proxy_->setRecursiveFilteringEnabled(true);
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  filter_->setPlaceholderText(
      tr("Filter rows (variables, compute sets, programs, operations, categories…)"));
  filter_->setClearButtonEnabled(true);
  connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
    proxy_->setFilterFixedString(text);
    view_->expandAll();
  });
  header_->setWordWrap(true);
  // Said before any number: differences then mean little (different devices, different programs).
  warnings_->setWordWrap(true);
  warnings_->setTextFormat(Qt::RichText);
  warnings_->setStyleSheet(
      QStringLiteral("QLabel { background: #fff3cd; color: #664d03; border: 1px solid #e0c36c;"
                     " padding: 6px; }"));
  warnings_->hide();
  view_->setModel(proxy_);
  view_->setUniformRowHeights(true);
  view_->setAlternatingRowColors(true);
  view_->header()->setStretchLastSection(false);
  view_->header()->setSectionResizeMode(ComparisonModel::NameColumn, QHeaderView::Stretch);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(header_);
  layout->addWidget(warnings_);
  layout->addWidget(filter_);
  layout->addWidget(view_);
}

void ComparePage::setDocument(std::shared_ptr<const Document> doc) {
  setReady(false);
  model_->setData(nullptr);
  header_->clear();
  warnings_->clear();
  warnings_->hide();
  task_ = TaskHandle();
  if (!doc || !doc->base()) return;
  task_ = runInBackground<ComparisonData>(
      this, tr("Comparing the reports"), [doc](Progress& p) { return loadComparison(*doc, p); },
      [this](std::shared_ptr<const ComparisonData> comparison) {
        QString header =
            tr("<b>Base:</b> %1<br><b>Current:</b> %2")
                .arg(comparison->baseName.toHtmlEscaped(), comparison->currentName.toHtmlEscaped());
        // Two jobs: which instance pair every view shows (the window's instance selector).
        if (!comparison->instance.isEmpty())
          header += QStringLiteral("<br><b>%1</b>").arg(comparison->instance.toHtmlEscaped());
        header_->setText(header);
        QStringList warnings;
        for (const QString& w : comparison->warnings)
          warnings << QStringLiteral("<b>⚠</b> ") + w.toHtmlEscaped();
        warnings_->setText(warnings.join(QStringLiteral("<br>")));
        warnings_->setVisible(!warnings.isEmpty());
        model_->setData(std::move(comparison));
        // Sections with few rows open; long lists (compute sets, programs) stay folded.
        for (int s = 0; s < proxy_->rowCount(); ++s) {
          const QModelIndex section = proxy_->index(s, 0);
          view_->setExpanded(section, proxy_->rowCount(section) <= 20);
        }
        for (int c = ComparisonModel::BaseColumn; c < ComparisonModel::ColumnCount; ++c)
          view_->resizeColumnToContents(c);
        setReady(true);
      },
      reportError());
}

} // namespace tessera::viewer
