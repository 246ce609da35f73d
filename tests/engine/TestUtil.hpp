// Helpers of the engine tests; the shared ones (devices, the test codelets, exception matchers)
// come from tests/common.
#pragma once

#include "common/Devices.hpp"
#include "common/Exceptions.hpp"
#include "common/TestCodelets.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include <vector>

namespace test {

/// For each element of the flattened tensor, its (variable element) index, assuming it is a view
/// of the single variable `base`.
std::vector<std::size_t> elementIndices(const poplar::Tensor& t);

/// Maps every element of `t` to tile (index % numTiles), in blocks of `block`.
void mapRoundRobin(poplar::Graph& g, const poplar::Tensor& t, std::size_t block = 1);

} // namespace test
