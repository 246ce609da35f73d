#include "GroupNormImpl.hpp"
#include "NormUpdate.hpp"
#include "poplibs_support/TileWork.hpp"

#include <poplar/exceptions.hpp>
#include <poplin/Norms.hpp>
#include <popnn/GroupNorm.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>

namespace popnn {

using namespace poplar;
using poplar::program::Sequence;

namespace gn_impl {
namespace {

void checkActs(const Tensor& acts, unsigned numGroups, const std::string& op,
               const std::string& name) {
  poplibs_support::checkValid(acts, op, name);
  if (acts.rank() < 2 || acts.numElements() == 0)
    throw poputil::poplibs_error(op + ": " + name + " has shape " + acts.shapeToString() +
                                 "; expected a non-empty [batch][channels][field...]");
  if (numGroups == 0 || acts.dim(1) % numGroups != 0)
    throw poputil::poplibs_error(op + ": numGroups is " + std::to_string(numGroups) + " but " +
                                 name + " " + acts.shapeToString() + " has " +
                                 std::to_string(acts.dim(1)) + " channels; it must divide them");
}

/// [C/G][N*G][F]: the activations with each (batch element, group) as one channel.
Tensor grouped(const Tensor& acts, Grouping g) {
  const std::size_t N = acts.dim(0), C = acts.dim(1), G = g.numGroups;
  const std::size_t F = acts.numElements() / (N * C);
  const Tensor t = acts.reshape({N, C, F});
  const Tensor four = g.strided ? t.reshape({N, C / G, G, F}).dimShuffle({1, 0, 2, 3})
                                : t.reshape({N, G, C / G, F}).dimShuffle({2, 0, 1, 3});
  return four.reshape({C / G, N * G, F});
}

/// The inverse of grouped(): back to the activations' shape.
Tensor ungrouped(const Tensor& view, const std::vector<std::size_t>& actsShape, Grouping g) {
  const std::size_t N = actsShape[0], C = actsShape[1], G = g.numGroups;
  const std::size_t F = view.dim(2);
  const Tensor four = view.reshape({C / G, N, G, F});
  return (g.strided ? four.dimShuffle({1, 0, 2, 3}) : four.dimShuffle({1, 2, 0, 3}))
      .reshape(actsShape);
}

} // namespace

Grouping groupingOf(const Tensor& acts, const Tensor& stats, bool strided, const std::string& op,
                    const std::string& statsName) {
  poplibs_support::checkValid(acts, op, "acts");
  poplibs_support::checkValid(stats, op, statsName);
  if (acts.rank() < 2 || stats.rank() != 1 || acts.dim(0) == 0 || stats.dim(0) % acts.dim(0) != 0)
    throw poputil::poplibs_error(op + ": " + statsName + " has shape " + stats.shapeToString() +
                                 "; for activations " + acts.shapeToString() +
                                 " it must be [batch * groups]");
  Grouping g;
  g.numGroups = unsigned(stats.dim(0) / acts.dim(0));
  g.strided = strided;
  checkActs(acts, g.numGroups, op, "acts");
  return g;
}

std::pair<Tensor, Tensor> statistics(Graph& graph, const Tensor& acts, float eps, Sequence& prog,
                                     Grouping grouping, bool unbiasedVarEstimate, bool stableAlgo,
                                     const Type& partialsType, const DebugContext& di,
                                     const std::string& op) {
  checkActs(acts, grouping.numGroups, op, "acts");
  return poplin::normStatistics(graph, grouped(acts, grouping), eps, prog, unbiasedVarEstimate,
                                stableAlgo, partialsType, di);
}

Tensor whiten(Graph& graph, const Tensor& acts, const Tensor& mean, const Tensor& invStdDev,
              Sequence& prog, Grouping grouping, const DebugContext& di, const std::string& op) {
  const Tensor w = poplin::normWhiten(graph, grouped(acts, grouping), mean, invStdDev, prog, di);
  return ungrouped(w, acts.shape(), grouping);
}

Tensor gradients(Graph& graph, const Tensor& actsWhitened, const Tensor& gradsIn,
                 const Tensor& invStdDev, const Tensor& gamma, Sequence& prog, Grouping grouping,
                 const Type& partialsType, const DebugContext& di, const std::string& op) {
  if (gradsIn.shape() != actsWhitened.shape())
    throw poputil::poplibs_error(op + ": gradsIn " + gradsIn.shapeToString() +
                                 " and the activations " + actsWhitened.shapeToString() +
                                 " must have the same shape");
  const Tensor g = poplin::normGradients(graph, gradsIn, gamma, prog, di);
  const Tensor d =
      poplin::normStatisticsGradients(graph, grouped(actsWhitened, grouping), grouped(g, grouping),
                                      invStdDev, prog, partialsType, di);
  return ungrouped(d, actsWhitened.shape(), grouping);
}

} // namespace gn_impl

namespace gn {
namespace {

bool stridedOption(const OptionFlags& options, const std::string& op) {
  poplibs_support::checkOptions(options, {"groupNormStridedChannelGrouping"}, op);
  if (!options.contains("groupNormStridedChannelGrouping")) return true;
  const auto& v = options.at("groupNormStridedChannelGrouping");
  if (v == "true") return true;
  if (v == "false") return false;
  throw poplar::invalid_option(op + ": option 'groupNormStridedChannelGrouping' = '" + v +
                               "': expected true or false");
}

} // namespace

std::pair<Tensor, Tensor>
groupNormStatistics(Graph& graph, const Tensor acts, float eps, Sequence& prog, unsigned numGroups,
                    bool unbiasedVarEstimate, bool stableAlgo, const Type& partialsType,
                    const DebugContext& debugContext, const OptionFlags& options) {
  const std::string op = "popnn::gn::groupNormStatistics";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "GroupNormStatistics");
  return gn_impl::statistics(graph, acts, eps, prog, {numGroups, stridedOption(options, op)},
                             unbiasedVarEstimate, stableAlgo, partialsType, di, op);
}

Tensor groupNormWhiten(Graph& graph, const Tensor& acts, const Tensor& mean,
                       const Tensor& invStdDev, Sequence& prog, const DebugContext& debugContext,
                       const OptionFlags& options) {
  const std::string op = "popnn::gn::groupNormWhiten";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "GroupNormWhiten");
  const auto g = gn_impl::groupingOf(acts, mean, stridedOption(options, op), op, "mean");
  return gn_impl::whiten(graph, acts, mean, invStdDev, prog, g, di, op);
}

