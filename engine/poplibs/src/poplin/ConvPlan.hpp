// Planning a convolution over the tiles. A convolution is first brought to two spatial
// dimensions (a 1-D one gets a leading dimension of size 1); the plan then cuts the output into
// work units of (conv group, batch element, block of output channels, block of output rows) and
// spreads the units over the tiles, choosing the block sizes with the fewest modelled cycles.
// Input channels may be split too (units per input-channel block, then a sum of partials).
#pragma once

#include "ConvCycles.hpp"
#include "ConvGeometry.hpp"
#include "ConvVertexEstimates.hpp"

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <poplar/Interval.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>
#include <poplin/ConvParams.hpp>
#include <string>

namespace poplin {

struct ConvOptions {
  poplar::Type partialsType = poplar::FLOAT;
  std::string pass = "NONE";
  double availableMemoryProportion = 0.6;
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
};

/// Validates `params` (1 or 2 spatial dimensions) and brings them to two; errors name `op`.
ConvProblem makeConvProblem(const ConvParams& params, const std::string& op);

struct ConvPlan {
  ConvProblem problem;
  ConvMethod method = ConvMethod::HMAC;
  std::string pass;
  unsigned numTiles = 1;
  std::size_t outChansPerBlock = 1, rowsPerBlock = 1, inChansPerBlock = 1;
  std::size_t outChanBlocks = 1, rowBlocks = 1, inChanBlocks = 1;
  /// Modelled: one vertex, its inputs' exchange, the sum of the input-channel blocks' partials
  /// (0 unless the input channels are split) and the whole convolution.
  std::uint64_t vertexCycles = 0, exchangeCycles = 0, reduceCycles = 0, totalCycles = 0;
  poplar::Type partialsType = poplar::FLOAT;

  std::size_t groups() const { return problem.params.numConvGroups; }
  std::size_t batch() const { return problem.params.batchSize; }
  std::size_t numUnits() const {
    return groups() * batch() * inChanBlocks * outChanBlocks * rowBlocks;
  }
  /// Units of one output block over the input-channel blocks are `outChanBlocks * rowBlocks`
  /// apart, so a unit's partial sums are spread like its output.
  std::size_t unitIndex(std::size_t g, std::size_t b, std::size_t cb, std::size_t rb,
                        std::size_t icb = 0) const {
    return (((g * batch() + b) * inChanBlocks + icb) * outChanBlocks + cb) * rowBlocks + rb;
  }
  unsigned tileOf(std::size_t unit) const {
    return unsigned(std::uint64_t(unit) * numTiles / numUnits());
  }
  poplar::Interval outChans(std::size_t cb) const {
    return range(cb, outChansPerBlock, problem.params.outputChannelsPerConvGroup);
  }
  poplar::Interval rows(std::size_t rb) const { return range(rb, rowsPerBlock, problem.outRows); }
  poplar::Interval inChans(std::size_t icb) const {
    return range(icb, inChansPerBlock, problem.params.inputChannelsPerConvGroup);
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

/// The plan with the fewest modelled cycles on `target`.
ConvPlan planConvolution(const poplar::Target& target, const ConvProblem& problem,
                         const ConvOptions& options);

std::ostream& operator<<(std::ostream& os, const ConvPlan& plan);

} // namespace poplin
