// Memory and Liveness follow the document's selection alike: an operation selected anywhere
// puts its largest variables' names in the page's Variables box (so Memory plots them and
// Liveness lists them and draws their lifetimes); a later selection of something else (a
// program, a layer, a step) clears the box again, if it still holds what the selection put
// there — never what the user typed.
#pragma once

#include "core/Document.hpp"

#include <QMetaObject>
#include <QString>
#include <functional>
#include <memory>

class QLineEdit;
class QObject;

namespace tessera::viewer {

class FollowVariables {
public:
  /// Follows `doc`'s selection (null or a trace: nothing) for the page `context`, whose box is
  /// `box` and whose filter `apply` sets. Replaces what it followed before.
  void follow(const std::shared_ptr<const Document>& doc, QObject* context, QLineEdit* box,
              std::function<void(const QString&)> apply);
  /// The text the last selection put in the box (empty when none).
  const QString& applied() const { return *applied_; }

private:
  QMetaObject::Connection link_;
  std::shared_ptr<QString> applied_ = std::make_shared<QString>();
};

} // namespace tessera::viewer
