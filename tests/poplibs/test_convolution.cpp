#include "ConvReference.hpp"
#include "TestUtil.hpp"

#include <poplin/ConvUtil.hpp>
#include <poplin/Convolution.hpp>
#include <poputil/exceptions.hpp>
#include <sstream>

using namespace poplar;
using Catch::Contains;
using poplin::ConvParams;

namespace {

ConvParams params2d(Type type, std::size_t batch, std::vector<std::size_t> field,
                    std::vector<std::size_t> kernel, std::size_t ci, std::size_t co,
                    std::size_t groups = 1) {
  return ConvParams(type, batch, std::move(field), std::move(kernel), ci, co, groups);
}

/// Runs convolution() with inputs and weights from createInput/createWeights and checks the
/// result against the host; returns the plan text.
std::string checkForward(const ConvParams& p, float tol = 1e-5f, unsigned tiles = 16) {
  test::Harness h(tiles);
  const test::HostConv host(p);
  const auto inValues = test::randomValues(host.inSize(), -1.0f, 1.0f, 11);
  const auto wValues = test::randomValues(host.wSize(), -1.0f, 1.0f, 12);
  const Tensor in = poplin::createInput(h.graph(), p, "in");
  const Tensor w = poplin::createWeights(h.graph(), p, "weights");
  h.write("in", in, inValues);
  h.write("weights", w, wValues);
  const Tensor out = poplin::convolution(h.graph(), in, w, p, false, h.prog(), "conv");
  h.read("out", out);
  h.run();
  CHECK_THAT(h.result("out"), test::CloseTo(host.forward(inValues, wValues), tol, tol));
  std::ostringstream plan;
  poplin::reportPlanInfo(plan, h.graph(), p);
  return plan.str();
}

} // namespace

TEST_CASE("convolution: 3x3 same-padded, against the host", "[poplin][conv]") {
  ConvParams p = params2d(FLOAT, 2, {6, 7}, {3, 3}, 3, 4);
  p.inputTransform.paddingLower = {1, 1};
  p.inputTransform.paddingUpper = {1, 1};
  REQUIRE(p.getOutputFieldShape() == std::vector<std::size_t>{6, 7});
  const std::string plan = checkForward(p);
  CHECK_THAT(plan, Contains("ConvPartialHorizontalMac") && Contains("outChanSplit"));
}

TEST_CASE("convolution: strides, kernel dilation and groups", "[poplin][conv]") {
  ConvParams p = params2d(FLOAT, 2, {9, 8}, {3, 2}, 2, 3, 2);
  p.inputTransform.paddingLower = {1, 0};
  p.inputTransform.paddingUpper = {2, 1};
  p.kernelTransform.dilation = {2, 1};
  p.outputTransform.stride = {2, 3};
  checkForward(p);
}

TEST_CASE("convolution: every transform at once", "[poplin][conv]") {
  ConvParams p = params2d(FLOAT, 1, {7, 6}, {3, 4}, 2, 2);
  p.inputTransform = {{1, 0}, {0, 1}, {2, 1}, {1, 2}, {0, 1}, {true, false}};
  p.kernelTransform = {{0, 1}, {1, 0}, {1, 2}, {1, 0}, {0, 1}, {false, true}};
  p.outputTransform = {{1, 0}, {0, 1}, {1, 2}, {1, 0}, {2, 1}};
  checkForward(p);
}

TEST_CASE("convolution: 1-D, and AMP vertices for 8 input channels", "[poplin][conv]") {
  ConvParams p1(FLOAT, 3, {10}, {3}, 2, 3, 1);
  p1.inputTransform.paddingLower = {2};
  checkForward(p1);
  const ConvParams p2 = params2d(FLOAT, 1, {5, 5}, {3, 3}, 8, 8);
  CHECK_THAT(checkForward(p2), Contains("ConvPartialnx1<float,float,true,false,8,2>"));
  const ConvParams p3 = params2d(FLOAT, 2, {4, 4}, {1, 1}, 8, 5);
  CHECK_THAT(checkForward(p3), Contains("ConvPartial1x1Out"));
}

