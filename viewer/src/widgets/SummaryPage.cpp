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
    : Page(parent), model_(new SummaryModel(this)), proxy_(new QSortFilterProxyModel(this)),
      view_(new QTreeView(this)), filter_(new QLineEdit(this)) {
  proxy_->setSourceModel(model_);
  proxy_->setRecursiveFilteringEnabled(true); // a matching value keeps its section visible
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  proxy_->setFilterKeyColumn(-1);
  filter_->setPlaceholderText(tr("Filter (names, values, engine options)"));
  filter_->setClearButtonEnabled(true);
  connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
    proxy_->setFilterFixedString(text);
    view_->expandAll();
  });
  view_->setModel(proxy_);
  view_->setUniformRowHeights(true);
  view_->setAlternatingRowColors(true);
  view_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(filter_);
  layout->addWidget(view_);
}

void SummaryPage::fitColumns(bool compared) {
  QHeaderView* header = view_->header();
  header->setSectionResizeMode(QHeaderView::ResizeToContents);
  view_->setTextElideMode(Qt::ElideRight);
  if (!compared) {
    // One report: a long text (an app.json's command line, a deep path) gets at most half the
    // width, elided in the middle (the whole text is the tooltip), so the notes stay in view.
    view_->setTextElideMode(Qt::ElideMiddle);
    const int most = std::max(240, view_->viewport()->width() / 2);
    const int c = int(SummaryModel::ValueColumn);
    header->setSectionResizeMode(c, QHeaderView::Interactive);
    header->resizeSection(
        c, std::min(most, static_cast<QAbstractItemView*>(view_)->sizeHintForColumn(c)));
    return;
  }
  // Two reports' values side by side: long texts (paths, engine options) get at most a quarter of
  // the width each, elided in the middle (the whole text is the tooltip), so the difference and
  // note columns stay in view.
  view_->setTextElideMode(Qt::ElideMiddle);
  const int most = std::max(160, view_->viewport()->width() / 4);
  for (int c : {int(SummaryModel::BaseColumn), int(SummaryModel::CurrentColumn)}) {
    header->setSectionResizeMode(c, QHeaderView::Interactive);
    header->resizeSection(
        c, std::min(most, static_cast<QAbstractItemView*>(view_)->sizeHintForColumn(c)));
  }
}

void SummaryPage::setDocument(std::shared_ptr<const Document> doc) {
  setReady(false);
  model_->setData(nullptr);
  task_ = TaskHandle();
  if (!doc) return;
  task_ = runInBackground<SummaryData>(
      this, tr("Reading the summary"), [doc](Progress& p) { return loadSummary(*doc, p); },
      [this](std::shared_ptr<const SummaryData> summary) {
        const bool compared = summary->compared;
        model_->setData(std::move(summary));
        view_->expandAll();
        fitColumns(compared);
        setReady(true);
      },
      reportError());
}

} // namespace tessera::viewer
