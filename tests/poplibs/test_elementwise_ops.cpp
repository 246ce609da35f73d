// The element-wise operations beyond the one-operation vertices: comparisons, logical and
// bitwise operators, select and clamp, the functions, plain numbers as operands, and the
// WithOutput forms, each against the host.
#include "TestUtil.hpp"

#include <cmath>
#include <functional>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using Catch::Contains;

namespace {
std::vector<float> hostMap(const std::vector<float>& a, const std::vector<float>& b,
                           const std::function<float(float, float)>& f) {
  std::vector<float> r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    r[i] = f(a[i], b[i]);
  return r;
}
std::vector<float> hostMap(const std::vector<float>& a, const std::function<float(float)>& f) {
  std::vector<float> r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    r[i] = f(a[i]);
  return r;
}
} // namespace

TEST_CASE("comparisons and logical operators give BOOL tensors", "[popops][elementwise]") {
  test::Harness h(4);
  std::vector<float> a{1, 2, 3, 4, 5, 6, 7, 8}, b{8, 2, 6, 4, 1, 6, 9, 0};
  const Tensor A = h.input("A", INT, {8}, a);
  const Tensor B = h.input("B", INT, {8}, b);
  auto& g = h.graph();
  auto& p = h.prog();
  const Tensor eq = popops::eq(g, A, B, p), neq = popops::neq(g, A, B, p);
  const Tensor lt = popops::lt(g, A, B, p), lteq = popops::lteq(g, A, B, p);
  const Tensor gt = popops::gt(g, A, B, p), gteq = popops::gteq(g, A, B, p);
  const Tensor both = popops::logicalAnd(g, lt, neq, p);
  const Tensor either = popops::logicalOr(g, eq, gt, p);
  const Tensor notLt = popops::logicalNot(g, lt, p);
  CHECK(eq.elementType() == BOOL);
  for (const auto& [name, t] : std::vector<std::pair<std::string, Tensor>>{{"eq", eq},
                                                                           {"neq", neq},
                                                                           {"lt", lt},
                                                                           {"lteq", lteq},
                                                                           {"gt", gt},
                                                                           {"gteq", gteq},
                                                                           {"both", both},
                                                                           {"either", either},
                                                                           {"notLt", notLt}})
    h.read(name, t);
  h.run();
  CHECK(h.result("eq") == hostMap(a, b, [](float x, float y) { return float(x == y); }));
  CHECK(h.result("neq") == hostMap(a, b, [](float x, float y) { return float(x != y); }));
  CHECK(h.result("lt") == hostMap(a, b, [](float x, float y) { return float(x < y); }));
  CHECK(h.result("lteq") == hostMap(a, b, [](float x, float y) { return float(x <= y); }));
  CHECK(h.result("gt") == hostMap(a, b, [](float x, float y) { return float(x > y); }));
  CHECK(h.result("gteq") == hostMap(a, b, [](float x, float y) { return float(x >= y); }));
  CHECK(h.result("both") == hostMap(a, b, [](float x, float y) { return float(x < y); }));
  CHECK(h.result("either") == hostMap(a, b, [](float x, float y) { return float(x >= y); }));
  CHECK(h.result("notLt") == hostMap(a, b, [](float x, float y) { return float(!(x < y)); }));
}

