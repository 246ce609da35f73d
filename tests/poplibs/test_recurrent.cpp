// popnn::rnn's basic recurrent layer (Recurrent.hpp) against a host RNN in double: the forward
// sequence, and the backward sequence's input gradient and deltas checked by central finite
// differences of the loss sum(outGrad * output).
#include "TestUtil.hpp"

#include <cmath>
#include <popnn/Recurrent.hpp>
#include <popnn/Rnn.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using Catch::Contains;
namespace rnn = popnn::rnn;

namespace {

struct HostRnn {
  std::size_t S, B, I, O;
  std::vector<double> x = {}, h0 = {}, wIn = {}, wFb = {}, bias = {};

  std::vector<double> forward() const {
    std::vector<double> out, h(h0);
    for (std::size_t s = 0; s < S; ++s) {
      std::vector<double> next(B * O);
      for (std::size_t b = 0; b < B; ++b)
        for (std::size_t o = 0; o < O; ++o) {
          double v = bias[o];
          for (std::size_t i = 0; i < I; ++i)
            v += x[(s * B + b) * I + i] * wIn[i * O + o];
          for (std::size_t k = 0; k < O; ++k)
            v += h[b * O + k] * wFb[k * O + o];
          next[b * O + o] = std::tanh(v);
        }
      h = next;
      out.insert(out.end(), h.begin(), h.end());
    }
    return out;
  }

  std::vector<double> gradient(std::vector<double>& p, const std::vector<double>& dOut) {
    std::vector<double> g(p.size());
    auto loss = [&] {
      const auto o = forward();
      double l = 0;
      for (std::size_t i = 0; i < o.size(); ++i)
        l += o[i] * dOut[i];
      return l;
    };
    for (std::size_t i = 0; i < p.size(); ++i) {
      const double keep = p[i];
      p[i] = keep + 1e-6;
      const double up = loss();
      p[i] = keep - 1e-6;
      const double down = loss();
      p[i] = keep;
      g[i] = (up - down) / 2e-6;
    }
    return g;
  }
};

std::vector<float> toFloat(const std::vector<double>& v) {
  return {v.begin(), v.end()};
}
std::vector<double> toDouble(const std::vector<float>& v) {
  return {v.begin(), v.end()};
}

} // namespace

TEST_CASE("rnnFwdSequence and rnnBwdSequence match the host", "[popnn][rnn]") {
  const unsigned S = 3, B = 2, I = 4, O = 3;
  test::Harness h(8);
  auto& g = h.graph();
  HostRnn ref{S, B, I, O};
  ref.x = toDouble(test::randomValues(S * B * I, -1, 1, 1));
  ref.h0 = toDouble(test::randomValues(B * O, -0.5f, 0.5f, 2));
  ref.wIn = toDouble(test::randomValues(I * O, -0.6f, 0.6f, 3));
  ref.wFb = toDouble(test::randomValues(O * O, -0.6f, 0.6f, 4));
  ref.bias = toDouble(test::randomValues(O, -0.2f, 0.2f, 5));

  const Tensor x = rnn::createInput(g, S, B, I, O, FLOAT);
  const Tensor h0 = rnn::createFwdState(g, FLOAT, B, O, h.prog(), false, false);
  const Tensor wIn = rnn::createWeightsInput(g, S, B, I, O, FLOAT);
  const Tensor wFb = rnn::createWeightsFeedback(g, B, O, FLOAT);
  REQUIRE(x.shape() == std::vector<std::size_t>{S, B, I});
  REQUIRE(wIn.shape() == std::vector<std::size_t>{I, O});
  const Tensor bias = h.input("bias", FLOAT, {O}, toFloat(ref.bias));
  h.write("x", x, toFloat(ref.x));
  h.write("h0", h0, toFloat(ref.h0));
  h.write("wIn", wIn, toFloat(ref.wIn));
  h.write("wFb", wFb, toFloat(ref.wFb));

  const Tensor fwd = rnn::rnnFwdSequence(g, h.prog(), h0, nullptr, bias, wIn, wFb, x,
                                         popnn::NonLinearityType::TANH, FLOAT, false, "fwd");
  const auto hostOut = ref.forward();
  const auto dOut = toDouble(test::randomValues(hostOut.size(), -1, 1, 6));
  const Tensor outGrad = h.input("dOut", FLOAT, {S, B, O}, toFloat(dOut));
  Tensor dx, dWIn, dWFb, dBias;
  std::tie(dx, dWIn, dWFb, dBias) =
      rnn::rnnBwdSequence(g, true, false, h.prog(), h0, fwd, bias, wIn, wFb, outGrad, x,
                          popnn::NonLinearityType::TANH, FLOAT, "bwd");
  // The step functions, as a user unrolling the loop would call them, agree with the sequence.
  const Tensor weighted = rnn::forwardWeightInput(g, x, wIn, h.prog());
  const Tensor iterated =
      rnn::forwardIterate(g, weighted, h0, wFb, bias, h.prog(), popnn::NonLinearityType::TANH);
  h.read("fwd", fwd);
  h.read("iterated", rnn::getOutputFromFwdState(iterated));
  h.read("dx", dx);
  h.read("dWIn", dWIn);
  h.read("dWFb", dWFb);
  h.read("dBias", dBias);
  h.run();
  CHECK_THAT(h.result("fwd"), test::CloseTo(toFloat(hostOut), 1e-5f, 1e-5f));
  CHECK_THAT(h.result("iterated"), test::CloseTo(toFloat(hostOut), 1e-5f, 1e-5f));
  CHECK_THAT(h.result("dx"), test::CloseTo(toFloat(ref.gradient(ref.x, dOut)), 1e-3f, 1e-4f));
  CHECK_THAT(h.result("dWIn"), test::CloseTo(toFloat(ref.gradient(ref.wIn, dOut)), 1e-3f, 1e-4f));
  CHECK_THAT(h.result("dWFb"), test::CloseTo(toFloat(ref.gradient(ref.wFb, dOut)), 1e-3f, 1e-4f));
  CHECK_THAT(h.result("dBias"), test::CloseTo(toFloat(ref.gradient(ref.bias, dOut)), 1e-3f, 1e-4f));
}

