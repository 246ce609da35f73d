// poprand: the distributions' statistics and bounds, dropout, determinism (every tile's generator
// starts from the same seed, setSeed has no effect, seeded calls repeat), and argument errors.
#include "TestUtil.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <poprand/RandomGen.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>
#include <set>

using namespace poplar;
using Catch::Contains;

namespace {

double mean(const std::vector<float>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
}
double variance(const std::vector<float>& v) {
  const double m = mean(v);
  double s = 0;
  for (float x : v)
    s += (x - m) * (x - m);
  return s / double(v.size() - 1);
}

/// A reference tensor of n elements mapped linearly over the harness's tiles.
Tensor reference(test::Harness& h, std::size_t n, Type type = FLOAT) {
  const Tensor t = h.graph().addVariable(type, {n}, "reference");
  poputil::mapTensorLinearly(h.graph(), t);
  return t;
}

constexpr std::size_t kN = 6000;

/// A seed pair written before the run. Seeded calls seed each tile's generator from the seed,
/// the modifier and the tile, so the tiles' numbers are independent and the statistics below
/// are over all kN samples. (Unseeded, every tile starts from the same state: see the
/// determinism test.)
Tensor seedOf(test::Harness& h) {
  return h.input("seed", UNSIGNED_INT, {2}, {17.0f, 4.0f});
}

} // namespace

TEST_CASE("uniform floats lie between min and max with the uniform mean and variance",
          "[poprand]") {
  test::Harness h(16);
  const Tensor seed = seedOf(h);
  const Tensor out =
      poprand::uniform(h.graph(), &seed, 0, reference(h, kN), FLOAT, -2.0, 6.0, h.prog(), "u");
  h.read("u", out);
  h.run();
  const auto& v = h.result("u");
  CHECK(*std::min_element(v.begin(), v.end()) >= -2.0f);
  CHECK(*std::max_element(v.begin(), v.end()) <= 6.0f);
  // Mean 2, variance 64/12; tolerances of about 4 standard errors.
  CHECK(mean(v) == Approx(2.0).margin(4 * std::sqrt(64.0 / 12.0 / kN)));
  CHECK(variance(v) == Approx(64.0 / 12.0).epsilon(0.06));
}

TEST_CASE("uniform ints cover the closed interval evenly", "[poprand]") {
  test::Harness h(8);
  const Tensor seed = seedOf(h);
  const Tensor out =
      poprand::uniform(h.graph(), &seed, 1, reference(h, kN, INT), INT, -3, 4, h.prog(), "u");
  CHECK(out.elementType() == INT);
  h.read("u", out);
  h.run();
  const auto& v = h.result("u");
  std::vector<int> counts(8);
  for (float x : v) {
    REQUIRE(x == std::round(x));
    REQUIRE(x >= -3);
    REQUIRE(x <= 4);
    ++counts[std::size_t(x + 3)];
  }
  for (int c : counts)
    CHECK(c == Approx(kN / 8.0).epsilon(0.15));
}

TEST_CASE("normal and half normal have the asked mean and standard deviation", "[poprand]") {
  for (Type type : {FLOAT, HALF}) {
    DYNAMIC_SECTION(type.toString()) {
      test::Harness h(16);
      const Tensor seed = seedOf(h);
      const Tensor out =
          poprand::normal(h.graph(), &seed, 2, reference(h, kN), type, 1.5, 0.5, h.prog(), "n");
      CHECK(out.elementType() == type);
      h.read("n", out);
      h.run();
      const auto& v = h.result("n");
      CHECK(mean(v) == Approx(1.5).margin(4 * 0.5 / std::sqrt(double(kN))));
      CHECK(std::sqrt(variance(v)) == Approx(0.5).epsilon(0.05));
    }
  }
}

TEST_CASE("truncated normal stays within alpha standard deviations with the truncated variance",
          "[poprand]") {
  test::Harness h(16);
  const double m = -1.0, sd = 2.0, alpha = 1.0;
  const Tensor seed = seedOf(h);
  const Tensor out = poprand::truncatedNormal(h.graph(), &seed, 3, reference(h, kN), FLOAT, m, sd,
                                              alpha, h.prog(), "t");
  h.read("t", out);
  h.run();
  const auto& v = h.result("t");
  for (float x : v)
    REQUIRE(std::fabs(x - m) <= alpha * sd + 1e-5);
  // Var of N(0,1) truncated to [-a, a]: 1 - 2 a phi(a) / (2 Phi(a) - 1).
  const double phi = std::exp(-alpha * alpha / 2) / std::sqrt(2 * M_PI),
               mass = std::erf(alpha / std::sqrt(2.0));
  const double expectedVar = sd * sd * (1 - 2 * alpha * phi / mass);
  CHECK(mean(v) == Approx(m).margin(0.05));
  CHECK(variance(v) == Approx(expectedVar).epsilon(0.08));
}

