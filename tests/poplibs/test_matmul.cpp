#include "TestUtil.hpp"

#include <cstring>
#include <limits>
#include <poplin/MatMul.hpp>
#include <poplin/MeshGrid.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>
#include <regex>
#include <sstream>

using namespace poplar;
using Catch::Contains;

namespace {

/// C = A . B on the host, i-k-j, in double for a reference the float results approach.
std::vector<float> hostMatMul(const std::vector<float>& a, const std::vector<float>& b,
                              std::size_t M, std::size_t K, std::size_t N) {
  std::vector<double> c(M * N, 0.0);
  for (std::size_t i = 0; i < M; ++i)
    for (std::size_t k = 0; k < K; ++k)
      for (std::size_t j = 0; j < N; ++j)
        c[i * N + j] += double(a[i * K + k]) * b[k * N + j];
  return std::vector<float>(c.begin(), c.end());
}

std::vector<float> transposed(const std::vector<float>& m, std::size_t rows, std::size_t cols) {
  std::vector<float> t(m.size());
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      t[c * rows + r] = m[r * cols + c];
  return t;
}

/// The plan matMul would use, as matMulReportPlan prints it.
std::string planOf(const Graph& graph, std::size_t M, std::size_t K, std::size_t N) {
  std::ostringstream os;
  poplin::matMulReportPlan(os, graph, FLOAT, FLOAT, {M, K}, {K, N});
  return os.str();
}

std::size_t planNumber(const std::string& plan, const std::string& pattern) {
  std::smatch m;
  REQUIRE(std::regex_search(plan, m, std::regex(pattern)));
  return std::stoul(m[1]);
}

} // namespace

TEST_CASE("matMul matches the host for several shapes", "[poplin][matmul]") {
  const auto [M, K, N] = GENERATE(table<std::size_t, std::size_t, std::size_t>(
      {{7, 13, 5}, {1, 1, 1}, {16, 32, 8}, {33, 65, 17}, {100, 3, 70}, {5, 9, 200}}));
  CAPTURE(M, K, N);
  test::Harness h(16);
  const auto a = test::randomValues(M * K, -1, 1, 30), b = test::randomValues(K * N, -1, 1, 31);
  const Tensor A = h.input("A", FLOAT, {M, K}, a), B = h.input("B", FLOAT, {K, N}, b);
  const Tensor C = poplin::matMul(h.graph(), A, B, h.prog(), "mm");
  CHECK(C.shape() == std::vector<std::size_t>{M, N});
  CHECK(C.elementType() == FLOAT);
  h.read("C", C);
  h.run();
  CHECK_THAT(h.result("C"), test::CloseTo(hostMatMul(a, b, M, K, N), 1e-5f, 1e-5f));
}

TEST_CASE("matMul on a full IPU with operands from createMatMulInput*", "[poplin][matmul]") {
  test::Harness h(1472);
  const std::size_t M = 64, K = 96, N = 80;
  const Tensor A = poplin::createMatMulInputLHS(h.graph(), FLOAT, {M, K}, {K, N}, "A");
  const Tensor B = poplin::createMatMulInputRHS(h.graph(), FLOAT, {M, K}, {K, N}, "B");
  CHECK(h.graph().getTilesOf(A).size() > 100);
  CHECK(h.graph().getTilesOf(B).size() > 100);
  const auto a = test::randomValues(M * K, -1, 1, 32), b = test::randomValues(K * N, -1, 1, 33);
  h.write("A", A, a);
  h.write("B", B, b);
  const Tensor C = poplin::matMul(h.graph(), A, B, h.prog(), "mm");
  // About every tile computes one partial product.
  CHECK(planNumber(planOf(h.graph(), M, K, N), ", (\\d+) vertices,") > 1000);
  h.read("C", C);
  h.run();
  CHECK_THAT(h.result("C"), test::CloseTo(hostMatMul(a, b, M, K, N), 1e-5f, 1e-5f));
}

