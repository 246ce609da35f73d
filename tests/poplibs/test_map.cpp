// popops::map and the expression API: fused expressions against the same computation on the
// host, type inference, broadcasting, the in-place and WithOutput forms, and argument errors.
#include "TestUtil.hpp"

#include <cmath>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <poputil/exceptions.hpp>
#include <sstream>

using namespace poplar;
using Catch::Contains;
namespace pe = popops::expr;
using pe::operator"" _half;

TEST_CASE("map fuses a Select over comparisons and casts into one compute set", "[popops][map]") {
  test::Harness h(8);
  const std::size_t n = 300;
  const auto x = test::randomValues(n, -3, 3, 1);
  std::vector<float> k(n), y = test::randomValues(n, -1, 1, 2);
  for (std::size_t i = 0; i < n; ++i)
    k[i] = float(int(i % 7) - 3);
  const Tensor X = h.input("X", FLOAT, {10, 30}, x);
  const Tensor K = h.input("K", INT, {10, 30}, k);
  const Tensor Y = h.input("Y", FLOAT, {10, 30}, y);
  // where(x > k, x * 2 + y, float(k) - 0.5)
  const pe::Any e = pe::Select(pe::_1 * 2.0f + pe::_3, pe::Cast(pe::_2, FLOAT) - 0.5f,
                               pe::_1 > pe::Cast(pe::_2, FLOAT));
  const Tensor R = popops::map(h.graph(), e, {X, K, Y}, h.prog(), "fused");
  CHECK(R.elementType() == FLOAT);
  CHECK(R.shape() == X.shape());
  h.read("R", R);
  h.run();
  std::vector<float> expect(n);
  for (std::size_t i = 0; i < n; ++i)
    expect[i] = x[i] > k[i] ? x[i] * 2 + y[i] : k[i] - 0.5f;
  CHECK_THAT(h.result("R"), test::CloseTo(expect, 1e-6f));
}

TEST_CASE("map infers types as PopLibs does", "[popops][map]") {
  test::Harness h(4);
  const Tensor F = h.input("F", FLOAT, {8}, {1, -2, 3, -4, 5, -6, 7, 0});
  const Tensor I = h.input("I", INT, {8}, {1, 2, 3, 4, 5, 6, 7, 8});
  const Tensor U = h.input("U", UNSIGNED_INT, {8}, {1, 2, 3, 4, 5, 6, 7, 8});
  const Tensor Hf = h.input("H", HALF, {8}, {0.5f, 1, 1.5f, 2, 2.5f, 3, 3.5f, 4});
  // Comparisons give BOOL; logical operators combine them.
  const Tensor b = popops::map(h.graph(), pe::_1 > 0 && pe::_2 < 5, {F, I}, h.prog());
  CHECK(b.elementType() == BOOL);
  // Constants take the operand's type: 3 * _1 on INT, 7 % _1 on UNSIGNED_INT, 0.25 on HALF.
  const Tensor i3 = popops::map(h.graph(), 3 * pe::_1 - 1, {I}, h.prog());
  CHECK(i3.elementType() == INT);
  const Tensor urem = popops::map(h.graph(), pe::Rem(pe::Const(7u), pe::_1), {U}, h.prog());
  CHECK(urem.elementType() == UNSIGNED_INT);
  const Tensor hq = popops::map(h.graph(), pe::_1 * 0.25f, {Hf}, h.prog());
  CHECK(hq.elementType() == HALF);
  const Tensor cast = popops::map(h.graph(), pe::Cast(pe::_1, INT), {F}, h.prog());
  CHECK(cast.elementType() == INT);
  const Tensor sel =
      popops::map(h.graph(), pe::Select(pe::_1, pe::_2, pe::_3), {I, I, b}, h.prog());
  CHECK(sel.elementType() == INT);
  h.read("b", b);
  h.read("i3", i3);
  h.read("urem", urem);
  h.read("hq", hq);
  h.read("cast", cast);
  h.run();
  CHECK(h.result("b") == std::vector<float>{1, 0, 1, 0, 0, 0, 0, 0});
  CHECK(h.result("i3") == std::vector<float>{2, 5, 8, 11, 14, 17, 20, 23});
  CHECK(h.result("urem") == std::vector<float>{0, 1, 1, 3, 2, 1, 0, 7});
  CHECK(h.result("hq") ==
        std::vector<float>{0.125f, 0.25f, 0.375f, 0.5f, 0.625f, 0.75f, 0.875f, 1});
  CHECK(h.result("cast") == std::vector<float>{1, -2, 3, -4, 5, -6, 7, 0});
}

