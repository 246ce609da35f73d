// poplin::experimental::QRFactorization: Q orthogonal, R upper triangular and Q R equal to the
// input (square and tall, float and half, a column already zero), the vertices' estimates
// against PopLibs' formulas, and misuse.
#include "TestUtil.hpp"
#include "poplibs_support/LinalgCycleEstimators.hpp"

#include <cmath>
#include <poplin/experimental/QRFactorization.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using Catch::Contains;

namespace {

std::vector<float> identity(std::size_t m) {
  std::vector<float> eye(m * m, 0.0f);
  for (std::size_t i = 0; i < m; ++i)
    eye[i * m + i] = 1.0f;
  return eye;
}

void checkQr(std::size_t m, std::size_t n, Type type, std::vector<float> a, float tol) {
  INFO(m << "x" << n << " " << type.toString());
  test::Harness h(4);
  auto mats = poplin::experimental::createQRFactorizationMatrices(h.graph(), type, m, n, "qr");
  REQUIRE(mats[0].shape() == std::vector<std::size_t>{m, n});
  REQUIRE(mats[1].shape() == std::vector<std::size_t>{m, m});
  h.write("A", mats[0], a);
  h.write("Q", mats[1], identity(m));
  poplin::experimental::QRFactorization(h.graph(), mats[0], mats[1], h.prog(), "qr",
                                        {{"rowsPerIteration", "4"}});
  h.read("R", mats[0]);
  h.read("Q", mats[1]);
  h.run();
  const auto& R = h.result("R");
  const auto& Q = h.result("Q");
  if (type == HALF)
    for (float& x : a)
      x = float(poplar::half(x));
  // R upper triangular.
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < std::min(i, n); ++j)
      CHECK(std::fabs(R[i * n + j]) <= tol);
  // Q^T Q = I.
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < m; ++j) {
      double s = 0;
      for (std::size_t k = 0; k < m; ++k)
        s += double(Q[k * m + i]) * Q[k * m + j];
      CHECK(std::fabs(s - (i == j ? 1.0 : 0.0)) <= tol);
    }
  // Q R = A.
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double s = 0;
      for (std::size_t k = 0; k < m; ++k)
        s += double(Q[i * m + k]) * R[k * n + j];
      CHECK(std::fabs(s - a[i * n + j]) <= tol * (1.0 + std::fabs(a[i * n + j])));
    }
}

} // namespace

TEST_CASE("QRFactorization: Q R is the input", "[poplin][qr]") {
  checkQr(6, 6, FLOAT, test::randomValues(36, -1.0f, 1.0f, 3), 1e-5f);
  checkQr(11, 5, FLOAT, test::randomValues(55, -2.0f, 2.0f, 4), 1e-5f);
  checkQr(9, 1, FLOAT, test::randomValues(9, -1.0f, 1.0f, 5), 1e-5f);
  checkQr(7, 4, HALF, test::randomValues(28, -1.0f, 1.0f, 6), 1e-2f);
  // A negative diagonal and a column already zero below it (its reflector is the identity).
  std::vector<float> a = {-3, 1, 2, 0, 4, 1, 0, 0, 5, 0, 0, 0};
  checkQr(4, 3, FLOAT, a, 1e-5f);
}

TEST_CASE("QRFactorization: known factors of a small matrix", "[poplin][qr]") {
  // A = [[3, 1], [4, 2]]: the first reflector maps [3, 4] to -5 e1 (sign of 3 taken away), so
  // R's first row is [-5, -11/5] and |R11| = det / 5 = 2/5.
  test::Harness h(2);
  auto mats = poplin::experimental::createQRFactorizationMatrices(h.graph(), FLOAT, 2, 2, "qr");
  h.write("A", mats[0], {3, 1, 4, 2});
  h.write("Q", mats[1], identity(2));
  poplin::experimental::QRFactorization(h.graph(), mats[0], mats[1], h.prog());
  h.read("R", mats[0]);
  h.run();
  const auto& R = h.result("R");
  CHECK(R[0] == Approx(-5.0f));
  CHECK(R[1] == Approx(-2.2f));
  CHECK(std::fabs(R[3]) == Approx(0.4f));
}

TEST_CASE("QRFactorization: estimates follow PopLibs' formulas", "[poplin][qr][cycles]") {
  using namespace poplibs_support;
  CHECK(qrRowCopyCycles(12) == 6 * (16 + 7 * 2 + 16));
  // 13 elements, 4 padded: 1 skipped per worker, 2 computed per worker.
  CHECK(qrPartialSquareCycles(13, 4) == 6 * (34 + 2 * 1 + 6 + 2 * 5 + 1));
  CHECK(qrHouseholderCycles(13, 4) == 6 * (37 + 4 * 1 + 9 + 2 * 5 + 1));
  // 13 elements from 1 on: 2 per worker; 7 rows: 2 per worker.
  CHECK(qrUpdateCycles(13, 7, 1) == 72 + 6 * ((41 + 6 + 3) + (29 + 8 + 3)) * 2 + 8);
  // More padding, less work.
  CHECK(qrUpdateCycles(64, 6, 40) < qrUpdateCycles(64, 6, 0));
}

TEST_CASE("QRFactorization: misuse is an error", "[poplin][qr][errors]") {
  test::Harness h(2);
  Graph& g = h.graph();
  CHECK_THROWS_WITH(poplin::experimental::createQRFactorizationMatrices(g, FLOAT, 2, 3, "wide"),
                    Contains("at least as many rows as columns"));
  CHECK_THROWS_WITH(poplin::experimental::createQRFactorizationMatrices(g, INT, 3, 3, "int"),
                    Contains("float or half"));
  auto mats = poplin::experimental::createQRFactorizationMatrices(g, FLOAT, 4, 3, "qr");
  Tensor badQ = g.addVariable(FLOAT, {3, 3}, "badQ");
  g.setTileMapping(badQ, 0);
  CHECK_THROWS_WITH(poplin::experimental::QRFactorization(g, mats[0], badQ, h.prog()),
                    Contains("Q must be [4, 4]"));
  CHECK_THROWS_AS(poplin::experimental::QRFactorization(g, mats[0], mats[1], h.prog(), {},
                                                        {{"rowsPerIteration", "0"}}),
                  poplar::invalid_option);
  CHECK_THROWS_WITH(poplin::experimental::QRFactorization(g, mats[0], mats[1], h.prog(), {},
                                                          {{"blockSize", "8"}}),
                    Contains("unknown option 'blockSize'"));
  Tensor vec = g.addVariable(FLOAT, {4}, "vec");
  g.setTileMapping(vec, 0);
  CHECK_THROWS_AS(poplin::experimental::QRFactorization(g, vec, mats[1], h.prog()),
                  poputil::poplibs_error);
}
