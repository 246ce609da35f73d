// poplin::experimental::LUFactorization: L unit lower and U upper with L U equal to the input
// (square, tall and wide matrices over several rounds and blocks, float and half input), the
// LUD vertices' estimates against PopLibs' formulas, and misuse.
#include "TestUtil.hpp"
#include "poplibs_support/LinalgCycleEstimators.hpp"

#include <poplin/experimental/LuFactorization.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using Catch::Contains;

namespace {

/// A matrix whose leading square part is diagonally dominant, so elimination without pivoting
/// is stable.
std::vector<float> dominant(std::size_t m, std::size_t n, unsigned seed) {
  auto a = test::randomValues(m * n, -1.0f, 1.0f, seed);
  for (std::size_t i = 0; i < std::min(m, n); ++i)
    a[i * n + i] += float(n);
  return a;
}

void checkLu(std::size_t m, std::size_t n, Type type) {
  INFO(m << "x" << n << " " << type.toString());
  test::Harness h(8);
  const auto a = dominant(m, n, unsigned(m * 31 + n));
  Tensor in = h.input("a", type, {m, n}, a);
  const auto lu = poplin::experimental::LUFactorization(h.graph(), in, h.prog(), "lu");
  REQUIRE(lu.first.shape() == std::vector<std::size_t>{m, m});
  REQUIRE(lu.second.shape() == std::vector<std::size_t>{m, n});
  CHECK(lu.first.elementType() == FLOAT);
  h.read("L", lu.first);
  h.read("U", lu.second);
  h.run();
  const auto& L = h.result("L");
  const auto& U = h.result("U");
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < m; ++j) {
      if (i == j) CHECK(L[i * m + j] == 1.0f);
      if (j > i) CHECK(L[i * m + j] == 0.0f);
    }
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < std::min(i, n); ++j)
      CHECK(U[i * n + j] == 0.0f);
  // L U against the input as the device saw it.
  std::vector<float> seen = a, product(m * n, 0.0f);
  if (type == HALF)
    for (float& v : seen)
      v = float(poplar::half(v));
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double s = 0;
      for (std::size_t k = 0; k < m; ++k)
        s += double(L[i * m + k]) * U[k * n + j];
      product[i * n + j] = float(s);
    }
  CHECK_THAT(product, test::CloseTo(seen, 1e-5f, 1e-4f));
}

} // namespace

TEST_CASE("LUFactorization: L U is the input", "[poplin][lu]") {
  checkLu(7, 7, FLOAT);   // two rounds, one of one column
  checkLu(14, 14, FLOAT); // three rounds, trailing blocks of several sizes
  checkLu(13, 9, FLOAT);  // tall: L's tail is the identity
  checkLu(5, 11, FLOAT);  // wide: U's right part from the row panels only
  checkLu(8, 8, HALF);
}

TEST_CASE("LUFactorization: estimates follow PopLibs' formulas", "[poplin][lu][cycles]") {
  using namespace poplibs_support;
  // Depth 6 over 6 contexts: PopLibs' repeat is 1, so its row loops (from i + 1) never run.
  CHECK(ludCoreCycles(8, 6, 6) == 5 + 6 * 5);
  // Depth 12: repeat 2; only i = 0 runs one row: align 4 16 + 7 x 11.
  CHECK(ludCoreCycles(4, 12, 6) == 5 + 12 * 5 + 16 + 7 * 11);
  CHECK(ludRowCycles(8, 12, 5, 6) == 5 + 12 * 10 + 22 + 3 * 3);
  // Col, align 4: every i runs the repeat (height 12 / 6 = 2 rows) of 16 + 7 (depth - i - 1).
  CHECK(ludColCycles(4, 3, 12, 6) == 5 + 3 * 5 + 2 * (16 + 14) + 2 * (16 + 7) + 2 * 16);
  CHECK(ludBlockCycles(4, 2, 12, 5, 6) == 5 + 2 * (5 + 2 * (8 + 35)));
  CHECK(ludBlockCycles(8, 2, 18, 4, 6) == 5 + 2 * 10 + 2 * (28 + 4) + (28 + 4));
  CHECK(ludSplitCycles(true, 12, 6, 6) == 2 * (25 + 48));
  CHECK(ludSplitCycles(false, 12, 6, 6) == 2 * (12 + 24));
}

TEST_CASE("LUFactorization: misuse is a clear error", "[poplin][lu]") {
  test::Harness h(2);
  Tensor v = h.input("v", FLOAT, {4}, {1, 2, 3, 4});
  CHECK_THROWS_MATCHES(poplin::experimental::LUFactorization(h.graph(), v, h.prog()),
                       poputil::poplibs_error, test::What(Contains("must be a matrix")));
  Tensor i = h.input("i", INT, {2, 2}, {1, 0, 0, 1});
  CHECK_THROWS_MATCHES(poplin::experimental::LUFactorization(h.graph(), i, h.prog()),
                       poputil::poplibs_error, test::What(Contains("float or half")));
}
