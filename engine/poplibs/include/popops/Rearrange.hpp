// Rearranging tensors on their tiles: transposing many small matrices at once and changing
// which dimension's elements lie together in memory ("grouping"), as convolutions and matrix
// multiplications need between their layouts.
#pragma once

#include <cstddef>
#include <functional>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <poputil/VarStructure.hpp>
#include <utility>
#include <vector>

namespace popops {
namespace rearrange {

/// Whether the fast (1-D, 4x4-block) transposition vertices can do `numTranspositions`
/// transpositions of numRows x numColumns matrices of `type`: 2-byte types with both sides
/// multiples of 4, within the IPU's repeat-count and stride limits.
bool canUseFastTranspose(const poplar::Target& target, const poplar::Type& type, unsigned numRows,
                         unsigned numColumns, unsigned numTranspositions);

/// Adds to `cs` the vertices transposing a set of rows x cols matrices of dType. mapping[tile]
/// lists the indices of the matrices to transpose on that tile; getInOut(index) gives the
/// (input, output) matrices of one index, each flattened to one dimension. Each output is
/// mapped to the tile that transposes it.
void addTransposeVertices(
    poplar::Graph& graph, const poplar::ComputeSet& cs, const poplar::Type& dType, unsigned rows,
    unsigned cols, const poplar::Graph::TileToTensorMapping& mapping,
    std::function<std::pair<const poplar::Tensor, const poplar::Tensor>(size_t)> getInOut,
    const poplar::DebugContext& debugContext = {});

/// A new tensor holding `in` with its two innermost dimensions swapped, computed by vertices
/// added to `cs`; each matrix is transposed on the tile holding its first element. Assumes
/// each innermost matrix of `in` is contiguous in memory.
poplar::Tensor partialTranspose(poplar::Graph& graph, const poplar::Tensor& in,
                                const poplar::ComputeSet& cs,
                                const poplar::DebugContext& debugContext = {});

/// The smallest group size the fast transpositions regroup between for `type` (4 for 2-byte
/// types, 2 for 4-byte types, otherwise 1).
unsigned getMinimumRegroupGrainSize(const poplar::Type& type);

/// The contents of `t`, whose elements come in groups `from` (dimension, size), laid out in
/// groups `to` instead: copies that gather each group-by-group block onto one tile are added to
/// `copies`, the transpositions to `transposeCS`. `t` itself unchanged for rank 1 or less.
poplar::Tensor regroupTensor(poplar::Graph& graph, const poplar::Tensor& t,
                             poplar::program::Sequence& copies,
                             const poplar::ComputeSet& transposeCS,
                             const poputil::GroupingInfo& from, const poputil::GroupingInfo& to,
                             const poplar::DebugContext& debugContext = {});

/// regroupTensor from the grouping detected on `t`, with its copies and compute set added to
/// `prog`; `t` itself when it is rank 1 or less, is grouped only in to.first, or has no grouping
/// the fast transpositions can use.
poplar::Tensor regroupIfPossible(poplar::Graph& graph, const poplar::Tensor& t,
                                 poplar::program::Sequence& prog, const poputil::GroupingInfo& to,
                                 const poplar::DebugContext& debugContext = {});

/// regroupTensor with the copies appended to a list of Copy programs.
poplar::Tensor regroupTensor(poplar::Graph& graph, const poplar::Tensor& t,
                             std::vector<poplar::program::Copy>& copies,
                             const poplar::ComputeSet& transposeCS,
                             const poputil::GroupingInfo& from, const poputil::GroupingInfo& to,
                             const poplar::DebugContext& debugContext = {});

/// `in` regrouped to the innermost grouping of `ref` (or a factor of it) when the two differ in
/// dimension and the fast transpositions apply; otherwise `in` itself.
poplar::Tensor regroupIfBeneficial(poplar::Graph& graph, const poplar::Tensor& in,
                                   const poplar::Tensor& ref, poplar::program::Sequence& prog,
                                   const poplar::DebugContext& debugContext = {});

/// As above, the copies appended to `copies` and the transpositions added to `transposeCS`.
poplar::Tensor regroupIfBeneficial(poplar::Graph& graph, const poplar::Tensor& in,
                                   const poplar::Tensor& ref,
                                   std::vector<poplar::program::Copy>& copies,
                                   poplar::ComputeSet transposeCS,
                                   const poplar::DebugContext& debugContext = {});

/// `in` regrouped so that its innermost dimension comes in groups of preferredGrouping (or a
/// factor of it) when it is grouped in another dimension; otherwise `in` itself.
poplar::Tensor regroupIfBeneficial(poplar::Graph& graph, const poplar::Tensor& in,
                                   std::size_t preferredGrouping, poplar::program::Sequence& prog,
                                   const poplar::DebugContext& debugContext = {});

} // namespace rearrange
} // namespace popops
