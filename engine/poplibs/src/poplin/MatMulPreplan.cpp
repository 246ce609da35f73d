// Planning matrix products ahead of time: MatMulParams, their conversion to the convolutions
// PopLibs runs them as, preplanMatMuls (the convolution plans, into the cache) and the options.
#include "MatMulOptions.hpp"
#include "poplibs_support/TileWork.hpp"

#include <cstdlib>
#include <poplar/exceptions.hpp>
#include <poplin/MatMul.hpp>
#include <poputil/exceptions.hpp>
#include <tuple>

namespace poplin {

using namespace poplar;

bool operator<(const MatMulParams& a, const MatMulParams& b) {
  return std::tie(a.inputType, a.outputType, a.aShape, a.bShape) <
         std::tie(b.inputType, b.outputType, b.aShape, b.bShape);
}

// PopLibs' matmul options: partialsType, availableMemoryProportion and fullyConnectedPass go to
// the convolution planner; the others are checked so a typo or a bad value fails as it would on
// PopLibs.
MatMulOptions parseMatMulOptions(const OptionFlags& options, const std::string& op) {
  poplibs_support::checkOptions(options,
                                {"partialsType", "availableMemoryProportion", "fullyConnectedPass",
                                 "inputRHSIsPreArranged", "use128BitConvUnitLoad",
                                 "enableMultiStageReduce", "enableFastReduce", "remapOutputTensor",
                                 "planConstraints", "gatherOutput", "disableSRForAMPVertices"},
                                op);
  MatMulOptions parsed;
  for (const auto& kv : options) {
    const std::string& k = kv.first;
    const std::string& v = kv.second;
    auto bad = [&](const char* want) {
      throw poplar::invalid_option(op + ": option '" + k + "' = '" + v + "': expected " + want);
    };
    if (k == "partialsType") {
      if (v == "float")
        parsed.partialsType = FLOAT;
      else if (v == "half")
        parsed.partialsType = HALF;
      else
        bad("float or half");
    } else if (k == "availableMemoryProportion") {
      char* end = nullptr;
      const double d = std::strtod(v.c_str(), &end);
      if (end == v.c_str() || *end || !(d >= 0 && d <= 1)) bad("a number in [0, 1]");
      parsed.availableMemoryProportion = d;
    } else if (k == "fullyConnectedPass") {
      if (v != "NONE" && v != "INFERENCE_FWD" && v != "TRAINING_FWD" && v != "TRAINING_BWD" &&
          v != "TRAINING_WU")
        bad("NONE, INFERENCE_FWD, TRAINING_FWD, TRAINING_BWD or TRAINING_WU");
      parsed.fullyConnectedPass = v;
    } else if (k != "planConstraints") {
      if (v != "true" && v != "false") bad("true or false");
    }
  }
  return parsed;
}

ConvOptions toConvOptions(const MatMulOptions& options) {
  ConvOptions conv;
  conv.partialsType = options.partialsType;
  conv.availableMemoryProportion = options.availableMemoryProportion;
  conv.pass = options.fullyConnectedPass == "NONE" ? "NONE" : "FC_" + options.fullyConnectedPass;
  return conv;
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
    // As PopLibs: rows of A are the batch, K the input channels, N the output channels, over a
    // field and a kernel of one element.
    convs.emplace(target, ConvParams(params.inputType, params.outputType, M, {1}, {1}, K, N, G),
                  convOpts);
  }
  return convs;
}

void preplanMatMuls(const std::set<MatMulPlanParams>& matmuls, matmul::PlanningCache& cache) {
  preplanMatMulsInto(matmuls, cache, "poplin::preplanMatMuls");
}

void preplanMatMulsInto(const std::set<MatMulPlanParams>& matmuls, PlanningCache& cache,
                        const std::string& op) {
  for (const auto& m : matmuls) {
    const Target* target = std::get<0>(m);
    if (!target) throw poputil::poplibs_error(op + ": a null target");
    const MatMulParams& params = std::get<1>(m);
    const OptionFlags* options = std::get<2>(m);
    std::size_t G, M, K, N;
    std::tie(G, M, K, N) = dims(params, op);
    if (!G || !M || !K || !N) throw poputil::poplibs_error(op + ": an empty product");
    const MatMulOptions opts = parseMatMulOptions(options ? *options : OptionFlags(), op);
    ConvProblem problem =
        makeConvProblem(ConvParams(params.inputType, params.outputType, M, {1}, {1}, K, N, G), op);
    problem.channelsInnermost = true;
    planConvolutionCached(*target, problem, toConvOptions(opts), &cache);
  }
}

} // namespace poplin