TEST_CASE("select, clamp, pow, rem and the bitwise operators match the host",
          "[popops][elementwise]") {
  test::Harness h(4);
  const auto a = test::randomValues(40, 0.5f, 3, 1), b = test::randomValues(40, -2, 2, 2);
  std::vector<float> c(40), ia(40), ib(40);
  for (std::size_t i = 0; i < 40; ++i) {
    c[i] = float(i % 3 == 0);
    ia[i] = float(int(i) * 37 % 101 - 50);
    ib[i] = float(int(i) % 5 + 1);
  }
  const Tensor A = h.input("A", FLOAT, {40}, a), B = h.input("B", FLOAT, {40}, b);
  const Tensor C = h.input("C", BOOL, {40}, c);
  const Tensor IA = h.input("IA", INT, {40}, ia), IB = h.input("IB", INT, {40}, ib);
  const Tensor Lo = h.input("Lo", FLOAT, {40}, std::vector<float>(40, -1));
  const Tensor Hi = h.input("Hi", FLOAT, {40}, std::vector<float>(40, 1));
  auto& g = h.graph();
  auto& p = h.prog();
  h.read("select", popops::select(g, A, B, C, p));
  h.read("clamp", popops::clamp(g, B, Lo, Hi, p));
  h.read("pow", popops::pow(g, A, B, p));
  h.read("rem", popops::rem(g, IA, IB, p));
  h.read("and", popops::bitwiseAnd(g, IA, IB, p));
  h.read("or", popops::bitwiseOr(g, IA, IB, p));
  h.read("xor", popops::bitwiseXor(g, IA, IB, p));
  h.read("shl", popops::shiftLeft(g, IA, IB, p));
  h.read("sra", popops::shiftRightSignExtend(g, IA, IB, p));
  h.read("atan2", popops::atan2(g, A, B, p));
  h.read("invStd", popops::varianceToInvStdDev(g, A, A.slice(0, 1).reshape({}), p));
  h.run();
  std::vector<float> expectSelect(40);
  for (std::size_t i = 0; i < 40; ++i)
    expectSelect[i] = c[i] != 0 ? a[i] : b[i];
  CHECK_THAT(h.result("select"), test::CloseTo(expectSelect, 0));
  CHECK_THAT(
      h.result("clamp"),
      test::CloseTo(hostMap(b, [](float x) { return std::max(-1.0f, std::min(x, 1.0f)); }), 0));
  CHECK_THAT(h.result("pow"),
             test::CloseTo(hostMap(a, b, [](float x, float y) { return std::pow(x, y); }), 1e-6f));
  CHECK(h.result("rem") ==
        hostMap(ia, ib, [](float x, float y) { return float(int(x) % int(y)); }));
  CHECK(h.result("and") ==
        hostMap(ia, ib, [](float x, float y) { return float(int(x) & int(y)); }));
  CHECK(h.result("or") == hostMap(ia, ib, [](float x, float y) { return float(int(x) | int(y)); }));
  CHECK(h.result("xor") ==
        hostMap(ia, ib, [](float x, float y) { return float(int(x) ^ int(y)); }));
  CHECK(h.result("shl") == hostMap(ia, ib, [](float x, float y) {
          return float(int(unsigned(int(x)) << unsigned(y)));
        }));
  CHECK(h.result("sra") ==
        hostMap(ia, ib, [](float x, float y) { return float(int(x) >> int(y)); }));
  CHECK_THAT(
      h.result("atan2"),
      test::CloseTo(hostMap(a, b, [](float x, float y) { return std::atan2(x, y); }), 1e-6f));
  CHECK_THAT(h.result("invStd"),
             test::CloseTo(hostMap(a, [&](float x) { return 1.0f / std::sqrt(x + a[0]); }), 1e-6f));
}

TEST_CASE("the functions match the host", "[popops][elementwise]") {
  test::Harness h(4);
  const auto a = test::randomValues(50, 0.1f, 0.9f, 3);
  const Tensor A = h.input("A", FLOAT, {50}, a);
  auto& g = h.graph();
  auto& p = h.prog();
  using F = std::function<float(float)>;
  const std::vector<std::tuple<const char*, Tensor, F>> cases{
      {"asin", popops::asin(g, A, p), [](float x) { return std::asin(x); }},
      {"cbrt", popops::cbrt(g, A, p), [](float x) { return std::cbrt(x); }},
      {"ceil", popops::ceil(g, popops::mul(g, A, 10.0f, p), p),
       [](float x) { return std::ceil(x * 10); }},
      {"floor", popops::floor(g, popops::mul(g, 10.0f, A, p), p),
       [](float x) { return std::floor(x * 10); }},
      {"round", popops::round(g, popops::mul(g, A, 10.0f, p), p),
       [](float x) { return std::round(x * 10); }},
      {"cos", popops::cos(g, A, p), [](float x) { return std::cos(x); }},
      {"sin", popops::sin(g, A, p), [](float x) { return std::sin(x); }},
      {"tan", popops::tan(g, A, p), [](float x) { return std::tan(x); }},
      {"erf", popops::erf(g, A, p), [](float x) { return std::erf(x); }},
      {"expm1", popops::expm1(g, A, p), [](float x) { return std::expm1(x); }},
      {"log1p", popops::log1p(g, A, p), [](float x) { return std::log1p(x); }},
      {"inv", popops::inv(g, A, p), [](float x) { return 1 / x; }},
      {"rsqrt", popops::rsqrt(g, A, p), [](float x) { return 1 / std::sqrt(x); }},
      {"signum", popops::signum(g, popops::sub(g, A, 0.5f, p), p),
       [](float x) { return float((x - 0.5f > 0) - (x - 0.5f < 0)); }},
  };
  for (const auto& c : cases)
    h.read(std::get<0>(c), std::get<1>(c));
  h.run();
  for (const auto& c : cases) {
    INFO(std::get<0>(c));
    CHECK_THAT(h.result(std::get<0>(c)), test::CloseTo(hostMap(a, std::get<2>(c)), 1e-5f));
  }
}