TEST_CASE("matMul of transposed operands", "[poplin][matmul]") {
  test::Harness h(16);
  const std::size_t M = 12, K = 40, N = 9;
  const auto at = test::randomValues(K * M, -1, 1, 34), bt = test::randomValues(N * K, -1, 1, 35);
  // A is given as the transpose of a [K,M] tensor (a weight gradient's input.transpose()),
  // B as the transpose of [N,K].
  const Tensor At = h.input("At", FLOAT, {K, M}, at), Bt = h.input("Bt", FLOAT, {N, K}, bt);
  const Tensor C = poplin::matMul(h.graph(), At.transpose(), Bt.transpose(), h.prog(), "mmT");
  h.read("C", C);
  h.run();
  CHECK_THAT(
      h.result("C"),
      test::CloseTo(hostMatMul(transposed(at, K, M), transposed(bt, N, K), M, K, N), 1e-5f, 1e-5f));
}

TEST_CASE("matMul splits a long K over tiles and sums the partials", "[poplin][matmul]") {
  test::Harness h(16);
  const std::size_t M = 4, K = 2048, N = 4;
  const std::size_t kChunks = planNumber(planOf(h.graph(), M, K, N), "inChanSplit (\\d+) ");
  CHECK(kChunks > 1);
  const auto a = test::randomValues(M * K, -1, 1, 36), b = test::randomValues(K * N, -1, 1, 37);
  const Tensor A = h.input("A", FLOAT, {M, K}, a), B = h.input("B", FLOAT, {K, N}, b);
  const Tensor C = poplin::matMul(h.graph(), A, B, h.prog(), "longK");
  h.read("C", C);
  h.run();
  CHECK_THAT(h.result("C"), test::CloseTo(hostMatMul(a, b, M, K, N), 1e-4f, 1e-4f));
}

TEST_CASE("matMul's second stage runs in its own named compute set", "[poplin][matmul]") {
  // Partial products near the float maximum in two K chunks: each is finite, their sum is not,
  // so the overflow is reported by the stage that sums the partials.
  test::Harness h(16);
  const std::size_t M = 1, K = 2048, N = 1;
  std::vector<float> a(K, 0.0f);
  a.front() = a.back() = std::numeric_limits<float>::max() / 2;
  const Tensor A = h.input("A", FLOAT, {M, K}, a);
  const Tensor B = h.input("B", FLOAT, {K, N}, std::vector<float>(K, 1.5f));
  poplin::matMul(h.graph(), A, B, h.prog(), {DebugContext("layer"), "fc"});
  CHECK_THROWS_MATCHES(h.run({{"debug.floatPointOpException", "true"}}),
                       poplar::floating_point_exception,
                       test::What(Contains("compute set 'layer/fc/MatMul/Reduce'")));
}

TEST_CASE("matMulWithOutput writes an existing tensor", "[poplin][matmul]") {
  const std::size_t K = GENERATE(6, 3000); // unsplit and split K
  CAPTURE(K);
  test::Harness h(16);
  const std::size_t M = 10, N = 24;
  const auto a = test::randomValues(M * K, -1, 1, 38), b = test::randomValues(K * N, -1, 1, 39);
  const Tensor A = h.input("A", FLOAT, {M, K}, a), B = h.input("B", FLOAT, {K, N}, b);
  // The output is the transpose of a linearly mapped [N,M] tensor: its rows are not contiguous.
  const Tensor Ct = h.input("Ct", FLOAT, {N, M}, std::vector<float>(M * N, 7.0f));
  poplin::matMulWithOutput(h.graph(), A, B, Ct.transpose(), h.prog(), "into");
  h.read("Ct", Ct);
  h.run();
  CHECK_THAT(h.result("Ct"),
             test::CloseTo(transposed(hostMatMul(a, b, M, K, N), M, N), 1e-4f, 1e-4f));
}

