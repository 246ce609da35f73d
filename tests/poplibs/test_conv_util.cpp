// poplin's ConvUtil index/range helpers on hand-worked cases and against the host reference's
// taps for every transform at once; ConvParams' JSON reader and shape getters; and the
// Convolution.hpp names wired to the planner: convolutionWithOutput, reportPlanEstimatedCosts,
// fullyConnectedWeightTranspose, convolutionValidateOptions, the graph overload of
// preplanConvolutions.
#include "ConvReference.hpp"
#include "TestUtil.hpp"

#include <algorithm>
#include <poplin/ConvUtil.hpp>
#include <poplin/Convolution.hpp>
#include <poputil/exceptions.hpp>
#include <sstream>

using namespace poplar;
using Catch::Contains;
using poplin::ConvParams;
using Range = std::pair<unsigned, unsigned>;

namespace {
constexpr unsigned kNone = ~0U;
}

TEST_CASE("ConvUtil: a plain 1-D convolution", "[poplin][convutil]") {
  // Input 5, kernel 3: outputs 0..2, output o reads inputs o..o+2.
  const ConvParams p(FLOAT, 1, {5}, {3}, 1, 1, 1);
  CHECK(poplin::getInputIndex(0, 1, 2, p) == 3);
  CHECK(poplin::getKernelIndex(0, 1, 3, p) == 2);
  CHECK(poplin::getKernelIndex(0, 0, 4, p) == kNone);
  CHECK(poplin::getOutputRangeForKernelIndex(0, {0, 3}, 1, p) == Range{0, 3});
  CHECK(poplin::getOutputRangeForInputIndex(0, {0, 3}, 0, p) == Range{0, 1});
  CHECK(poplin::getOutputRangeForInputIndex(0, {0, 3}, 4, p) == Range{2, 3});
  CHECK(poplin::getOutputRangeForInputIndex(0, {1, 2}, 2, p) == Range{1, 2});
  CHECK(poplin::getOutputRangeForInputRange(0, {0, 3}, {0, 2}, p) == Range{0, 2});
  CHECK(poplin::getOutputRangeForKernelRange(0, {0, 3}, {0, 3}, p) == Range{0, 3});
  CHECK(poplin::getInputRange(0, Range{0, 3}, 2u, p) == Range{2, 5});
  CHECK(poplin::getKernelRange(0, Range{0, 3}, 1u, p) == Range{0, 2});
  CHECK(poplin::getInputRange(0, 1u, p) == Range{1, 4});
  CHECK(poplin::getInputRange(0, Range{1, 3}, p) == Range{1, 5});
  CHECK(poplin::getInputRange(0, 0u, Range{1, 2}, p) == Range{1, 2});
  CHECK(poplin::getInputRange(0, Range{0, 2}, Range{0, 2}, p) == Range{0, 3});
  CHECK(poplin::getKernelRange(0, Range{0, 1}, Range{3, 5}, p) == Range{0, 0}); // none
  CHECK(poplin::getKernelRange(0, Range{0, 3}, Range{2, 3}, p) == Range{0, 3});
}