TEST_CASE("bernoulli gives ones at the asked rate", "[poprand]") {
  for (Type type : {FLOAT, HALF, INT}) {
    DYNAMIC_SECTION(type.toString()) {
      test::Harness h(16);
      const Tensor seed = seedOf(h);
      const Tensor out =
          poprand::bernoulli(h.graph(), &seed, 4, reference(h, kN), type, 0.3, h.prog(), "b");
      h.read("b", out);
      h.run();
      const auto& v = h.result("b");
      for (float x : v)
        REQUIRE((x == 0.0f || x == 1.0f));
      CHECK(mean(v) == Approx(0.3).margin(4 * std::sqrt(0.3 * 0.7 / kN)));
    }
  }
}

TEST_CASE("logUniform spreads the logarithm evenly between log min and log max", "[poprand]") {
  test::Harness h(8);
  const Tensor seed = seedOf(h);
  const Tensor out = poprand::logUniform(h.graph(), &seed, 5, reference(h, kN), FLOAT, 1.0, 1000.0,
                                         h.prog(), 10.0, "lu");
  h.read("lu", out);
  h.run();
  std::vector<float> logs;
  for (float x : h.result("lu")) {
    REQUIRE(x >= 1.0f * 0.9999f);
    REQUIRE(x <= 1000.0f * 1.0001f);
    logs.push_back(std::log10(x));
  }
  CHECK(mean(logs) == Approx(1.5).margin(0.05));
  CHECK(variance(logs) == Approx(9.0 / 12.0).epsilon(0.08));
}

TEST_CASE("dropout keeps elements at the keep probability scaled and zeroes the rest",
          "[poprand][dropout]") {
  test::Harness h(16);
  const auto x = test::randomValues(kN, 0.5f, 2.0f, 7);
  const Tensor in = h.input("in", FLOAT, {kN}, x);
  const Tensor seed = seedOf(h);
  const Tensor out = poprand::dropout(h.graph(), &seed, 6, in, in, 0.8, 1.25, h.prog(), "drop");
  CHECK(out.shape() == in.shape());
  h.read("out", out);
  h.run();
  const auto& y = h.result("out");
  std::size_t kept = 0;
  for (std::size_t i = 0; i < kN; ++i) {
    if (y[i] == 0.0f) continue;
    REQUIRE(y[i] == Approx(x[i] * 1.25f));
    ++kept;
  }
  CHECK(double(kept) / kN == Approx(0.8).margin(4 * std::sqrt(0.8 * 0.2 / kN)));
}

TEST_CASE("seeded dropout repeats its mask and unseeded calls draw new numbers",
          "[poprand][dropout]") {
  test::Harness h(8);
  const std::size_t n = 512;
  const Tensor in = h.input("in", FLOAT, {n}, std::vector<float>(n, 1.0f));
  const Tensor seed = h.input("seed", UNSIGNED_INT, {2}, {1234.0f, 99.0f});
  auto& g = h.graph();
  h.read("a", poprand::dropout(g, &seed, 7, in, in, 0.5, 2.0, h.prog(), "a"));
  h.read("b",
         poprand::dropout(g, &seed, 7, in, in, 0.5, 2.0, h.prog(), "b")); // same seed and modifier
  h.read("c", poprand::dropout(g, &seed, 8, in, in, 0.5, 2.0, h.prog(), "c"));   // another modifier
  h.read("d", poprand::dropout(g, nullptr, 0, in, in, 0.5, 2.0, h.prog(), "d")); // unseeded, twice
  h.read("e", poprand::dropout(g, nullptr, 0, in, in, 0.5, 2.0, h.prog(), "e"));
  h.run();
  CHECK(h.result("a") == h.result("b"));
  CHECK(h.result("a") != h.result("c"));
  CHECK(h.result("d") != h.result("e"));
}

