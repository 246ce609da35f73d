// An operation's variables into a page's Variables box, and out again.
#include "widgets/FollowVariables.hpp"

#include <QLineEdit>

namespace tessera::viewer {

void FollowVariables::follow(const std::shared_ptr<const Document>& doc, QObject* context,
                             QLineEdit* box, std::function<void(const QString&)> apply) {
  QObject::disconnect(link_);
  applied_->clear();
  if (!doc || !doc->isReport()) return;
  auto applied = applied_;
  link_ = QObject::connect(&doc->session().selection(), &SelectionModel::changed, context,
                           [box, apply = std::move(apply), applied](const Selection& sel) {
                             if (sel.origin == Selection::Origin::Operation &&
                                 !sel.variables.isEmpty()) {
                               *applied = sel.variables.join(QStringLiteral("; "));
                               apply(*applied);
                             } else if (!applied->isEmpty() && box->text() == *applied) {
                               applied->clear();
                               apply(QString());
                             }
                           });
}

} // namespace tessera::viewer