TEST_CASE("ConvUtil: padding, stride, dilation and flips", "[poplin][convutil]") {
  CHECK(poplin::getDilatedSize(3, 2) == 5);
  CHECK(poplin::getDilatedSize(0, 4) == 0);
  CHECK(poplin::getDilatedSize(1, 7) == 1);

  // Input 4 padded by 1 each side (6), kernel 3: output 4; input i sits at padded i + 1.
  ConvParams padded(FLOAT, 1, {4}, {3}, 1, 1, 1);
  padded.inputTransform.paddingLower = {1};
  padded.inputTransform.paddingUpper = {1};
  CHECK(poplin::getInputIndex(0, 0, 0, padded) == kNone);
  CHECK(poplin::getInputIndex(0, 0, 1, padded) == 0);
  CHECK(poplin::getOutputRangeForKernelIndex(0, {0, 4}, 0, padded) == Range{1, 4});
  CHECK(poplin::getOutputRangeForKernelIndex(0, {0, 4}, 2, padded) == Range{0, 3});

  // Input 7, kernel 3, stride 2: untransformed outputs 0..4, kept 0, 2, 4.
  ConvParams strided(FLOAT, 1, {7}, {3}, 1, 1, 1);
  strided.outputTransform.stride = {2};
  REQUIRE(strided.getOutputSize(0) == 3);
  CHECK(poplin::getInputIndex(0, 1, 0, strided) == 2);
  CHECK(poplin::getInputIndex(0, 2, 2, strided) == 6);
  CHECK(poplin::getOutputRangeForInputIndex(0, {0, 3}, 3, strided) == Range{1, 2});
  CHECK(poplin::getKernelRange(0, Range{0, 3}, 3u, strided) == Range{1, 2});

  // Input 3 dilated by 2 (5 positions, real ones at 0, 2, 4), kernel 2: output 4.
  ConvParams dilated(FLOAT, 1, {3}, {2}, 1, 1, 1);
  dilated.inputTransform.dilation = {2};
  CHECK(poplin::getInputIndex(0, 1, 0, dilated) == kNone);
  CHECK(poplin::getInputIndex(0, 1, 1, dilated) == 1);
  CHECK(poplin::getInputRange(0, Range{0, 4}, 0u, dilated) == Range{0, 2});

  // A flipped kernel: kernel element 0 meets the last input of each window.
  ConvParams flipped(FLOAT, 1, {5}, {3}, 1, 1, 1);
  flipped.kernelTransform.flip = {true};
  CHECK(poplin::getInputIndex(0, 0, 0, flipped) == 2);
  CHECK(poplin::getKernelIndex(0, 1, 1, flipped) == 2);

  CHECK_THROWS_AS(poplin::getInputIndex(1, 0, 0, flipped), poputil::poplibs_error);
}

TEST_CASE("ConvUtil: every transform at once agrees with the host's taps", "[poplin][convutil]") {
  ConvParams p(FLOAT, 1, {9, 6}, {3, 4}, 1, 1, 1);
  p.inputTransform = {{1, 0}, {0, 1}, {2, 1}, {1, 2}, {0, 1}, {true, false}};
  p.kernelTransform = {{0, 1}, {1, 0}, {1, 2}, {1, 0}, {0, 1}, {false, true}};
  p.outputTransform = {{1, 0}, {0, 1}, {1, 2}, {1, 0}, {2, 1}};
  for (unsigned dim = 0; dim < 2; ++dim) {
    INFO("dimension " << dim);
    const auto taps = test::convTaps(p, dim);
    REQUIRE(!taps.empty());
    const unsigned outs = unsigned(p.getOutputSize(dim)), ins = unsigned(p.inputFieldShape[dim]),
                   ks = unsigned(p.kernelShape[dim]);
    const auto isTap = [&](unsigned o, unsigned i, unsigned k) {
      return std::any_of(taps.begin(), taps.end(), [&](const test::ConvTap& t) {
        return t.out == long(o) && t.in == long(i) && t.kernel == long(k);
      });
    };
    for (unsigned o = 0; o < outs; ++o)
      for (unsigned k = 0; k < ks; ++k) {
        const unsigned i = poplin::getInputIndex(dim, o, k, p);
        bool any = false;
        for (unsigned j = 0; j < ins; ++j)
          any |= isTap(o, j, k);
        if (!any) {
          CHECK(i == kNone);
        } else {
          CHECK(isTap(o, i, k));
          CHECK(poplin::getKernelIndex(dim, o, i, p) == k);
        }
      }
    // Ranges: the extreme taps within the ranges given.
    const auto span = [&](auto pick, auto keep) {
      long lo = -1, hi = -1;
      for (const auto& t : taps)
        if (keep(t)) {
          const long v = pick(t);
          lo = lo < 0 ? v : std::min(lo, v);
          hi = std::max(hi, v);
        }
      return lo < 0 ? Range{0, 0} : Range{unsigned(lo), unsigned(hi + 1)};
    };
    const Range outR{0, outs};
    for (unsigned k = 0; k < ks; ++k) {
      CHECK(poplin::getInputRange(dim, outR, k, p) ==
            span([](auto& t) { return t.in; }, [&](auto& t) { return t.kernel == long(k); }));
      CHECK(poplin::getOutputRangeForKernelIndex(dim, outR, k, p) ==
            span([](auto& t) { return t.out; }, [&](auto& t) { return t.kernel == long(k); }));
    }
    for (unsigned i = 0; i < ins; ++i) {
      CHECK(poplin::getKernelRange(dim, outR, i, p) ==
            span([](auto& t) { return t.kernel; }, [&](auto& t) { return t.in == long(i); }));
      CHECK(poplin::getOutputRangeForInputIndex(dim, outR, i, p) ==
            span([](auto& t) { return t.out; }, [&](auto& t) { return t.in == long(i); }));
    }
  }
}

