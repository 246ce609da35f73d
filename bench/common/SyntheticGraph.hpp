// A model-scale serialized graph (serialized_graph.capnp, the engine's Cap'n Proto schema in
// profiler/schema/profile.capnp) for benchmarks and tests that need one larger than any sample:
// a deep convolutional network's forward, backward and optimizer passes, named as Poplar names
// them (debug paths), its vertices spread over every tile of the target.
//
// Names, for block b and layer l (layers numbered within their block):
//   params/block<b>/layer<l>/conv/kernel, .../bn/gamma, .../bn/beta        (weights)
//   fwd/block<b>/layer<l>/conv/Conv_1/{PreArrange,Convolve_<k>,Reduce_<k>,Cast}
//   fwd/block<b>/layer<l>/bn/BatchNorm/{Mean,Variance,Normalise}, .../relu/Relu/Nonlinearity
//   loss/SoftmaxCrossEntropy/{Forward,Grad}
//   bwd/block<b>/layer<l>/relu/ReluGrad/NonLinearityGrad, .../bn/BatchNormGrad/...,
//   bwd/block<b>/layer<l>/conv/ConvGradInput/..., .../conv/ConvGradWeight/...
//   optimizer/block<b>/layer<l>/SGD/{UpdateKernel,UpdateGamma,UpdateBeta}
// and the variables each writes (".../Conv_1/partials_<k>", ".../Relu/out", ".../grad", ...).
// Edges are what a model's are: each layer reads the one before it, the backward pass reads the
// forward's activations and the layer after it, the optimizer reads weight gradients and writes
// the weights.
#pragma once

#include <cstdint>
#include <string>

namespace tessera::bench {

struct SyntheticGraphShape {
  /// Compute sets wanted: whole layers are added until at least this many exist.
  std::uint64_t computeSets = 30000;
  /// Mean vertices per compute set (a convolution's partial sums get more, a cast fewer).
  unsigned verticesPerComputeSet = 32;
  unsigned layersPerBlock = 8;
  unsigned ipus = 16, tilesPerIpu = 1472;
};

struct SyntheticGraphCounts {
  std::uint64_t computeSets = 0, variables = 0, vertices = 0, edges = 0, layers = 0, bytes = 0;
};

/// Writes the graph to `path` (under a temporary name, renamed when complete, as the engine
/// does). Throws std::runtime_error naming the file when it cannot be written.
SyntheticGraphCounts writeSyntheticGraph(const std::string& path, const SyntheticGraphShape& shape);

/// The name of compute set `name` (e.g. "conv/ConvGradWeight/Reduce_1") in the backward pass of
/// layer `layer` of block `block`: what a search for a deep name looks for.
std::string syntheticBackwardName(unsigned block, unsigned layer, const std::string& name);

} // namespace tessera::bench
