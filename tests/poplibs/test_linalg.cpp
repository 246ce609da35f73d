// poplin's Cholesky factorisation and triangular solves against host computations, several
// block sizes (one block, many, a remainder), batches, both triangles and sides; the vertices'
// cycle estimates against PopLibs' formulas.
#include "TestUtil.hpp"
#include "poplibs_support/LinalgCycleEstimators.hpp"

#include <cmath>
#include <poplin/Cholesky.hpp>
#include <poplin/TriangularSolve.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using Catch::Contains;

namespace {

/// A batch of G symmetric positive definite N x N matrices: M M^T + N I.
std::vector<float> spd(std::size_t G, std::size_t N, unsigned seed) {
  const auto m = test::randomValues(G * N * N, -1, 1, seed);
  std::vector<float> a(G * N * N);
  for (std::size_t g = 0; g < G; ++g)
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t j = 0; j < N; ++j) {
        double s = i == j ? double(N) : 0;
        for (std::size_t k = 0; k < N; ++k)
          s += double(m[(g * N + i) * N + k]) * m[(g * N + j) * N + k];
        a[(g * N + i) * N + j] = float(s);
      }
  return a;
}

/// The host's lower Cholesky factors, in double.
std::vector<float> hostCholesky(const std::vector<float>& a, std::size_t G, std::size_t N) {
  std::vector<double> l(G * N * N, 0);
  for (std::size_t g = 0; g < G; ++g)
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t k = 0; k <= i; ++k) {
        double s = a[(g * N + i) * N + k];
        for (std::size_t j = 0; j < k; ++j)
          s -= l[(g * N + i) * N + j] * l[(g * N + k) * N + j];
        l[(g * N + i) * N + k] = i == k ? std::sqrt(s) : s / l[(g * N + k) * N + k];
      }
  return {l.begin(), l.end()};
}

std::vector<float> transposeEach(const std::vector<float>& a, std::size_t G, std::size_t R,
                                 std::size_t C) {
  std::vector<float> t(a.size());
  for (std::size_t g = 0; g < G; ++g)
    for (std::size_t i = 0; i < R; ++i)
      for (std::size_t j = 0; j < C; ++j)
        t[(g * C + j) * R + i] = a[(g * R + i) * C + j];
  return t;
}

} // namespace

TEST_CASE("cholesky factorises a batch of SPD matrices", "[poplin][cholesky]") {
  const std::size_t G = 2, N = 11;
  const std::string blockSize = GENERATE(as<std::string>{}, "3", "8", "16");
  const bool lower = GENERATE(true, false);
  test::Harness h(8);
  auto& g = h.graph();
  const auto a = spd(G, N, 1);
  const Tensor A = poplin::createCholeskyInput(g, FLOAT, {G, N, N}, lower, "a");
  h.write("A", A, a);
  const Tensor L = poplin::cholesky(g, A, lower, h.prog(), "chol", {{"blockSize", blockSize}});
  REQUIRE(L.shape() == A.shape());
  h.read("L", L);
  h.read("A", A); // cholesky leaves its input alone
  h.run();
  const auto hostL = hostCholesky(a, G, N);
  CHECK_THAT(h.result("L"),
             test::CloseTo(lower ? hostL : transposeEach(hostL, G, N, N), 1e-4f, 1e-5f));
  CHECK(h.result("A") == a);
}

TEST_CASE("choleskyInPlace overwrites its input with the factor", "[poplin][cholesky]") {
  const std::size_t N = 5;
  test::Harness h(4);
  const auto a = spd(1, N, 2);
  const Tensor A = h.input("A", FLOAT, {N, N}, a);
  poplin::choleskyInPlace(h.graph(), A, true, h.prog());
  h.read("A", A);
  h.run();
  CHECK_THAT(h.result("A"), test::CloseTo(hostCholesky(a, 1, N), 1e-4f, 1e-5f));
}

TEST_CASE("triangularSolve solves AX = B and XA = B", "[poplin][triangularSolve]") {
  const std::size_t G = 2, N = 9, K = 4;
  const bool leftSide = GENERATE(true, false);
  const bool lower = GENERATE(true, false);
  const bool unitDiagonal = GENERATE(false, true);
  const std::string blockSize = GENERATE(as<std::string>{}, "2", "64");
  test::Harness h(8);
  auto& g = h.graph();
  // A triangular, well conditioned (diagonal 2..3, off-diagonal small); the other triangle
  // holds junk the solve must not read.
  auto a = test::randomValues(G * N * N, -0.3f, 0.3f, 3);
  for (std::size_t x = 0; x < G; ++x)
    for (std::size_t i = 0; i < N; ++i)
      a[(x * N + i) * N + i] = unitDiagonal ? 1e3f : 2.0f + float(i % 3) / 2;
  std::vector<float> tri = a; // the triangle the solve uses, for the host check
  for (std::size_t x = 0; x < G; ++x)
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t j = 0; j < N; ++j) {
        float& v = tri[(x * N + i) * N + j];
        if (i == j && unitDiagonal) v = 1;
        if (lower ? j > i : j < i) v = 0;
      }
  const std::vector<std::size_t> aShape{G, N, N};
  const std::vector<std::size_t> bShape =
      leftSide ? std::vector<std::size_t>{G, N, K} : std::vector<std::size_t>{G, K, N};
  const auto xTrue = test::randomValues(G * N * K, -1, 1, 4);
  // B = A X (leftSide, X [G,N,K]) or X A (X [G,K,N]).
  const auto b = leftSide ? test::hostMatMul(tri, xTrue, G, N, N, K)
                          : test::hostMatMul(xTrue, tri, G, K, N, N);
  const Tensor A =
      poplin::createTriangularSolveInputLHS(g, FLOAT, FLOAT, aShape, bShape, leftSide, "A");
  const Tensor B =
      poplin::createTriangularSolveInputRHS(g, FLOAT, FLOAT, aShape, bShape, leftSide, "B");
  h.write("A", A, a);
  h.write("B", B, b);
  const Tensor X = poplin::triangularSolve(g, A, B, leftSide, lower, unitDiagonal, h.prog(),
                                           "solve", {{"blockSize", blockSize}});
  REQUIRE(X.shape() == bShape);
  h.read("X", X);
  h.run();
  CHECK_THAT(h.result("X"), test::CloseTo(xTrue, 1e-4f, 1e-4f));
}