TEST_CASE("getWeightUpdateParams: the forward transforms swap roles", "[poplin][convutil]") {
  // Batch 2, input 5, kernel 3, 4 -> 6 channels, stride 2: output field 2.
  ConvParams fwd(FLOAT, 2, {5}, {3}, 4, 6, 1);
  fwd.outputTransform.stride = {2};
  fwd.kernelTransform.dilation = {1};
  const ConvParams wu = poplin::getWeightUpdateParams(fwd);
  CHECK(wu.batchSize == 4);                 // the forward input channels
  CHECK(wu.inputChannelsPerConvGroup == 2); // the forward batch
  CHECK(wu.outputChannelsPerConvGroup == 6);
  CHECK(wu.kernelShape == std::vector<std::size_t>{2});           // the forward output field
  CHECK(wu.kernelTransform.dilation == std::vector<unsigned>{2}); // the forward stride
  CHECK(wu.getOutputFieldShape() == std::vector<std::size_t>{3}); // the forward kernel
  // A dilated forward kernel strides the weight update's output.
  ConvParams fwd2(FLOAT, 1, {9}, {3}, 1, 1, 1);
  fwd2.kernelTransform.dilation = {2};
  const ConvParams wu2 = poplin::getWeightUpdateParams(fwd2);
  CHECK(wu2.outputTransform.stride == std::vector<unsigned>{2});
  CHECK(wu2.getOutputFieldShape() == std::vector<std::size_t>{3});
}

TEST_CASE("ConvParams: JSON reader and shape getters", "[poplin][convutil]") {
  std::istringstream json(R"({"dataType": "half", "batchSize": 3, "numConvGroups": 2,
    "inputChannelsPerConvGroup": 4, "outputChannelsPerConvGroup": 5,
    "inputFieldShape": [8, 9], "kernelShape": [3, 2],
    "inputTransform": {"paddingLower": [1, 0], "flip": [false, true]},
    "outputTransform": {"stride": [2, 1]}})");
  ConvParams p;
  json >> p;
  CHECK(p.inputType == HALF);
  CHECK(p.outputType == HALF);
  CHECK(p.batchSize == 3);
  CHECK(p.numConvGroups == 2);
  CHECK(p.getInputFieldShape() == std::vector<std::size_t>{8, 9});
  CHECK(p.getKernelShape() == std::vector<std::size_t>{3, 2});
  CHECK(p.inputTransform.paddingLower == std::vector<unsigned>{1, 0});
  CHECK(p.inputTransform.paddingUpper == std::vector<unsigned>{0, 0});
  CHECK(p.inputTransform.flip == std::vector<bool>{false, true});
  CHECK(p.kernelTransform.dilation == std::vector<unsigned>{1, 1});
  CHECK(p.outputTransform.stride == std::vector<unsigned>{2, 1});
  CHECK(p.getOutputFieldShape() == std::vector<std::size_t>{4, 8});

  std::istringstream types(R"({"inputType": "half", "outputType": "float",
    "inputFieldShape": [4], "kernelShape": [1]})");
  ConvParams q;
  types >> q;
  CHECK(q.inputType == HALF);
  CHECK(q.outputType == FLOAT);

  ConvParams r;
  std::istringstream bad("{not json");
  CHECK_THROWS_WITH(bad >> r, Contains("not valid JSON"));
  std::istringstream ranks(R"({"inputFieldShape": [4, 4], "kernelShape": [1]})");
  CHECK_THROWS_WITH(ranks >> r, Contains("same number of dimensions"));
  std::istringstream quarter(R"({"dataType": "quarter"})");
  CHECK_THROWS_AS(quarter >> r, poputil::poplibs_error);
}

