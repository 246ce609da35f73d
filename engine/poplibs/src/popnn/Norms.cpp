#include <poplin/Norms.hpp>
#include <popnn/Norms.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;

namespace popnn {

namespace {

void checkActs(const Tensor& acts, const std::string& op) {
  if (!acts.valid()) throw poputil::poplibs_error(op + ": acts is an invalid tensor");
  if (acts.rank() < 2)
    throw poputil::poplibs_error(op + ": acts must have at least 2 dimensions ([N][C]...), not " +
                                 acts.shapeToString());
}

/// [C] for activations [N][C]: PopLibs maps these linearly; for more dimensions the
/// parameters follow poplin's (mapped like the channels of the activations).
Tensor createParam(Graph& graph, const Tensor& acts, const DebugContext& dc, bool gamma) {
  const std::string op = gamma ? "popnn::createNormGamma" : "popnn::createNormBeta";
  checkActs(acts, op);
  if (acts.rank() > 2)
    return gamma ? poplin::createNormGamma(graph, acts, dc)
                 : poplin::createNormBeta(graph, acts, dc);
  const poputil::PoplibsOpDebugInfo di(dc, DI_ARGS(acts));
  Tensor param =
      graph.addVariable(acts.elementType(), {acts.dim(1)}, {di, gamma ? "gamma" : "beta"});
  poputil::mapTensorLinearly(graph, param);
  return param;
}

} // namespace

std::uint64_t getNormFwdFlops(std::size_t statisticsSize, std::size_t numActsElements,
                              bool computeStats) {
  const std::uint64_t n = numActsElements, s = statisticsSize;
  const std::uint64_t apply = 2 * n; // gamma * x + beta
  if (!computeStats) return apply;
  const std::uint64_t stats = 2 * n + 5 * s; // sums of x and x^2, then per statistic
  const std::uint64_t whiten = 2 * n;        // (x - mean) * invStdDev
  return stats + whiten + apply;
}

std::uint64_t getNormBwdFlops(std::size_t statisticsSize, std::size_t numActsElements) {
  const std::uint64_t n = numActsElements, s = statisticsSize;
  return n + 7 * n + 2 * s; // through gamma, then through the statistics
}

std::uint64_t getNormWuFlops(std::size_t paramsSize, std::size_t numActsElements) {
  return 3 * std::uint64_t(numActsElements) + 4 * std::uint64_t(paramsSize);
}

Tensor createNormGamma(Graph& graph, const Tensor& acts, const DebugContext& debugContext) {
  return createParam(graph, acts, debugContext, true);
}

Tensor createNormBeta(Graph& graph, const Tensor& acts, const DebugContext& debugContext) {
  return createParam(graph, acts, debugContext, false);
}

std::pair<Tensor, Tensor> createNormParams(Graph& graph, const Tensor acts,
                                           const DebugContext& debugContext) {
  return {createNormGamma(graph, acts, debugContext), createNormBeta(graph, acts, debugContext)};
}

} // namespace popnn
