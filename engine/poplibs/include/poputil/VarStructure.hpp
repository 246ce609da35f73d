// How tensors are laid out: creating tensors whose partitions are each contiguous, walking
// those partitions, and finding how elements are grouped in memory and on tiles.
#pragma once

#include <cstddef>
#include <functional>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>
#include <utility>
#include <vector>

namespace poputil {

/// (dimension, group size).
using GroupingInfo = std::pair<unsigned, unsigned>;

/// The largest number of consecutive elements of t's innermost dimension that are always
/// contiguous in memory and on one tile (a divisor of that dimension; 1 when none larger).
unsigned detectInnermostGrouping(const poplar::Graph& graph, const poplar::Tensor& t);

/// For each dimension whose elements come in groups larger than 1 (consecutive along that
/// dimension, contiguous in memory and on one tile), the dimension and group size; innermost
/// dimension first.
std::vector<GroupingInfo> detectDimGroupings(const poplar::Graph& graph, const poplar::Tensor& t);

/// A new variable of `shape` such that, cutting dimension d into nPartitions[d] parts of
/// ceil(shape[d] / nPartitions[d]) elements (the last parts may be smaller or empty), each part
/// is one contiguous region. No tile mapping is set.
poplar::Tensor createPartitionableTensor(poplar::Graph& graph, const poplar::Type& type,
                                         const std::vector<std::size_t>& shape,
                                         const std::vector<std::size_t>& nPartitions,
                                         const poplar::DebugContext& debugContext = {});

/// Calls f(partition indices, slice) for every non-empty partition of t, cut as above.
void iterateTensorPartitions(
    const poplar::Tensor& t, const std::vector<std::size_t>& nPartitions,
    const std::function<void(const std::vector<std::size_t>& i, const poplar::Tensor& s)>& f);

} // namespace poputil
