// poplar/CSRFunctions.hpp: the control is written by vertices, one per tile, as on the IPU.
#include "GraphState.hpp"
#include "runtime/DeviceContext.hpp"

#include <poplar/CSRFunctions.hpp>
#include <poplar/Vertex.hpp>
#include <poplar/exceptions.hpp>
#include <string>

namespace poplar {
namespace detail::graph {
using runtime::activeFloatingPointControl;
using runtime::FloatingPointControl;

namespace {

constexpr const char* kSource = "poplar::CSRFunctions";

FloatingPointControl& active() {
  FloatingPointControl* c = activeFloatingPointControl();
  if (!c) throw poplar::runtime_error("floating-point control written outside a running engine");
  return *c;
}

/// Control = (control & ~clear) | set, writing the previous control to `previous` (one per tile).
class ModifyFloatingPointControl : public Vertex {
public:
  Output<unsigned> previous;
  unsigned set;
  unsigned clear;
  bool compute() {
    FloatingPointControl& c = active();
    *previous = c.bits;
    c.bits = (c.bits & ~clear) | set;
    return true;
  }
  // A read and a write of the control register with their setup, on the supervisor.
  static std::uint64_t getCycleEstimate(const VertexIntrospector&, const Target&) { return 8; }
};

/// Control = value.
class PutFloatingPointControl : public Vertex {
public:
  Input<unsigned> value;
  bool compute() {
    active().bits = value;
    return true;
  }
  static std::uint64_t getCycleEstimate(const VertexIntrospector&, const Target&) { return 6; }
};

TESSERA_VERTEX_IN(kSource, "poplar::ModifyFloatingPointControl", ModifyFloatingPointControl,
                  previous, set, clear);
TESSERA_VERTEX_IN(kSource, "poplar::PutFloatingPointControl", PutFloatingPointControl, value);

unsigned bitsOf(const FloatingPointBehaviour& b) {
  using C = FloatingPointControl;
  return (b.inv ? unsigned(C::Inv) : 0u) | (b.div0 ? unsigned(C::Div0) : 0u) |
         (b.oflo ? unsigned(C::Oflo) : 0u) | (b.esr ? unsigned(C::Esr) : 0u) |
         (b.nanoo ? unsigned(C::Nanoo) : 0u);
}

/// One vertex per tile of `graph`: returns the previous control, one element per tile.
Tensor modify(Graph& graph, program::Sequence& prog, unsigned set, unsigned clear,
              const DebugContext& dc, const char* what) {
  graph.state()->codeletSources.insert(codeletSourceName(kSource));
  const DebugContext context(dc, what);
  const unsigned tiles = graph.getTarget().getNumTiles();
  Tensor previous = graph.addVariable(UNSIGNED_INT, {tiles}, {context, "previous"});
  ComputeSet cs = graph.addComputeSet(context);
  for (unsigned t = 0; t < tiles; ++t) {
    VertexRef v =
        graph.addVertex(cs, "poplar::ModifyFloatingPointControl", {{"previous", previous[t]}});
    graph.setInitialValue(v["set"], set);
    graph.setInitialValue(v["clear"], clear);
    graph.setTileMapping(v, t);
    graph.setTileMapping(previous[t], t);
  }
  prog.add(program::Execute(cs, context));
  return previous;
}

} // namespace
} // namespace detail::graph

void setFloatingPointBehaviour(Graph& graph, program::Sequence& prog,
                               const FloatingPointBehaviour& behaviour, const DebugContext& dc) {
  detail::graph::modify(graph, prog, detail::graph::bitsOf(behaviour), ~0u, dc,
                        "setFloatingPointBehaviour");
}

void setStochasticRounding(Graph& graph, program::Sequence& prog, bool enable,
                           const DebugContext& dc) {
  const unsigned esr = detail::runtime::FloatingPointControl::Esr;
  detail::graph::modify(graph, prog, enable ? esr : 0u, esr, dc, "setStochasticRounding");
}

Tensor getAndModifyFloatingPointBehaviour(Graph& graph, program::Sequence& prog,
                                          const FloatingPointBehaviour& set,
                                          const FloatingPointBehaviour& clear,
                                          const DebugContext& dc) {
  return detail::graph::modify(graph, prog, detail::graph::bitsOf(set),
                               detail::graph::bitsOf(clear), dc,
                               "getAndModifyFloatingPointBehaviour");
}

void setFloatingPointBehaviour(Graph& graph, program::Sequence& prog, const Tensor& behaviour,
                               const DebugContext& dc) {
  const unsigned tiles = graph.getTarget().getNumTiles();
  if (behaviour.elementType() != UNSIGNED_INT || behaviour.numElements() != tiles)
    throw poplar::type_error(
        "setFloatingPointBehaviour: the behaviour tensor must be the " + std::to_string(tiles) +
        "-element unsigned int tensor that "
        "getAndModifyFloatingPointBehaviour returned, not a " +
        behaviour.elementType().toString() + " tensor of shape " + behaviour.shapeToString());
  graph.state()->codeletSources.insert(detail::codeletSourceName(detail::graph::kSource));
  const DebugContext context(dc, "setFloatingPointBehaviour");
  ComputeSet cs = graph.addComputeSet(context);
  const Tensor flat = behaviour.flatten();
  for (unsigned t = 0; t < tiles; ++t) {
    VertexRef v = graph.addVertex(cs, "poplar::PutFloatingPointControl", {{"value", flat[t]}});
    graph.setTileMapping(v, t);
  }
  prog.add(program::Execute(cs, context));
}

} // namespace poplar
