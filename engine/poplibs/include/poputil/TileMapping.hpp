// Spreading tensors over tiles.
#pragma once

#include <cstddef>
#include <memory>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/TensorCloneMethod.hpp>
#include <poplar/Type.hpp>
#include <vector>

namespace poputil {

/// Per tile, the intervals of a flattened tensor of `shape` in a linear mapping: the elements are
/// cut into grains of `grainSize`, and consecutive tiles take an equal number of whole grains,
/// at least `minElementsPerTile` elements each, so the last tiles may hold nothing.
std::vector<std::vector<poplar::Interval>>
calcLinearTileMapping(const poplar::Graph& graph, const std::vector<std::size_t>& shape,
                      unsigned minElementsPerTile, unsigned grainSize);
std::vector<std::vector<poplar::Interval>> calcLinearTileMapping(const poplar::Graph& graph,
                                                                 const poplar::Tensor& t,
                                                                 unsigned minElementsPerTile,
                                                                 unsigned grainSize);
/// The linear mapping with one-element grains and no minimum per tile.
std::vector<std::vector<poplar::Interval>> calcLinearTileMapping(const poplar::Graph& graph,
                                                                 const poplar::Tensor& t);

/// Maps `t` with calcLinearTileMapping.
void mapTensorLinearly(poplar::Graph& graph, const poplar::Tensor& t,
                       unsigned minElementsPerTile = 0, unsigned grainSize = 1);

/// How many more elements the fullest tile holds than it would in a balanced mapping (one that
/// respects `minElementsPerTile` and `grainSize`); 0 for a balanced mapping.
unsigned getTileImbalance(const poplar::Graph::TileToTensorMapping& mapping,
                          unsigned minElementsPerTile = 0, unsigned grainSize = 1);
unsigned getTileImbalance(const poplar::Graph& graph, const poplar::Tensor& t,
                          unsigned minElementsPerTile = 0, unsigned grainSize = 1);

class TensorUseTrackerState;

/// Collects which tiles use which elements of tensors, then maps those elements to the tiles
/// that use them: an element used on one tile goes to it, an element used on several tiles is
/// spread evenly (in grains) over them, so data broadcast to many tiles is shared out.
class TensorUseTracker {
  std::unique_ptr<TensorUseTrackerState> st;

public:
  TensorUseTracker(unsigned numTiles);
  TensorUseTracker(const TensorUseTracker& other);
  TensorUseTracker(TensorUseTracker&& other);
  TensorUseTracker& operator=(const TensorUseTracker& other);
  TensorUseTracker& operator=(TensorUseTracker&& other);
  enum class MappingMethod {
    /// Map "halo regions" (used by several tiles, next to regions used by a subset of those
    /// tiles) whole to one tile of that subset.
    OptimizeHaloRegions,
    /// Map elements only to tiles that use them (the tracker never does otherwise).
    ConstrainMappingToUsedTiles,
    /// No particular method.
    None
  };
  ~TensorUseTracker();

  /// Records that `tile` uses the elements of `t`.
  void add(const poplar::Graph& graph, unsigned tile, const poplar::Tensor& t);
  /// Adds the uses recorded by `other`.
  void add(TensorUseTracker other);
  /// Settles every used element on one tile: elements used on several tiles are spread over
  /// them in multiples of grainSize, no tile taking fewer than minElementsPerTile of a region
  /// when that can be avoided. extendPartialUsage: unused elements between used ones of a
  /// variable take the tiles of the region before them.
  void
  resolve(const poplar::Graph& graph, unsigned grainSize, unsigned minElementsPerTile,
          bool extendPartialUsage = false,
          TensorUseTracker::MappingMethod mappingMethod = TensorUseTracker::MappingMethod::None);
  /// resolve, then sets the tile mapping of every used element accordingly.
  void mapTensorsByUse(
      poplar::Graph& graph, unsigned grainSize, unsigned minElementsPerTile,
      bool extendPartialUsage = false,
      TensorUseTracker::MappingMethod mappingMethod = TensorUseTracker::MappingMethod::None);
  /// True when no use has been recorded.
  bool empty() const;
};

/// Whether some line of t along `dimension` (all other indices fixed) has elements on more than
/// one tile, or on more than one IPU.
bool dimIsSplitOverTiles(const poplar::Graph& graph, const poplar::Tensor& t, unsigned dimension);
bool dimIsSplitOverIPUs(const poplar::Graph& graph, const poplar::Tensor& t, unsigned dimension);

/// A new one-dimensional tensor of `type` with fullTensor.dim(dim) elements, element i on the
/// tile holding the first element of fullTensor's slice i along `dim` (so an operation between
/// the two exchanges little). ditherMapping is accepted and has no effect.
poplar::Tensor createBroadcastOperand(poplar::Graph& graph, const poplar::Tensor& fullTensor,
                                      const poplar::Type& type, unsigned dim,
                                      bool ditherMapping = false,
                                      const poplar::DebugContext& debugContext = {});

/// A clone of t on IPU `dstIPU` of a multi-IPU graph, each element on the same tile number
/// within that IPU as the original.
poplar::Tensor cloneToIpu(
    poplar::Graph& graph, const poplar::Tensor& t, unsigned dstIPU,
    const poplar::DebugContext& debugContext = {},
    poplar::TensorCloneMethod method = poplar::TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);
/// cloneToIpu, and a Copy of t into the clone added to `prog`.
poplar::Tensor copyToIpu(
    poplar::Graph& masterGraph, const poplar::Tensor& t, poplar::program::Sequence& prog,
    unsigned dstIPU, const poplar::DebugContext& debugContext = {},
    poplar::TensorCloneMethod method = poplar::TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);
/// cloneToIpu without the copy: copySrc and copyDst are what a Copy between the IPUs takes.
poplar::Tensor createIpuCopy(
    poplar::Graph& graph, const poplar::Tensor& t, unsigned dstIpu, poplar::Tensor& copySrc,
    poplar::Tensor& copyDst, const poplar::DebugContext& debugContext = {},
    poplar::TensorCloneMethod method = poplar::TensorCloneMethod::PRESERVE_ORDER_AND_ALIASES);

} // namespace poputil
