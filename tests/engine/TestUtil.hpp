// Helpers of the engine tests; the shared ones (devices, the test codelets, exception matchers)
// come from tests/common.
#pragma once

#include "common/Devices.hpp"
#include "common/Exceptions.hpp"
#include "common/RawDb.hpp"
#include "common/TestCodelets.hpp"

#include <filesystem>
#include <functional>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <vector>

namespace test {

/// The same floats bit for bit (NaNs and signed zeros included), sizes too.
bool sameBits(const std::vector<float>& a, const std::vector<float>& b);

/// Runs a program once per host thread count, tessera.threads 1, 2 and 8 (`run` gets the engine
/// options and checks the results; INFO names the count), each writing its execution profile
/// into its own folder below `dir`, and returns each run's `steps` table, every column of every
/// row in id order.
std::vector<std::vector<std::vector<Value>>>
stepsPerThreadCount(const std::filesystem::path& dir,
                    const std::function<void(const poplar::OptionFlags&)>& run);

/// For each element of the flattened tensor, its (variable element) index, assuming it is a view
/// of the single variable `base`.
std::vector<std::size_t> elementIndices(const poplar::Tensor& t);

/// Maps every element of `t` to tile (index % numTiles), in blocks of `block`.
void mapRoundRobin(poplar::Graph& g, const poplar::Tensor& t, std::size_t block = 1);

} // namespace test