TEST_CASE("convolution: half inputs, half and float outputs", "[poplin][conv]") {
  ConvParams p = params2d(HALF, 2, {5, 5}, {3, 3}, 3, 4);
  p.inputTransform.paddingLower = {1, 1};
  checkForward(p, 2e-2f);
  ConvParams pf(HALF, FLOAT, 1, {4, 4}, {2, 2}, 16, 2, 1);
  CHECK_THAT(checkForward(pf, 2e-2f), Contains("ConvPartialnx1<half,float"));
}

TEST_CASE("convolution: the backward pass with getGradientParams and transposed weights",
          "[poplin][conv]") {
  for (unsigned stride : {1u, 2u, 3u}) {
    ConvParams p = params2d(FLOAT, 2, {7, 6}, {3, 3}, 3, 4, stride == 3 ? 2 : 1);
    p.inputTransform.paddingLower = {1, 1};
    p.inputTransform.paddingUpper = {1, 1};
    p.outputTransform.stride = {stride, stride};
    const ConvParams bwd = poplin::getGradientParams(p);
    REQUIRE(bwd.getOutputFieldShape() == p.inputFieldShape);
    test::Harness h(16);
    const test::HostConv host(p);
    const auto dOut = test::randomValues(host.outSize(), -1.0f, 1.0f, 21);
    const auto wValues = test::randomValues(host.wSize(), -1.0f, 1.0f, 22);
    const Tensor zDeltas = poplin::createInput(h.graph(), bwd, "zDeltas");
    const Tensor w = poplin::createWeights(h.graph(), p, "weights");
    h.write("zDeltas", zDeltas, dOut);
    h.write("weights", w, wValues);
    const Tensor dIn = poplin::convolution(h.graph(), zDeltas, w, bwd, true, h.prog(), "bwd");
    h.read("dIn", dIn);
    h.run();
    CHECK_THAT(h.result("dIn"), test::CloseTo(host.inputGradient(dOut, wValues), 1e-5f, 1e-5f));
  }
}

TEST_CASE("convolution: weight deltas and the weight update", "[poplin][conv]") {
  ConvParams p = params2d(FLOAT, 3, {6, 5}, {3, 2}, 2, 3, 2);
  p.inputTransform.paddingLower = {1, 0};
  p.outputTransform.stride = {2, 1};
  p.kernelTransform.dilation = {1, 2};
  test::Harness h(16);
  const test::HostConv host(p);
  const auto in = test::randomValues(host.inSize(), -1.0f, 1.0f, 31);
  const auto dOut = test::randomValues(host.outSize(), -1.0f, 1.0f, 32);
  const auto w0 = test::randomValues(host.wSize(), -1.0f, 1.0f, 33);
  const Tensor acts = poplin::createInput(h.graph(), p, "acts");
  const Tensor z = h.input("zDeltas", FLOAT, {3, 6, 3, 3}, dOut);
  REQUIRE(p.getOutputFieldShape() == std::vector<std::size_t>{3, 3});
  const Tensor w = poplin::createWeights(h.graph(), p, "weights");
  h.write("acts", acts, in);
  h.write("weights", w, w0);
  const Tensor deltas = poplin::calculateWeightDeltas(h.graph(), z, acts, p, h.prog(), "wu");
  h.read("deltas", deltas);
  poplin::convolutionWeightUpdate(h.graph(), z, w, acts, p, -0.5f, h.prog(), "update");
  h.read("weights", w);
  h.run();
  const auto expected = host.weightGradient(dOut, in);
  CHECK_THAT(h.result("deltas"), test::CloseTo(expected, 1e-5f, 1e-5f));
  std::vector<float> updated = w0;
  for (std::size_t i = 0; i < updated.size(); ++i)
    updated[i] -= 0.5f * expected[i];
  CHECK_THAT(h.result("weights"), test::CloseTo(updated, 1e-5f, 1e-5f));
}

