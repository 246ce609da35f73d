// Home: buttons and the recent-files list (Delete removes an entry).
#include "widgets/HomePage.hpp"

#include "core/Settings.hpp"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace tessera::viewer {

HomePage::HomePage(QWidget* parent) : QWidget(parent), m_recent(new QListWidget(this)) {
  auto* title = new QLabel(tr("<h1>Tessera</h1><p>Profile reports and host traces of IPU programs.</p>"), this);
  auto* open = new QPushButton(tr("Open a report or trace…"), this);
  auto* compare = new QPushButton(tr("Compare two reports…"), this);
  connect(open, &QPushButton::clicked, this, &HomePage::openRequested);
  connect(compare, &QPushButton::clicked, this, &HomePage::compareRequested);
  auto* hint = new QLabel(tr("Open a report directory (profile.pop, with debug.cbor beside it), a profile.pop or "
                             "a .pvti host trace; or drop one on this window."), this);
  hint->setWordWrap(true);

  m_recent->setObjectName(QStringLiteral("recentFiles"));
  m_recent->setContextMenuPolicy(Qt::ActionsContextMenu);
  auto* remove = new QAction(tr("Remove from recent files"), m_recent);
  remove->setShortcut(QKeySequence::Delete);
  remove->setShortcutContext(Qt::WidgetShortcut);
  m_recent->addAction(remove);
  connect(remove, &QAction::triggered, this, [this] {
    if (auto* item = m_recent->currentItem()) Settings::instance().removeRecentFile(item->data(Qt::UserRole).toString());
  });
  connect(m_recent, &QListWidget::itemActivated, this,
          [this](QListWidgetItem* item) { emit openPathRequested(item->data(Qt::UserRole).toString()); });
  connect(&Settings::instance(), &Settings::changed, this, &HomePage::refreshRecent);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(title);
  layout->addWidget(open);
  layout->addWidget(compare);
  layout->addWidget(hint);
  layout->addWidget(new QLabel(tr("<b>Recent</b>"), this));
  layout->addWidget(m_recent, 1);
  layout->setContentsMargins(48, 24, 48, 24);
  refreshRecent();
}

void HomePage::refreshRecent() {
  m_recent->clear();
  for (const QString& path : Settings::instance().recentFiles()) {
    auto* item = new QListWidgetItem(QDir::toNativeSeparators(path), m_recent);
    item->setData(Qt::UserRole, path);
    if (!QFileInfo::exists(path)) item->setToolTip(tr("No longer exists"));
  }
}

} // namespace tessera::viewer