TEST_CASE("matMul with HALF inputs, HALF outputs and HALF partials", "[poplin][matmul]") {
  test::Harness h(16);
  const std::size_t M = 8, K = 700, N = 6;
  auto a = test::randomValues(M * K, -1, 1, 40), b = test::randomValues(K * N, -1, 1, 41);
  for (auto& x : a)
    x = half(x);
  for (auto& x : b)
    x = half(x);
  const Tensor A = h.input("A", HALF, {M, K}, a), B = h.input("B", HALF, {K, N}, b);
  const Tensor Af = h.input("Af", FLOAT, {M, K}, a), Bf = h.input("Bf", FLOAT, {K, N}, b);
  const Tensor halfOut = poplin::matMul(h.graph(), A, B, h.prog(), "halves");
  const Tensor floatOut = poplin::matMul(h.graph(), A, B, h.prog(), FLOAT, "toFloat");
  const Tensor halfPartials =
      poplin::matMul(h.graph(), A, B, h.prog(), FLOAT, "halfPartials", {{"partialsType", "half"}});
  const Tensor floatToHalf = poplin::matMul(h.graph(), Af, Bf, h.prog(), HALF, "floatToHalf");
  CHECK(halfOut.elementType() == HALF);
  CHECK(floatOut.elementType() == FLOAT);
  CHECK(floatToHalf.elementType() == HALF);
  h.read("halfOut", halfOut);
  h.read("floatOut", floatOut);
  h.read("halfPartials", halfPartials);
  h.read("floatToHalf", floatToHalf);
  h.run();
  const auto expect = hostMatMul(a, b, M, K, N);
  CHECK_THAT(h.result("floatOut"), test::CloseTo(expect, 1e-5f, 1e-5f));
  CHECK_THAT(h.result("halfOut"), test::CloseTo(expect, 2e-3f, 2e-2f));
  CHECK_THAT(h.result("floatToHalf"), test::CloseTo(expect, 2e-3f, 2e-2f));
  CHECK_THAT(h.result("halfPartials"), test::CloseTo(expect, 4e-3f, 4e-2f));
}

TEST_CASE("matMul argument errors name the op and the shapes", "[poplin][matmul][errors]") {
  test::Harness h(4);
  const Tensor A = h.input("A", FLOAT, {3, 4}, std::vector<float>(12));
  const Tensor B = h.input("B", FLOAT, {5, 2}, std::vector<float>(10));
  const Tensor H = h.input("H", HALF, {4, 2}, std::vector<float>(8));
  const Tensor V = h.input("V", FLOAT, {2, 3, 4}, std::vector<float>(24));
  CHECK_THROWS_MATCHES(
      poplin::matMul(h.graph(), A, B, h.prog()), poputil::poplibs_error,
      test::What(Contains("poplin::matMul") && Contains("{3,4}") && Contains("{5,2}")));
  CHECK_THROWS_AS(poplin::matMul(h.graph(), A, B, h.prog()), poplar::poplar_error);
  CHECK_THROWS_MATCHES(poplin::matMul(h.graph(), V, B, h.prog()), poputil::poplibs_error,
                       test::What(Contains("matrices")));
  CHECK_THROWS_MATCHES(poplin::matMul(h.graph(), A, H, h.prog()), poputil::poplibs_error,
                       test::What(Contains("half")));
  CHECK_THROWS_MATCHES(poplin::matMul(h.graph(), A, A.transpose(), h.prog(), INT),
                       poputil::poplibs_error, test::What(Contains("int")));
  CHECK_THROWS_MATCHES(
      poplin::matMul(h.graph(), A, A.transpose(), h.prog(), "bad", {{"partialsType", "double"}}),
      poplar::invalid_option, test::What(Contains("partialsType")));
  CHECK_THROWS_MATCHES(poplin::matMul(h.graph(), A, A.transpose(), h.prog(), "bad", {{"x", "1"}}),
                       poplar::invalid_option, test::What(Contains("'x'")));
  CHECK_THROWS_MATCHES(poplin::createMatMulInputRHS(h.graph(), FLOAT, {3, 4}, {5, 2}),
                       poputil::poplibs_error, test::What(Contains("createMatMulInputRHS")));
  const Tensor wrongOut = h.input("out", FLOAT, {3, 5}, std::vector<float>(15));
  CHECK_THROWS_MATCHES(poplin::matMulWithOutput(h.graph(), A, A.transpose(), wrongOut, h.prog()),
                       poputil::poplibs_error, test::What(Contains("{3,5}")));
}

