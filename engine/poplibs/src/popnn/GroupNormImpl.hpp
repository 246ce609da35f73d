// Group (and layer) normalisation on poplin's per-channel norms: the activations
// [N][C][field...] are viewed as [C/G][N*G][field] so that each (batch element, group) pair is
// one "channel" of that view; statistics, whitening and the statistics' gradients run on the
// view, while gamma, beta and their gradients stay per channel of the activations.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <string>
#include <utility>

namespace popnn {
namespace gn_impl {

struct Grouping {
  unsigned numGroups = 1;
  bool strided = true;
};

std::pair<poplar::Tensor, poplar::Tensor>
statistics(poplar::Graph& graph, const poplar::Tensor& acts, float eps,
           poplar::program::Sequence& prog, Grouping grouping, bool unbiasedVarEstimate,
           bool stableAlgo, const poplar::Type& partialsType, const poplar::DebugContext& di,
           const std::string& op);

/// The number of groups the statistics [N * G] of `acts` imply.
Grouping groupingOf(const poplar::Tensor& acts, const poplar::Tensor& stats, bool strided,
                    const std::string& op, const std::string& statsName);

poplar::Tensor whiten(poplar::Graph& graph, const poplar::Tensor& acts, const poplar::Tensor& mean,
                      const poplar::Tensor& invStdDev, poplar::program::Sequence& prog,
                      Grouping grouping, const poplar::DebugContext& di, const std::string& op);

/// The gradient with respect to the activations given the whitened activations, the incoming
/// gradient, the inverse standard deviation and gamma.
poplar::Tensor gradients(poplar::Graph& graph, const poplar::Tensor& actsWhitened,
                         const poplar::Tensor& gradsIn, const poplar::Tensor& invStdDev,
                         const poplar::Tensor& gamma, poplar::program::Sequence& prog,
                         Grouping grouping, const poplar::Type& partialsType,
                         const poplar::DebugContext& di, const std::string& op);

} // namespace gn_impl
} // namespace popnn
