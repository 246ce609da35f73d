// The bundled user guide and its search.
#include "widgets/UserGuide.hpp"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QShortcut>
#include <QTextBrowser>
#include <QTextDocument>
#include <QVBoxLayout>

namespace tessera::viewer {

namespace {

/// Enter searches forward, Shift+Enter backward, in the search box.
class SearchBox : public QLineEdit {
public:
  SearchBox(UserGuide* guide, QWidget* parent) : QLineEdit(parent), guide_(guide) {}

protected:
  void keyPressEvent(QKeyEvent* event) override {
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
      guide_->step(!(event->modifiers() & Qt::ShiftModifier));
      return;
    }
    QLineEdit::keyPressEvent(event);
  }

private:
  UserGuide* guide_;
};

} // namespace

UserGuide::UserGuide(QWidget* parent)
    : QDialog(parent), browser_(new QTextBrowser(this)), searchBox_(new SearchBox(this, this)),
      status_(new QLabel(this)) {
  setWindowTitle(tr("Tessera viewer — user guide"));
  setObjectName(QStringLiteral("userGuide"));
  browser_->setObjectName(QStringLiteral("guideBrowser"));
  searchBox_->setObjectName(QStringLiteral("guideSearch"));
  searchBox_->setPlaceholderText(tr("Search the guide"));
  searchBox_->setClearButtonEnabled(true);
  // Room for "999 of 999" so the count is never cut.
  status_->setMinimumWidth(
      status_->fontMetrics().horizontalAdvance(QStringLiteral("9999 of 9999")));
  // Links to other bundled pages open here; web links in the desktop's browser.
  browser_->setOpenExternalLinks(true);
  browser_->setSource(QUrl(homeUrl()), QTextDocument::MarkdownResource);
  connect(browser_, &QTextBrowser::sourceChanged, this, [this] { search(searchBox_->text()); });

  auto* back = new QPushButton(tr("Back"), this);
  auto* home = new QPushButton(tr("Contents"), this);
  auto* previous = new QPushButton(tr("Previous"), this);
  auto* next = new QPushButton(tr("Next"), this);
  connect(back, &QPushButton::clicked, browser_, &QTextBrowser::backward);
  connect(browser_, &QTextBrowser::backwardAvailable, back, &QPushButton::setEnabled);
  back->setEnabled(false);
  connect(home, &QPushButton::clicked, this,
          [this] { browser_->setSource(QUrl(homeUrl()), QTextDocument::MarkdownResource); });
  connect(previous, &QPushButton::clicked, this, [this] { step(false); });
  connect(next, &QPushButton::clicked, this, [this] { step(true); });
  connect(searchBox_, &QLineEdit::textChanged, this, &UserGuide::search);
  auto* f3 = new QShortcut(QKeySequence::FindNext, this);
  connect(f3, &QShortcut::activated, this, [this] { step(true); });
  auto* shiftF3 = new QShortcut(QKeySequence::FindPrevious, this);
  connect(shiftF3, &QShortcut::activated, this, [this] { step(false); });
  auto* find = new QShortcut(QKeySequence::Find, this);
  connect(find, &QShortcut::activated, this, [this] {
    searchBox_->setFocus();
    searchBox_->selectAll();
  });

  auto* bar = new QHBoxLayout;
  bar->addWidget(back);
  bar->addWidget(home);
  bar->addWidget(searchBox_, 1);
  bar->addWidget(previous);
  bar->addWidget(next);
  bar->addWidget(status_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(bar);
  layout->addWidget(browser_, 1);
  resize(900, 700);
}

void UserGuide::search(const QString& text) {
  matches_.clear();
  current_ = -1;
  if (!text.isEmpty()) {
    QTextDocument* doc = browser_->document();
    QTextCursor c = doc->find(text, 0);
    while (!c.isNull()) {
      matches_.append(c);
      c = doc->find(text, c);
    }
  }
  if (!matches_.isEmpty()) current_ = 0;
  highlight();
}

void UserGuide::step(bool forward) {
  if (matches_.isEmpty()) return;
  const int n = int(matches_.size());
  current_ = (current_ + (forward ? 1 : n - 1)) % n;
  highlight();
}

void UserGuide::highlight() {
  // Every match pale yellow, the current one orange and scrolled to.
  QList<QTextEdit::ExtraSelection> selections;
  for (int i = 0; i < matches_.size(); ++i) {
    QTextEdit::ExtraSelection s;
    s.cursor = matches_[i];
    s.format.setBackground(i == current_ ? QColor(255, 150, 50) : QColor(255, 240, 120));
    s.format.setForeground(Qt::black);
    selections.append(s);
  }
  browser_->setExtraSelections(selections);
  if (current_ >= 0) {
    QTextCursor c = matches_[current_];
    c.clearSelection();
    browser_->setTextCursor(c);
    browser_->ensureCursorVisible();
  }
  if (searchBox_->text().isEmpty())
    status_->clear();
  else if (matches_.isEmpty())
    status_->setText(tr("no match"));
  else
    status_->setText(tr("%1 of %2").arg(current_ + 1).arg(matches_.size()));
}

} // namespace tessera::viewer
