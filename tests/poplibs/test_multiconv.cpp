// poplin::multiconv (several convolutions built together), poplin::fc's pre-plan parameters and
// poplin::preplan: results against the host convolution and against single convolutions,
// planning-cache effects, and API misuse.
#include "ConvReference.hpp"
#include "TestUtil.hpp"

#include <poplar/exceptions.hpp>
#include <poplin/ConvPreplan.hpp>
#include <poplin/FullyConnected.hpp>
#include <poplin/MultiConvolution.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using Catch::Contains;
using poplin::ConvParams;
namespace mc = poplin::multiconv;

namespace {

/// Two convolutions of different shapes, the second grouped and strided.
std::vector<ConvParams> twoConvs() {
  ConvParams a(FLOAT, 2, {6, 5}, {3, 3}, 3, 4, 1);
  a.inputTransform.paddingLower = {1, 1};
  a.inputTransform.paddingUpper = {1, 1};
  ConvParams b(FLOAT, 1, {7, 7}, {2, 3}, 2, 3, 2);
  b.outputTransform.stride = {2, 1};
  return {a, b};
}

/// The forward weights' shape [G][Co][Ci][kernel...].
std::vector<std::size_t> weightsShapeOf(const ConvParams& p) {
  std::vector<std::size_t> shape = {p.numConvGroups, p.outputChannelsPerConvGroup,
                                    p.inputChannelsPerConvGroup};
  shape.insert(shape.end(), p.kernelShape.begin(), p.kernelShape.end());
  return shape;
}

} // namespace

TEST_CASE("multiconv: forward convolutions match the host and single convolutions",
          "[poplin][multiconv]") {
  const auto params = twoConvs();
  test::Harness h(16);
  std::vector<mc::CreateTensorArgs> create;
  for (std::size_t i = 0; i < params.size(); ++i)
    create.push_back({params[i], {}, "conv" + std::to_string(i)});
  std::vector<mc::ConvolutionArgs> args;
  std::vector<std::vector<float>> ins, ws;
  for (unsigned i = 0; i < params.size(); ++i) {
    const test::HostConv host(params[i]);
    const Tensor in = mc::createInput(h.graph(), create, i);
    const Tensor w = mc::createWeights(h.graph(), create, i, {{"planType", "serial"}});
    ins.push_back(test::randomValues(host.inSize(), -1.0f, 1.0f, 40 + i));
    ws.push_back(test::randomValues(host.wSize(), -1.0f, 1.0f, 50 + i));
    h.write("in" + std::to_string(i), in, ins.back());
    h.write("w" + std::to_string(i), w, ws.back());
    // The layout is the single convolution's: every element mapped, on the same tiles.
    const Tensor single = poplin::createWeights(h.graph(), params[i], "single");
    CHECK(h.graph().getTileMapping(w) == h.graph().getTileMapping(single));
    args.push_back({in, w, params[i], {}});
  }
  poplin::PlanningCache cache;
  const auto outs =
      mc::convolution(h.graph(), args, false, h.prog(), "multi",
                      {{"planType", "parallel"}, {"perConvReservedTiles", "4"}}, &cache);
  REQUIRE(outs.size() == 2);
  CHECK(cache.size() == 2); // one plan per distinct convolution
  // The same convolutions one by one, for comparison.
  std::vector<Tensor> singles;
  for (const auto& a : args)
    singles.push_back(
        poplin::convolution(h.graph(), a.inputs, a.weights, a.params, false, h.prog(), "one"));
  for (std::size_t i = 0; i < outs.size(); ++i) {
    h.read("out" + std::to_string(i), outs[i]);
    h.read("single" + std::to_string(i), singles[i]);
  }
  h.run();
  for (std::size_t i = 0; i < outs.size(); ++i) {
    const test::HostConv host(params[i]);
    const auto& got = h.result("out" + std::to_string(i));
    CHECK_THAT(got, test::CloseTo(host.forward(ins[i], ws[i]), 1e-5f, 1e-5f));
    // The parallel plan splits each convolution over fewer tiles than the single one, so its
    // sums may run in another order: equal to rounding.
    CHECK_THAT(got, test::CloseTo(h.result("single" + std::to_string(i)), 1e-5f, 1e-5f));
  }
}

