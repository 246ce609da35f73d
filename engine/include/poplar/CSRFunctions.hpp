// The tiles' floating-point control: which floating-point exceptions stop the program, and
// stochastic rounding. Each function appends to `prog` a compute set that writes the control
// register of every tile of `graph` (one vertex per tile), as on the IPU.
//
// What the simulation honours (docs/compatibility.md): with inv, a vertex that writes a NaN to
// a floating-point output stops the run with poplar::floating_point_exception naming the
// vertex; with oflo or div0, an infinity does the same. esr (stochastic rounding) and nanoo
// (NaN instead of infinity on overflow) are recorded in the control but do not change the
// host's rounding.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

namespace poplar {

struct FloatingPointBehaviour {
  FloatingPointBehaviour() = default;
  FloatingPointBehaviour(bool inv_, bool div0_, bool oflo_, bool esr_, bool nanoo_)
      : inv(inv_), div0(div0_), oflo(oflo_), esr(esr_), nanoo(nanoo_) {}
  /// Every flag inverted: the mask that clears what this one sets.
  FloatingPointBehaviour operator!() const { return {!inv, !div0, !oflo, !esr, !nanoo}; }

  bool inv = true;   ///< stop on an invalid operation (a NaN result)
  bool div0 = true;  ///< stop on a division by zero
  bool oflo = true;  ///< stop on an overflow
  bool esr = true;   ///< stochastic rounding
  bool nanoo = true; ///< NaN rather than infinity on overflow
};

/// Sets the control of every tile to `behaviour`.
void setFloatingPointBehaviour(Graph& graph, program::Sequence& prog,
                               const FloatingPointBehaviour& behaviour,
                               const DebugContext& debugContext = {});
/// Turns stochastic rounding on or off, keeping the other flags.
void setStochasticRounding(Graph& graph, program::Sequence& prog, bool enable,
                           const DebugContext& debugContext = {});
/// Sets the flags of `set` and clears those of `clear` (others kept); returns a tensor holding
/// the control as it was before (for setFloatingPointBehaviour(graph, prog, tensor) to restore).
Tensor getAndModifyFloatingPointBehaviour(Graph& graph, program::Sequence& prog,
                                          const FloatingPointBehaviour& set,
                                          const FloatingPointBehaviour& clear,
                                          const DebugContext& debugContext = {});
/// Restores a control saved by getAndModifyFloatingPointBehaviour.
void setFloatingPointBehaviour(Graph& graph, program::Sequence& prog, const Tensor& behaviour,
                               const DebugContext& debugContext = {});

} // namespace poplar
