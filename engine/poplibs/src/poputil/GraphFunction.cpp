#include <poputil/DebugInfo.hpp>
#include <poputil/GraphFunction.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using namespace poplar::program;

namespace poputil {
namespace graphfn {

namespace {

// One parameter per argument, laid out like the sample; created ones start empty and the
// body fills them in.
std::vector<Tensor> makeParams(Graph& graph, const Signature& sig, const DebugNameAndId& dnai) {
  std::vector<Tensor> params;
  params.reserve(sig.size());
  for (const ArgSig& s : sig) {
    if (s.type == CreatedArg) {
      params.emplace_back();
      continue;
    }
    if (!s.similarTensor.valid())
      throw poplibs_error("poputil::graphfn: argument '" + s.debugName +
                          "' is not a created argument but its sample tensor is invalid");
    params.push_back(graph.clone(s.similarTensor, {dnai, s.debugName}));
  }
  return params;
}

void checkCreated(const Signature& sig, const std::vector<Tensor>& params) {
  for (std::size_t i = 0; i < sig.size(); ++i)
    if (sig[i].type == CreatedArg && !params[i].valid())
      throw poplibs_error("poputil::graphfn: the body did not set created argument " +
                          std::to_string(i) + " ('" + sig[i].debugName + "')");
}

} // namespace

VoidFunction::VoidFunction(VoidFunction&&) = default;

VoidFunction::VoidFunction(Graph& graph_, Signature sig_,
                           std::function<void(std::vector<Tensor>&, Sequence&)> f, bool inlined_,
                           const DebugContext& debugContext)
    : VoidFunction(
          graph_, std::move(sig_),
          [&f](std::vector<Tensor>& args, Sequence& seq, const DebugNameAndId&) { f(args, seq); },
          inlined_, debugContext) {}

VoidFunction::VoidFunction(
    Graph& graph_, Signature sig_,
    std::function<void(std::vector<Tensor>&, Sequence&, const DebugNameAndId&)> f, bool inlined_,
    const DebugContext& debugContext)
    : graph(graph_), sig(std::move(sig_)), inlined(inlined_), prog(debugContext) {
  PoplibsOpDebugInfo di(debugContext, DI_ARGS(inlined));
  params = makeParams(graph, sig, {di});
  f(params, prog, {di});
  checkCreated(sig, params);
  // Outlined: the body's code exists once in the graph and every call jumps to it.
  if (!inlined) func = graph.addFunction(prog);
}

void VoidFunction::operator()(std::vector<Tensor>& args, Sequence& seq,
                              const DebugContext& debugContext) {
  // Only the number of arguments is recorded: created ones are still empty tensors here.
  const std::size_t numArgs = args.size();
  PoplibsOpDebugInfo di(debugContext, DI_ARGS(numArgs));
  if (args.size() != sig.size())
    throw poplibs_error("poputil::graphfn: the function takes " + std::to_string(sig.size()) +
                        " arguments, the call passes " + std::to_string(args.size()));
  for (std::size_t i = 0; i < sig.size(); ++i) {
    if (sig[i].type == CreatedArg) continue;
    if (!args[i].valid() || args[i].shape() != params[i].shape() ||
        args[i].elementType() != params[i].elementType())
      throw poplibs_error("poputil::graphfn: argument " + std::to_string(i) + " ('" +
                          sig[i].debugName + "') must be a " + params[i].elementType().toString() +
                          " tensor of shape " + params[i].shapeToString() +
                          (args[i].valid() ? ", not " + args[i].elementType().toString() + " " +
                                                 args[i].shapeToString()
                                           : ", not an invalid tensor"));
  }
  for (std::size_t i = 0; i < sig.size(); ++i)
    if (sig[i].type == InputArg || sig[i].type == InOutArg)
      seq.add(Copy(args[i], params[i], false, {di}));
  if (inlined)
    seq.add(prog);
  else
    seq.add(Call(func, {di}));
  for (std::size_t i = 0; i < sig.size(); ++i) {
    // A created result gets a fresh tensor per call, so calls do not share one.
    if (sig[i].type == CreatedArg) args[i] = graph.clone(params[i], {di, sig[i].debugName});
    if (sig[i].type != InputArg) seq.add(Copy(params[i], args[i], false, {di}));
  }
}

ProgramFunction::ProgramFunction(Graph& graph, Signature sig,
                                 std::function<Program(std::vector<Tensor>&)> f, bool inlined,
                                 const DebugContext& debugContext)
    : voidFunc(
          graph, std::move(sig),
          [&f](std::vector<Tensor>& args, Sequence& seq) { seq.add(f(args)); }, inlined,
          debugContext) {}

ProgramFunction::ProgramFunction(
    Graph& graph, Signature sig,
    std::function<Program(std::vector<Tensor>&, const DebugNameAndId&)> f, bool inlined,
    const DebugContext& debugContext)
    : voidFunc(
          graph, std::move(sig),
          [&f](std::vector<Tensor>& args, Sequence& seq, const DebugNameAndId& dnai) {
            seq.add(f(args, dnai));
          },
          inlined, debugContext) {}

Program ProgramFunction::operator()(std::vector<Tensor>& args, const DebugContext& debugContext) {
  Sequence seq(debugContext);
  voidFunc(args, seq, debugContext);
  return seq;
}

namespace {
Signature withCreatedResult(Signature s) {
  s.push_back(created("result"));
  return s;
}
} // namespace

TensorFunction::TensorFunction(Graph& graph, Signature sig,
                               std::function<Tensor(std::vector<Tensor>&, Sequence&)> f,
                               bool inlined, const DebugContext& debugContext)
    : voidFunc(
          graph, withCreatedResult(std::move(sig)),
          [&f](std::vector<Tensor>& args, Sequence& seq) { args.back() = f(args, seq); }, inlined,
          debugContext) {}

TensorFunction::TensorFunction(
    Graph& graph, Signature sig,
    std::function<Tensor(std::vector<Tensor>&, Sequence&, const DebugNameAndId&)> f, bool inlined,
    const DebugContext& debugContext)
    : voidFunc(
          graph, withCreatedResult(std::move(sig)),
          [&f](std::vector<Tensor>& args, Sequence& seq, const DebugNameAndId& dnai) {
            args.back() = f(args, seq, dnai);
          },
          inlined, debugContext) {}

Tensor TensorFunction::operator()(std::vector<Tensor>& args, Sequence& prog,
                                  const DebugContext& debugContext) {
  args.emplace_back();
  voidFunc(args, prog, debugContext);
  Tensor result = args.back();
  args.pop_back();
  return result;
}

} // namespace graphfn
} // namespace poputil
