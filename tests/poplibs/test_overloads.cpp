// The PopLibs overloads beyond the tutorials' forms: scaled add with tensor scales and two
// scales, cast into a compute set, reduceMany and the compute-set reductions, allTrue, and
// poplin::PlanningCache.
#include "TestUtil.hpp"

#include <poplin/MatMul.hpp>
#include <popops/AllTrue.hpp>
#include <popops/Cast.hpp>
#include <popops/Reduce.hpp>
#include <popops/ScaledAdd.hpp>
#include <poputil/exceptions.hpp>
#include <type_traits>

using namespace poplar;
using Catch::Contains;

TEST_CASE("scaledAddTo and scaledSubtractFrom take tensor scales and two scales",
          "[popops][scaledadd]") {
  test::Harness h(4);
  const auto a = test::randomValues(48, -2, 2, 1), b = test::randomValues(48, -2, 2, 2);
  auto& g = h.graph();
  auto& p = h.prog();
  const Tensor A1 = h.input("A1", FLOAT, {6, 8}, a), A2 = h.input("A2", FLOAT, {6, 8}, a);
  const Tensor A3 = h.input("A3", FLOAT, {6, 8}, a), A4 = h.input("A4", FLOAT, {6, 8}, a);
  const Tensor A5 = h.input("A5", FLOAT, {6, 8}, a), A6 = h.input("A6", HALF, {6, 8}, a);
  const Tensor B = h.input("B", FLOAT, {6, 8}, b);
  const Tensor S = h.input("S", FLOAT, {}, {0.25f});
  const Tensor T = h.input("T", FLOAT, {1}, {3.0f});
  popops::scaledAddTo(g, A1, B, S, p, "withTensorScale");
  popops::scaledSubtractFrom(g, A2, B, T, p);
  popops::scaledAddTo(g, A3, S, B, T, p);        // 0.25 A + 3 B
  popops::scaledAddTo(g, A4, 0.5f, B, -1.0f, p); // 0.5 A - B
  popops::scaledAddTo(g, A5, S, B, T, p, popops::ScaledAddSpecialisation::X_MINUS_AX_PLUS_BY);
  popops::scaledAddTo(g, A6, B, 2.0f, p); // B converted to half first
  for (const char* n : {"A1", "A2", "A3", "A4", "A5", "A6"})
    h.read(n, n[1] == '1'   ? A1
              : n[1] == '2' ? A2
              : n[1] == '3' ? A3
              : n[1] == '4' ? A4
              : n[1] == '5' ? A5
                            : A6);
  h.run();
  std::vector<float> e1(48), e2(48), e3(48), e4(48), e5(48), e6(48);
  for (std::size_t i = 0; i < 48; ++i) {
    e1[i] = a[i] + 0.25f * b[i];
    e2[i] = a[i] - 3.0f * b[i];
    e3[i] = 0.25f * a[i] + 3.0f * b[i];
    e4[i] = 0.5f * a[i] - b[i];
    e5[i] = a[i] - 0.25f * a[i] + 3.0f * b[i];
    e6[i] = float(half(a[i])) + 2.0f * float(half(b[i]));
  }
  CHECK_THAT(h.result("A1"), test::CloseTo(e1, 1e-6f));
  CHECK_THAT(h.result("A2"), test::CloseTo(e2, 1e-6f));
  CHECK_THAT(h.result("A3"), test::CloseTo(e3, 1e-6f));
  CHECK_THAT(h.result("A4"), test::CloseTo(e4, 1e-6f));
  CHECK_THAT(h.result("A5"), test::CloseTo(e5, 1e-6f, 1e-6f));
  CHECK_THAT(h.result("A6"), test::CloseTo(e6, 2e-3f, 2e-3f));
}

TEST_CASE("scaled add argument errors name the argument", "[popops][scaledadd][errors]") {
  test::Harness h(4);
  const Tensor A = h.input("A", FLOAT, {4, 4}, std::vector<float>(16));
  const Tensor B = h.input("B", FLOAT, {4, 5}, std::vector<float>(20));
  const Tensor S = h.input("S", FLOAT, {2}, {1, 2});
  CHECK_THROWS_MATCHES(popops::scaledAddTo(h.graph(), A, B, 1.0f, h.prog()), poputil::poplibs_error,
                       test::What(Contains("popops::scaledAddTo") && Contains("B of shape {4,5}")));
  CHECK_THROWS_MATCHES(popops::scaledAddTo(h.graph(), A, A, S, h.prog()), poputil::poplibs_error,
                       test::What(Contains("scaleB must have one element")));
  CHECK_THROWS_MATCHES(popops::scaledSubtractFrom(h.graph(), A, S.slice(0, 1), A, S, h.prog()),
                       poputil::poplibs_error, test::What(Contains("scaleB")));
  CHECK_THROWS_MATCHES(popops::scaledAddTo(h.graph(), A, A, 1.0f, h.prog(), {}, {{"nope", "1"}}),
                       poplar::invalid_option, test::What(Contains("nope")));
  CHECK_NOTHROW(
      popops::scaledAddTo(h.graph(), A, A, 1.0f, h.prog(), {}, {{"optimizeForSpeed", "true"}}));
}

