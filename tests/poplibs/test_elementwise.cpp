#include "TestUtil.hpp"

#include <cmath>
#include <functional>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using Catch::Contains;
using program::Sequence;

namespace {

using BinaryOp = Tensor (*)(Graph&, const Tensor&, const Tensor&, Sequence&, const DebugContext&,
                            const OptionFlags&);
using BinaryInPlaceOp = void (*)(Graph&, const Tensor&, const Tensor&, Sequence&,
                                 const DebugContext&, const OptionFlags&);
using UnaryOp = Tensor (*)(Graph&, const Tensor&, Sequence&, const DebugContext&,
                           const OptionFlags&);
using UnaryInPlaceOp = void (*)(Graph&, const Tensor&, Sequence&, const DebugContext&,
                                const OptionFlags&);

struct BinaryCase {
  const char* name;
  BinaryOp op;
  BinaryInPlaceOp inPlace;
  std::function<float(float, float)> host;
};

std::vector<BinaryCase> binaryCases() {
  return {
      {"add", popops::add, popops::addInPlace, [](float a, float b) { return a + b; }},
      {"sub", popops::sub, popops::subInPlace, [](float a, float b) { return a - b; }},
      {"mul", popops::mul, popops::mulInPlace, [](float a, float b) { return a * b; }},
      {"div", popops::div, popops::divInPlace, [](float a, float b) { return a / b; }},
      {"max", popops::max, popops::maxInPlace, [](float a, float b) { return std::max(a, b); }},
      {"min", popops::min, popops::minInPlace, [](float a, float b) { return std::min(a, b); }}};
}

struct UnaryCase {
  const char* name;
  UnaryOp op;
  UnaryInPlaceOp inPlace;
  std::function<float(float)> host;
  bool positiveOnly;
};

std::vector<UnaryCase> unaryCases() {
  return {{"neg", popops::neg, popops::negInPlace, [](float a) { return -a; }, false},
          {"exp", popops::exp, popops::expInPlace, [](float a) { return std::exp(a); }, false},
          {"log", popops::log, popops::logInPlace, [](float a) { return std::log(a); }, true},
          {"sqrt", popops::sqrt, popops::sqrtInPlace, [](float a) { return std::sqrt(a); }, true},
          {"square", popops::square, popops::squareInPlace, [](float a) { return a * a; }, false},
          {"abs", popops::abs, popops::absInPlace, [](float a) { return std::abs(a); }, false},
          {"tanh", popops::tanh, popops::tanhInPlace, [](float a) { return std::tanh(a); }, false},
          {"sigmoid", popops::sigmoid, popops::sigmoidInPlace,
           [](float a) { return 1.0f / (1.0f + std::exp(-a)); }, false}};
}

/// Host result of op(a, b) with b broadcast numpy-style: b repeats with period b.size().
std::vector<float> hostBinary(const std::vector<float>& a, const std::vector<float>& b,
                              const std::function<float(float, float)>& f,
                              std::size_t bRepeat = 1) {
  std::vector<float> out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    out[i] = f(a[i], b[(i / bRepeat) % b.size()]);
  return out;
}

} // namespace

TEST_CASE("binary ops match the host on float tensors spread over tiles", "[popops]") {
  for (const auto& c : binaryCases()) {
    DYNAMIC_SECTION(c.name) {
      test::Harness h(16);
      const auto a = test::randomValues(30 * 17, -4, 4, 1);
      auto b = test::randomValues(30 * 17, 0.5f, 3, 2);
      const Tensor A = h.input("A", FLOAT, {30, 17}, a);
      const Tensor B = h.input("B", FLOAT, {30, 17}, b);
      const Tensor out = c.op(h.graph(), A, B, h.prog(), "op", {});
      CHECK(out.shape() == A.shape());
      CHECK(h.graph().getTileMapping(out) == h.graph().getTileMapping(A));
      h.read("out", out);
      h.run();
      CHECK_THAT(h.result("out"), test::CloseTo(hostBinary(a, b, c.host), 1e-6f));
    }
  }
}

