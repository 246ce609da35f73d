// Floating-point operations of a vertex, for profiler.includeFlopEstimates (docs/profiling.md,
// "FLOP estimates"). The count is a model of what the codelet computes, one rule per PopLibs
// codelet family, kept beside the cycle model so both can be read together. A vertex whose
// codelet the engine does not model (a user codelet compiled by popc, or one registered by the
// program) has no estimate: it is counted apart, never as 0 FLOPs.
#pragma once

#include "compiler/CompiledGraph.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace poplar::detail::models {

/// FLOPs of one execution of `v` (a vertex of `cs`); nullopt when its codelet has no FLOP model.
std::optional<std::uint64_t> vertexFlops(const compiler::CompiledComputeSet& cs,
                                         const compiler::CompiledVertex& v);

/// FLOPs of one execution of a compute set (all tiles of one replica), where they are (the same
/// FLOPs tile by tile, for the Operations view's per-tile chart), and the vertices that have no
/// estimate and so are not in `flops`.
struct ComputeSetFlops {
  std::uint64_t flops = 0;
  std::vector<std::uint64_t> flopsByTile; ///< `tiles` entries; they add up to `flops`
  std::uint64_t verticesWithoutEstimate = 0;
};
/// `tiles`: tiles of one replica (every vertex's tile is below it).
ComputeSetFlops computeSetFlops(const compiler::CompiledComputeSet& cs, unsigned tiles);

} // namespace poplar::detail::models
