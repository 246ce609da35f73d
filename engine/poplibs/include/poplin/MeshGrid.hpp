// Evenly spaced values and coordinate grids, as PopLibs' poplin/MeshGrid.hpp gives them.
#pragma once

#include <cstddef>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <vector>

namespace poplin {

/// A constant [count] of `type` (FLOAT or HALF) from `left` to `right` inclusive, evenly spaced
/// (count 1: just `left`), mapped linearly over the tiles. Throws poputil::poplibs_error for
/// count 0 or another type.
poplar::Tensor linspace(poplar::Graph& graph, const poplar::Type& type, float left, float right,
                        size_t count, const poplar::DebugContext& debugContext = {});

/// For x [N] and y [M]: {X, Y}, both [M, N], X[i][j] = x[j] and Y[i][j] = y[i] (numpy's
/// meshgrid with "xy" indexing). Both are views (broadcasts) of x and y: nothing is copied.
/// Throws poputil::poplibs_error unless x and y have rank 1.
std::vector<poplar::Tensor> meshgrid2d(poplar::Graph& graph, poplar::Tensor x, poplar::Tensor y);

} // namespace poplin
