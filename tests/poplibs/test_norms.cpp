#include "TestUtil.hpp"

#include <cmath>
#include <popnn/BatchNorm.hpp>
#include <popnn/GroupNorm.hpp>
#include <popnn/InstanceNorm.hpp>
#include <popnn/LayerNorm.hpp>
#include <popnn/Norms.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using Catch::Contains;

namespace {

/// Host normalisation of acts [N][C][F] over statistic sets: set(n, c) gives the index of the
/// set element (n, c, *) belongs to.
struct HostNorm {
  std::size_t N, C, F, sets;
  std::vector<std::size_t> setOf; ///< per element
  std::vector<double> mean, istd;

  template <typename SetFn>
  HostNorm(const std::vector<float>& x, std::size_t n, std::size_t c, std::size_t f,
           std::size_t numSets, SetFn set, float eps, bool unbiased)
      : N(n), C(c), F(f), sets(numSets), setOf(x.size()), mean(numSets), istd(numSets) {
    std::vector<double> count(sets), sq(sets);
    for (std::size_t i = 0; i < x.size(); ++i) {
      setOf[i] = set(i / (C * F), (i / F) % C);
      mean[setOf[i]] += x[i];
      count[setOf[i]] += 1;
    }
    for (std::size_t s = 0; s < sets; ++s)
      mean[s] /= count[s];
    for (std::size_t i = 0; i < x.size(); ++i)
      sq[setOf[i]] += (x[i] - mean[setOf[i]]) * (x[i] - mean[setOf[i]]);
    for (std::size_t s = 0; s < sets; ++s)
      istd[s] = 1.0 / std::sqrt(sq[s] / (unbiased ? count[s] - 1 : count[s]) + eps);
  }
  std::vector<float> whiten(const std::vector<float>& x) const {
    std::vector<float> w(x.size());
    for (std::size_t i = 0; i < x.size(); ++i)
      w[i] = float((x[i] - mean[setOf[i]]) * istd[setOf[i]]);
    return w;
  }
  /// The gradient with respect to x given dy, through y = gamma * whiten(x) + beta.
  std::vector<float> gradient(const std::vector<float>& x, const std::vector<float>& dy,
                              const std::vector<float>& gamma) const {
    const auto w = whiten(x);
    std::vector<double> dw(x.size()), meanDw(sets), meanDwW(sets), count(sets);
    for (std::size_t i = 0; i < x.size(); ++i) {
      dw[i] = double(dy[i]) * gamma[(i / F) % C];
      meanDw[setOf[i]] += dw[i];
      meanDwW[setOf[i]] += dw[i] * w[i];
      count[setOf[i]] += 1;
    }
    std::vector<float> dx(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      const std::size_t s = setOf[i];
      dx[i] = float(istd[s] * (dw[i] - meanDw[s] / count[s] - w[i] * meanDwW[s] / count[s]));
    }
    return dx;
  }
};

std::vector<float> toFloat(const std::vector<double>& v) {
  return {v.begin(), v.end()};
}

} // namespace

