// Copying runs of rows between two tensors at offsets known only at run time.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poputil/DebugInfo.hpp>
#include <string>
#include <vector>

namespace poplar {
class Tensor; // declared here too, as in PopLibs' header
} // namespace poplar

namespace popops {

/// For each entry i of the 1-D UNSIGNED_INT tensors tN, tInOffset and tOutOffset (one size):
///   tOut[tOutOffset[i] .. + tN[i]] = tIn[tInOffset[i] .. + tN[i]]
/// over the outermost dimension; the entries after the first tN[i] == 0 are ignored. tIn and
/// tOut have rank 2 or more, one element type, and rows of the same number of elements. With
/// zeroUnused the rows of tOut no entry writes are zeroed. A run outside either tensor stops
/// the program with poplar::application_runtime_error.
void sequenceSlice(poplar::Graph& graph, const poplar::Tensor& tIn, const poplar::Tensor& tOut,
                   const poplar::Tensor& tN, const poplar::Tensor& tInOffset,
                   const poplar::Tensor& tOutOffset, bool zeroUnused,
                   poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {});

} // namespace popops
