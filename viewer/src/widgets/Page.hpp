// One view of an open document (Summary, Memory, Liveness, ...). The main window shows the pages
// that accept the document in a side list; each page loads what it needs off the GUI thread
// (core/Background.hpp) when it gets the document and says when it is ready, so headless
// screenshots and tests know when to look.
#pragma once

#include "core/Document.hpp"

#include <QWidget>
#include <memory>

namespace tessera::viewer {

class Page : public QWidget {
  Q_OBJECT
public:
  using QWidget::QWidget;

  /// Shown in the side list: "Memory".
  virtual QString title() const = 0;
  /// The name of --view on the command line: "memory".
  virtual QString viewKey() const = 0;
  /// Whether this page has something to show for the document (reports, traces, comparisons).
  virtual bool accepts(const Document& doc) const { return doc.isReport(); }
  /// Starts loading the document (null: clear). Must not block: read in the background.
  virtual void setDocument(std::shared_ptr<const Document> doc) = 0;
  /// The widget "Save image" renders (the page's main chart), or the page itself.
  virtual QWidget* imageWidget() { return this; }

  /// True once what the document gives this page is on screen.
  bool isReady() const { return ready_; }

signals:
  void readyChanged(bool ready);
  /// A reading error; the main window shows it in a dialog.
  void errorOccurred(const QString& message);

protected:
  /// The failure callback of this page's background tasks: passes the message on to errorOccurred.
  auto reportError() {
    return [this](const QString& message) { emit errorOccurred(message); };
  }
  void setReady(bool ready) {
    if (ready == ready_) return;
    ready_ = ready;
    emit readyChanged(ready);
  }

private:
  bool ready_ = false;
};

} // namespace tessera::viewer
