// Planning convolutions and matrix products ahead of building them (PopLibs' poplin::preplan).
#pragma once

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/MatMul.hpp>
#include <set>
#include <tuple>

namespace poplin {

/// Plans every convolution of `convs` and every product of `matmuls` into `cache`, so the
/// functions given the same parameters, options and cache later reuse the plans. All targets
/// must have the same number of tiles (a poputil::poplibs_error otherwise); a null target or
/// bad options are errors too.
void preplan(const std::set<ConvPlanParams>& convs, const std::set<MatMulPlanParams>& matmuls,
             PlanningCache& cache);

} // namespace poplin