TEST_CASE("convolutionWithOutput writes the convolution into a given tensor", "[poplin][conv]") {
  ConvParams p(FLOAT, 2, {6, 5}, {3, 2}, 3, 4, 1);
  p.inputTransform.paddingLower = {1, 0};
  p.outputTransform.stride = {2, 1};
  test::Harness h(8);
  const test::HostConv host(p);
  const auto inValues = test::randomValues(host.inSize(), -1.0f, 1.0f, 21);
  const auto wValues = test::randomValues(host.wSize(), -1.0f, 1.0f, 22);
  const Tensor in = poplin::createInput(h.graph(), p, "in");
  const Tensor w = poplin::createWeights(h.graph(), p, "weights");
  const Tensor out = poplin::createConvOutput(h.graph(), p);
  h.write("in", in, inValues);
  h.write("w", w, wValues);
  poplin::convolutionWithOutput(h.graph(), in, w, out, p, false, h.prog(), "conv");
  h.read("out", out);
  h.run();
  CHECK_THAT(h.result("out"), test::CloseTo(host.forward(inValues, wValues), 1e-5f, 1e-5f));

  Tensor wrong = h.graph().addVariable(FLOAT, {2, 4, 3, 3}, "wrong");
  h.graph().setTileMapping(wrong, 0);
  CHECK_THROWS_WITH(
      poplin::convolutionWithOutput(h.graph(), in, w, wrong, p, false, h.prog(), "conv"),
      Contains("out has shape"));
}

TEST_CASE("reportPlanEstimatedCosts: the planner's cycles and memory", "[poplin][conv]") {
  test::Harness h(4);
  const ConvParams small(FLOAT, 1, {8, 8}, {3, 3}, 4, 4, 1);
  const ConvParams big(FLOAT, 4, {8, 8}, {3, 3}, 4, 4, 1);
  poplin::PlanningCache cache;
  const poplin::PlanCosts a = poplin::reportPlanEstimatedCosts(h.graph(), small, {}, &cache);
  const poplin::PlanCosts b = poplin::reportPlanEstimatedCosts(h.graph(), big, {}, &cache);
  CHECK(cache.size() == 2);
  CHECK(a.cycles > 0);
  CHECK(a.memory > 0);
  CHECK(a.cycles != poplin::PlanCosts::unknown);
  CHECK(b.cycles > a.cycles); // four times the work on the same four tiles
  // The same plan again, through the cache.
  CHECK(poplin::reportPlanEstimatedCosts(h.graph(), small, {}, &cache).cycles == a.cycles);
  CHECK(cache.size() == 2);

  poplin::convolutionValidateOptions({{"partialsType", "half"}});
  CHECK_THROWS_AS(poplin::convolutionValidateOptions({{"noSuchOption", "1"}}),
                  poplar::invalid_option);
  CHECK_THROWS_AS(poplin::reportPlanEstimatedCosts(h.graph(), small, {{"pass", "SIDEWAYS"}}),
                  poplar::invalid_option);

  // The graph overload of preplanConvolutions fills the cache too.
  poplin::PlanningCache cache2;
  const OptionFlags opts;
  const ConvParams third(FLOAT, 2, {6, 6}, {1, 1}, 2, 2, 1);
  poplin::preplanConvolutions(h.graph(), {{&h.graph().getTarget(), third, &opts}}, cache2);
  CHECK(cache2.size() == 1);
}

TEST_CASE("fullyConnectedWeightTranspose: the forward weights transposed", "[poplin][conv]") {
  // The backward pass of a fully connected layer of 5 inputs and 3 outputs, batch 2: a 1-d
  // convolution of field 2 (the batch) with 3 input and 5 output channels per group.
  const ConvParams bwd(FLOAT, 1, {2}, {1}, 3, 5, 1);
  test::Harness h(4);
  Tensor fwdWeights = h.input("w", FLOAT, {1, 3, 5, 1}, test::randomValues(15, -1, 1, 7));
  const Tensor t =
      poplin::fullyConnectedWeightTranspose(h.graph(), fwdWeights, bwd, h.prog(), "fcT");
  REQUIRE(t.shape() == std::vector<std::size_t>{1, 5, 3, 1});
  h.read("t", t);
  h.run();
  const auto w = test::randomValues(15, -1, 1, 7);
  const auto& got = h.result("t");
  for (std::size_t o = 0; o < 3; ++o)
    for (std::size_t i = 0; i < 5; ++i)
      CHECK(got[i * 3 + o] == w[o * 5 + i]);

  const ConvParams twoD(FLOAT, 1, {2, 2}, {1, 1}, 3, 5, 1);
  CHECK_THROWS_WITH(
      poplin::fullyConnectedWeightTranspose(h.graph(), fwdWeights, twoD, h.prog(), "fcT"),
      Contains("1-d convolution"));
  Tensor wrong = h.graph().addVariable(FLOAT, {1, 5, 3, 1}, "wrong");
  h.graph().setTileMapping(wrong, 0);
  CHECK_THROWS_AS(poplin::fullyConnectedWeightTranspose(h.graph(), wrong, bwd, h.prog(), "fcT"),
                  poputil::poplibs_error);
}
