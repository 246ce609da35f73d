// The Summary page: a filterable tree over SummaryModel.
#include "widgets/SummaryPage.hpp"

#include "models/SummaryModel.hpp"
#include "widgets/JobSummaryPanel.hpp"

#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>

namespace tessera::viewer {

SummaryPage::SummaryPage(QWidget* parent)
    : Page(parent), jobPanels_{new JobSummaryPanel(this), new JobSummaryPanel(this)},
      model_(new SummaryModel(this)), proxy_(new QSortFilterProxyModel(this)),
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
  // Comparing, the base job's table comes first, as Base comes before Current everywhere.
  for (JobSummaryPanel* panel : {jobPanels_[1], jobPanels_[0]}) {
    panel->hide();
    layout->addWidget(panel);
    connect(panel, &JobSummaryPanel::instanceClicked, this, &SummaryPage::instanceRequested);
  }
  layout->addWidget(view_, 1);
}

void SummaryPage::taskDone() {
  if (--pending_ == 0) setReady(true);
}

void SummaryPage::showJob(int side, const QString& heading, const QString& directory,
                          unsigned shown) {
  JobSummaryPanel* panel = jobPanels_[std::size_t(side)];
  panel->show();
  auto& table = jobTables_[std::size_t(side)];
  // Switching instances keeps the job: its table is read once per folder.
  if (table && table->directory == directory) {
    panel->setTable(heading, table, shown);
    return;
  }
  table.reset();
  panel->setTable(heading, nullptr, shown);
  ++pending_;
  jobTasks_[std::size_t(side)] = runInBackground<JobTable>(
      this, tr("Reading the job's instances"),
      [directory](Progress& p) { return loadJobTable(directory, p); },
      [this, side, heading, shown](std::shared_ptr<const JobTable> loaded) {
        jobTables_[std::size_t(side)] = loaded;
        jobPanels_[std::size_t(side)]->setTable(heading, std::move(loaded), shown);
        // The table grew: lay the page out now, not on a later event, so a page that says it
        // is ready (a headless screenshot) never shows the figures over the rows.
        layout()->activate();
        taskDone();
      },
      [this](const QString& message) {
        emit errorOccurred(message);
        taskDone();
      });
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
  jobTasks_ = {};
  pending_ = 0;
  for (JobSummaryPanel* panel : jobPanels_)
    panel->hide();
  if (!doc) return;
  ++pending_;
  if (doc->isJob()) {
    const unsigned shown = doc->instanceIndex();
    if (doc->base()) {
      showJob(1,
              tr("Base job %1: %2 instances")
                  .arg(doc->base()->displayName())
                  .arg(doc->base()->instanceTotal()),
              doc->base()->sourcePath(), shown);
      showJob(0,
              tr("Current job %1: %2 instances").arg(doc->displayName()).arg(doc->instanceTotal()),
              doc->sourcePath(), shown);
    } else {
      showJob(0,
              tr("Job %1: %2 instances (click an instance to show it in every view)")
                  .arg(doc->displayName())
                  .arg(doc->instanceTotal()),
              doc->sourcePath(), shown);
    }
  }
  task_ = runInBackground<SummaryData>(
      this, tr("Reading the summary"), [doc](Progress& p) { return loadSummary(*doc, p); },
      [this](std::shared_ptr<const SummaryData> summary) {
        const bool compared = summary->compared;
        model_->setData(std::move(summary));
        view_->expandAll();
        fitColumns(compared);
        taskDone();
      },
      reportError());
}

} // namespace tessera::viewer