TEST_CASE("convolution: biases added and updated per channel", "[poplin][conv]") {
  test::Harness h(8);
  const std::vector<std::size_t> shape = {2, 3, 4, 5};
  const auto actsValues = test::randomValues(120, -1.0f, 1.0f, 41);
  const Tensor acts = h.input("acts", FLOAT, shape, actsValues);
  const Tensor biases = poplin::createBiases(h.graph(), acts);
  h.write("biases", biases, {1.0f, 2.0f, 3.0f});
  poplin::addBias(h.graph(), acts, biases, h.prog(), "addBias");
  h.read("acts", acts);
  poplin::convolutionBiasUpdate(h.graph(), acts, biases, 0.1f, {}, h.prog(), "biasUpdate");
  h.read("biases", biases);
  h.run();
  std::vector<float> expected = actsValues;
  std::vector<float> sums(3);
  for (std::size_t i = 0; i < expected.size(); ++i) {
    expected[i] += float((i / 20) % 3 + 1);
    sums[(i / 20) % 3] += expected[i];
  }
  CHECK_THAT(h.result("acts"), test::CloseTo(expected, 1e-6f));
  CHECK_THAT(
      h.result("biases"),
      test::CloseTo({1.0f + 0.1f * sums[0], 2.0f + 0.1f * sums[1], 3.0f + 0.1f * sums[2]}, 1e-5f));
}

TEST_CASE("convolution: FLOP counts skip padding", "[poplin][conv]") {
  ConvParams p(FLOAT, 1, {3}, {3}, 1, 1, 1);
  p.inputTransform.paddingLower = {1};
  p.inputTransform.paddingUpper = {1};
  // Outputs 0..2 see 2, 3 and 2 real inputs.
  CHECK(poplin::getFwdFlops(p) == 2 * 7);
  CHECK(poplin::getWuFlops(p) == 2 * 7);
}

TEST_CASE("convolution: bad arguments name the argument", "[poplin][conv]") {
  test::Harness h(4);
  ConvParams p(FLOAT, 1, {4, 4}, {3, 3}, 2, 2, 1);
  const Tensor in = poplin::createInput(h.graph(), p, "in");
  const Tensor w = poplin::createWeights(h.graph(), p, "w");
  const Tensor wrong = h.graph().addVariable(FLOAT, {1, 3, 4, 4}, "wrong");
  h.graph().setTileMapping(wrong, 0);
  CHECK_THROWS_MATCHES(poplin::convolution(h.graph(), wrong, w, p, false, h.prog()),
                       poputil::poplibs_error, test::What(Contains("in has shape {1,3,4,4}")));
  CHECK_THROWS_MATCHES(poplin::convolution(h.graph(), in, in, p, false, h.prog()),
                       poputil::poplibs_error, test::What(Contains("weights has shape")));
  ConvParams bad = p;
  bad.outputTransform.stride = {1, 0};
  CHECK_THROWS_MATCHES(poplin::convolution(h.graph(), in, w, bad, false, h.prog()),
                       poputil::poplibs_error, test::What(Contains("outputTransform.stride[1]")));
  bad = p;
  bad.inputTransform.paddingLower = {1};
  CHECK_THROWS_MATCHES(poplin::createInput(h.graph(), bad, "x"), poputil::poplibs_error,
                       test::What(Contains("inputTransform.paddingLower has 1 entries")));
  bad = p;
  bad.kernelShape = {5, 5};
  CHECK_THROWS_MATCHES(poplin::createWeights(h.graph(), bad, "x"), poputil::poplibs_error,
                       test::What(Contains("larger than the transformed input")));
  CHECK_THROWS_MATCHES(poplin::createInput(h.graph(), p, "x", {{"partialsType", "double"}}),
                       poplar::invalid_option, test::What(Contains("partialsType")));
  ConvParams three(FLOAT, 1, {2, 2, 2}, {1, 1, 1}, 1, 1, 1);
  CHECK_THROWS_MATCHES(poplin::createInput(h.graph(), three, "x"), poputil::poplibs_error,
                       test::What(Contains("3 spatial dimensions")));
}