TEST_CASE("map broadcasts operands numpy-style and reads scalars for every element",
          "[popops][map]") {
  test::Harness h(8);
  const auto a = test::randomValues(4 * 6, -2, 2, 3);
  const std::vector<float> row{1, 2, 3, 4, 5, 6}, col{10, 20, 30, 40};
  const Tensor A = h.input("A", FLOAT, {4, 6}, a);
  const Tensor Row = h.input("Row", FLOAT, {6}, row);
  const Tensor Col = h.input("Col", FLOAT, {4, 1}, col);
  const Tensor S = h.input("S", FLOAT, {}, {0.5f});
  const Tensor R =
      popops::map(h.graph(), pe::_1 * pe::_4 + pe::_2 - pe::_3, {A, Row, Col, S}, h.prog());
  CHECK(R.shape() == std::vector<std::size_t>{4, 6});
  // Only broadcast operands: the result shape is their broadcast, mapped linearly.
  const Tensor outer = popops::map(h.graph(), pe::_1 * pe::_2, {Row, Col}, h.prog());
  CHECK(outer.shape() == std::vector<std::size_t>{4, 6});
  h.read("R", R);
  h.read("outer", outer);
  h.run();
  std::vector<float> expect(24), expectOuter(24);
  for (std::size_t r = 0; r < 4; ++r)
    for (std::size_t c = 0; c < 6; ++c) {
      expect[r * 6 + c] = a[r * 6 + c] * 0.5f + row[c] - col[r];
      expectOuter[r * 6 + c] = row[c] * col[r];
    }
  CHECK_THAT(h.result("R"), test::CloseTo(expect, 1e-6f));
  CHECK_THAT(h.result("outer"), test::CloseTo(expectOuter, 1e-6f));
}

TEST_CASE("mapInPlace and mapWithOutput write where they are told", "[popops][map]") {
  test::Harness h(4);
  const auto a = test::randomValues(64, -2, 2, 4);
  const auto b = test::randomValues(64, -2, 2, 5);
  const Tensor A = h.input("A", FLOAT, {64}, a);
  const Tensor B = h.input("B", FLOAT, {64}, b);
  const Tensor Out = h.input("Out", BOOL, {64}, std::vector<float>(64, 0));
  popops::mapWithOutput(h.graph(), pe::_1 >= pe::_2, {A, B}, Out, h.prog());
  popops::mapInPlace(h.graph(), pe::Clamp(pe::_1 * pe::_2, pe::Const(-1.0f), pe::Const(1.0f)),
                     {A, B}, h.prog());
  popops::mapInPlace(h.graph(), pe::UnaryOpType::NEGATE, B, h.prog());
  h.read("A", A);
  h.read("B", B);
  h.read("Out", Out);
  h.run();
  std::vector<float> ea(64), eb(64), eo(64);
  for (std::size_t i = 0; i < 64; ++i) {
    eo[i] = a[i] >= b[i] ? 1 : 0;
    ea[i] = std::max(-1.0f, std::min(a[i] * b[i], 1.0f));
    eb[i] = -b[i];
  }
  CHECK(h.result("Out") == eo);
  CHECK_THAT(h.result("A"), test::CloseTo(ea, 1e-6f));
  CHECK_THAT(h.result("B"), test::CloseTo(eb, 0));
}