TEST_CASE("batch norm: statistics, normalisation and gradients against the host", "[popnn][norm]") {
  const std::size_t N = 4, C = 3, H = 2, W = 3, F = H * W;
  const bool stable = GENERATE(false, true);
  const bool unbiased = GENERATE(false, true);
  test::Harness h(8);
  const auto x = test::randomValues(N * C * F, -2.0f, 3.0f, 51);
  const auto dy = test::randomValues(N * C * F, -1.0f, 1.0f, 52);
  const std::vector<float> gamma = {0.5f, 1.5f, -1.0f}, beta = {0.1f, -0.2f, 0.3f};
  const Tensor acts = h.input("acts", FLOAT, {N, C, H, W}, x);
  const Tensor grads = h.input("grads", FLOAT, {N, C, H, W}, dy);
  const Tensor g = h.input("gamma", FLOAT, {C}, gamma);
  const Tensor b = h.input("beta", FLOAT, {C}, beta);
  const float eps = 1e-3f;
  const auto stats =
      popnn::bn::batchNormStatistics(h.graph(), acts, eps, h.prog(), unbiased, stable);
  const auto out =
      popnn::bn::batchNormalise(h.graph(), acts, g, b, stats.first, stats.second, h.prog(), "bn");
  const Tensor dx =
      popnn::bn::batchNormGradients(h.graph(), out.second, grads, stats.second, g, h.prog());
  const auto deltas = popnn::bn::batchNormParamGradients(h.graph(), out.second, grads, h.prog());
  h.read("mean", stats.first);
  h.read("istd", stats.second);
  h.read("out", out.first);
  h.read("dx", dx);
  h.read("gammaDelta", deltas.first);
  h.read("betaDelta", deltas.second);
  Tensor gm = g, bt = b;
  popnn::bn::batchNormParamUpdate(h.graph(), deltas.first, deltas.second, -0.1f, gm, bt, h.prog());
  h.read("gamma", g);
  h.run();

  const HostNorm host(
      x, N, C, F, C, [](std::size_t, std::size_t c) { return c; }, eps, unbiased);
  CHECK_THAT(h.result("mean"), test::CloseTo(toFloat(host.mean), 1e-5f, 1e-6f));
  CHECK_THAT(h.result("istd"), test::CloseTo(toFloat(host.istd), 1e-4f));
  const auto w = host.whiten(x);
  std::vector<float> y(x.size()), gammaDelta(C), betaDelta(C);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const std::size_t c = (i / F) % C;
    y[i] = gamma[c] * w[i] + beta[c];
    gammaDelta[c] += dy[i] * w[i];
    betaDelta[c] += dy[i];
  }
  CHECK_THAT(h.result("out"), test::CloseTo(y, 1e-4f, 1e-5f));
  CHECK_THAT(h.result("dx"), test::CloseTo(host.gradient(x, dy, gamma), 1e-3f, 1e-5f));
  CHECK_THAT(h.result("gammaDelta"), test::CloseTo(gammaDelta, 1e-4f, 1e-5f));
  CHECK_THAT(h.result("betaDelta"), test::CloseTo(betaDelta, 1e-5f, 1e-5f));
  std::vector<float> updated = gamma;
  for (std::size_t c = 0; c < C; ++c)
    updated[c] -= 0.1f * gammaDelta[c];
  CHECK_THAT(h.result("gamma"), test::CloseTo(updated, 1e-4f, 1e-5f));
}

TEST_CASE("batch norm: half activations", "[popnn][norm]") {
  test::Harness h(4);
  const auto x = test::randomValues(2 * 4 * 5, -1.0f, 2.0f, 53);
  const Tensor acts = h.input("acts", HALF, {2, 4, 5}, x);
  const auto stats = popnn::bn::batchNormStatistics(h.graph(), acts, 1e-3f, h.prog(), false);
  const Tensor w = popnn::bn::batchNormWhiten(h.graph(), acts, stats.first, stats.second, h.prog());
  CHECK(stats.first.elementType() == HALF);
  h.read("w", w);
  h.run();
  const HostNorm host(
      x, 2, 4, 5, 4, [](std::size_t, std::size_t c) { return c; }, 1e-3f, false);
  CHECK_THAT(h.result("w"), test::CloseTo(host.whiten(x), 2e-2f, 2e-2f));
}

