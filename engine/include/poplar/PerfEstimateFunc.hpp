// The signature of a cycle estimator registered with Graph::registerPerfEstimator. Its own
// header, as in Poplar, for code that supplies estimators without building graphs.
#pragma once

#include <cstdint>
#include <functional>
#include <poplar/VertexIntrospector.hpp>

namespace poplar {

class Target;

/// A vertex's cost: cycles, and floating-point operations per execution (for
/// profiler.includeFlopEstimates; 0 when it does none).
struct VertexPerfEstimate {
  VertexPerfEstimate(std::uint64_t cycles_ = 0, std::uint64_t flops_ = 0) // NOLINT
      : cycles(cycles_), flops(flops_) {}
  std::uint64_t cycles;
  std::uint64_t flops;
};

using PerfEstimateFunc = std::function<std::uint64_t(const VertexIntrospector&, const Target&)>;

} // namespace poplar
