// Planning matrix products ahead of time: MatMulParams, their conversion to the convolutions
// PopLibs runs them as, preplanMatMuls and the option check. Tessera's matmul plans are made
// when a product is, so preplanning checks the products and keeps nothing.
#include "MatMulPlan.hpp"

#include <poplin/MatMul.hpp>
#include <poputil/exceptions.hpp>
#include <tuple>

namespace poplin {

using namespace poplar;

bool operator<(const MatMulParams& a, const MatMulParams& b) {
  return std::tie(a.inputType, a.outputType, a.aShape, a.bShape) <
         std::tie(b.inputType, b.outputType, b.aShape, b.bShape);
}

poplin::PlanningCache& matmul::PlanningCache::getImpl() {
  return *this;
}

void matmulValidateOptions(const OptionFlags& options) {
  parseMatMulOptions(options, "poplin::matmulValidateOptions");
}

namespace {

/// [M,K]x[K,N] or [G,M,K]x[G,K,N] as {G, M, K, N}; throws naming `op` otherwise.
std::tuple<std::size_t, std::size_t, std::size_t, std::size_t> dims(const MatMulParams& p,
                                                                    const std::string& op) {
  const auto& a = p.aShape;
  const auto& b = p.bShape;
  const bool grouped = a.size() == 3 && b.size() == 3 && a[0] == b[0];
  const bool plain = a.size() == 2 && b.size() == 2;
  if ((!grouped && !plain) || a[a.size() - 1] != b[b.size() - 2])
    throw poputil::poplibs_error(op + ": aShape and bShape must be [M,K] and [K,N], or [G,M,K] "
                                      "and [G,K,N]");
  const std::size_t G = grouped ? a[0] : 1;
  return std::make_tuple(G, a[a.size() - 2], a[a.size() - 1], b[b.size() - 1]);
}

/// The convolution options of a matmul's: partials type and memory proportion as they are, the
/// fully-connected pass as the convolution's FC_ pass.
OptionFlags convOptions(const OptionFlags& options) {
  OptionFlags conv;
  for (const auto& kv : options) {
    if (kv.first == "partialsType" || kv.first == "availableMemoryProportion")
      conv.set(kv.first, kv.second);
    else if (kv.first == "fullyConnectedPass" && kv.second != "NONE")
      conv.set("pass", "FC_" + kv.second);
  }
  return conv;
}

} // namespace

std::set<ConvPlanParams> matMulGetConvPlanParams(const std::set<MatMulPlanParams>& matmuls,
                                                 MatMulToConvOptions& matmulToConvOpts) {
  const std::string op = "poplin::matMulGetConvPlanParams";
  std::set<ConvPlanParams> convs;
  for (const auto& m : matmuls) {
    const Target* target = std::get<0>(m);
    const MatMulParams& params = std::get<1>(m);
    const OptionFlags* options = std::get<2>(m);
    if (!target) throw poputil::poplibs_error(op + ": a null target");
    matmulValidateOptions(options ? *options : OptionFlags());
    std::size_t G, M, K, N;
    std::tie(G, M, K, N) = dims(params, op);
    const OptionFlags* convOpts = nullptr;
    if (options) {
      auto it = matmulToConvOpts.find(options);
      if (it == matmulToConvOpts.end())
        it = matmulToConvOpts.emplace(options, convOptions(*options)).first;
      convOpts = &it->second;
    }
    // Rows of A are the field, K the input channels, N the output channels, a 1-wide kernel.
    convs.emplace(target, ConvParams(params.inputType, params.outputType, 1, {M}, {1}, K, N, G),
                  convOpts);
  }
  return convs;
}

void preplanMatMuls(const std::set<MatMulPlanParams>& matmuls, matmul::PlanningCache&) {
  const std::string op = "poplin::preplanMatMuls";
  for (const auto& m : matmuls) {
    const Target* target = std::get<0>(m);
    if (!target) throw poputil::poplibs_error(op + ": a null target");
    const MatMulParams& params = std::get<1>(m);
    const OptionFlags* options = std::get<2>(m);
    std::size_t G, M, K, N;
    std::tie(G, M, K, N) = dims(params, op);
    if (!G || !M || !K || !N) throw poputil::poplibs_error(op + ": an empty product");
    const MatMulOptions opts = parseMatMulOptions(options ? *options : OptionFlags(), op);
    planMatMul(*target, params.inputType, opts.partialsType, M, K, N);
  }
}

} // namespace poplin
