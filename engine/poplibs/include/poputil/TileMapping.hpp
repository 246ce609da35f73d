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
/// at least `minElementsPerTile` elements each, so the last tiles may hold nothing. With an
/// offset or descending order, the first tile used is `offset` (ascending) or
/// numTiles - 1 - offset (descending), the following ones wrapping round the device.
std::vector<std::vector<poplar::Interval>>
calcLinearTileMapping(const poplar::Graph& graph, std::vector<std::size_t> shape,
                      unsigned minElementsPerTile, unsigned grainSize, unsigned offset = 0,
                      bool ascendingOrder = true);
std::vector<std::vector<poplar::Interval>>
calcLinearTileMapping(const poplar::Target& target, std::vector<std::size_t> shape,
                      unsigned minElementsPerTile, unsigned grainSize, unsigned offset = 0,
                      bool ascendingOrder = true);
/// The linear mapping PopLibs picks for t's type: grains of the type's vector width and at
/// least 128 bytes per tile.
std::vector<std::vector<poplar::Interval>> calcLinearTileMapping(const poplar::Graph& graph,
                                                                 const poplar::Tensor& t,
                                                                 unsigned offset = 0,
                                                                 bool ascendingOrder = true);
std::vector<std::vector<poplar::Interval>>
calcLinearTileMapping(const poplar::Target& target, const std::vector<std::size_t> shape,
                      poplar::Type elementType, unsigned offset = 0, bool ascendingOrder = true);

/// The type-based linear mapping of t (no minimum per tile) starting at tile `offset`, and the
/// tile after the last one it used: mapping several small tensors one after the other this way
/// spreads them over the device instead of piling them on tile 0.
std::pair<poplar::Graph::TileToTensorMapping, unsigned>
calcLinearTileMappingAndNewOffset(const poplar::Graph& graph, const poplar::Tensor& t,
                                  unsigned offset = 0);

/// Maps `t` with calcLinearTileMapping (one-element grains, no minimum per tile by default:
/// Tessera's own operations rely on that).
void mapTensorLinearly(poplar::Graph& graph, const poplar::Tensor& t,
                       unsigned minElementsPerTile = 0, unsigned grainSize = 1);

/// Maps `t` linearly from tile `offset` (or numTiles - 1 - offset downwards).
void mapTensorLinearlyWithOffset(poplar::Graph& graph, const poplar::Tensor& t,
                                 unsigned minElementsPerTile, unsigned grainSize, unsigned offset,
                                 bool ascendingOrder = true);
/// The same with the type-based grain and minimum of calcLinearTileMapping(graph, t, ...).
void mapTensorLinearlyWithOffset(poplar::Graph& graph, const poplar::Tensor& t, unsigned offset = 0,
                                 bool ascendingOrder = true);

/// An offset in [0, numTiles) from a hash of `shape` (and `seed`): tensors of different
/// shapes then start on different tiles.
std::size_t chooseMappingOffset(std::size_t numTiles, const std::vector<std::size_t>& shape);
std::size_t chooseMappingOffset(std::size_t numTiles, const std::vector<std::size_t>& shape,
                                std::size_t seed);

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
  /// Tracks uses on numTiles tiles; when uses tie, tiles are preferred in the order of a
  /// linear mapping starting at startTile (ascending) or numTiles - 1 - startTile
  /// (descending).
  TensorUseTracker(unsigned numTiles, unsigned startTile = 0, bool ascendingMappingOrder = true);
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

/// A clone of t (made in srcGraph) mapped in dstGraph to the same tile numbers as t in
/// srcGraph: e.g. from the top-level graph into a virtual graph of as many or more tiles.
poplar::Tensor cloneToGraph(
    poplar::Graph& srcGraph, poplar::Graph& dstGraph, const poplar::Tensor& t,
    const poplar::DebugContext& debugContext = {},
    poplar::TensorCloneMethod method = poplar::TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);

/// A clone of t in which elements t repeats (aliases) become separate elements: the first
/// occurrence keeps its tile, the repeats are mapped linearly from tile `offset`. Returns the
/// clone and the tile after the last one the repeats used.
std::pair<poplar::Tensor, unsigned>
cloneAndExpandAliasing(poplar::Graph& graph, const poplar::Tensor& t, unsigned offset = 0,
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

/// The position of `tile` in a mapping that starts at `offset` (ascending) or at
/// numTiles - 1 - offset (descending): the first tile used becomes 0, the next 1, ...
unsigned transformTileIndex(unsigned tile, unsigned numTiles, unsigned offset, bool ascending);

/// The inverse: the tile at position `tile` of such a mapping.
unsigned invTransformTileIndex(unsigned tile, unsigned numTiles, unsigned offset, bool ascending);

} // namespace poputil
