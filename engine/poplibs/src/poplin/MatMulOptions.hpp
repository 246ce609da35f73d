// The options poplin's matrix products take, and the convolution options they become (a matmul
// is planned as the 1x1 convolution PopLibs runs it as).
#pragma once

#include "ConvPlan.hpp"

#include <poplar/OptionFlags.hpp>
#include <poplar/Type.hpp>
#include <poplin/MatMul.hpp>
#include <set>
#include <string>

namespace poplin {

struct MatMulOptions {
  poplar::Type partialsType = poplar::FLOAT;
  std::string fullyConnectedPass = "NONE";
  double availableMemoryProportion = 0.6;
};

/// Reads the options matMul understands; throws poplar::invalid_option naming `op` otherwise.
MatMulOptions parseMatMulOptions(const poplar::OptionFlags& options, const std::string& op);

/// The convolution options of a product's: its partials type and memory proportion, and its
/// fully-connected pass as the convolution's FC_ pass.
ConvOptions toConvOptions(const MatMulOptions& options);

/// The plans matMul will use for `matmuls`, into `cache` (preplanMatMuls and preplan; errors
/// name `op`).
void preplanMatMulsInto(const std::set<MatMulPlanParams>& matmuls, PlanningCache& cache,
                        const std::string& op);

} // namespace poplin
