#include "TestUtil.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <popops/Reduce.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using Catch::Contains;
using popops::Operation;

namespace {

/// Host reduction of a [rows, cols] matrix over dimension 0, 1 or both (dim = 2).
std::vector<float> hostReduce(const std::vector<float>& m, std::size_t rows, std::size_t cols,
                              int dim, Operation op) {
  const auto combine = [op](float a, float b) {
    switch (op) {
    case Operation::ADD:
    case Operation::SQUARE_ADD:
      return a + b;
    case Operation::MUL:
      return a * b;
    case Operation::MIN:
      return std::min(a, b);
    case Operation::MAX:
      return std::max(a, b);
    case Operation::LOGICAL_AND: // bool reductions: test_overloads.cpp
    case Operation::LOGICAL_OR:
    case Operation::LOG_ADD:
      break;
    }
    return 0.0f;
  };
  const auto map = [op](float x) { return op == Operation::SQUARE_ADD ? x * x : x; };
  const std::size_t outs = dim == 0 ? cols : dim == 1 ? rows : 1;
  std::vector<float> out(outs);
  std::vector<bool> started(outs, false);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) {
      const std::size_t o = dim == 0 ? c : dim == 1 ? r : 0;
      const float v = map(m[r * cols + c]);
      out[o] = started[o] ? combine(out[o], v) : v;
      started[o] = true;
    }
  return out;
}

} // namespace

TEST_CASE("reduce over dim 0, dim 1 and both, for every operation", "[popops][reduce]") {
  const auto op = GENERATE(Operation::ADD, Operation::MAX, Operation::MIN, Operation::MUL,
                           Operation::SQUARE_ADD);
  CAPTURE(op);
  test::Harness h(16);
  const std::size_t rows = 23, cols = 37; // spread over the tiles: rows straddle tiles
  const float lo = op == Operation::MUL ? 0.9f : -2.0f, hi = op == Operation::MUL ? 1.1f : 2.0f;
  const auto m = test::randomValues(rows * cols, lo, hi, 20);
  const Tensor M = h.input("M", FLOAT, {rows, cols}, m);
  const Tensor r0 = popops::reduce(h.graph(), M, {0}, op, h.prog(), "dim0");
  const Tensor r1 = popops::reduce(h.graph(), M, {1}, op, h.prog(), "dim1");
  const Tensor r01 = popops::reduce(h.graph(), M, {1, 0}, op, h.prog(), "both");
  CHECK(r0.shape() == std::vector<std::size_t>{cols});
  CHECK(r1.shape() == std::vector<std::size_t>{rows});
  CHECK(r01.shape().empty());
  h.read("r0", r0);
  h.read("r1", r1);
  h.read("r01", r01);
  h.run();
  CHECK_THAT(h.result("r0"), test::CloseTo(hostReduce(m, rows, cols, 0, op), 1e-5f, 1e-5f));
  CHECK_THAT(h.result("r1"), test::CloseTo(hostReduce(m, rows, cols, 1, op), 1e-5f, 1e-5f));
  CHECK_THAT(h.result("r01"), test::CloseTo(hostReduce(m, rows, cols, 2, op), 1e-4f, 1e-3f));
}

TEST_CASE("reduce over any set of dimensions of a 3-D tensor", "[popops][reduce]") {
  test::Harness h(16);
  const std::size_t A = 4, B = 5, C = 6;
  const auto v = test::randomValues(A * B * C, -1, 1, 21);
  const Tensor T = h.input("T", FLOAT, {A, B, C}, v);
  const Tensor r02 = popops::reduce(h.graph(), T, {0, 2}, Operation::ADD, h.prog());
  const Tensor r1 = popops::reduce(h.graph(), T, {1}, Operation::MAX, h.prog());
  const Tensor none = popops::reduce(h.graph(), T, {}, Operation::ADD, h.prog());
  CHECK(r1.shape() == std::vector<std::size_t>{A, C});
  h.read("r02", r02);
  h.read("r1", r1);
  h.read("none", none);
  h.run();
  std::vector<float> e02(B, 0.0f), e1(A * C, -1e9f);
  for (std::size_t a = 0; a < A; ++a)
    for (std::size_t b = 0; b < B; ++b)
      for (std::size_t c = 0; c < C; ++c) {
        const float x = v[(a * B + b) * C + c];
        e02[b] += x;
        e1[a * C + c] = std::max(e1[a * C + c], x);
      }
  CHECK_THAT(h.result("r02"), test::CloseTo(e02, 1e-5f, 1e-6f));
  CHECK_THAT(h.result("r1"), test::CloseTo(e1, 0.0f));
  CHECK_THAT(h.result("none"), test::CloseTo(v, 0.0f));
}

