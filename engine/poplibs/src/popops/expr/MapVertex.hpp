// The fused expression vertex: one vertex type per expression, named as the program is
// ("popops::map::ADD__1_float__2_float"), registered in the "popops" codelet source the first
// time a graph maps that expression.
#pragma once

#include "popops/expr/MapProgram.hpp"

#include <cstddef>
#include <cstdint>
#include <poplar/Target.hpp>

namespace popops::mapexpr {

/// Registers the vertex type p.name (once per process). Its fields: the input edge lists
/// inFloat, inHalf, inInt, inUnsigned and inBool (the slots of each type, in slot order), the
/// output "out" (or "in1" when the program is in place) and the state "program" (the id).
void ensureVertexType(const Program& p);

/// Tessera's estimate for one vertex evaluating `p` over `n` elements: the vertex overhead
/// plus, per vector of elements, one cycle per load, store and simple operation (more for
/// division and functions). Kept apart from the one-operation vertices' estimators.
std::uint64_t mapCycles(const Program& p, std::size_t n, const poplar::Target& target);

} // namespace popops::mapexpr
