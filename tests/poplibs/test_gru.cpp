// popnn::gru against a host GRU in double precision: the forward pass directly, every gradient
// (input, initial output, weights, biases, attention) by central finite differences of the
// loss sum(dOut * output), so the device's analytic backward pass meets numbers it had no part
// in. Covers the default layout, resetAfter, a permuted cellOrder, the last output only, AUGRU.
#include "TestUtil.hpp"

#include <cmath>
#include <functional>
#include <popnn/Gru.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using Catch::Contains;
namespace gru = popnn::gru;

namespace {

struct HostGru {
  std::size_t T, B, I, H;
  bool resetAfter = false, fullSequence = true, attention = false;
  std::vector<unsigned> order{0, 1, 2}; // position of each unit: cellOrder[k] = unit
  // Parameters as the device lays them out.
  std::vector<double> x, h0, wIn, wOut, bias, att;

  static double sigmoid(double v) { return 1 / (1 + std::exp(-v)); }
  std::size_t posOf(unsigned unit) const {
    for (std::size_t k = 0; k < order.size(); ++k)
      if (order[k] == unit) return k;
    return 0;
  }

  // Outputs [T,B,H] (or [B,H]).
  std::vector<double> forward() const {
    std::vector<double> out, h(h0);
    const std::size_t R = posOf(0), U = posOf(1), C = posOf(2);
    auto bIn = [&](std::size_t k, std::size_t j) {
      return resetAfter ? bias[(k * 2 + 0) * H + j] : bias[k * H + j];
    };
    auto bRec = [&](std::size_t k, std::size_t j) {
      return resetAfter ? bias[(k * 2 + 1) * H + j] : 0.0;
    };
    for (std::size_t t = 0; t < T; ++t) {
      std::vector<double> hn(B * H);
      for (std::size_t b = 0; b < B; ++b) {
        auto xPart = [&](std::size_t k, std::size_t j) {
          double s = 0;
          for (std::size_t i = 0; i < I; ++i)
            s += x[(t * B + b) * I + i] * wIn[(k * I + i) * H + j];
          return s;
        };
        auto hPart = [&](std::size_t k, std::size_t j, const std::vector<double>& v) {
          double s = 0;
          for (std::size_t i = 0; i < H; ++i)
            s += v[i] * wOut[(k * H + i) * H + j];
          return s;
        };
        std::vector<double> hb(h.begin() + b * H, h.begin() + (b + 1) * H), r(H), u(H), rh(H);
        for (std::size_t j = 0; j < H; ++j) {
          r[j] = sigmoid(xPart(R, j) + bIn(R, j) + hPart(R, j, hb) + bRec(R, j));
          u[j] = sigmoid(xPart(U, j) + bIn(U, j) + hPart(U, j, hb) + bRec(U, j));
          rh[j] = r[j] * hb[j];
        }
        for (std::size_t j = 0; j < H; ++j) {
          const double rec = resetAfter ? r[j] * (hPart(C, j, hb) + bRec(C, j)) : hPart(C, j, rh);
          const double c = std::tanh(xPart(C, j) + bIn(C, j) + rec);
          const double ue = attention ? (1 - att[b * T + t]) * u[j] : u[j];
          hn[b * H + j] = ue * hb[j] + (1 - ue) * c;
        }
      }
      h = hn;
      if (fullSequence || t + 1 == T) out.insert(out.end(), h.begin(), h.end());
    }
    return out;
  }