TEST_CASE("reduce output types: HALF to FLOAT, and integers", "[popops][reduce]") {
  test::Harness h(8);
  const auto v = test::randomValues(16 * 8, -1, 1, 22);
  std::vector<float> ints(16 * 8), halves(16 * 8);
  for (std::size_t i = 0; i < ints.size(); ++i) {
    ints[i] = float(int(i % 13) - 6);
    halves[i] = half(v[i]);
  }
  const Tensor H = h.input("H", HALF, {16, 8}, v);
  const Tensor I = h.input("I", INT, {16, 8}, ints);
  const Tensor U = h.input("U", UNSIGNED_INT, {16, 8}, std::vector<float>(128, 3.0f));
  const Tensor hf = popops::reduce(h.graph(), H, FLOAT, {0}, Operation::ADD, h.prog());
  const Tensor hh = popops::reduce(h.graph(), H, {0}, Operation::MAX, h.prog());
  const Tensor ii = popops::reduce(h.graph(), I, {1}, Operation::ADD, h.prog());
  const Tensor uu = popops::reduce(h.graph(), U, {0, 1}, Operation::ADD, h.prog());
  CHECK(hf.elementType() == FLOAT);
  CHECK(hh.elementType() == HALF);
  CHECK(uu.elementType() == UNSIGNED_INT);
  h.read("hf", hf);
  h.read("hh", hh);
  h.read("ii", ii);
  h.read("uu", uu);
  h.run();
  CHECK_THAT(h.result("hf"),
             test::CloseTo(hostReduce(halves, 16, 8, 0, Operation::ADD), 1e-5f, 1e-5f));
  CHECK_THAT(h.result("hh"), test::CloseTo(hostReduce(halves, 16, 8, 0, Operation::MAX), 0.0f));
  CHECK(h.result("ii") == hostReduce(ints, 16, 8, 1, Operation::ADD));
  CHECK(h.result("uu") == std::vector<float>{384.0f});
}

TEST_CASE("reduceWithOutput with update and scale", "[popops][reduce]") {
  test::Harness h(8);
  const auto m = test::randomValues(10 * 6, -1, 1, 23), acc = test::randomValues(6, -1, 1, 24);
  const Tensor M = h.input("M", FLOAT, {10, 6}, m);
  const Tensor out = h.input("out", FLOAT, {6}, acc);
  const Tensor scale = h.input("scale", FLOAT, {}, {-0.5f});
  const Tensor plain = h.input("plain", FLOAT, {6}, acc);
  popops::reduceWithOutput(h.graph(), M, out, {0}, {Operation::ADD, true, scale}, h.prog(), "upd");
  popops::reduceWithOutput(h.graph(), M, plain, {0}, {Operation::SQUARE_ADD, false, scale},
                           h.prog(), "scaled");
  h.read("out", out);
  h.read("plain", plain);
  h.run();
  auto sums = hostReduce(m, 10, 6, 0, Operation::ADD);
  auto squares = hostReduce(m, 10, 6, 0, Operation::SQUARE_ADD);
  for (std::size_t i = 0; i < 6; ++i) {
    sums[i] = acc[i] - 0.5f * sums[i];
    squares[i] *= -0.5f;
  }
  CHECK_THAT(h.result("out"), test::CloseTo(sums, 1e-5f, 1e-6f));
  CHECK_THAT(h.result("plain"), test::CloseTo(squares, 1e-5f, 1e-6f));
}

TEST_CASE("reduce combines partials from several tiles in a second stage", "[popops][reduce]") {
  // One column of values near the float maximum spread over 8 tiles: every tile's partial is
  // finite, so only the combining stage can overflow -- and the error names its compute set.
  test::Harness h(8);
  const float big = std::numeric_limits<float>::max() / 4;
  const Tensor M = h.input("M", FLOAT, {16, 1}, std::vector<float>(16, big));
  CHECK(h.graph().getTilesOf(M).size() == 8);
  const Tensor sum = popops::reduce(h.graph(), M, {0}, Operation::ADD, h.prog(), "total");
  CHECK(h.graph().getTilesOf(sum).size() == 1);
  CHECK_THROWS_MATCHES(h.run({{"debug.floatPointOpException", "true"}}),
                       poplar::floating_point_exception,
                       test::What(Contains("compute set 'total/Reduce/Combine'")));
}

TEST_CASE("reduce argument errors", "[popops][reduce][errors]") {
  test::Harness h(4);
  const Tensor M = h.input("M", FLOAT, {3, 4}, std::vector<float>(12));
  const Tensor out = h.input("out", FLOAT, {3}, std::vector<float>(3));
  CHECK_THROWS_MATCHES(popops::reduce(h.graph(), M, {2}, Operation::ADD, h.prog()),
                       poputil::poplibs_error,
                       test::What(Contains("popops::reduce") && Contains("{3,4}")));
  CHECK_THROWS_MATCHES(popops::reduce(h.graph(), M, {1, 1}, Operation::ADD, h.prog()),
                       poputil::poplibs_error, test::What(Contains("twice")));
  CHECK_THROWS_MATCHES(popops::reduceWithOutput(h.graph(), M, out, {0}, Operation::ADD, h.prog()),
                       poputil::poplibs_error, test::What(Contains("{4}") && Contains("{3}")));
  CHECK_THROWS_MATCHES(popops::reduce(h.graph(), M, {0}, {Operation::ADD, true}, h.prog()),
                       poputil::poplibs_error, test::What(Contains("reduceWithOutput")));
  CHECK_THROWS_MATCHES(
      popops::reduceWithOutput(h.graph(), M, out, {1}, {Operation::MAX, true}, h.prog()),
      poputil::poplibs_error, test::What(Contains("MAX")));
  CHECK_THROWS_MATCHES(popops::reduce(h.graph(), M, INT, {0}, Operation::ADD, h.prog()),
                       poputil::poplibs_error, test::What(Contains("float") && Contains("int")));
}
