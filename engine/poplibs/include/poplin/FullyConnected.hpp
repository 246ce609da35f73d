// Fully-connected layers as matrix products (PopLibs' poplin::fc): the products a layer's
// passes will run, for planning them ahead (poplin::preplan).
#pragma once

#include <cstddef>
#include <poplar/OptionFlags.hpp>
#include <poplar/Type.hpp>
#include <poplin/MatMul.hpp>
#include <utility>
#include <vector>

namespace poplin {
namespace fc {

/// A fully-connected layer: numGroups independent layers of the same shape, each taking
/// batchSize inputs of inputSize elements to outputs of outputSize elements.
struct FullyConnectedParams {
  std::size_t numGroups;
  std::size_t batchSize;
  std::size_t inputSize;
  std::size_t outputSize;
};

/// The grouped products of the layer's passes with matmulOptions and their "fullyConnectedPass"
/// set: the forward pass [G,batch,in] x [G,in,out] (INFERENCE_FWD when inferenceOnly, else
/// TRAINING_FWD), then for training the backward pass (in and out swapped, TRAINING_BWD) and
/// the weight update (batch and in swapped, TRAINING_WU). Both types are `type`.
std::vector<std::pair<MatMulParams, poplar::OptionFlags>>
getMatMulPrePlanParameters(FullyConnectedParams parameters, poplar::OptionFlags matmulOptions,
                           poplar::Type type, bool inferenceOnly);

} // namespace fc
} // namespace poplin
