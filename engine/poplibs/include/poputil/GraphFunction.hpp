// Reusing one piece of graph for several tensors: a "graph function" is built once on parameter
// tensors laid out like sample arguments, then called with actual arguments, which are copied
// into the parameters (inputs), the body runs (as a Call of a poplar::Function, or inlined),
// and results are copied back (outputs). The body's vertices and code exist once, whatever the
// number of calls; each call costs only its copies.
#pragma once

#include <functional>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/GraphElements.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <string>
#include <utility>
#include <vector>

namespace poputil {
namespace graphfn {

/// How the body uses an argument: read (InputArg), written (OutputArg), both (InOutArg), or
/// made by the body itself (CreatedArg: the caller passes an empty tensor and gets a new one).
enum ArgType { InputArg, OutputArg, InOutArg, CreatedArg };

/// One argument of a signature: its use, a tensor whose shape, type and layout the parameter
/// copies (empty for CreatedArg), and the debug name of the parameter.
struct ArgSig {
  ArgType type;
  poplar::Tensor similarTensor;
  std::string debugName;
  ArgSig(ArgType type_, poplar::Tensor tensor, std::string debugName_)
      : type(type_), similarTensor(std::move(tensor)), debugName(std::move(debugName_)) {}
};

inline ArgSig input(poplar::Tensor similar, std::string debugName = "") {
  return ArgSig(InputArg, std::move(similar), std::move(debugName));
}
inline ArgSig inout(poplar::Tensor similar, std::string debugName = "") {
  return ArgSig(InOutArg, std::move(similar), std::move(debugName));
}
inline ArgSig output(poplar::Tensor similar, std::string debugName = "") {
  return ArgSig(OutputArg, std::move(similar), std::move(debugName));
}
inline ArgSig created(std::string debugName = "") {
  return ArgSig(CreatedArg, poplar::Tensor(), std::move(debugName));
}

using Signature = std::vector<ArgSig>;

/// A function whose body adds its work to a Sequence.
class VoidFunction {
  poplar::Graph& graph;
  Signature sig;
  bool inlined;
  poplar::program::Sequence prog;
  poplar::Function func;
  std::vector<poplar::Tensor> params;

public:
  VoidFunction(VoidFunction&& fn);
  VoidFunction(poplar::Graph& graph, Signature sig,
               std::function<void(std::vector<poplar::Tensor>&, poplar::program::Sequence&)> f,
               bool inlined = false, const poplar::DebugContext& debugContext = {});
  VoidFunction(poplar::Graph& graph, Signature sig,
               std::function<void(std::vector<poplar::Tensor>&, poplar::program::Sequence&,
                                  const poplar::DebugNameAndId&)>
                   f,
               bool inlined = false, const poplar::DebugContext& debugContext = {});

  /// Adds a call on `args` (one per signature entry, CreatedArg entries are set) to `seq`.
  void operator()(std::vector<poplar::Tensor>& args, poplar::program::Sequence& seq,
                  const poplar::DebugContext& dc = {});
};

/// A function whose body is a Program; a call returns the program to run.
class ProgramFunction {
  VoidFunction voidFunc;

public:
  ProgramFunction(poplar::Graph& graph, Signature sig,
                  std::function<poplar::program::Program(std::vector<poplar::Tensor>&)> f,
                  bool inlined = false, const poplar::DebugContext& debugContext = {});
  ProgramFunction(poplar::Graph& graph, Signature sig,
                  std::function<poplar::program::Program(std::vector<poplar::Tensor>&,
                                                         const poplar::DebugNameAndId&)>
                      f,
                  bool inlined = false, const poplar::DebugContext& debugContext = {});

  poplar::program::Program operator()(std::vector<poplar::Tensor>& args,
                                      const poplar::DebugContext& debugContext = {});
};

/// A function whose body returns a new tensor; each call returns a fresh copy of it.
class TensorFunction {
  VoidFunction voidFunc;

public:
  TensorFunction(
      poplar::Graph& graph, Signature sig,
      std::function<poplar::Tensor(std::vector<poplar::Tensor>&, poplar::program::Sequence&)> f,
      bool inlined = false, const poplar::DebugContext& debugContext = {});
  TensorFunction(
      poplar::Graph& graph, Signature sig,
      std::function<poplar::Tensor(std::vector<poplar::Tensor>&, poplar::program::Sequence&,
                                   const poplar::DebugNameAndId&)>
          f,
      bool inlined = false, const poplar::DebugContext& debugContext = {});

  poplar::Tensor operator()(std::vector<poplar::Tensor>& args, poplar::program::Sequence& prog,
                            const poplar::DebugContext& debugContext = {});
};

} // namespace graphfn
} // namespace poputil