TEST_CASE("popnn::rnn flops, preplan parameters and misuse", "[popnn][rnn]") {
  // PopLibs' counts for S=2, B=3, I=4, O=5: 30 steps x outputs.
  CHECK(rnn::getFwdFlops(2, 3, 4, 5) == 6 * 25 + 6 * 5 * 4 + 2 * 2 * 5 + 6 * 20 + 6 * 5 * 3);
  CHECK(rnn::getFwdFlops(2, 3, 4, 5, false) == 6 * 25 + 6 * 5 * 4 + 2 * 2 * 5);
  CHECK(rnn::getBwdFlops(2, 3, 4, 5, false) == 6 * 25 + 6 * 5 * 4);
  CHECK(rnn::getWuFlops(2, 3, 4, 5) == 6 * 20 + 5 * 20 + 6 * 25 + 5 * 25 + 5 * 5 + 20 + 25 + 5);
  const auto mms = rnn::getMatMulPrePlanParameters(2, 3, 4, 5, HALF);
  REQUIRE(mms.size() == 2);
  CHECK(mms[0].first.aShape == std::vector<std::size_t>{3, 4});
  CHECK(mms[1].first.bShape == std::vector<std::size_t>{5, 5});

  test::Harness h(4);
  auto& g = h.graph();
  const Tensor in = g.addVariable(FLOAT, {2, 3, 5});
  const Tensor init = g.addVariable(FLOAT, {3, 4});
  const Tensor w = g.addVariable(FLOAT, {5, 5});
  const Tensor b = g.addVariable(FLOAT, {5});
  CHECK_THROWS_WITH(rnn::forwardIterate(g, in, init, w, b, h.prog(), popnn::NonLinearityType::TANH),
                    Contains("initState must have shape [3,5], not [3,4]"));
  CHECK_THROWS_AS(rnn::createInput(g, 0, 3, 4, 5, FLOAT), poputil::poplibs_error);
}

TEST_CASE("Rnn.hpp's sequence tensors and shiftRnnTensor", "[popnn][rnn]") {
  test::Harness h(4);
  auto& g = h.graph();
  const rnn::RnnParams params(FLOAT, 2, 3, {4, 5});
  CHECK(rnn::createInputTensor(g, params, 1).shape() == std::vector<std::size_t>{3, 2, 4});
  CHECK(rnn::createOutputTensor(g, params, 1).shape() == std::vector<std::size_t>{3, 2, 5});
  CHECK(rnn::createOutputTensor(g, params, 2, 1).shape() == std::vector<std::size_t>{6, 2, 5});
  CHECK(rnn::createRecurrentTensor(g, params, 7, 1).shape() == std::vector<std::size_t>{3, 2, 7});
  CHECK(rnn::createInitialState(g, params, false, 2, 1).shape() ==
        std::vector<std::size_t>{2, 2, 4});
  CHECK_THROWS_WITH(rnn::createInputTensor(g, params, 0), Contains("numShards"));
  const rnn::RnnBatchwiseFlags flags;
  CHECK_FALSE(flags.valid());

  std::vector<float> base(3 * 2 * 5), single(2 * 5);
  for (std::size_t i = 0; i < base.size(); ++i)
    base[i] = float(i);
  for (std::size_t i = 0; i < single.size(); ++i)
    single[i] = -float(i) - 1;
  const Tensor tBase = h.input("base", FLOAT, {3, 2, 5}, base);
  const Tensor tSingle = h.input("single", FLOAT, {2, 5}, single);
  const Tensor shifted = rnn::shiftRnnTensor(g, params, tBase, tSingle, h.prog(), 1);
  h.read("shifted", shifted);
  h.run();
  std::vector<float> expected(single);
  expected.insert(expected.end(), base.begin(), base.begin() + 2 * 2 * 5);
  CHECK(h.result("shifted") == expected);
}