TEST_CASE("in-place binary ops write into A", "[popops]") {
  for (const auto& c : binaryCases()) {
    DYNAMIC_SECTION(c.name) {
      test::Harness h(16);
      const auto a = test::randomValues(200, -4, 4, 3);
      const auto b = test::randomValues(200, 0.5f, 3, 4);
      const Tensor A = h.input("A", FLOAT, {200}, a);
      const Tensor B = h.input("B", FLOAT, {200}, b);
      c.inPlace(h.graph(), A, B, h.prog(), "op", {});
      h.read("A", A);
      h.run();
      CHECK_THAT(h.result("A"), test::CloseTo(hostBinary(a, b, c.host), 1e-6f));
    }
  }
}

TEST_CASE("binary ops broadcast B to A's shape as numpy does", "[popops]") {
  test::Harness h(16);
  const auto x = test::randomValues(32 * 10, -2, 2, 5);
  const auto bias = test::randomValues(10, -1, 1, 6);
  const auto column = test::randomValues(32, -1, 1, 7);
  const Tensor X = h.input("X", FLOAT, {32, 10}, x);
  const Tensor Bias = h.input("bias", FLOAT, {10}, bias);
  const Tensor Column = h.input("column", FLOAT, {32, 1}, column);
  const Tensor Scalar = h.input("scalar", FLOAT, {}, {2.5f});
  h.read("plusBias", popops::add(h.graph(), X, Bias, h.prog(), "plusBias"));
  h.read("timesColumn", popops::mul(h.graph(), X, Column, h.prog(), "timesColumn"));
  h.read("minusScalar", popops::sub(h.graph(), X, Scalar, h.prog(), "minusScalar"));
  const Tensor Y = h.input("Y", FLOAT, {32, 10}, x);
  popops::addInPlace(h.graph(), Y, Bias, h.prog(), "biasInPlace");
  h.read("Y", Y);
  h.run();
  const auto plus = [](float a, float b) { return a + b; };
  CHECK_THAT(h.result("plusBias"), test::CloseTo(hostBinary(x, bias, plus), 1e-6f));
  CHECK_THAT(h.result("Y"), test::CloseTo(hostBinary(x, bias, plus), 1e-6f));
  CHECK_THAT(h.result("timesColumn"),
             test::CloseTo(hostBinary(
                               x, column, [](float a, float b) { return a * b; }, 10),
                           1e-6f));
  CHECK_THAT(h.result("minusScalar"),
             test::CloseTo(hostBinary(x, {2.5f}, [](float a, float b) { return a - b; }), 1e-6f));
}

TEST_CASE("unary ops and their in-place forms match the host", "[popops]") {
  for (const auto& c : unaryCases()) {
    DYNAMIC_SECTION(c.name) {
      test::Harness h(16);
      const auto a = test::randomValues(300, c.positiveOnly ? 0.1f : -3.0f, 3.0f, 8);
      const Tensor A = h.input("A", FLOAT, {3, 100}, a);
      const Tensor B = h.input("B", FLOAT, {3, 100}, a);
      h.read("out", c.op(h.graph(), A, h.prog(), "op", {}));
      c.inPlace(h.graph(), B, h.prog(), "opInPlace", {});
      h.read("B", B);
      h.run();
      std::vector<float> expect(a.size());
      for (std::size_t i = 0; i < a.size(); ++i)
        expect[i] = c.host(a[i]);
      CHECK_THAT(h.result("out"), test::CloseTo(expect, 1e-5f, 1e-7f));
      CHECK_THAT(h.result("B"), test::CloseTo(expect, 1e-5f, 1e-7f));
    }
  }
}

TEST_CASE("element-wise ops on HALF round to half precision", "[popops]") {
  test::Harness h(8);
  const auto a = test::randomValues(64, -2, 2, 9), b = test::randomValues(64, -2, 2, 10);
  const Tensor A = h.input("A", HALF, {64}, a), B = h.input("B", HALF, {64}, b);
  const Tensor sum = popops::add(h.graph(), A, B, h.prog());
  const Tensor e = popops::exp(h.graph(), A, h.prog());
  CHECK(sum.elementType() == HALF);
  h.read("sum", sum);
  h.read("exp", e);
  h.run();
  std::vector<float> expectSum(64), expectExp(64);
  for (std::size_t i = 0; i < 64; ++i) {
    const float ha = half(a[i]), hb = half(b[i]);
    expectSum[i] = half(ha + hb);
    expectExp[i] = std::exp(ha);
  }
  CHECK_THAT(h.result("sum"), test::CloseTo(expectSum, 0.0f));
  CHECK_THAT(h.result("exp"), test::CloseTo(expectExp, 1e-3f)); // within half's rounding
}

