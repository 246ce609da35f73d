// Slices and updates whose offsets are tensors, read when the program runs: dynamicSlice and
// dynamicUpdate (one offset per sliced dimension), multiSlice and multiUpdate* (many offsets at
// once, as embedding lookups and their gradients use them), and the functions that create
// tensors laid out for them.
//
// Out-of-range offsets behave as PopLibs' vertices do: a dynamicSlice/dynamicUpdate offset at or
// past the end of its dimension starts the slice at 0, and a slice running past the end wraps
// around to 0; multiSlice writes zeros for an out-of-range offset; multiUpdate, multiUpdateAdd,
// multiUpdateMax and multiUpdateMul ignore out-of-range offsets.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <memory>
#include <poplar/ArrayRef.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <poputil/DebugInfo.hpp>
#include <string>
#include <vector>

namespace poplar {
class Tensor; // declared here too, as in PopLibs' header
}

namespace popops {

class SlicePlanInternal;

/// How a multiSlice/multiUpdate* on an embedding is to be laid out (embedding::plan). A
/// default-constructed plan lets each operation choose for itself.
class SlicePlan {
public:
  SlicePlan();
  ~SlicePlan();
  SlicePlan(const SlicePlan& other);
  SlicePlan(SlicePlan&& other);
  SlicePlan& operator=(const SlicePlan& other);
  SlicePlan& operator=(SlicePlan&& other);

  friend std::ostream& operator<<(std::ostream& o, const SlicePlan& p);
  friend bool operator<(const SlicePlan& a, const SlicePlan& b) noexcept;
  friend bool operator==(const SlicePlan& a, const SlicePlan& b) noexcept;