// The float partials run a register-blocked host kernel (4 rows x 16 columns, tails of 1-15
// columns and 1-3 rows): every block width and row remainder must give the host's numbers, and
// the same bits every time.
TEST_CASE("matMul float blocks of every width and row remainder, bit-identical across engines",
          "[poplin][matmul]") {
  const auto [M, K, N] = GENERATE(table<std::size_t, std::size_t, std::size_t>(
      {{3, 20, 1}, {6, 37, 9}, {7, 11, 15}, {5, 64, 16}, {9, 33, 23}, {2, 70, 31}, {13, 5, 40}}));
  CAPTURE(M, K, N);
  const auto a = test::randomValues(M * K, -1, 1, 40), b = test::randomValues(K * N, -1, 1, 41);
  std::vector<float> first;
  for (int engine = 0; engine < 2; ++engine) {
    test::Harness h(4);
    const Tensor A = h.input("A", FLOAT, {M, K}, a), B = h.input("B", FLOAT, {K, N}, b);
    h.read("C", poplin::matMul(h.graph(), A, B, h.prog(), "mm"));
    h.run();
    const std::vector<float> got = h.result("C");
    CHECK_THAT(got, test::CloseTo(hostMatMul(a, b, M, K, N), 1e-5f, 1e-5f));
    if (engine == 0)
      first = got;
    else
      CHECK(std::memcmp(first.data(), got.data(), got.size() * sizeof(float)) == 0);
  }
}

TEST_CASE("linspace and meshgrid2d give numpy's values and grids", "[poplin][meshgrid]") {
  test::Harness h(4);
  auto& g = h.graph();
  const Tensor x = poplin::linspace(g, FLOAT, -1.0f, 1.0f, 5, "x");
  const Tensor y = poplin::linspace(g, HALF, 0.0f, 3.0f, 4, "y");
  const auto grid = poplin::meshgrid2d(g, x, y);
  REQUIRE(grid.size() == 2);
  REQUIRE(grid[0].shape() == std::vector<std::size_t>{4, 5});
  REQUIRE(grid[1].shape() == std::vector<std::size_t>{4, 5});
  const Tensor gx = g.addVariable(FLOAT, {4, 5}, "gx"), gy = g.addVariable(HALF, {4, 5}, "gy");
  poputil::mapTensorLinearly(g, gx);
  poputil::mapTensorLinearly(g, gy);
  h.prog().add(program::Copy(grid[0], gx));
  h.prog().add(program::Copy(grid[1], gy));
  h.read("gx", gx);
  h.read("gy", gy);
  h.run();
  std::vector<float> wantX, wantY;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 5; ++j) {
      wantX.push_back(-1.0f + 0.5f * j);
      wantY.push_back(float(i));
    }
  CHECK_THAT(h.result("gx"), test::CloseTo(wantX, 1e-6f));
  CHECK_THAT(h.result("gy"), test::CloseTo(wantY, 1e-3f));
  CHECK_THROWS_WITH(poplin::linspace(g, INT, 0, 1, 3), Catch::Contains("must be float or half"));
  CHECK_THROWS_WITH(poplin::linspace(g, FLOAT, 0, 1, 0),
                    Catch::Contains("count must be at least 1"));
  CHECK_THROWS_WITH(poplin::meshgrid2d(g, gx, x), Catch::Contains("must have rank 1, not 2 and 1"));
}
