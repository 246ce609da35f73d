#include "ProgramNode.hpp"

#include <poplar/exceptions.hpp>
#include <string>

namespace poplar::program {

using Node = detail::ProgramNode;
using Kind = Node::Kind;

namespace {
std::shared_ptr<Node> make(Kind kind, const DebugContext& dc) {
  auto n = std::make_shared<Node>();
  n->kind = kind;
  n->debug = dc;
  return n;
}
} // namespace

Program::Program() = default;
Program::Program(std::shared_ptr<Node> n) : node_(std::move(n)) {}

bool Program::isEmpty() const {
  return !node_ || (node_->kind == Kind::Sequence && node_->children.empty());
}

Node& Program::mutableNode() {
  if (node_.use_count() > 1) node_ = std::make_shared<Node>(*node_);
  return *node_;
}

Sequence::Sequence(const DebugContext& dc) : Program(make(Kind::Sequence, dc)) {}
Sequence::Sequence(std::initializer_list<Program> programs, const DebugContext& dc)
    : Program(make(Kind::Sequence, dc)) {
  node_->children.assign(programs.begin(), programs.end());
}
void Sequence::add(const Program& p) {
  mutableNode().children.push_back(p);
}

Execute::Execute(ComputeSet cs, const DebugContext& dc) : Program(make(Kind::Execute, dc)) {
  node_->computeSet = cs;
}

Copy::Copy(const Tensor& src, const Tensor& dst, bool, const DebugContext& dc)
    : Program(make(Kind::Copy, dc)) {
  node_->src = src;
  node_->dst = dst;
}
Copy::Copy(const DataStream& stream, const Tensor& dst, bool, const DebugContext& dc)
    : Program(make(Kind::StreamToDevice, dc)) {
  node_->stream = stream;
  node_->dst = dst;
}
Copy::Copy(const Tensor& src, const DataStream& stream, bool, const DebugContext& dc)
    : Program(make(Kind::StreamFromDevice, dc)) {
  node_->stream = stream;
  node_->src = src;
}
Copy::Copy(const RemoteBuffer& buffer, const Tensor& dst, const DebugContext& dc)
    : Program(make(Kind::RemoteToDevice, dc)) {
  node_->remoteBuffer = buffer;
  node_->dst = dst;
}
Copy::Copy(const RemoteBuffer& buffer, const Tensor& dst, const Tensor& offset,
           const DebugContext& dc)
    : Copy(buffer, dst, dc) {
  node_->scalar = offset;
}
Copy::Copy(const Tensor& src, const RemoteBuffer& buffer, const DebugContext& dc)
    : Program(make(Kind::RemoteFromDevice, dc)) {
  node_->remoteBuffer = buffer;
  node_->src = src;
}
Copy::Copy(const Tensor& src, const RemoteBuffer& buffer, const Tensor& offset,
           const DebugContext& dc)
    : Copy(src, buffer, dc) {
  node_->scalar = offset;
}

Repeat::Repeat(unsigned count, const Program& body, const DebugContext& dc)
    : Program(make(Kind::Repeat, dc)) {
  node_->count = count;
  node_->children = {body};
}

RepeatWhileTrue::RepeatWhileTrue(const Program& cond, const Tensor& pred, const Program& body,
                                 const DebugContext& dc)
    : Program(make(Kind::RepeatWhileTrue, dc)) {
  node_->children = {cond, body};
  node_->scalar = pred;
}

RepeatWhileFalse::RepeatWhileFalse(const Program& cond, const Tensor& pred, const Program& body,
                                   const DebugContext& dc)
    : Program(make(Kind::RepeatWhileFalse, dc)) {
  node_->children = {cond, body};
  node_->scalar = pred;
}

If::If(const Tensor& pred, const Program& trueBody, const Program& falseBody,
       const DebugContext& dc)
    : Program(make(Kind::If, dc)) {
  node_->children = {trueBody, falseBody};
  node_->scalar = pred;
}

Switch::Switch(const Tensor& control, const DebugContext& dc) : Switch(control, Program(), dc) {}
Switch::Switch(const Tensor& control, const Program& defaultBody, const DebugContext& dc)
    : Program(make(Kind::Switch, dc)) {
  node_->scalar = control;
  node_->children = {defaultBody};
}
Switch::Switch(const Tensor& control, const std::vector<std::pair<std::int32_t, Program>>& cases,
               const DebugContext& dc)
    : Switch(control, cases, Program(), dc) {}
Switch::Switch(const Tensor& control, const std::vector<std::pair<std::int32_t, Program>>& cases,
               const Program& defaultBody, const DebugContext& dc)
    : Switch(control, defaultBody, dc) {
  for (const auto& [value, body] : cases)
    add(value, body);
}
Switch& Switch::add(std::int32_t value, const Program& body) {
  auto& n = mutableNode();
  n.children.insert(n.children.end() - 1, body); // the default stays last
  n.caseValues.push_back(value);
  return *this;
}
Switch Switch::switchWithBoundsChecking(const Tensor& control,
                                        const std::vector<std::pair<std::int32_t, Program>>& cases,
                                        const DebugContext& dc) {
  Switch s(control, cases, dc);
  s.mutableNode().boundsChecked = true;
  return s;
}

Call::Call(Function f, const DebugContext& dc) : Program(make(Kind::Call, dc)) {
  node_->function = f;
}

namespace {
// The tensors of a host-function call against the function's streams: same count, and each
// tensor the type and size of its stream (so the error names the call, not a hidden stream).
void checkHostCallArgs(const HostFunction& f, const std::vector<DataStream>& streams,
                       const std::vector<Tensor>& tensors, const char* what) {
  if (streams.size() != tensors.size())
    throw control_program_error("Call(HostFunction \"" + f.handle() +
                                "\"): " + std::to_string(tensors.size()) + " " + what +
                                " given, the function has " + std::to_string(streams.size()));
  for (std::size_t i = 0; i < streams.size(); ++i)
    if (tensors[i].elementType() != streams[i].elementType() ||
        tensors[i].numElements() != streams[i].numElements())
      throw control_program_error(
          "Call(HostFunction \"" + f.handle() + "\"): " + what + " " + std::to_string(i) + " is " +
          tensors[i].elementType().toString() + " x " + std::to_string(tensors[i].numElements()) +
          ", the function's argument is " + streams[i].elementType().toString() + " x " +
          std::to_string(streams[i].numElements()));
}
} // namespace

// A host-function call is lowered to stream copies: each input goes to the host over its
// device-to-host stream, then each output comes back over its host-to-device stream. The
// engine's connectHostFunction gathers the inputs and runs the callback when the first output
// is fetched (or after the last input, for a function without outputs).
Call::Call(HostFunction f, const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs,
           const DebugContext& dc)
    : Program(make(Kind::Sequence, dc)) {
  if (f.handle().empty())
    throw control_program_error("Call(HostFunction): the function was not made by "
                                "Graph::addHostFunction");
  checkHostCallArgs(f, f.inputStreams(), inputs, "inputs");
  checkHostCallArgs(f, f.outputStreams(), outputs, "outputs");
  for (std::size_t i = 0; i < inputs.size(); ++i)
    node_->children.push_back(Copy(inputs[i], f.inputStreams()[i], false, dc));
  for (std::size_t j = 0; j < outputs.size(); ++j)
    node_->children.push_back(Copy(f.outputStreams()[j], outputs[j], false, dc));
}

Sync::Sync(SyncType type, const DebugContext& dc) : Program(make(Kind::Sync, dc)) {
  node_->syncType = type;
}

WriteUndef::WriteUndef(const Tensor& t, const DebugContext& dc)
    : Program(make(Kind::WriteUndef, dc)) {
  node_->dst = t;
}

Block::Block(const Program& body, const DebugContext& dc) : Program(make(Kind::Block, dc)) {
  node_->children = {body};
}

PrintTensor::PrintTensor(const Tensor& t, const DebugContext& dc) : PrintTensor("", t, dc) {}
PrintTensor::PrintTensor(const std::string& title, const Tensor& t, const DebugContext& dc)
    : PrintTensor(title, t, PrintTensorFmt(), dc) {}
PrintTensor::PrintTensor(const std::string& title, const Tensor& t, const PrintTensorFmt& fmt,
                         const DebugContext& dc)
    : Program(make(Kind::PrintTensor, dc)) {
  node_->src = t;
  node_->text = title;
  node_->printFormat = fmt;
}

AbortOnCondition::AbortOnCondition(const Tensor& pred, const std::string& message,
                                   const DebugContext& dc)
    : Program(make(Kind::Abort, dc)) {
  node_->scalar = pred;
  node_->text = message;
}

} // namespace poplar::program