TEST_CASE("group and layer norm: statistics per batch element and group, and gradients",
          "[popnn][norm]") {
  const std::size_t N = 3, C = 6, F = 4, G = 2;
  const bool strided = GENERATE(true, false);
  test::Harness h(8);
  const auto x = test::randomValues(N * C * F, -1.0f, 2.0f, 54);
  const auto dy = test::randomValues(N * C * F, -1.0f, 1.0f, 55);
  const std::vector<float> gamma = {1, 2, 3, -1, 0.5f, 1};
  const Tensor acts = h.input("acts", FLOAT, {N, C, F}, x);
  const Tensor grads = h.input("grads", FLOAT, {N, C, F}, dy);
  const Tensor g = h.input("gamma", FLOAT, {C}, gamma);
  const Tensor b = h.input("beta", FLOAT, {C}, std::vector<float>(C, 0.5f));
  const OptionFlags opts = {{"groupNormStridedChannelGrouping", strided ? "true" : "false"}};
  const auto gs = popnn::gn::groupNormStatistics(h.graph(), acts, 1e-4f, h.prog(), G, false, false,
                                                 FLOAT, "gn", opts);
  const auto gnOut =
      popnn::gn::groupNormalise(h.graph(), acts, g, b, gs.first, gs.second, h.prog(), "gn", opts);
  const Tensor gdx = popnn::gn::groupNormGradients(h.graph(), gnOut.second, grads, gs.second, g,
                                                   h.prog(), FLOAT, "gnGrad", opts);
  const auto ls = popnn::ln::layerNormStatistics(h.graph(), acts, 1e-4f, h.prog(), true);
  const auto lnOut =
      popnn::ln::layerNormalise(h.graph(), acts, g, b, ls.first, ls.second, h.prog());
  const Tensor ldx =
      popnn::ln::layerNormGradients(h.graph(), lnOut.second, grads, ls.second, g, h.prog());
  REQUIRE(gs.first.shape() == std::vector<std::size_t>{N * G});
  REQUIRE(ls.first.shape() == std::vector<std::size_t>{N});
  h.read("gmean", gs.first);
  h.read("gw", gnOut.second);
  h.read("gdx", gdx);
  h.read("listd", ls.second);
  h.read("ldx", ldx);
  h.run();
  const HostNorm gHost(
      x, N, C, F, N * G,
      [&](std::size_t n, std::size_t c) { return n * G + (strided ? c % G : c / (C / G)); }, 1e-4f,
      false);
  CHECK_THAT(h.result("gmean"), test::CloseTo(toFloat(gHost.mean), 1e-5f, 1e-6f));
  CHECK_THAT(h.result("gw"), test::CloseTo(gHost.whiten(x), 1e-4f, 1e-5f));
  CHECK_THAT(h.result("gdx"), test::CloseTo(gHost.gradient(x, dy, gamma), 1e-3f, 1e-5f));
  const HostNorm lHost(
      x, N, C, F, N, [](std::size_t n, std::size_t) { return n; }, 1e-4f, true);
  CHECK_THAT(h.result("listd"), test::CloseTo(toFloat(lHost.istd), 1e-4f));
  CHECK_THAT(h.result("ldx"), test::CloseTo(lHost.gradient(x, dy, gamma), 1e-3f, 1e-5f));
}

TEST_CASE("instance norm: statistics per batch element and channel, and gradients",
          "[popnn][norm]") {
  const std::size_t N = 2, C = 3, F = 5;
  test::Harness h(8);
  const auto x = test::randomValues(N * C * F, -1.0f, 2.0f, 56);
  const auto dy = test::randomValues(N * C * F, -1.0f, 1.0f, 57);
  const std::vector<float> gamma = {1.0f, -2.0f, 0.5f};
  const Tensor acts = h.input("acts", FLOAT, {N, C, F}, x);
  const Tensor grads = h.input("grads", FLOAT, {N, C, F}, dy);
  const Tensor g = h.input("gamma", FLOAT, {C}, gamma);
  const Tensor b = h.input("beta", FLOAT, {C}, std::vector<float>(C, 0.0f));
  const auto stats = popnn::in::instanceNormStatistics(h.graph(), acts, 1e-4f, h.prog(), false);
  REQUIRE(stats.first.shape() == std::vector<std::size_t>{N * C});
  const auto out =
      popnn::in::instanceNormalise(h.graph(), acts, g, b, stats.first, stats.second, h.prog());
  const Tensor dx =
      popnn::in::instanceNormGradients(h.graph(), out.second, grads, stats.second, g, h.prog());
  h.read("w", out.second);
  h.read("dx", dx);
  h.run();
  const HostNorm host(
      x, N, C, F, N * C, [&](std::size_t n, std::size_t c) { return n * C + c; }, 1e-4f, false);
  CHECK_THAT(h.result("w"), test::CloseTo(host.whiten(x), 1e-4f, 1e-5f));
  CHECK_THAT(h.result("dx"), test::CloseTo(host.gradient(x, dy, gamma), 1e-3f, 1e-5f));
}