TEST_CASE("multiconv: weight deltas, both weight updates and transposed weights",
          "[poplin][multiconv]") {
  const auto params = twoConvs();
  test::Harness h(16);
  std::vector<mc::CalculateWeightDeltasArgs> deltaArgs;
  std::vector<mc::ConvWeightUpdateArgs> tensorArgs;
  std::vector<mc::ConvWeightUpdateArgsScalar> scalarArgs;
  std::vector<std::vector<float>> acts, zs, w0s;
  std::vector<Tensor> deltas;
  const Tensor scale = h.input("scale", FLOAT, {1}, {-0.25f});
  for (unsigned i = 0; i < params.size(); ++i) {
    const ConvParams& p = params[i];
    const test::HostConv host(p);
    const std::string n = std::to_string(i);
    acts.push_back(test::randomValues(host.inSize(), -1.0f, 1.0f, 60 + i));
    zs.push_back(test::randomValues(host.outSize(), -1.0f, 1.0f, 70 + i));
    w0s.push_back(test::randomValues(host.wSize(), -1.0f, 1.0f, 80 + i));
    const Tensor a = poplin::createInput(h.graph(), p, "acts" + n);
    const Tensor z = poplin::createConvOutput(h.graph(), p, "z" + n);
    const Tensor wT = poplin::createWeights(h.graph(), p, "wT" + n);
    const Tensor wS = poplin::createWeights(h.graph(), p, "wS" + n);
    h.write("acts" + n, a, acts.back());
    h.write("z" + n, z, zs.back());
    h.write("wT" + n, wT, w0s.back());
    h.write("wS" + n, wS, w0s.back());
    deltaArgs.push_back({z, a, p, {}});
    tensorArgs.push_back({z, wT, a, scale, p, {}});
    scalarArgs.push_back({z, wS, a, 0.5f, p, {}});
  }
  deltas = mc::calculateWeightDeltas(h.graph(), deltaArgs, h.prog(), "deltas");
  mc::convolutionWeightUpdate(h.graph(), tensorArgs, h.prog(), "updateT");
  mc::convolutionWeightUpdate(h.graph(), scalarArgs, h.prog(), "updateS");
  // weightsTransposeChansFlipXY into the backward pass's weights [G][Ci][Co][kernel...].
  std::vector<mc::ConvolutionArgs> bwd;
  std::vector<Tensor> weightsIn;
  for (unsigned i = 0; i < params.size(); ++i) {
    const ConvParams& p = params[i];
    std::vector<std::size_t> shape = {p.numConvGroups, p.inputChannelsPerConvGroup,
                                      p.outputChannelsPerConvGroup};
    shape.insert(shape.end(), p.kernelShape.begin(), p.kernelShape.end());
    const Tensor out = h.graph().addVariable(FLOAT, shape, "flipped");
    poputil::mapTensorLinearly(h.graph(), out);
    bwd.push_back({Tensor(), out, p, {}});
    weightsIn.push_back(h.input("wIn" + std::to_string(i), FLOAT, weightsShapeOf(p), w0s[i]));
  }
  mc::weightsTransposeChansFlipXY(h.graph(), bwd, weightsIn, h.prog(), {}, "flip", nullptr);
  for (unsigned i = 0; i < params.size(); ++i) {
    const std::string n = std::to_string(i);
    h.read("deltas" + n, deltas[i]);
    h.read("wT" + n, tensorArgs[i].weights);
    h.read("wS" + n, scalarArgs[i].weights);
    h.read("flipped" + n, bwd[i].weights);
  }
  h.run();
  for (unsigned i = 0; i < params.size(); ++i) {
    const ConvParams& p = params[i];
    const test::HostConv host(p);
    const std::string n = std::to_string(i);
    const auto expected = host.weightGradient(zs[i], acts[i]);
    CHECK_THAT(h.result("deltas" + n), test::CloseTo(expected, 1e-5f, 1e-5f));
    std::vector<float> wT = w0s[i], wS = w0s[i];
    for (std::size_t k = 0; k < wT.size(); ++k) {
      wT[k] -= 0.25f * expected[k];
      wS[k] += 0.5f * expected[k];
    }
    CHECK_THAT(h.result("wT" + n), test::CloseTo(wT, 1e-5f, 1e-5f));
    CHECK_THAT(h.result("wS" + n), test::CloseTo(wS, 1e-5f, 1e-5f));
    // flipped[g][ic][oc][ky][kx] = w[g][oc][ic][KY-1-ky][KX-1-kx]
    const std::size_t G = p.numConvGroups, ci = p.inputChannelsPerConvGroup,
                      co = p.outputChannelsPerConvGroup, KY = p.kernelShape[0],
                      KX = p.kernelShape[1];
    std::vector<float> flipped(w0s[i].size());
    for (std::size_t g = 0; g < G; ++g)
      for (std::size_t oc = 0; oc < co; ++oc)
        for (std::size_t ic = 0; ic < ci; ++ic)
          for (std::size_t ky = 0; ky < KY; ++ky)
            for (std::size_t kx = 0; kx < KX; ++kx)
              flipped[((((g * ci + ic) * co + oc) * KY + ky) * KX) + kx] =
                  w0s[i][((((g * co + oc) * ci + ic) * KY + (KY - 1 - ky)) * KX) + (KX - 1 - kx)];
    CHECK(h.result("flipped" + n) == flipped);
  }
}

