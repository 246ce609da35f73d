#pragma once

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

// The op: returns a * 2 + b, built from PopLibs element-wise operations.
poplar::Tensor scaledSum(poplar::Graph &graph, const poplar::Tensor &a, const poplar::Tensor &b,
                         poplar::program::Sequence &prog, const poplar::DebugContext &dc = {});