  SlicePlan(std::unique_ptr<SlicePlanInternal> internal);
  SlicePlanInternal& getImpl() const { return *internal; }

private:
  std::unique_ptr<SlicePlanInternal> internal;
};
bool operator<(const SlicePlan& a, const SlicePlan& b) noexcept;
bool operator==(const SlicePlan& a, const SlicePlan& b) noexcept;
bool operator!=(const SlicePlan& a, const SlicePlan& b) noexcept;

/// A new tensor of `shape` mapped so that slicing `dims` by `sizes` spreads over the tiles: the
/// elements outside the sliced dimensions are cut into groups of at least `minGrainSize` and
/// each tile holds whole groups, every entry of the sliced dimensions included.
poplar::Tensor createSliceableTensor(poplar::Graph& graph, const poplar::Type& type,
                                     const std::vector<size_t>& shape,
                                     const std::vector<size_t>& dims,
                                     const std::vector<size_t>& sizes, std::size_t minGrainSize = 0,
                                     const poplar::DebugContext& debugContext = {});
/// As above, laid out for `plan`.
poplar::Tensor createSliceableTensor(poplar::Graph& graph, const poplar::Type& type,
                                     const std::vector<size_t>& shape,
                                     const std::vector<size_t>& dims,
                                     const std::vector<size_t>& sizes, const SlicePlan& plan,
                                     const poplar::OptionFlags& options,
                                     const poplar::DebugContext& debugContext = {});

/// A tensor [groupSize, `shape`...] of `groupSize` independent sliceable tensors, each laid
/// out as createSliceableTensor lays out one, for a plan made with that group size.
poplar::Tensor createGroupedSliceableTensor(
    poplar::Graph& graph, const poplar::Type& type, const std::size_t groupSize,
    const std::vector<std::size_t>& shape, const std::vector<std::size_t>& dims,
    const std::vector<std::size_t>& sizes, const SlicePlan& plan,
    const poplar::OptionFlags& options, const poplar::DebugContext& debugContext = {});

/// A tensor [numIndices, t's shape with `dims` of `sizes`] to slice `t` into or update it from,
/// mapped like the slices of `t`.
poplar::Tensor createSliceTensor(poplar::Graph& graph, const poplar::Tensor& t,
                                 const std::vector<size_t>& dims, const std::vector<size_t>& sizes,
                                 std::size_t numIndices,
                                 const poplar::DebugContext& debugContext = {});
/// A tensor [numIndices, `shape` with `dims` of `sizes`] mapped for the operation of `plan`.
poplar::Tensor createSliceTensor(poplar::Graph& graph, const poplar::Type& type,
                                 const std::vector<std::size_t>& shape,
                                 const std::vector<std::size_t>& dims,
                                 const std::vector<std::size_t>& sizes, std::size_t numIndices,
                                 const SlicePlan& plan, const poplar::OptionFlags& options,
                                 const poplar::DebugContext& debugContext = {});

/// A tensor [groupSize, numIndices, `shape` with `dims` of `sizes`] for the grouped operations
/// of `plan` (made with that group size).
poplar::Tensor createGroupedSliceTensor(
    poplar::Graph& graph, const poplar::Type& type, const std::size_t groupSize,
    const std::vector<std::size_t>& shape, const std::vector<std::size_t>& dims,
    const std::vector<std::size_t>& sizes, const std::size_t numIndices, const SlicePlan& plan,
    const poplar::OptionFlags& options, const poplar::DebugContext& debugContext = {});

/// An UNSIGNED_INT tensor [numIndices, dims.size()] for the offsets of multiSlice/multiUpdate*.
poplar::Tensor createIndicesTensor(poplar::Graph& graph, const std::vector<std::size_t>& dims,
                                   std::size_t numIndices, const SlicePlan& plan,
                                   const poplar::OptionFlags& options,
                                   const poplar::DebugContext& debugContext = {});

/// An UNSIGNED_INT tensor [groupSize, numIndices, dims.size()] for the grouped operations.
poplar::Tensor createGroupedIndicesTensor(poplar::Graph& graph, const std::size_t groupSize,
                                          const std::vector<std::size_t>& dims,
                                          const std::size_t numIndices, const SlicePlan& plan,
                                          const poplar::OptionFlags& options,
                                          const poplar::DebugContext& debugContext = {});

/// A tensor whose dimension dims[i] is numSlices[i] times that of `s`, mapped like `s` so that
/// slicing it into `s`'s layout needs no exchange.
poplar::Tensor createSliceableTensorFromSlice(poplar::Graph& graph, const poplar::Tensor& s,
                                              const std::vector<std::size_t>& dims,
                                              const std::vector<std::size_t>& numSlices,
                                              const poplar::DebugContext& debugContext = {});

/// The slice of `t` starting at `offset` (UNSIGNED_INT, one element per dimension in `dims`)
/// with sizes[i] elements in dimension dims[i]; the other dimensions are taken whole.
poplar::Tensor dynamicSlice(poplar::Graph& graph, const poplar::Tensor& t,
                            const poplar::Tensor& offset, const std::vector<std::size_t>& dims,
                            const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                            const poplar::DebugContext& debugContext = {},
                            const poplar::OptionFlags& options = {});

/// A tensor for dynamicSliceWithOutput: the slice's shape, laid out as dynamicSlice lays out its
/// result. The arguments are checked as dynamicSlice checks them.
poplar::Tensor createDynamicSliceOutput(poplar::Graph& graph, const poplar::Tensor& t,
                                        const poplar::Tensor& offset,
                                        const std::vector<std::size_t>& dims,
                                        const std::vector<std::size_t>& sizes,
                                        const poplar::DebugContext& debugContext = {},
                                        const poplar::OptionFlags& options = {});

/// dynamicSlice into an existing `output` of the slice's shape.
void dynamicSliceWithOutput(poplar::Graph& graph, const poplar::Tensor& output,
                            const poplar::Tensor& t, const poplar::Tensor& offset,
                            const std::vector<std::size_t>& dims,
                            const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                            const poplar::DebugContext& debugContext = {},
                            const poplar::OptionFlags& options = {});

/// Per tile, the elements of dynamicSlice(t, ..., dims, sizes)'s result the tile would hold.
poplar::Graph::TileToTensorMapping getSliceMapping(poplar::Graph& graph, const poplar::Tensor& t,
                                                   const std::vector<std::size_t>& dims,
                                                   const std::vector<std::size_t>& sizes);

/// Writes `s` into `t` at `offset` (UNSIGNED_INT, one element per dimension in `dims`).
void dynamicUpdate(poplar::Graph& graph, const poplar::Tensor& t, const poplar::Tensor& s,
                   const poplar::Tensor& offset, const std::vector<std::size_t>& dims,
                   const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                   const poplar::DebugContext& debugContext = {},
                   const poplar::OptionFlags& options = {});

/// offsets.dim(0) slices of `t`, stacked: the result has shape [offsets.dim(0), t's shape with
/// dims[i] of sizes[i]]. offsets is UNSIGNED_INT [numOffsets, dims.size()] (or [numOffsets] for
/// one dimension). One dimension sliced one entry at a time runs on the MultiSlice vertices;
/// other dims/sizes take one dynamicSlice per offset (a counted loop for more than 3 offsets),
/// as PopLibs does.
poplar::Tensor multiSlice(poplar::Graph& graph, const poplar::Tensor& t,
                          const poplar::Tensor& offsets, const std::vector<std::size_t>& dims,
                          const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                          const SlicePlan& plan, const poplar::OptionFlags& options,
                          const poplar::DebugContext& debugContext = {});

/// The slices t.slice(offsets[i], offsets[i] + 1, dim), stacked: [offsets.size(), t's shape
/// with `dim` of size 1]. Offsets are known when the graph is built; an offset past the end
/// gives zeros (or slice 0 with option remapOutOfBoundIndices=true).
poplar::Tensor multiSlice(poplar::Graph& graph, const poplar::Tensor& t,
                          poplar::ArrayRef<unsigned> offsets, std::size_t dim,
                          poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = {},
                          const poplar::OptionFlags& optionFlags = {});

/// multiSlice of each group g of t (its first dimension) at offsets[g]: t is [G, ...], offsets
/// [G, numOffsets, dims.size()], dims index the dimensions of one group; the result is
/// [G, numOffsets, slice shape]. Each group is sliced by its own multiSlice.
poplar::Tensor groupedMultiSlice(poplar::Graph& graph, const poplar::Tensor& t,
                                 const poplar::Tensor& offsets,
                                 const std::vector<std::size_t>& dims,
                                 const std::vector<std::size_t>& sizes,
                                 poplar::program::Sequence& prog, const SlicePlan& plan,
                                 const poplar::OptionFlags& options,
                                 const poplar::DebugContext& debugContext = {});

/// For each i: t[offsets[i]] = s[i]. When offsets repeat, the last one wins. dims/sizes as
/// multiSlice.
void multiUpdate(poplar::Graph& graph, const poplar::Tensor& t, const poplar::Tensor& s,
                 const poplar::Tensor& offsets, const std::vector<std::size_t>& dims,
                 const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                 const SlicePlan& plan, const poplar::OptionFlags& options,
                 const poplar::DebugContext& debugContext = {});

/// For each i: t[offsets[i]] += scale * s[i]. `t` has rank 2 and dims is {0}; `scale` is a
/// scalar of t's type (FLOAT also when t is HALF).
void multiUpdateAdd(poplar::Graph& graph, const poplar::Tensor& t, const poplar::Tensor& s,
                    const poplar::Tensor& offsets, const poplar::Tensor& scale,
                    const std::vector<std::size_t>& dims, const std::vector<std::size_t>& sizes,
                    poplar::program::Sequence& prog, const SlicePlan& plan,
                    const poplar::OptionFlags& options,
                    const poplar::DebugContext& debugContext = {});

/// multiUpdate of each group g of t from s[g] at offsets[g] (shapes as groupedMultiSlice).
void groupedMultiUpdate(poplar::Graph& graph, const poplar::Tensor& t, const poplar::Tensor& s,
                        const poplar::Tensor& offsets, const std::vector<std::size_t>& dims,
                        const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                        const SlicePlan& plan, const poplar::OptionFlags& options,
                        const poplar::DebugContext& debugContext = {});

/// multiUpdateAdd of each group g of t (rank 3) from s[g] at offsets[g], scaled by `scale`.
void groupedMultiUpdateAdd(poplar::Graph& graph, const poplar::Tensor& t, const poplar::Tensor& s,
                           const poplar::Tensor& offsets, const poplar::Tensor& scale,
                           const std::vector<std::size_t>& dims,
                           const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                           const SlicePlan& plan, const poplar::OptionFlags& options,
                           const poplar::DebugContext& debugContext = {});

/// multiUpdateMax of each group g of t from s[g] at offsets[g].
void groupedMultiUpdateMax(poplar::Graph& graph, const poplar::Tensor& t, const poplar::Tensor& s,
                           const poplar::Tensor& offsets, const std::vector<std::size_t>& dims,
                           const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                           const SlicePlan& plan, const poplar::OptionFlags& options,
                           const poplar::DebugContext& debugContext = {});

/// For each i: t.slice(offsets[i], offsets[i] + 1, dim) += scale * s[i], offsets known when
/// the graph is built (repeated offsets accumulate; past the end: ignored, or slice 0 with
/// option remapOutOfBoundIndices=true). s is [offsets.size(), t's shape with `dim` of size 1].
void multiUpdateAdd(poplar::Graph& graph, const poplar::Tensor& t, const poplar::Tensor& s,
                    poplar::ArrayRef<unsigned> offsets, const poplar::Tensor& scale,
                    std::size_t dim, poplar::program::Sequence& prog,
                    const poplar::DebugContext& debugContext = {},
                    const poplar::OptionFlags& optionFlags = {});

/// For each i: t[offsets[i]] = max(t[offsets[i]], s[i]).
void multiUpdateMax(poplar::Graph& graph, const poplar::Tensor& t, const poplar::Tensor& s,
                    const poplar::Tensor& offsets, const std::vector<std::size_t>& dims,
                    const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                    const SlicePlan& plan, const poplar::OptionFlags& options,
                    const poplar::DebugContext& debugContext = {});

/// For each i: t[offsets[i]] *= s[i] (repeated offsets multiply in turn).
void multiUpdateMul(poplar::Graph& graph, const poplar::Tensor& t, const poplar::Tensor& s,
                    const poplar::Tensor& offsets, const std::vector<std::size_t>& dims,
                    const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                    const SlicePlan& plan, const poplar::OptionFlags& options,
                    const poplar::DebugContext& debugContext = {});

/// multiUpdateMul of each group g of t from s[g] at offsets[g].
void groupedMultiUpdateMul(poplar::Graph& graph, const poplar::Tensor& t, const poplar::Tensor& s,
                           const poplar::Tensor& offsets, const std::vector<std::size_t>& dims,
                           const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                           const SlicePlan& plan, const poplar::OptionFlags& options,
                           const poplar::DebugContext& debugContext = {});

namespace embedding {

/// A plan for slicing and updating an embedding matrix [numEntries, outputSize] with
/// numLookups[i] indices per operation. Options: usedForSlice, usedForUpdate (true/false),
/// operationForUpdate (none, add, max, mul), availableMemoryProportion, indicesDistribution
/// (uniform, onePoint), planMinimisationTarget (memory, cycles), indicesAreSorted (true/false).
SlicePlan plan(const poplar::Graph& graph, const poplar::Type& dataType,
               const std::size_t numEntries, const std::size_t outputSize,
               const std::vector<std::size_t>& numLookups, const poplar::OptionFlags& options);

/// As above for `groupSize` independent embeddings used by the grouped operations.
SlicePlan plan(const poplar::Graph& graph, const poplar::Type& dataType,
               const std::size_t groupSize, const std::size_t numEntries,
               const std::size_t outputSize, const std::vector<std::size_t>& numLookups,
               const poplar::OptionFlags& options);

/// Everything one plan() call takes, so several plans can be asked for at once (planMultiple).
struct SlicePlanningParameters {
  const poplar::Graph& graph;
  const poplar::Type dataType;
  const std::size_t groupSize = 1;
  const std::size_t numEntries;
  const std::size_t outputSize;
  const std::vector<std::size_t> numLookups;
  const poplar::OptionFlags optionFlags;

  SlicePlanningParameters(const poplar::Graph& graph_, const poplar::Type& dataType_,
                          const std::size_t groupSize_, const std::size_t numEntries_,
                          const std::size_t outputSize_,
                          const std::vector<std::size_t>& numLookups_,
                          const poplar::OptionFlags& optionFlags_)
      : graph(graph_), dataType(dataType_), groupSize(groupSize_), numEntries(numEntries_),
        outputSize(outputSize_), numLookups(numLookups_), optionFlags(optionFlags_) {}
  SlicePlanningParameters(const poplar::Graph& graph_, const poplar::Type& dataType_,
                          const std::size_t numEntries_, const std::size_t outputSize_,
                          const std::vector<std::size_t>& numLookups_,
                          const poplar::OptionFlags& optionFlags_)
      : graph(graph_), dataType(dataType_), numEntries(numEntries_), outputSize(outputSize_),
        numLookups(numLookups_), optionFlags(optionFlags_) {}
};

/// One plan per entry of `spds`, as plan() makes each (its errors included); a group size of 1
/// makes the plan of plan() without a group size.
std::vector<SlicePlan> planMultiple(const std::vector<SlicePlanningParameters>& spds);

} // namespace embedding

} // namespace popops