TEST_CASE("cast adds to a compute set, castWithOutput and checkAccuracyWhenCast",
          "[popops][cast]") {
  test::Harness h(4);
  const std::vector<float> v{1.5f, -2.25f, 3.75f, 100000.0f};
  const Tensor X = h.input("X", FLOAT, {4}, v);
  const Tensor Out = h.input("Out", INT, {4}, std::vector<float>(4, 0));
  const Tensor Small = h.input("Small", FLOAT, {}, {0.1f});
  const Tensor Large = h.input("Large", FLOAT, {}, {1e6f});
  auto& g = h.graph();
  const ComputeSet cs = g.addComputeSet("casts");
  const Tensor asHalf = popops::cast(g, X, HALF, cs, "toHalf");
  h.prog().add(program::Execute(cs));
  popops::castWithOutput(g, X, Out, h.prog());
  const Tensor ok = popops::checkAccuracyWhenCast(g, Small, HALF, 1e-3, h.prog());
  const Tensor bad = popops::checkAccuracyWhenCast(g, Large, HALF, 1e-3, h.prog());
  h.read("half", asHalf);
  h.read("Out", Out);
  h.read("ok", ok);
  h.read("bad", bad);
  h.run();
  CHECK(h.result("half") == std::vector<float>{1.5f, -2.25f, 3.75f, float(half(100000.0f))});
  CHECK(h.result("Out") == std::vector<float>{1, -2, 3, 100000});
  CHECK(h.result("ok") == std::vector<float>{1});
  CHECK(h.result("bad") == std::vector<float>{0});
  CHECK_THROWS_MATCHES(popops::cast(g, X, X, cs), poputil::poplibs_error,
                       test::What(Contains("both float")));
}

TEST_CASE("reduceMany runs several reductions in two compute sets", "[popops][reduce]") {
  test::Harness h(8);
  const auto a = test::randomValues(6 * 10, -1, 1, 3);
  const Tensor A = h.input("A", FLOAT, {6, 10}, a);
  std::vector<Tensor> outs;
  popops::reduceMany(h.graph(),
                     {popops::SingleReduceOp(A, {0}, popops::Operation::ADD, "cols"),
                      popops::SingleReduceOp(A, {1}, popops::Operation::MAX, HALF, "rows")},
                     outs, h.prog(), "many");
  REQUIRE(outs.size() == 2);
  CHECK(outs[1].elementType() == HALF);
  std::vector<ComputeSet> css;
  const Tensor total = popops::reduce(h.graph(), A, {0, 1}, popops::Operation::ADD, css);
  CHECK(css.size() == 2);
  for (const auto& cs : css)
    h.prog().add(program::Execute(cs));
  h.read("cols", outs[0]);
  h.read("rows", outs[1]);
  h.read("total", total);
  h.run();
  std::vector<float> cols(10, 0), rows(6, -1e9f);
  float sum = 0;
  for (std::size_t r = 0; r < 6; ++r)
    for (std::size_t c = 0; c < 10; ++c) {
      cols[c] += a[r * 10 + c];
      rows[r] = std::max(rows[r], a[r * 10 + c]);
      sum += a[r * 10 + c];
    }
  for (auto& x : rows)
    x = float(half(x));
  CHECK_THAT(h.result("cols"), test::CloseTo(cols, 1e-5f, 1e-6f));
  CHECK_THAT(h.result("rows"), test::CloseTo(rows, 0));
  CHECK_THAT(h.result("total"), test::CloseTo({sum}, 1e-5f, 1e-5f));
  std::vector<Tensor> wrong(1);
  CHECK_THROWS_MATCHES(popops::reduceMany(h.graph(),
                                          {popops::SingleReduceOp(A, {0}, popops::Operation::ADD),
                                           popops::SingleReduceOp(A, {1}, popops::Operation::ADD)},
                                          wrong, h.prog()),
                       poputil::poplibs_error, test::What(Contains("outputs has 1")));
}

