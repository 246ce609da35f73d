// What the user has selected in one document, shared by every page of its session: an operation
// or a layer (Operations), a program and what it holds (Program tree), a step (Execution trace).
// A page that selects something publishes it here with the programs whose steps it covers and
// the variables it owns; the other pages follow: the Execution trace highlights those programs'
// steps, Memory and Liveness show those variables, Operations and the Program tree select the
// operation or program of a step clicked in the trace. GUI thread only.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <vector>

namespace tessera::viewer {

struct Selection {
  /// Where it was made: a page does not follow its own selections.
  enum class Origin { None, ProgramTree, Operation, Layer, ExecutionStep };
  Origin origin = Origin::None;
  QString label; ///< "operation fwd/layer1/matmul/MatMul", "layer poplibs", "program fwd"
  std::vector<std::uint32_t> programs; ///< program ids whose steps it covers
  QStringList variables;               ///< names of the variables it owns
  bool empty() const { return origin == Origin::None; }
};

class SelectionModel : public QObject {
  Q_OBJECT
public:
  using QObject::QObject;
  const Selection& current() const { return current_; }
  /// Publishes a selection (an empty one clears it); every subscriber gets `changed`.
  void select(Selection selection);
  void clear() { select({}); }

signals:
  void changed(const tessera::viewer::Selection& selection);

private:
  Selection current_;
  bool publishing_ = false; ///< a subscriber selecting in turn does not echo back
};

} // namespace tessera::viewer