TEST_CASE("multiconv: misuse is a clear error", "[poplin][multiconv]") {
  test::Harness h(4);
  const auto params = twoConvs();
  const std::vector<mc::CreateTensorArgs> create = {{params[0], {}, "a"}, {params[1], {}, "b"}};
  CHECK_THROWS_MATCHES(mc::createWeights(h.graph(), create, 2), poputil::poplibs_error,
                       test::What(Contains("index 2 but the set has 2 convolutions")));
  CHECK_THROWS_MATCHES(mc::createInput(h.graph(), {}, 0), poputil::poplibs_error,
                       test::What(Contains("the set of convolutions is empty")));
  CHECK_THROWS_MATCHES(mc::createInput(h.graph(), create, 0, {{"planType", "diagonal"}}),
                       poplar::invalid_option, test::What(Contains("serial or parallel")));
  CHECK_THROWS_MATCHES(mc::createInput(h.graph(), create, 0, {{"cycleBackOff", "2"}}),
                       poplar::invalid_option, test::What(Contains("cycleBackOff")));
  CHECK_THROWS_MATCHES(mc::createInput(h.graph(), create, 0, {{"partialsType", "half"}}),
                       poplar::invalid_option, test::What(Contains("unknown option")));
  // A convolution's own options go to its planner, which checks them.
  const std::vector<mc::CreateTensorArgs> badOwn = {{params[0], {{"pass", "SIDEWAYS"}}, "a"}};
  CHECK_THROWS_AS(mc::createWeights(h.graph(), badOwn, 0), poplar::invalid_option);
  // Tensors that do not fit their convolution are named by the single-convolution check.
  const Tensor in = mc::createInput(h.graph(), create, 0);
  const Tensor w = mc::createWeights(h.graph(), create, 1);
  std::vector<mc::ConvolutionArgs> wrong = {{in, w, params[0], {}}};
  CHECK_THROWS_MATCHES(mc::convolution(h.graph(), wrong, false, h.prog()), poputil::poplibs_error,
                       test::What(Contains("weights has shape")));
  std::vector<mc::ConvolutionArgs> two = {{in, w, params[0], {}}, {in, w, params[1], {}}};
  CHECK_THROWS_MATCHES(
      mc::weightsTransposeChansFlipXY(h.graph(), two, {w}, h.prog(), {}, {}, nullptr),
      poputil::poplibs_error, test::What(Contains("1 weights tensors for 2 convolutions")));
}