TEST_CASE("convolution: input, weights and output are spread over the tiles", "[poplin][conv]") {
  test::Harness h(16);
  ConvParams p = params2d(FLOAT, 2, {8, 8}, {3, 3}, 4, 8);
  p.inputTransform.paddingLower = {1, 1};
  p.inputTransform.paddingUpper = {1, 1};
  const Tensor in = poplin::createInput(h.graph(), p, "in");
  const Tensor w = poplin::createWeights(h.graph(), p, "w");
  const Tensor out = poplin::createConvOutput(h.graph(), p, "out");
  const auto used = [&](const Tensor& t) {
    std::size_t n = 0;
    for (const auto& tile : h.graph().getTileMapping(t))
      n += !tile.empty();
    return n;
  };
  CHECK(used(in) >= 8);
  CHECK(used(w) >= 4);
  CHECK(used(out) == 16);
  std::ostringstream plan;
  poplin::reportPlanInfo(plan, h.graph(), p);
  CHECK_THAT(plan.str(), Contains("batchSplit 2") && Contains("modelled cycles"));
}

TEST_CASE("convolution: many input channels on few outputs split the input channels",
          "[poplin][conv]") {
  // 64 input channels but only 2 x 2 outputs of 2 channels: the planner sums partials of
  // input-channel blocks rather than leave most tiles idle.
  const ConvParams p = params2d(FLOAT, 1, {3, 3}, {2, 2}, 64, 2);
  const std::string plan = checkForward(p, 1e-5f, 16);
  CHECK_THAT(plan, !Contains("inChanSplit 1 ") && Contains("input-channel blocks' partials"));
  ConvParams half(HALF, FLOAT, 1, {3, 3}, {2, 2}, 64, 2, 1);
  checkForward(half, 2e-2f, 16);
}

TEST_CASE("convolution: AMP vertices are modelled faster than horizontal MACs", "[poplin][conv]") {
  // The same field and kernel; 8 input channels use the AMP units, 7 cannot (PopLibs would
  // use ConvPartialHorizontalMac), so despite an eighth more work the plan is quicker.
  test::Harness h(16);
  const auto cycles = [&](std::size_t ci) {
    std::ostringstream plan;
    poplin::reportPlanInfo(plan, h.graph(), params2d(FLOAT, 2, {12, 12}, {3, 3}, ci, 16));
    const std::string s = plan.str();
    const auto end = s.find(" in all");
    const auto begin = s.rfind('~', end);
    REQUIRE(end != std::string::npos);
    INFO(s);
    return std::stoull(s.substr(begin + 1, end - begin - 1));
  };
  CHECK(cycles(8) < cycles(7));
  CHECK(cycles(16) < 2 * cycles(8) + 2000);
}

TEST_CASE("weightsTransposeChansFlipXY: both forms swap the channels and flip the kernel",
          "[poplin][conv]") {
  test::Harness h(4);
  std::vector<float> values(2 * 3 * 2 * 2);
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = float(i);
  const Tensor in = h.input("in", FLOAT, {1, 2, 3, 2, 2}, values);
  const Tensor out1 = h.graph().addVariable(FLOAT, {1, 3, 2, 2, 2}, "out1");
  const Tensor out2 = h.graph().clone(out1, "out2");
  h.graph().setTileMapping(out1, 0);
  h.graph().setTileMapping(out2, 1);
  poplin::weightsTransposeChansFlipXY(h.graph(), in, out1, h.prog());
  std::vector<program::Copy> pre, post;
  const ComputeSet cs = h.graph().addComputeSet("transpose");
  poplin::weightsTransposeChansFlipXY(h.graph(), in, out2, pre, cs, post);
  REQUIRE(pre.size() == 1);
  for (const auto& c : pre)
    h.prog().add(c);
  h.prog().add(program::Execute(cs));
  h.read("out1", out1);
  h.read("out2", out2);
  h.run();
  std::vector<float> expected;
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t o = 0; o < 2; ++o)
      for (std::size_t y = 0; y < 2; ++y)
        for (std::size_t x = 0; x < 2; ++x)
          expected.push_back(values[((o * 3 + i) * 2 + (1 - y)) * 2 + (1 - x)]);
  CHECK(h.result("out1") == expected);
  CHECK(h.result("out2") == expected);
  const Tensor wrong = h.graph().addVariable(FLOAT, {1, 2, 3, 2, 2}, "wrong");
  CHECK_THROWS_MATCHES(poplin::weightsTransposeChansFlipXY(h.graph(), in, wrong, h.prog()),
                       poputil::poplibs_error, test::What(Contains("weightsOut has shape")));
}
