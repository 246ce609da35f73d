// Small helpers PopLibs code and custom operations use everywhere: merging and partitioning
// intervals of elements, flat and multi-dimensional indices, duplicating and cloning tensors.
#pragma once

#include <algorithm>
#include <cassert>
#include <climits>
#include <cstddef>
#include <poplar/DebugContext.hpp>
#include <poplar/Device.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Program.hpp>
#include <poplar/Quarter.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/TensorCloneMethod.hpp>
#include <string>
#include <vector>

namespace poputil {

/// Sorts nothing: joins each interval with the next when they touch (end == next begin).
void mergeAdjacentRegions(std::vector<poplar::Interval>& regions);
/// The same for every tile's list.
void mergeAdjacentRegions(std::vector<std::vector<poplar::Interval>>& mapping);

/// All the intervals of all the lists, in order.
std::vector<poplar::Interval>
flattenIntervals(const std::vector<std::vector<poplar::Interval>>& intervals);

/// Partitions `regions` (in order) into at most maxPartitions lists of about equal numbers of
/// elements, cutting at multiples of grainSize from each region's start; each partition holds
/// at least minElementsPerPartition (when there are enough) and at most
/// maxElementsPerPartition elements, and no piece is longer than maxElementsPerRegion.
std::vector<std::vector<poplar::Interval>>
splitRegions(const std::vector<poplar::Interval>& regions, unsigned grainSize,
             unsigned maxPartitions, unsigned minElementsPerPartition = 0,
             unsigned maxElementsPerPartition = UINT_MAX, unsigned maxElementsPerRegion = UINT_MAX);

/// splitRegions with one partition per worker context of `target`'s tiles.
std::vector<std::vector<poplar::Interval>> splitRegionsBetweenWorkers(
    const poplar::Target& target, const std::vector<poplar::Interval>& regions, unsigned grainSize,
    unsigned minElementsPerPartition = 0, unsigned maxElementsPerPartition = UINT_MAX,
    unsigned maxElementsPerRegion = UINT_MAX);

/// The same over sequences of regions: each partition is a list of (pieces of) sequences.
std::vector<std::vector<std::vector<poplar::Interval>>>
splitRegions(const std::vector<std::vector<poplar::Interval>>& regions, unsigned grainSize,
             unsigned maxPartitions, unsigned minElementsPerPartition = 0,
             unsigned maxElementsPerPartition = UINT_MAX, unsigned maxElementsPerRegion = UINT_MAX);

std::vector<std::vector<std::vector<poplar::Interval>>> splitRegionsBetweenWorkers(
    const poplar::Target& target, const std::vector<std::vector<poplar::Interval>>& regions,
    unsigned grainSize, unsigned minElementsPerPartition = 0,
    unsigned maxElementsPerPartition = UINT_MAX, unsigned maxElementsPerRegion = UINT_MAX);

/// The coordinates, in a tensor of `shape`, of element `index` of its flattened form.
template <class T> std::vector<T> unflattenIndex(const std::vector<T>& shape, std::size_t index) {
  std::vector<T> coord(shape.size());
  for (std::size_t i = shape.size(); i > 0; --i) {
    coord[i - 1] = T(index % shape[i - 1]);
    index /= shape[i - 1];
  }
  assert(index == 0);
  return coord;
}

/// The flat index of the element at `indices` in a tensor of `shape` (row-major).
template <class T>
std::size_t flattenIndex(const std::vector<T>& shape, const std::vector<T>& indices) {
  assert(indices.size() == shape.size());
  std::size_t index = 0;
  for (std::size_t i = 0; i < shape.size(); ++i)
    index = index * shape[i] + indices[i];
  return index;
}

/// Elements in all the intervals of all the sequences.
std::size_t intervalSequenceNumElements(const std::vector<std::vector<poplar::Interval>>& seq);

/// A new tensor mapped like `in` holding a copy of its elements (a Copy added to `p`).
poplar::Tensor duplicate(
    poplar::Graph& graph, const poplar::Tensor& in, poplar::program::Sequence& p,
    const poplar::DebugContext& debugContext = {},
    poplar::TensorCloneMethod method = poplar::TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);

/// A tensor of shape [N, t's shape...] whose N slices are each laid out like `t`.
poplar::Tensor
cloneN(poplar::Graph& graph, const poplar::Tensor& t, unsigned N,
       const poplar::DebugContext& debugContext = {},
       poplar::TensorCloneMethod method = poplar::TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);

/// [0, rangeUpperBound) cut into splitCount sizes as equal as possible (larger first).
std::vector<int> balancedPartition(int rangeUpperBound, int splitCount);

/// Whether `input` of inputType survives a cast to outputType within relative `tolerance`
/// (and without overflow).
bool checkAccuracyWhenCast(const poplar::Target& target, double input, poplar::Type inputType,
                           poplar::Type outputType, double tolerance);

/// `input` rounded to the nearest half the device can hold (as a cast to half on `target`
/// would give).
double castToDeviceHalfValue(const poplar::Target& target, double input);

/// Splits each of the dimensions startDim, startDim+1, ... of t by the matching factor f (the
/// dimension must divide by it) into [size/f, f], then moves the factors inside all the split
/// dimensions: shape [4,6,4] with factors {1,2} gives [4,3,1,2,4].
poplar::Tensor factorDims(const poplar::Tensor& t, const std::vector<std::size_t>& factors,
                          unsigned startDim = 0);

/// The inverse of factorDims for numDims factored dimensions starting at startDim.
poplar::Tensor unfactorDims(const poplar::Tensor& t, unsigned numDims, unsigned startDim = 0);

/// A one-element QUARTER_METADATA constant on tile 0 holding (fp8Format, fp8Scale), for casts
/// to QUARTER. Deprecated in PopLibs for poplar::createConstantMetadataTensor, which it calls.
poplar::Tensor createConstantMetadataTensor(poplar::Graph& graph,
                                            poplar::QuarterMetadata::Format fp8Format,
                                            int fp8Scale);
/// As above, a variable initialised to (fp8Format, fp8Scale). Deprecated in PopLibs for
/// poplar::createVariableMetadataTensor, which it calls.
poplar::Tensor createVariableMetadataTensor(poplar::Graph& graph,
                                            poplar::QuarterMetadata::Format fp8Format,
                                            int fp8Scale);

/// For intervals that cover [0, N) and shuffle a tensor (concat(t.slices(intervals))), the
/// intervals that shuffle the result back into t's order.
std::vector<poplar::Interval>
calculateUnshufflingIntervals(const std::vector<poplar::Interval>& intervals);

} // namespace poputil