TEST_CASE("norms: bad arguments name the argument", "[popnn][norm]") {
  test::Harness h(4);
  const Tensor acts = h.input("acts", FLOAT, {2, 3, 4}, std::vector<float>(24, 1.0f));
  const Tensor c4 = h.input("c4", FLOAT, {4}, std::vector<float>(4, 1.0f));
  const Tensor c3 = h.input("c3", FLOAT, {3}, std::vector<float>(3, 1.0f));
  CHECK_THROWS_MATCHES(popnn::bn::batchNormalise(h.graph(), acts, c4, c3, c3, c3, h.prog()),
                       poputil::poplibs_error, test::What(Contains("gamma has shape {4}")));
  CHECK_THROWS_MATCHES(popnn::gn::groupNormStatistics(h.graph(), acts, 1e-3f, h.prog(), 2, false),
                       poputil::poplibs_error, test::What(Contains("numGroups is 2")));
  CHECK_THROWS_MATCHES(popnn::bn::batchNormStatistics(h.graph(), acts, -1.0f, h.prog(), false),
                       poputil::poplibs_error, test::What(Contains("eps")));
  CHECK_THROWS_MATCHES(popnn::bn::batchNormStatistics(h.graph(), acts, 1e-3f, h.prog(), false,
                                                      false, FLOAT, {}, {{"bogus", "1"}}),
                       poplar::invalid_option, test::What(Contains("bogus")));
}

TEST_CASE("popnn::createNormParams makes per-channel gamma and beta", "[popnn][norms]") {
  test::Harness h(8);
  const Tensor acts2 = h.graph().addVariable(HALF, {4, 6}, "acts2");
  const auto [g2, b2] = popnn::createNormParams(h.graph(), acts2, "p2");
  CHECK(g2.shape() == std::vector<std::size_t>{6});
  CHECK(b2.elementType() == HALF);
  CHECK(h.graph().getTileMapping(g2, false).size() > 0);
  const Tensor acts4 = h.graph().addVariable(FLOAT, {2, 5, 3, 3}, "acts4");
  poputil::mapTensorLinearly(h.graph(), acts4);
  const Tensor g4 = popnn::createNormGamma(h.graph(), acts4);
  const Tensor b4 = popnn::createNormBeta(h.graph(), acts4);
  CHECK(g4.shape() == std::vector<std::size_t>{5});
  CHECK(b4.shape() == std::vector<std::size_t>{5});
  CHECK(g4.elementType() == FLOAT);
  const Tensor flat = h.graph().addVariable(FLOAT, {5}, "flat");
  CHECK_THROWS_MATCHES(popnn::createNormGamma(h.graph(), flat), poputil::poplibs_error,
                       test::What(Contains("at least 2 dimensions")));
}

TEST_CASE("popnn's normalisation FLOP counts", "[popnn][norms]") {
  // 100 activations, 4 statistics: stats 2*100 + 5*4, whiten 200, apply 200.
  CHECK(popnn::getNormFwdFlops(4, 100) == 620);
  CHECK(popnn::getNormFwdFlops(4, 100, false) == 200);
  CHECK(popnn::getNormBwdFlops(4, 100) == 808);
  CHECK(popnn::getNormWuFlops(10, 100) == 340);
  // Instance norm: 6 instances of 10 activations.
  CHECK(popnn::in::getFwdFlops(6, 10, true) == popnn::getNormFwdFlops(6, 60));
  CHECK(popnn::in::getBwdFlops(6, 10) == popnn::getNormBwdFlops(6, 60));
  CHECK(popnn::in::getWuFlops(6, 10) == popnn::getNormWuFlops(6, 60));
}