TEST_CASE("plain numbers work as either operand, in place and WithOutput",
          "[popops][elementwise]") {
  test::Harness h(4);
  const auto a = test::randomValues(32, -2, 2, 4);
  const Tensor A = h.input("A", FLOAT, {4, 8}, a);
  const Tensor M = h.input("M", FLOAT, {4, 8}, a);
  const Tensor I = h.input("I", INT, {32}, std::vector<float>(32, 9));
  const Tensor Out = h.input("Out", FLOAT, {4, 8}, std::vector<float>(32, 0));
  auto& g = h.graph();
  auto& p = h.prog();
  const Tensor oneMinus = popops::sub(g, 1.0f, A, p);
  const Tensor half = popops::mul(g, A, 0.5, p); // a double on a FLOAT tensor
  const Tensor iDiv = popops::div(g, I, 2, p);
  popops::mulInPlace(g, M, 0.5f, p);
  popops::addWithOutput(g, A, A, Out, p);
  popops::maxWithOutput(g, A, 0.0f, Out, p); // overwrites: relu
  h.read("oneMinus", oneMinus);
  h.read("half", half);
  h.read("iDiv", iDiv);
  h.read("M", M);
  h.read("Out", Out);
  h.run();
  CHECK_THAT(h.result("oneMinus"), test::CloseTo(hostMap(a, [](float x) { return 1 - x; }), 0));
  CHECK_THAT(h.result("half"), test::CloseTo(hostMap(a, [](float x) { return x * 0.5f; }), 0));
  CHECK_THAT(h.result("M"), test::CloseTo(hostMap(a, [](float x) { return x * 0.5f; }), 0));
  CHECK(h.result("iDiv") == std::vector<float>(32, 4));
  CHECK_THAT(h.result("Out"),
             test::CloseTo(hostMap(a, [](float x) { return std::max(x, 0.0f); }), 0));
}

TEST_CASE("element-wise argument errors name the operation and the operand",
          "[popops][elementwise][errors]") {
  test::Harness h(4);
  const Tensor F = h.input("F", FLOAT, {8}, std::vector<float>(8));
  const Tensor I = h.input("I", INT, {8}, std::vector<float>(8));
  auto& g = h.graph();
  auto& p = h.prog();
  CHECK_THROWS_MATCHES(popops::add(g, I, 1.5f, p), poputil::poplibs_error,
                       test::What(Contains("popops::add") && Contains("B") && Contains("int")));
  CHECK_THROWS_MATCHES(popops::mul(g, 2.0f, I, p), poputil::poplibs_error,
                       test::What(Contains("popops::mul") && Contains("A")));
  CHECK_THROWS_MATCHES(popops::bitwiseAnd(g, F, F, p), poputil::poplibs_error,
                       test::What(Contains("popops::bitwiseAnd") && Contains("float")));
  CHECK_THROWS_MATCHES(popops::select(g, F, F, F, p), poputil::poplibs_error,
                       test::What(Contains("popops::select") && Contains("condition")));
  CHECK_THROWS_MATCHES(popops::logicalNot(g, F, p), poputil::poplibs_error,
                       test::What(Contains("popops::logicalNot") && Contains("LOGICAL_NOT")));
  CHECK_THROWS_MATCHES(popops::ceilInPlace(g, I, p), poputil::poplibs_error,
                       test::What(Contains("popops::ceil") && Contains("int")));
  CHECK_THROWS_MATCHES(popops::eqWithOutput(g, F, F, F, p), poputil::poplibs_error,
                       test::What(Contains("popops::eqWithOutput") && Contains("out is float")));
  CHECK_THROWS_MATCHES(popops::sin(g, F, p, {}, {{"x", "1"}}), poplar::invalid_option,
                       test::What(Contains("popops::sin")));
}

TEST_CASE("named operations run under PopLibs' vertex names, expressions under popops::map::",
          "[popops][elementwise]") {
  // Without popops::addCodelets, adding a vertex fails naming its type.
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  const Tensor A = graph.addVariable(FLOAT, {64}, "A");
  poputil::mapTensorLinearly(graph, A);
  program::Sequence prog;
  CHECK_THROWS_MATCHES(
      popops::eq(graph, A, A, prog), poplar::unknown_vertex_type,
      test::What(Contains("popops::BinaryOp1D<popops::expr::BinaryOpType::EQUAL,float>")));
  CHECK_THROWS_MATCHES(
      popops::ceilInPlace(graph, A, prog), poplar::unknown_vertex_type,
      test::What(Contains("popops::UnaryOp1DInPlace<popops::expr::UnaryOpType::CEIL,float>")));
  CHECK_THROWS_MATCHES(
      popops::map(graph, popops::expr::_1 * 2.0f + 1.0f, {A}, prog), poplar::unknown_vertex_type,
      test::What(Contains("popops::map::ADD_MULTIPLY__1_float_Const_float_2_Const_float_1")));
}
