// The signature of a cycle estimator registered with Graph::registerPerfEstimator. Its own
// header, as in Poplar, for code that supplies estimators without building graphs.
#pragma once

#include <cstdint>
#include <functional>

#include <poplar/VertexIntrospector.hpp>

namespace poplar {

class Target;

using PerfEstimateFunc = std::function<std::uint64_t(const VertexIntrospector&, const Target&)>;

} // namespace poplar