TEST_CASE(
    "generation is deterministic as every tile starts from the same seed and setSeed has no effect",
    "[poprand]") {
  // Two tiles holding 64 elements each: in the IPU Model both tiles' generators start from the
  // same state, so their first draws match; a second engine gives the same numbers again.
  auto draw = [](bool callSetSeed) {
    test::Harness h(2);
    if (callSetSeed) {
      const Tensor s = h.input("s", UNSIGNED_INT, {2}, {5.0f, 6.0f});
      poprand::setSeed(h.graph(), s, 3, h.prog(), "seed");
    }
    const Tensor ref = h.graph().addVariable(FLOAT, {128}, "ref");
    h.graph().setTileMapping(ref.slice(0, 64), 0);
    h.graph().setTileMapping(ref.slice(64, 128), 1);
    const Tensor out = poprand::uniform(h.graph(), nullptr, 0, ref, FLOAT, 0.0, 1.0, h.prog());
    h.read("u", out);
    h.run();
    return h.result("u");
  };
  const auto first = draw(false);
  CHECK(draw(false) == first);
  CHECK(draw(true) == first);
  CHECK(std::vector<float>(first.begin(), first.begin() + 64) ==
        std::vector<float>(first.begin() + 64, first.end()));
  CHECK(std::set<float>(first.begin(), first.begin() + 64).size() == 64);
}

TEST_CASE("shaped dropout drops whole rows", "[poprand][dropout]") {
  test::Harness h(8);
  const std::size_t rows = 400, cols = 6;
  const Tensor in = h.input("in", FLOAT, {rows, cols}, std::vector<float>(rows * cols, 3.0f));
  const Tensor ref = h.graph().addVariable(FLOAT, {rows, 1}, "ref");
  poputil::mapTensorLinearly(h.graph(), ref);
  const Tensor seed = seedOf(h);
  h.read("out",
         poprand::shapedDropout(h.graph(), &seed, 7, in, ref, 0.25, 4.0, h.prog(), "shaped"));
  h.run();
  const auto& y = h.result("out");
  std::size_t kept = 0;
  for (std::size_t r = 0; r < rows; ++r) {
    const float first = y[r * cols];
    REQUIRE((first == 0.0f || first == 12.0f));
    for (std::size_t c = 1; c < cols; ++c)
      REQUIRE(y[r * cols + c] == first);
    kept += first != 0.0f;
  }
  CHECK(double(kept) / rows == Approx(0.25).margin(4 * std::sqrt(0.25 * 0.75 / rows)));
}

TEST_CASE("poprand argument errors name the argument", "[poprand][errors]") {
  test::Harness h(4);
  auto& g = h.graph();
  const Tensor ref = reference(h, 16);
  const Tensor intSeed = h.input("intSeed", INT, {2}, {1.0f, 2.0f});
  const Tensor unmapped = g.addVariable(FLOAT, {8}, "unmapped");
  CHECK_THROWS_MATCHES(poprand::uniform(g, nullptr, 0, ref, FLOAT, 2.0, 1.0, h.prog()),
                       poputil::poplibs_error,
                       test::What(Contains("poprand::uniform") && Contains("minVal")));
  CHECK_THROWS_MATCHES(poprand::normal(g, nullptr, 0, ref, INT, 0.0, 1.0, h.prog()),
                       poputil::poplibs_error, test::What(Contains("outType")));
  CHECK_THROWS_MATCHES(poprand::bernoulli(g, nullptr, 0, ref, FLOAT, 1.5, h.prog()),
                       poputil::poplibs_error, test::What(Contains("prob")));
  CHECK_THROWS_MATCHES(poprand::dropout(g, &intSeed, 0, ref, ref, 0.5, 2.0, h.prog()),
                       poputil::poplibs_error, test::What(Contains("seed")));
  CHECK_THROWS_MATCHES(poprand::truncatedNormal(g, nullptr, 0, ref, FLOAT, 0.0, 1.0, 0.0, h.prog()),
                       poputil::poplibs_error, test::What(Contains("alpha")));
  CHECK_THROWS_MATCHES(poprand::dropout(g, nullptr, 0, ref, ref.slice(0, 8), 0.5, 2.0, h.prog()),
                       poputil::poplibs_error, test::What(Contains("reference")));
  CHECK_THROWS_AS(poprand::uniform(g, nullptr, 0, unmapped, FLOAT, 0.0, 1.0, h.prog()),
                  poplar::poplar_error);
}