TEST_CASE("integer element-wise ops are exact", "[popops]") {
  test::Harness h(8);
  std::vector<float> a, b;
  for (int i = -50; i < 50; ++i) {
    a.push_back(float(i * 37 % 101));
    b.push_back(float(i - 3));
  }
  const Tensor A = h.input("A", INT, {100}, a), B = h.input("B", INT, {100}, b);
  h.read("add", popops::add(h.graph(), A, B, h.prog()));
  h.read("sub", popops::sub(h.graph(), A, B, h.prog()));
  h.read("mul", popops::mul(h.graph(), A, B, h.prog()));
  h.read("max", popops::max(h.graph(), A, B, h.prog()));
  h.read("neg", popops::neg(h.graph(), A, h.prog()));
  h.read("abs", popops::abs(h.graph(), A, h.prog()));
  h.run();
  CHECK(h.result("add") == hostBinary(a, b, std::plus<float>()));
  CHECK(h.result("sub") == hostBinary(a, b, std::minus<float>()));
  CHECK(h.result("mul") == hostBinary(a, b, std::multiplies<float>()));
  CHECK(h.result("max") == hostBinary(a, b, [](float x, float y) { return std::max(x, y); }));
  std::vector<float> neg(a.size()), abs(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    neg[i] = -a[i];
    abs[i] = std::abs(a[i]);
  }
  CHECK(h.result("neg") == neg);
  CHECK(h.result("abs") == abs);
}

TEST_CASE("scaledAddTo and scaledSubtractFrom update A in place", "[popops]") {
  test::Harness h(16);
  const auto a = test::randomValues(12 * 20, -1, 1, 11), b = test::randomValues(12 * 20, -1, 1, 12);
  const Tensor A = h.input("A", FLOAT, {12, 20}, a), B = h.input("B", FLOAT, {12, 20}, b);
  const Tensor C = h.input("C", FLOAT, {12, 20}, a);
  popops::scaledAddTo(h.graph(), A, B, 0.25f, h.prog(), "sgd");
  popops::scaledSubtractFrom(h.graph(), C, B, 0.25f, h.prog(), "sgd");
  h.read("A", A);
  h.read("C", C);
  h.run();
  CHECK_THAT(
      h.result("A"),
      test::CloseTo(hostBinary(a, b, [](float x, float y) { return x + 0.25f * y; }), 1e-6f));
  CHECK_THAT(
      h.result("C"),
      test::CloseTo(hostBinary(a, b, [](float x, float y) { return x - 0.25f * y; }), 1e-6f));
}

TEST_CASE("element-wise work follows non-contiguous operands", "[popops]") {
  // A transposed view and a slice: pieces of the output still line up with their operands.
  test::Harness h(16);
  const auto a = test::randomValues(24 * 12, -1, 1, 13), b = test::randomValues(12 * 24, -1, 1, 14);
  const Tensor A = h.input("A", FLOAT, {24, 12}, a), B = h.input("B", FLOAT, {12, 24}, b);
  const Tensor sum = popops::add(h.graph(), A.transpose(), B, h.prog(), "transposed");
  popops::mulInPlace(h.graph(), A.slice(6, 12, 1), A.slice(0, 6, 1), h.prog(), "slices");
  h.read("sum", sum);
  h.read("A", A);
  h.run();
  std::vector<float> expectSum(12 * 24), expectA = a;
  for (std::size_t i = 0; i < 12; ++i)
    for (std::size_t j = 0; j < 24; ++j)
      expectSum[i * 24 + j] = a[j * 12 + i] + b[i * 24 + j];
  for (std::size_t r = 0; r < 24; ++r)
    for (std::size_t c = 6; c < 12; ++c)
      expectA[r * 12 + c] = a[r * 12 + c] * a[r * 12 + c - 6];
  CHECK_THAT(h.result("sum"), test::CloseTo(expectSum, 1e-6f));
  CHECK_THAT(h.result("A"), test::CloseTo(expectA, 1e-6f));
}

