// Planning a convolution over the tiles. A convolution is first brought to two spatial
// dimensions (a 1-D one gets a leading dimension of size 1); the plan then cuts the output into
// work units of (conv group, batch element, block of output channels, block of output rows) and
// spreads the units over the tiles, choosing the block sizes with the fewest modelled cycles.
// Input channels may be split too (units per input-channel block, then the reduction stage:
// poplin::ReduceAdd vertices sum the blocks' partials, each tile of an output block summing a
// run of its rows, as PopLibs' conv reduction does).
// A matrix product is planned here too, as PopLibs plans it: a 1x1 convolution over a field of
// one element whose batch is A's rows, input channels K and output channels N
// (ConvProblem::channelsInnermost); its units then take blocks of batch elements.
#pragma once

#include "ConvCycles.hpp"
#include "ConvGeometry.hpp"
#include "ConvVertexEstimates.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <poplar/Interval.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>
#include <poplin/ConvParams.hpp>
#include <poplin/Convolution.hpp>
#include <string>
#include <vector>

namespace poplin {

struct ConvOptions {
  poplar::Type partialsType = poplar::FLOAT;
  std::string pass = "NONE";
  double availableMemoryProportion = 0.6;
  /// Not user options: the tiles a plan may use, [firstTile, firstTile + numTiles) (numTiles 0:
  /// all of the target's). multiconv's parallel plan gives each convolution its own range.
  unsigned firstTile = 0, numTiles = 0;
};

/// Reads the options convolution understands; throws poplar::invalid_option naming `op`.
ConvOptions parseConvOptions(const poplar::OptionFlags& options, const std::string& op);

/// A convolution in two spatial dimensions, with the per-dimension operand maps the vertices use.
struct ConvProblem {
  /// Canonical, two spatial dimensions. For the weight-update convolution only the shapes,
  /// channels, batch, groups and types are meaningful: its maps below are built directly.
  ConvParams params;
  std::size_t outRows = 0, outCols = 0; ///< output after truncation and striding, before padding
  ConvDimGeometry y, x;                 ///< the maps, with outOffset etc. for the whole output
  unsigned outPadY = 0, outPadX = 0;    ///< output padding before the computed region
  /// The operands keep their channels innermost ([batch][channels], a matmul's A, B and C):
  /// the planner may then give a vertex several batch elements (a batch split in blocks).
  /// Only for a single-element field and kernel.
  bool channelsInnermost = false;
};

/// Validates `params` (1 or 2 spatial dimensions) and brings them to two; errors name `op`.
ConvProblem makeConvProblem(const ConvParams& params, const std::string& op);

struct ConvPlan {
  ConvProblem problem;
  ConvMethod method = ConvMethod::HMAC;
  std::string pass;
  unsigned numTiles = 1;
  /// The first of the plan's tiles: tileOf() and the planner count from 0, the graph's tile is
  /// firstTile + that (placed()).
  unsigned firstTile = 0;
  unsigned numWorkerContexts = 6; ///< the target's (a tile's reduction is cut over them)
  std::size_t outChansPerBlock = 1, rowsPerBlock = 1, inChansPerBlock = 1;
  std::size_t outChanBlocks = 1, rowBlocks = 1, inChanBlocks = 1;
  /// Batch elements per unit (1 unless the problem is channelsInnermost) and their blocks.
  std::size_t batchPerBlock = 1, batchBlocks = 1;
  /// Modelled: one (the largest) vertex, one unit's inputs' exchange, the reduction stage
  /// (its compute set, its exchange and sync; 0 unless the input channels are split) and the
  /// whole convolution, by which candidates are ranked: the two compute sets below, the
  /// busiest tile's input exchange and the syncs.
  std::uint64_t vertexCycles = 0, exchangeCycles = 0, reduceCycles = 0, totalCycles = 0;
  /// The compute sets' cycles as the profile will show them (the busiest tile, with the launch),
  /// worked out vertex by vertex from the estimators the vertices use: the partials stage and
  /// (input channels split) the poplin::ReduceAdd stage, 0 when it does not run.
  std::uint64_t convolveComputeCycles = 0, reduceComputeCycles = 0;
  /// Temporary memory the plan needs on its busiest tile, as PopLibs' planner counts it: the
  /// inputs and weights its units read and the partial sums they write (the reduction's own
  /// temporaries, the same partials, are no more). Bounded by availableMemoryProportion.
  std::uint64_t tempBytes = 0;
  /// The memory bound the plan was chosen under (availableMemoryProportion x the tile memory;
  /// 0: the proportion was 0, so the plan with the least temporary memory was taken), and
  /// whether a plan within it existed; when none did, the bound was doubled as PopLibs does
  /// (and then dropped), with a warning.
  std::uint64_t memoryBound = 0;
  bool memoryBoundMet = true;
  poplar::Type partialsType = poplar::FLOAT;