TEST_CASE("allTrue is the AND of every element", "[popops]") {
  test::Harness h(4);
  const Tensor Yes = h.input("Yes", BOOL, {3, 5}, std::vector<float>(15, 1));
  std::vector<float> some(15, 1);
  some[11] = 0;
  const Tensor No = h.input("No", BOOL, {3, 5}, some);
  h.read("yes", popops::allTrue(h.graph(), Yes, h.prog()));
  h.read("no", popops::allTrue(h.graph(), No, h.prog(), "check"));
  h.run();
  CHECK(h.result("yes") == std::vector<float>{1});
  CHECK(h.result("no") == std::vector<float>{0});
  const Tensor F = h.graph().addVariable(FLOAT, {2}, "F");
  CHECK_THROWS_MATCHES(popops::allTrue(h.graph(), F, h.prog()), poputil::poplibs_error,
                       test::What(Contains("bool")));
}

TEST_CASE("poplin::PlanningCache is the SDK 3 name of the matmul planning cache", "[poplin]") {
  STATIC_REQUIRE(std::is_base_of<poplin::PlanningCache, poplin::matmul::PlanningCache>::value);
  test::Harness h(4);
  poplin::PlanningCache cache;
  poplin::matmul::PlanningCache oldCache;
  CHECK(&oldCache.getImpl() == static_cast<poplin::PlanningCache*>(&oldCache));
  const Tensor A = h.input("A", FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6});
  const Tensor B = h.input("B", FLOAT, {3, 1}, {1, 1, 1});
  h.read("C", poplin::matMul(h.graph(), A, B, h.prog(), "mm", {}, &cache));
  h.read("D", poplin::matMul(h.graph(), A, B, h.prog(), "mm", {}, &oldCache));
  h.run();
  CHECK(h.result("C") == std::vector<float>{6, 15});
  CHECK(h.result("D") == std::vector<float>{6, 15});
}

TEST_CASE("cast converts to and from bool", "[popops][cast]") {
  test::Harness h(4);
  const Tensor X = h.input("X", FLOAT, {6}, {0, 1.5f, -2, 0, 0.25f, -0.0f});
  const Tensor asBool = popops::cast(h.graph(), X, BOOL, h.prog());
  const Tensor back = popops::cast(h.graph(), asBool, INT, h.prog());
  h.read("b", asBool);
  h.read("i", back);
  h.run();
  CHECK(h.result("b") == std::vector<float>{0, 1, 1, 0, 1, 0});
  CHECK(h.result("i") == std::vector<float>{0, 1, 1, 0, 1, 0});
  const ComputeSet cs = h.graph().addComputeSet("cs");
  CHECK_THROWS_MATCHES(popops::cast(h.graph(), X, BOOL, cs), poputil::poplibs_error,
                       test::What(Contains("bool")));
}

TEST_CASE("LOGICAL_AND and LOGICAL_OR reduce bool tensors", "[popops][reduce]") {
  test::Harness h(4);
  const Tensor B = h.input("B", BOOL, {3, 4}, {1, 1, 1, 1, 1, 0, 1, 1, 0, 0, 0, 0});
  const Tensor anyOut = h.input("anyOut", BOOL, {3}, {0, 0, 0});
  const Tensor all = popops::reduce(h.graph(), B, {1}, popops::Operation::LOGICAL_AND, h.prog());
  popops::reduceWithOutput(h.graph(), B, anyOut, {1}, popops::Operation::LOGICAL_OR, h.prog());
  CHECK(all.elementType() == BOOL);
  h.read("all", all);
  h.read("any", anyOut);
  h.run();
  CHECK(h.result("all") == std::vector<float>{1, 0, 0});
  CHECK(h.result("any") == std::vector<float>{1, 1, 0});
  const Tensor F = h.graph().addVariable(FLOAT, {4}, "F");
  CHECK_THROWS_MATCHES(popops::reduce(h.graph(), F, {0}, popops::Operation::LOGICAL_OR, h.prog()),
                       poputil::poplibs_error, test::What(Contains("bool")));
  CHECK_THROWS_MATCHES(popops::reduce(h.graph(), F, {0}, popops::Operation::LOG_ADD, h.prog()),
                       poputil::poplibs_error, test::What(Contains("LOG_ADD")));
}
