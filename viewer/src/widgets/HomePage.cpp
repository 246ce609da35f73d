// Home: buttons, the demo report, and the recent files and comparisons (Delete removes an entry).
#include "widgets/HomePage.hpp"

#include "core/DemoReport.hpp"
#include "core/Settings.hpp"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace tessera::viewer {

HomePage::HomePage(QWidget* parent)
    : QWidget(parent), recent_(new QListWidget(this)), comparisons_(new QListWidget(this)) {
  auto* title = new QLabel(
      tr("<h1>Tessera</h1><p>Profile reports and host traces of IPU programs.</p>"), this);
  auto* open = new QPushButton(tr("Open a report or trace…"), this);
  auto* compare = new QPushButton(tr("Compare two reports…"), this);
  connect(open, &QPushButton::clicked, this, &HomePage::openRequested);
  connect(compare, &QPushButton::clicked, this, &HomePage::compareRequested);
  // The demo report: made when Tessera was built, so a first look needs no program of one's own.
  const QString demo = demoReportPath();
  demo_ = new QPushButton(tr("Open the demo report (a short run of the MLP sample)"), this);
  demo_->setObjectName(QStringLiteral("demoReport"));
  demo_->setToolTip(demo);
  demo_->setVisible(!demo.isEmpty());
  connect(demo_, &QPushButton::clicked, this, [this, demo] { emit openPathRequested(demo); });
  auto* hint = new QLabel(
      tr("Open a report directory (profile.pop, with debug.cbor beside it), a profile.pop or "
         "a .pvti host trace; or drop one on this window."),
      this);
  hint->setWordWrap(true);

  recent_->setObjectName(QStringLiteral("recentFiles"));
  recent_->setContextMenuPolicy(Qt::ActionsContextMenu);
  auto* remove = new QAction(tr("Remove from recent files"), recent_);
  remove->setShortcut(QKeySequence::Delete);
  remove->setShortcutContext(Qt::WidgetShortcut);
  recent_->addAction(remove);
  connect(remove, &QAction::triggered, this, [this] {
    if (auto* item = recent_->currentItem())
      Settings::instance().removeRecentFile(item->data(Qt::UserRole).toString());
  });
  connect(recent_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
    emit openPathRequested(item->data(Qt::UserRole).toString());
  });
  comparisons_->setObjectName(QStringLiteral("recentComparisons"));
  comparisons_->setContextMenuPolicy(Qt::ActionsContextMenu);
  auto* removeComparison = new QAction(tr("Remove from recent comparisons"), comparisons_);
  removeComparison->setShortcut(QKeySequence::Delete);
  removeComparison->setShortcutContext(Qt::WidgetShortcut);
  comparisons_->addAction(removeComparison);
  connect(removeComparison, &QAction::triggered, this, [this] {
    if (auto* item = comparisons_->currentItem())
      Settings::instance().removeRecentComparison(
          {item->data(Qt::UserRole).toString(), item->data(Qt::UserRole + 1).toString()});
  });
  connect(comparisons_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
    emit comparisonRequested(item->data(Qt::UserRole).toString(),
                             item->data(Qt::UserRole + 1).toString());
  });
  connect(&Settings::instance(), &Settings::changed, this, &HomePage::refreshRecent);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(title);
  layout->addWidget(open);
  layout->addWidget(compare);
  layout->addWidget(demo_);
  layout->addWidget(hint);
  layout->addWidget(new QLabel(tr("<b>Recent</b>"), this));
  layout->addWidget(recent_, 2);
  layout->addWidget(new QLabel(tr("<b>Recent comparisons</b> (base ↔ current)"), this));
  layout->addWidget(comparisons_, 1);
  layout->setContentsMargins(48, 24, 48, 24);
  refreshRecent();
}

void HomePage::refreshRecent() {
  recent_->clear();
  for (const QString& path : Settings::instance().recentFiles()) {
    auto* item = new QListWidgetItem(QDir::toNativeSeparators(path), recent_);
    item->setData(Qt::UserRole, path);
    if (!QFileInfo::exists(path)) item->setToolTip(tr("No longer exists"));
  }
  comparisons_->clear();
  for (const Settings::Comparison& c : Settings::instance().recentComparisons()) {
    auto* item = new QListWidgetItem(
        tr("%1 ↔ %2").arg(QDir::toNativeSeparators(c.base), QDir::toNativeSeparators(c.current)),
        comparisons_);
    item->setData(Qt::UserRole, c.base);
    item->setData(Qt::UserRole + 1, c.current);
    if (!QFileInfo::exists(c.base) || !QFileInfo::exists(c.current))
      item->setToolTip(tr("No longer exists"));
  }
}

} // namespace tessera::viewer