TEST_CASE("element-wise compute sets are named after the op under the debug name", "[popops]") {
  // A NaN written by a vertex stops the run naming its compute set (debug.floatPointOpException).
  test::Harness h(4);
  const Tensor A = h.input("A", FLOAT, {8}, std::vector<float>(8, -1.0f));
  popops::sqrtInPlace(h.graph(), A, h.prog(), {DebugContext("layer1"), "norm"});
  CHECK_THROWS_MATCHES(h.run({{"debug.floatPointOpException", "true"}}),
                       poplar::floating_point_exception,
                       test::What(Contains("compute set 'layer1/norm/SqrtInPlace'")));
}

TEST_CASE("element-wise argument errors name the op and the shapes", "[popops][errors]") {
  test::Harness h(4);
  const Tensor A = h.input("A", FLOAT, {3, 4}, std::vector<float>(12));
  const Tensor B = h.input("B", FLOAT, {4, 3}, std::vector<float>(12));
  const Tensor I = h.input("I", INT, {3, 4}, std::vector<float>(12));
  CHECK_THROWS_MATCHES(
      popops::add(h.graph(), A, B, h.prog()), poputil::poplibs_error,
      test::What(Contains("popops::add") && Contains("{4,3}") && Contains("{3,4}")));
  CHECK_THROWS_AS(popops::add(h.graph(), A, B, h.prog()), poplar::poplar_error);
  CHECK_THROWS_MATCHES(popops::mul(h.graph(), A, I, h.prog()), poputil::poplibs_error,
                       test::What(Contains("popops::mul") && Contains("int")));
  CHECK_THROWS_MATCHES(popops::exp(h.graph(), I, h.prog()), poputil::poplibs_error,
                       test::What(Contains("popops::exp") && Contains("int")));
  CHECK_THROWS_MATCHES(popops::addInPlace(h.graph(), A.slice(0, 1).broadcast(3, 0), A, h.prog()),
                       poputil::poplibs_error, test::What(Contains("aliased")));
  CHECK_THROWS_MATCHES(popops::add(h.graph(), A, A, h.prog(), {}, {{"nonsense", "1"}}),
                       poplar::invalid_option, test::What(Contains("nonsense")));
  CHECK_THROWS_MATCHES(popops::neg(h.graph(), Tensor(), h.prog()), poputil::poplibs_error,
                       test::What(Contains("invalid")));
}

TEST_CASE("ops need their library's codelets", "[popops][errors]") {
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  const Tensor A = graph.addVariable(FLOAT, {8}, "A");
  poputil::mapTensorLinearly(graph, A);
  Sequence prog;
  CHECK_THROWS_MATCHES(
      popops::add(graph, A, A, prog), poplar::unknown_vertex_type,
      test::What(Contains("popops::Add<float>") && Contains("addCodelets(\"popops\")")));
  popops::addCodelets(graph);
  CHECK_NOTHROW(popops::add(graph, A, A, prog));
}

TEST_CASE("ops on a virtual graph stay on its tiles", "[popops]") {
  test::Harness h(16);
  Graph upper = h.graph().createVirtualGraph(8, 16);
  const auto a = test::randomValues(40, -1, 1, 15);
  const Tensor A = upper.addVariable(FLOAT, {40}, "A");
  poputil::mapTensorLinearly(upper, A);
  h.write("A", A, a);
  const Tensor sum = popops::add(upper, A, A, h.prog(), "double");
  const auto tiles = h.graph().getTilesOf(sum);
  CHECK(tiles.front() >= 8);
  h.read("sum", sum);
  h.run();
  CHECK_THAT(h.result("sum"), test::CloseTo(hostBinary(a, a, std::plus<float>()), 0.0f));

  // A tensor held by the other half of the IPU cannot be worked on by this virtual graph.
  const Tensor lower = h.input("lower", FLOAT, {16}, std::vector<float>(16));
  CHECK_THROWS_MATCHES(
      popops::negInPlace(upper, lower, h.prog()), poplar::invalid_tile_mapping,
      test::What(Contains("popops::negInPlace") && Contains("outside this (virtual) graph")));
}