TEST_CASE("map reports bad expressions and operands naming them", "[popops][map][errors]") {
  test::Harness h(4);
  const Tensor F = h.input("F", FLOAT, {3, 4}, std::vector<float>(12));
  const Tensor I = h.input("I", INT, {3, 4}, std::vector<float>(12));
  const Tensor G = h.input("G", FLOAT, {4, 3}, std::vector<float>(12));
  auto& g = h.graph();
  auto& p = h.prog();
  CHECK_THROWS_MATCHES(popops::map(g, pe::_1 + pe::_2, {F, I}, p), poputil::poplibs_error,
                       test::What(Contains("popops::map") && Contains("ADD") && Contains("float") &&
                                  Contains("int")));
  CHECK_THROWS_MATCHES(popops::map(g, pe::_3 + pe::_1, {F, F}, p), poputil::poplibs_error,
                       test::What(Contains("_3") && Contains("2 tensor")));
  CHECK_THROWS_MATCHES(popops::map(g, pe::_1 + pe::_2, {F, G}, p), poputil::poplibs_error,
                       test::What(Contains("tensor 2") && Contains("{4,3}")));
  CHECK_THROWS_MATCHES(popops::map(g, pe::Select(pe::_1, pe::_1, pe::_1), {F}, p),
                       poputil::poplibs_error, test::What(Contains("condition of SELECT")));
  CHECK_THROWS_MATCHES(popops::map(g, pe::Exp(pe::_1), {I}, p), poputil::poplibs_error,
                       test::What(Contains("EXPONENT") && Contains("int")));
  CHECK_THROWS_MATCHES(popops::map(g, pe::_1 & pe::_1, {F}, p), poputil::poplibs_error,
                       test::What(Contains("BITWISE_AND")));
  CHECK_THROWS_MATCHES(popops::mapInPlace(g, pe::_1 > pe::_2, {F, F}, p), poputil::poplibs_error,
                       test::What(Contains("mapInPlace") && Contains("bool")));
  CHECK_THROWS_MATCHES(popops::mapWithOutput(g, pe::_1 * 2.0f, {F}, G, p), poputil::poplibs_error,
                       test::What(Contains("out has shape {4,3}")));
  CHECK_THROWS_MATCHES(popops::map(g, pe::_1, {}, p), poputil::poplibs_error,
                       test::What(Contains("ts is empty")));
  CHECK_THROWS_MATCHES(popops::map(g, pe::_1, {Tensor()}, p), poputil::poplibs_error,
                       test::What(Contains("tensor 1") && Contains("invalid")));
  CHECK_THROWS_MATCHES(popops::map(g, pe::_1, {F}, p, {}, {{"bogus", "1"}}), poplar::invalid_option,
                       test::What(Contains("bogus")));
  CHECK_NOTHROW(popops::map(g, pe::_1, {F}, p, {}, {{"enableGenerateCodelet", "true"}}));
}

TEST_CASE("expressions compare, print and name themselves", "[popops][map]") {
  const pe::Any e = pe::Select(pe::_1 + 1, pe::Neg(pe::_2), pe::_3 < pe::_2);
  CHECK(pe::deepEquals(e, pe::Select(pe::_1 + 1, -pe::_2, pe::_3 < pe::_2)));
  CHECK_FALSE(pe::deepEquals(e, pe::Select(pe::_1 + 2, -pe::_2, pe::_3 < pe::_2)));
  CHECK_FALSE(pe::Const(1.0f).deepEquals(pe::ConstHalf(1.0f)));
  std::ostringstream os;
  os << static_cast<const pe::Expr&>(e);
  CHECK(os.str() == "SELECT(ADD(_1, 1), NEGATE(_2), LESS_THAN(_3, _2))");
  CHECK(pe::Const(2.5).getType() == FLOAT);
  CHECK(pe::Const(7u).getType() == UNSIGNED_INT);
  CHECK(pe::Const(-3).getDataAsDouble() == -3.0);
  CHECK((1.5_half).getType() == HALF);
  const pe::Expr* ex = &static_cast<const pe::Expr&>(e);
  REQUIRE(ex->isA<pe::TernaryOp>());
  CHECK(ex->getAs<pe::TernaryOp>()->getOpType() == pe::TernaryOpType::SELECT);
  CHECK(ex->getAs<pe::BinaryOp>() == nullptr);
}

TEST_CASE("map's compute set is named after the debug context and the op", "[popops][map]") {
  // A NaN written by a vertex stops the run naming its compute set (debug.floatPointOpException).
  test::Harness h(4);
  const Tensor A = h.input("A", FLOAT, {8}, std::vector<float>(8, -1.0f));
  popops::mapInPlace(h.graph(), pe::Sqrt(pe::_1) + 1.0f, {A}, h.prog(),
                     {DebugContext("layer"), "norm"});
  CHECK_THROWS_MATCHES(h.run({{"debug.floatPointOpException", "true"}}),
                       poplar::floating_point_exception,
                       test::What(Contains("compute set 'layer/norm/MapInPlace'")));
}