TEST_CASE("fc::getMatMulPrePlanParameters: the passes' products", "[poplin][fc]") {
  const poplin::fc::FullyConnectedParams p{2, 8, 16, 4};
  const poplar::OptionFlags opts{{"partialsType", "half"}};
  const auto inference = poplin::fc::getMatMulPrePlanParameters(p, opts, HALF, true);
  REQUIRE(inference.size() == 1);
  CHECK(inference[0].first.aShape == std::vector<std::size_t>{2, 8, 16});
  CHECK(inference[0].first.bShape == std::vector<std::size_t>{2, 16, 4});
  CHECK(inference[0].first.inputType == HALF);
  CHECK(inference[0].first.outputType == HALF);
  const auto passOf = [](const poplar::OptionFlags& o) {
    for (const auto& kv : o)
      if (kv.first == "fullyConnectedPass") return kv.second;
    return std::string();
  };
  CHECK(passOf(inference[0].second) == "INFERENCE_FWD");
  const auto training = poplin::fc::getMatMulPrePlanParameters(p, opts, FLOAT, false);
  REQUIRE(training.size() == 3);
  CHECK(passOf(training[0].second) == "TRAINING_FWD");
  CHECK(passOf(training[1].second) == "TRAINING_BWD");
  CHECK(passOf(training[2].second) == "TRAINING_WU");
  // Backward: in and out swapped; weight update: batch and in swapped.
  CHECK(training[1].first.aShape == std::vector<std::size_t>{2, 8, 4});
  CHECK(training[1].first.bShape == std::vector<std::size_t>{2, 4, 16});
  CHECK(training[2].first.aShape == std::vector<std::size_t>{2, 16, 8});
  CHECK(training[2].first.bShape == std::vector<std::size_t>{2, 8, 4});
  // The caller's other options are kept.
  for (const auto& m : training)
    CHECK(m.second.at("partialsType") == "half");
  CHECK_THROWS_MATCHES(poplin::fc::getMatMulPrePlanParameters({1, 0, 2, 2}, {}, FLOAT, true),
                       poputil::poplibs_error, test::What(Contains("at least 1")));
}

TEST_CASE("preplan: convolutions and products planned into one cache", "[poplin][preplan]") {
  test::Harness h(16);
  const Target& target = h.graph().getTarget();
  const auto params = twoConvs();
  const poplar::OptionFlags convOpts;
  const auto fcs = poplin::fc::getMatMulPrePlanParameters({1, 8, 16, 4}, {}, FLOAT, false);
  std::set<poplin::ConvPlanParams> convs;
  for (const auto& p : params)
    convs.emplace(&target, p, &convOpts);
  std::set<poplin::MatMulPlanParams> matmuls;
  for (const auto& m : fcs)
    matmuls.emplace(&target, m.first, &m.second);
  poplin::PlanningCache cache;
  poplin::preplan(convs, matmuls, cache);
  CHECK(cache.size() == 5);
  // Building the same convolution through the cache plans nothing new.
  poplin::createWeights(h.graph(), params[0], "w", {}, &cache);
  poplin::createInput(h.graph(), params[1], "in", {}, &cache);
  CHECK(cache.size() == 5);
  // And the forward product through the cache reuses its plan as well.
  poplin::matMul(h.graph(), poplin::createMatMulInputLHS(h.graph(), FLOAT, {8, 16}, {16, 4}, "a"),
                 poplin::createMatMulInputRHS(h.graph(), FLOAT, {8, 16}, {16, 4}, "b"), h.prog(),
                 "mm", fcs[0].second, &cache);
  CHECK(cache.size() == 5);
  poplin::preplan({}, {}, cache); // nothing to plan
  CHECK(cache.size() == 5);
}

TEST_CASE("preplan: misuse is a clear error", "[poplin][preplan]") {
  const Target small = Target::createIPUTarget(1, 4, "ipu2");
  const Target large = Target::createIPUTarget(1, 8, "ipu2");
  const ConvParams p(FLOAT, 1, {4, 4}, {3, 3}, 2, 2, 1);
  const poplar::OptionFlags none;
  poplin::PlanningCache cache;
  CHECK_THROWS_MATCHES(poplin::preplan({{&small, p, &none}, {&large, p, &none}}, {}, cache),
                       poputil::poplibs_error, test::What(Contains("matching machine parameters")));
  CHECK_THROWS_MATCHES(poplin::preplan({{nullptr, p, &none}}, {}, cache), poputil::poplibs_error,
                       test::What(Contains("null target")));
  const poplar::OptionFlags bad{{"fullyConnectedPass", "SIDEWAYS"}};
  const poplin::MatMulParams mm{FLOAT, FLOAT, {4, 4}, {4, 4}};
  CHECK_THROWS_AS(poplin::preplan({}, {{&small, mm, &bad}}, cache), poplar::invalid_option);
  CHECK(cache.size() == 0);
}