TEST_CASE("a Cholesky solve: A x = b by two triangular solves", "[poplin][cholesky]") {
  const std::size_t N = 12;
  test::Harness h(8);
  auto& g = h.graph();
  const auto a = spd(1, N, 5);
  const auto xTrue = test::randomValues(N, -1, 1, 6);
  const auto b = test::hostMatMul(a, xTrue, 1, N, N, 1);
  const Tensor A = h.input("A", FLOAT, {N, N}, a);
  const Tensor B = h.input("B", FLOAT, {N, 1}, b);
  const Tensor L = poplin::cholesky(g, A, true, h.prog(), "chol", {{"blockSize", "5"}});
  const Tensor y = poplin::triangularSolve(g, L, B, true, true, false, h.prog(), "forward");
  const Tensor x =
      poplin::triangularSolve(g, L.transpose(), y, true, false, false, h.prog(), "backward");
  h.read("x", x);
  h.run();
  CHECK_THAT(h.result("x"), test::CloseTo(xTrue, 1e-3f, 1e-4f));
}

TEST_CASE("triangularMask keeps one triangle", "[poplin][triangularSolve]") {
  test::Harness h(4);
  const Tensor A = h.input("A", FLOAT, {3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  h.read("lower", poplin::triangularMask(h.graph(), A, true, false, h.prog()));
  h.read("upperUnit", poplin::triangularMask(h.graph(), A, false, true, h.prog()));
  h.run();
  CHECK(h.result("lower") == std::vector<float>{1, 0, 0, 4, 5, 0, 7, 8, 9});
  CHECK(h.result("upperUnit") == std::vector<float>{1, 2, 3, 0, 1, 6, 0, 0, 1});
}

TEST_CASE("linear algebra preplan parameters and misuse", "[poplin][cholesky][triangularSolve]") {
  const auto chol =
      poplin::getCholeskyMatMulPrePlanParameters(FLOAT, {2, 10, 10}, true, {{"blockSize", "4"}});
  // Blocks 0-4, 4-8, 8-10: a panel and a trailing product after each of the first two.
  REQUIRE(chol.size() == 4);
  CHECK(chol[0].first.aShape == std::vector<std::size_t>{2, 6, 4});
  CHECK(chol[0].first.bShape == std::vector<std::size_t>{2, 4, 4});
  CHECK(chol[1].first.bShape == std::vector<std::size_t>{2, 4, 6});
  CHECK(chol[0].second.begin() == chol[0].second.end()); // blockSize is not a matmul option
  const auto solve = poplin::getTriangularSolveMatMulPrePlanParameters(
      FLOAT, FLOAT, {10, 10}, {10, 3}, true, false, {{"blockSize", "4"}});
  REQUIRE(solve.size() == 2); // upper: blocks 8-10 and 4-8 update the rows above them
  CHECK(solve[0].first.aShape == std::vector<std::size_t>{1, 8, 2});
  CHECK(solve[0].first.bShape == std::vector<std::size_t>{1, 2, 3});

  test::Harness h(4);
  auto& g = h.graph();
  const Tensor A = g.addVariable(FLOAT, {4, 5});
  CHECK_THROWS_WITH(poplin::cholesky(g, A, true, h.prog()), Contains("[..., N, N]"));
  const Tensor S = g.addVariable(FLOAT, {4, 4});
  CHECK_THROWS_AS(poplin::cholesky(g, S, true, h.prog(), "c", {{"blockSize", "0"}}),
                  poplar::invalid_option);
  CHECK_THROWS_AS(poplin::cholesky(g, S, true, h.prog(), "c", {{"noSuchOption", "1"}}),
                  poplar::invalid_option);
  const Tensor I = g.addVariable(INT, {4, 4});
  CHECK_THROWS_WITH(poplin::cholesky(g, I, true, h.prog()), Contains("float or half"));
  const Tensor B = g.addVariable(FLOAT, {3, 2});
  CHECK_THROWS_WITH(poplin::triangularSolve(g, S, B, true, true, false, h.prog()),
                    Contains("AX = B needs b [..., N, K]"));
}

TEST_CASE("linear algebra vertex estimates follow PopLibs' formulas", "[poplin][estimates]") {
  using namespace poplibs_support;
  CHECK(choleskyCycles(8, false) == 512 + 102 * 64 + 101 * 8 + 102);
  CHECK(choleskyCycles(8, true) == 256 + 795 * 64 / 4 + 191 * 8 / 2 + 426);
  CHECK(triangularInverseCycles(4, false) == 6 * 64 + 51 * 16 + 213 * 4 + 12);
  CHECK(triangularInverseCycles(4, true) == 7 * 64 + 123 * 16 + 269 * 4 - 24);
  CHECK(triangularSolveCycles(10, false, true) == 150 + 1800 - 126);
  CHECK(triangularSolveCycles(10, false, false) == 675 + 1635 + 54);
  CHECK(triangularSolveCycles(10, true, true) == 75 + 3180 - 150);
  CHECK(triangularSolveCycles(10, true, false) == 843 + 2722 + 12);
}