  std::size_t groups() const { return problem.params.numConvGroups; }
  std::size_t batch() const { return problem.params.batchSize; }
  std::size_t numUnits() const {
    return groups() * batchBlocks * inChanBlocks * outChanBlocks * rowBlocks;
  }
  /// `bb` is a batch block (a batch element when batchPerBlock is 1). Units of one output block
  /// over the input-channel blocks are `outChanBlocks * rowBlocks` apart, so a unit's partial
  /// sums are spread like its output.
  std::size_t unitIndex(std::size_t g, std::size_t bb, std::size_t cb, std::size_t rb,
                        std::size_t icb = 0) const {
    return (((g * batchBlocks + bb) * inChanBlocks + icb) * outChanBlocks + cb) * rowBlocks + rb;
  }
  unsigned placed(unsigned tile) const { return firstTile + tile; }
  unsigned tileOf(std::size_t unit) const {
    return unsigned(std::uint64_t(unit) * numTiles / numUnits());
  }
  /// The rows of output block (g, bb, cb, rb) as the reduction sees them: channelsInnermost,
  /// its batch elements (each `outChans(cb)` long); a convolution's, each output channel's
  /// output rows in turn (each `outCols` long). A block's partials are laid out in this order.
  std::size_t blockRows(std::size_t bb, std::size_t cb, std::size_t rb) const {
    return problem.channelsInnermost ? batches(bb).size() : outChans(cb).size() * rows(rb).size();
  }
  std::size_t blockRowLength(std::size_t cb) const {
    return problem.channelsInnermost ? outChans(cb).size() : problem.outCols;
  }
  /// The tile holding (and, when the input channels are split, summing) row `i` of output block
  /// (g, bb, cb, rb): the block's rows are shared in consecutive runs among the tiles of its
  /// input-channel units, so each tile reads runs of the others' partials.
  unsigned reduceTileOf(std::size_t g, std::size_t bb, std::size_t cb, std::size_t rb,
                        std::size_t i) const {
    const std::size_t rows = blockRows(bb, cb, rb);
    return tileOf(unitIndex(g, bb, cb, rb, rows ? i * inChanBlocks / rows : 0));
  }
  poplar::Interval outChans(std::size_t cb) const {
    return range(cb, outChansPerBlock, problem.params.outputChannelsPerConvGroup);
  }
  poplar::Interval rows(std::size_t rb) const { return range(rb, rowsPerBlock, problem.outRows); }
  poplar::Interval inChans(std::size_t icb) const {
    return range(icb, inChansPerBlock, problem.params.inputChannelsPerConvGroup);
  }
  poplar::Interval batches(std::size_t bb) const {
    return range(bb, batchPerBlock, problem.params.batchSize);
  }
  /// Where output block (g, bb, cb, rb) starts in a plane of one input-channel block's partials
  /// (as many elements as the computed output) laid out block by block, each block's rows
  /// (blockRows) contiguous, so that each tile's share of a block is one run.
  std::size_t partialsBlockOffset(std::size_t g, std::size_t bb, std::size_t cb,
                                  std::size_t rb = 0) const {
    const auto& p = problem.params;
    const std::size_t co = p.outputChannelsPerConvGroup;
    if (problem.channelsInnermost)
      return (g * p.batchSize + batches(bb).begin()) * co +
             batches(bb).size() * outChans(cb).begin();
    const std::size_t field = problem.outRows * problem.outCols;
    return ((g * p.batchSize + bb) * co + outChans(cb).begin()) * field +
           outChans(cb).size() * rows(rb).begin() * problem.outCols;
  }
  std::size_t partialsPlaneSize() const {
    const auto& p = problem.params;
    return p.numConvGroups * p.batchSize * p.outputChannelsPerConvGroup *
           (problem.channelsInnermost ? 1 : problem.outRows * problem.outCols);
  }
  /// The type the vertices write: the output's, or the partials' when input channels are split.
  poplar::Type vertexOutputType() const {
    return inChanBlocks > 1 ? partialsType : problem.params.outputType;
  }
  /// The vertex name.
  std::string vertexName() const;
  /// One line: the splits, e.g. for the compute set's debug name.
  std::string summary() const;

private:
  static poplar::Interval range(std::size_t i, std::size_t size, std::size_t total) {
    return {i * size, i * size + size < total ? i * size + size : total};
  }
};

/// The plan with the fewest modelled cycles on `target` among those whose temporary memory fits
/// the options' availableMemoryProportion of a tile (PopLibs' rule, see ConvPlan::memoryBound).
ConvPlan planConvolution(const poplar::Target& target, const ConvProblem& problem,
                         const ConvOptions& options);

/// planConvolution through `cache` (none: planned afresh). Convolution.cpp.
ConvPlan planConvolutionCached(const poplar::Target& target, const ConvProblem& problem,
                               const ConvOptions& options, PlanningCache* cache);

/// One poplin::ReduceAdd vertex of a plan that splits the input channels: on `tile`, it sums
/// the inChanBlocks partials of rows [rowBegin, rowEnd) (ConvPlan::blockRows) of output block
/// (g, bb, cb, rb). The build and the planner's estimate both walk this list.
struct ReduceWork {
  unsigned tile;
  std::size_t g, bb, cb, rb, rowBegin, rowEnd;
};
std::vector<ReduceWork> reduceWork(const ConvPlan& plan);

/// How many of units [begin, end) (in ConvPlan::unitIndex order) have each shape: bit 0 of the
/// shape is set for a unit of the last batch block, bit 1 of the last input-channel block, bit
/// 2 of the last output-channel block, bit 3 of the last row block (every other block is whole,
/// so units of one shape cost the same). Counted from the indices' digits, not unit by unit: a
/// range of a billion units costs what a range of ten does.
std::array<std::uint64_t, 16> unitShapeCounts(const ConvPlan& plan, std::uint64_t begin,
                                              std::uint64_t end);

std::ostream& operator<<(std::ostream& os, const ConvPlan& plan);

/// multiconv's parallel plan (PopLibs' default for a set of convolutions): each convolution
/// gets its own contiguous range of tiles and all run in one compute set (and one reduction).
struct TileRange {
  unsigned first = 0, count = 0; ///< count 0: the whole target
};

/// The ranges of a parallel plan, PopLibs' way: convolutions by decreasing work; each but the
/// last is planned on the tiles left less perConvReservedTiles for each one still to place,
/// then given the fewest tiles whose plan is within (1 + cycleBackOff) of that plan's cycles;
/// the last takes the rest. Empty (serial) when there are more convolutions than tiles.
std::vector<TileRange> parallelTileSplit(const poplar::Target& target,
                                         const std::vector<ConvParams>& params,
                                         const std::vector<poplar::OptionFlags>& options,
                                         unsigned perConvReservedTiles, double cycleBackOff,
                                         const std::string& op);

/// createWeights / createInput laid out by the plan on `range`.
poplar::Tensor createWeightsOn(poplar::Graph& graph, const ConvParams& params,
                               const poplar::DebugContext& debugContext,
                               const poplar::OptionFlags& options, PlanningCache* cache,
                               TileRange range);
poplar::Tensor createInputOn(poplar::Graph& graph, const ConvParams& params,
                             const poplar::DebugContext& debugContext,
                             const poplar::OptionFlags& options, PlanningCache* cache,
                             TileRange range);

/// The convolutions in[i] * weights[i] with params[i], each planned on ranges[i], their
/// partials in one compute set and their reductions in another.
std::vector<poplar::Tensor> parallelConvolutions(
    poplar::Graph& graph, const std::vector<poplar::Tensor>& ins,
    const std::vector<poplar::Tensor>& weights, const std::vector<ConvParams>& params,
    const std::vector<poplar::OptionFlags>& options, const std::vector<TileRange>& ranges,
    bool transposeAndFlipWeights, poplar::program::Sequence& prog,
    const poplar::DebugContext& debugContext, PlanningCache* cache);

} // namespace poplin