  // d(sum(dOut * forward())) / d(p) by central differences.
  std::vector<double> gradient(std::vector<double>& p, const std::vector<double>& dOut) {
    std::vector<double> g(p.size());
    auto loss = [&] {
      const auto o = forward();
      double s = 0;
      for (std::size_t i = 0; i < o.size(); ++i)
        s += o[i] * dOut[i];
      return s;
    };
    for (std::size_t i = 0; i < p.size(); ++i) {
      const double keep = p[i], eps = 1e-6;
      p[i] = keep + eps;
      const double up = loss();
      p[i] = keep - eps;
      const double down = loss();
      p[i] = keep;
      g[i] = (up - down) / (2 * eps);
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

struct Case {
  std::size_t T = 3, B = 2, I = 3, H = 4;
  bool resetAfter = false, fullSequence = true, attention = false;
  std::vector<BasicGruCellUnit> order = gru::getDefaultBasicGruCellOrder();
};

// Runs forward and backward with weight update on the device, checks all against the host.
void checkAgainstHost(const Case& c) {
  test::Harness h(8);
  auto& g = h.graph();
  gru::GruParams params(FLOAT, c.B, c.T, {c.I, c.H});
  params.resetAfter = c.resetAfter;
  params.outputFullSequence = c.fullSequence;
  params.cellOrder = c.order;
  HostGru ref;
  ref.T = c.T, ref.B = c.B, ref.I = c.I, ref.H = c.H;
  ref.resetAfter = c.resetAfter, ref.fullSequence = c.fullSequence, ref.attention = c.attention;
  ref.order.assign(c.order.begin(), c.order.end());
  const std::size_t biasSize = (c.resetAfter ? 6 : 3) * c.H;
  ref.x = toDouble(test::randomValues(c.T * c.B * c.I, -1, 1, 1));
  ref.h0 = toDouble(test::randomValues(c.B * c.H, -0.5f, 0.5f, 2));
  ref.wIn = toDouble(test::randomValues(3 * c.I * c.H, -0.6f, 0.6f, 3));
  ref.wOut = toDouble(test::randomValues(3 * c.H * c.H, -0.6f, 0.6f, 4));
  ref.bias = toDouble(test::randomValues(biasSize, -0.3f, 0.3f, 5));
  ref.att = toDouble(test::randomValues(c.B * c.T, 0, 1, 6));

  gru::GruWeights w = gru::createWeights(g, params, "weights");
  REQUIRE(w.biases.numElements() == biasSize);
  Tensor init = gru::createInitialState(g, params, "init", {}, nullptr);
  Tensor in = gru::createInput(g, params, "in");
  Tensor att = gru::createAttention(g, params, "att");
  h.write("x", in, toFloat(ref.x));
  h.write("h0", init, toFloat(ref.h0));
  h.write("wIn", w.inputWeights, toFloat(ref.wIn));
  h.write("wOut", w.outputWeights, toFloat(ref.wOut));
  h.write("bias", w.biases, toFloat(ref.bias));
  h.write("att", att, toFloat(ref.att));

  Tensor inter;
  const Tensor out = c.attention
                         ? gru::auGruFwd(g, params, init, in, w, &inter, att, h.prog(), "fwd")
                         : gru::gruFwd(g, params, init, in, w, &inter, h.prog(), "fwd");
  const std::vector<double> hostOut = ref.forward();
  REQUIRE(out.numElements() == hostOut.size());
  const auto dOut = toDouble(test::randomValues(hostOut.size(), -1, 1, 7));
  const Tensor outGrad = h.input("dOut", FLOAT, out.shape(), toFloat(dOut));
  Tensor inputGrad, attGrad;
  gru::GruWeights wGrad;
  const Tensor h0Grad =
      c.attention ? gru::auGruBwdWithWU(g, params, h.prog(), init, inter, w, in, out, outGrad,
                                        &inputGrad, wGrad, att, &attGrad, "bwd", {}, nullptr)
                  : gru::gruBwdWithWU(g, params, h.prog(), init, inter, w, in, out, outGrad,
                                      &inputGrad, wGrad, "bwd", {}, nullptr);
  h.read("out", out);
  h.read("dIn", inputGrad);
  h.read("dH0", h0Grad);
  h.read("dWIn", wGrad.inputWeights);
  h.read("dWOut", wGrad.outputWeights);
  h.read("dBias", wGrad.biases);
  if (c.attention) h.read("dAtt", attGrad);
  h.run();

  CHECK_THAT(h.result("out"), test::CloseTo(toFloat(hostOut), 1e-4f, 1e-5f));
  CHECK_THAT(h.result("dIn"), test::CloseTo(toFloat(ref.gradient(ref.x, dOut)), 1e-3f, 1e-4f));
  CHECK_THAT(h.result("dH0"), test::CloseTo(toFloat(ref.gradient(ref.h0, dOut)), 1e-3f, 1e-4f));
  CHECK_THAT(h.result("dWIn"), test::CloseTo(toFloat(ref.gradient(ref.wIn, dOut)), 1e-3f, 1e-4f));
  CHECK_THAT(h.result("dWOut"), test::CloseTo(toFloat(ref.gradient(ref.wOut, dOut)), 1e-3f, 1e-4f));
  CHECK_THAT(h.result("dBias"), test::CloseTo(toFloat(ref.gradient(ref.bias, dOut)), 1e-3f, 1e-4f));
  if (c.attention)
    CHECK_THAT(h.result("dAtt"), test::CloseTo(toFloat(ref.gradient(ref.att, dOut)), 1e-3f, 1e-4f));
}

} // namespace

TEST_CASE("GRU forward, backward and weight update match the host", "[popnn][gru]") {
  Case c;
  SECTION("default") {}
  SECTION("resetAfter") {
    c.resetAfter = true;
  }
  SECTION("permuted cellOrder") {
    c.order = {BASIC_GRU_CELL_CANDIDATE, BASIC_GRU_CELL_RESET_GATE, BASIC_GRU_CELL_UPDATE_GATE};
  }
  SECTION("last output only, resetAfter, permuted") {
    c.fullSequence = false;
    c.resetAfter = true;
    c.order = {BASIC_GRU_CELL_UPDATE_GATE, BASIC_GRU_CELL_CANDIDATE, BASIC_GRU_CELL_RESET_GATE};
  }
  SECTION("AUGRU") {
    c.attention = true;
  }
  SECTION("AUGRU with resetAfter") {
    c.attention = true;
    c.resetAfter = true;
  }
  checkAgainstHost(c);
}

TEST_CASE("GRU flop counts follow PopLibs' formulas", "[popnn][gru]") {
  gru::GruParams p(FLOAT, 2, 5, {3, 4}); // T*B = 10
  CHECK(gru::getBasicGruCellFwdFlops(p) == 10u * (6 * 4 * (3 + 4) + 5 * 4));
  CHECK(gru::getBasicGruCellBwdFlops(p) == 10u * (8 * 4 + 6 * 3 * 4 + 12 * 4 * 4));
  p.calcInputGradients = false;
  CHECK(gru::getBasicGruCellBwdFlops(p) == 10u * (8 * 4 + 12 * 4 * 4));
  CHECK(gru::getBasicGruCellWuFlops(p) == 10u * (6 * 7 * 4 + 6 * 4));
}

TEST_CASE("GRU misuse is refused with the argument named", "[popnn][gru]") {
  test::Harness h(4);
  auto& g = h.graph();
  gru::GruParams params(FLOAT, 2, 3, {4, 5});
  auto w = gru::createWeights(g, params, "w");
  auto init = gru::createInitialState(g, params, "init", {}, nullptr);
  const Tensor wrongIn = g.addVariable(FLOAT, {3, 2, 5}, "wrong");
  CHECK_THROWS_WITH(gru::gruFwd(g, params, init, wrongIn, w, nullptr, h.prog()),
                    Contains("in must have shape [3,2,4], not [3,2,5]"));
  CHECK_THROWS_WITH(gru::createInput(g, params, "x", {{"inferenceOnly", "maybe"}}),
                    Contains("inferenceOnly must be true or false"));
  CHECK_THROWS_WITH(gru::createInput(g, params, "x", {{"recomputationMode", "none"}}),
                    Contains("recomputationMode"));
  const Tensor in = gru::createInput(g, params, "in");
  const Tensor steps = g.addVariable(UNSIGNED_INT, {2}, "steps");
  CHECK_THROWS_WITH(gru::gruFwd(g, params, init, in, steps, w, nullptr, h.prog()),
                    Contains("realTimeSteps"));
  gru::GruParams resetAfter = params;
  resetAfter.resetAfter = true;
  CHECK_THROWS_WITH(gru::gruFwd(g, resetAfter, init, in, w, nullptr, h.prog()),
                    Contains("weights.biases (resetAfter) must have shape [3,2,5]"));
  params.cellOrder = {BASIC_GRU_CELL_RESET_GATE, BASIC_GRU_CELL_RESET_GATE,
                      BASIC_GRU_CELL_CANDIDATE};
  CHECK_THROWS_WITH(gru::gruFwd(g, params, init, in, w, nullptr, h.prog()),
                    Contains("cellOrder must list each unit once"));
  Tensor inter;
  gru::GruParams ok(FLOAT, 2, 3, {4, 5});
  const Tensor out = gru::gruFwd(g, ok, init, in, w, &inter, h.prog());
  gru::GruWeights wGrad;
  CHECK_THROWS_WITH(gru::auGruBwdWithWU(g, ok, h.prog(), init, inter, w, in, out, out, nullptr,
                                        wGrad, g.addVariable(FLOAT, {2, 3}), nullptr, "bwd", {},
                                        nullptr),
                    Contains("fwdIntermediates (as auGruFwd made them)"));
}