std::pair<Tensor, Tensor> groupNormalise(Graph& graph, const Tensor& acts, const Tensor& gamma,
                                         const Tensor& beta, const Tensor& mean,
                                         const Tensor& invStdDev, Sequence& prog,
                                         const DebugContext& debugContext,
                                         const OptionFlags& options) {
  const std::string op = "popnn::gn::groupNormalise";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "GroupNormalise");
  const auto g = gn_impl::groupingOf(acts, mean, stridedOption(options, op), op, "mean");
  const Tensor whitened = gn_impl::whiten(graph, acts, mean, invStdDev, prog, g, di, op);
  return {poplin::normalise(graph, whitened, gamma, beta, prog, di), whitened};
}

std::pair<Tensor, Tensor>
groupNormParamGradients(Graph& graph, const Tensor& acts, const Tensor& gradsIn, const Tensor& mean,
                        const Tensor& iStdDev, Sequence& prog, const Type& partialsType,
                        const DebugContext& debugContext, const OptionFlags& options) {
  const std::string op = "popnn::gn::groupNormParamGradients";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "GroupNormParamGradients");
  const auto g = gn_impl::groupingOf(acts, mean, stridedOption(options, op), op, "mean");
  const Tensor whitened = gn_impl::whiten(graph, acts, mean, iStdDev, prog, g, di, op);
  return poplin::normParamGradients(graph, whitened, gradsIn, prog, partialsType, di);
}

std::pair<Tensor, Tensor> groupNormParamGradients(Graph& graph, const Tensor& actsWhitened,
                                                  const Tensor& gradsIn, Sequence& prog,
                                                  const Type& partialsType,
                                                  const DebugContext& debugContext,
                                                  const OptionFlags& options) {
  const std::string op = "popnn::gn::groupNormParamGradients";
  stridedOption(options, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "GroupNormParamGradients");
  return poplin::normParamGradients(graph, actsWhitened, gradsIn, prog, partialsType, di);
}

Tensor groupNormGradients(Graph& graph, const Tensor& acts, const Tensor& gradsIn,
                          const Tensor& mean, const Tensor& invStdDev, const Tensor& gamma,
                          Sequence& prog, const Type& partialsType,
                          const DebugContext& debugContext, const OptionFlags& options) {
  const std::string op = "popnn::gn::groupNormGradients";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "GroupNormGradients");
  const auto g = gn_impl::groupingOf(acts, mean, stridedOption(options, op), op, "mean");
  const Tensor whitened = gn_impl::whiten(graph, acts, mean, invStdDev, prog, g, di, op);
  return gn_impl::gradients(graph, whitened, gradsIn, invStdDev, gamma, prog, g, partialsType, di,
                            op);
}

Tensor groupNormGradients(Graph& graph, const Tensor& actsWhitened, const Tensor& gradsIn,
                          const Tensor& invStdDev, const Tensor& gamma, Sequence& prog,
                          const Type& partialsType, const DebugContext& debugContext,
                          const OptionFlags& options) {
  const std::string op = "popnn::gn::groupNormGradients";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "GroupNormGradients");
  const auto g =
      gn_impl::groupingOf(actsWhitened, invStdDev, stridedOption(options, op), op, "invStdDev");
  return gn_impl::gradients(graph, actsWhitened, gradsIn, invStdDev, gamma, prog, g, partialsType,
                            di, op);
}

void groupNormParamUpdate(Graph& graph, const Tensor& gammaDelta, const Tensor& betaDelta,
                          float scale, Tensor& gamma, Tensor& beta, Sequence& prog,
                          const DebugContext& debugContext, const OptionFlags& options) {
  const std::string op = "popnn::gn::groupNormParamUpdate";
  stridedOption(options, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "GroupNormParamUpdate");
  normParamUpdate(graph, gammaDelta, betaDelta, scale, gamma, beta, prog, di, op);
}

void groupNormParamUpdate(Graph& graph, const Tensor& gammaDelta, const Tensor& betaDelta,
                          const Tensor& scale, Tensor& gamma, Tensor& beta, Sequence& prog,
                          const DebugContext& debugContext, const OptionFlags& options) {
  const std::string op = "popnn::gn::groupNormParamUpdate";
  stridedOption(options, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "GroupNormParamUpdate");
  normParamUpdate(graph, gammaDelta, betaDelta, scale, gamma, beta, prog, di, op);
}

} // namespace gn
} // namespace popnn
