// The job table: a heading, the instances, the spread and slowdown.
#include "widgets/JobSummaryPanel.hpp"

#include "models/JobSummaryModel.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace tessera::viewer {

JobSummaryPanel::JobSummaryPanel(QWidget* parent)
    : QWidget(parent), heading_(new QLabel(this)), model_(new JobSummaryModel(this)),
      view_(new QTableView(this)), figures_(new QLabel(this)) {
  heading_->setTextFormat(Qt::PlainText);
  QFont bold = heading_->font();
  bold.setBold(true);
  heading_->setFont(bold);
  view_->setModel(model_);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setSelectionMode(QAbstractItemView::SingleSelection);
  view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view_->verticalHeader()->hide();
  view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  view_->horizontalHeader()->setStretchLastSection(true);
  view_->setAlternatingRowColors(true);
  view_->setObjectName(QStringLiteral("jobTable"));
  figures_->setWordWrap(true);
  figures_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(heading_);
  layout->addWidget(view_);
  layout->addWidget(figures_);
  connect(view_, &QTableView::clicked, this, [this](const QModelIndex& index) {
    if (index.isValid()) emit instanceClicked(model_->row(index.row()).index);
  });
}

void JobSummaryPanel::setTable(const QString& heading, std::shared_ptr<const JobTable> table,
                               unsigned shown) {
  heading_->setText(heading);
  figures_->setText(table ? table->spreadText() + QLatin1Char('\n') + table->slowdownText()
                          : QString());
  model_->setTable(std::move(table), shown);
  // As tall as its rows (a few instances; a long job scrolls past 8).
  const int rows = std::min(model_->rowCount(), 8);
  view_->setFixedHeight(view_->horizontalHeader()->sizeHint().height() +
                        rows * view_->verticalHeader()->defaultSectionSize() +
                        2 * view_->frameWidth());
  layout()->activate(); // this panel's size now, so the page's layout can use it at once
}

void JobSummaryPanel::setShownInstance(unsigned shown) {
  model_->setShownInstance(shown);
}

} // namespace tessera::viewer
