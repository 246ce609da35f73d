// The last PopLibs signatures (issue 34): map, mapInPlace and mapWithOutput over several
// expressions; the dstType forms of varianceToInvStdDev / invStdDevToVariance; gather and
// scatter with option flags; poplar::TypeTraits and expr::Const::getTypeTraits. Each is called
// the way public code calls it, and the older call forms are checked to still resolve (and to
// the same overload as before).
#include "TestUtil.hpp"

#include <cmath>
#include <poplar/TypeTraits.hpp>
#include <poplar/exceptions.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Gather.hpp>
#include <popops/Scatter.hpp>
#include <poputil/exceptions.hpp>
#include <type_traits>

using namespace poplar;
using namespace popops::expr;
using Catch::Contains;

TEST_CASE("map over several expressions gives one tensor each", "[popops][map]") {
  test::Harness h(2);
  auto& g = h.graph();
  auto& p = h.prog();
  const Tensor a = h.input("a", FLOAT, {6}, {1, 2, 3, 4, 5, 6});
  const Tensor b = h.input("b", FLOAT, {6}, {6, 5, 4, 3, 2, 1});
  // As public code writes it: a braced list of expressions.
  const std::vector<Tensor> outs = popops::map(g, {_1 + _2, _1 * _2, Sqrt(_1)}, {a, b}, p, "many");
  REQUIRE(outs.size() == 3);
  // The single-expression form still returns one tensor.
  const Tensor one = popops::map(g, _1 - _2, {a, b}, p);
  static_assert(std::is_same<decltype(popops::map(g, _1 - _2, {a, b}, p)), Tensor>::value,
                "map of one expression returns one tensor");
  h.read("sum", outs[0]);
  h.read("prod", outs[1]);
  h.read("sqrt", outs[2]);
  h.read("diff", one);
  h.run();
  CHECK(h.result("sum") == std::vector<float>(6, 7));
  CHECK(h.result("prod") == std::vector<float>{6, 10, 12, 12, 10, 6});
  CHECK_THAT(h.result("sqrt"), test::CloseTo({1, std::sqrt(2.0f), std::sqrt(3.0f), 2,
                                              std::sqrt(5.0f), std::sqrt(6.0f)},
                                             1e-6f));
  CHECK(h.result("diff") == std::vector<float>{-5, -3, -1, 1, 3, 5});
}

TEST_CASE("mapInPlace over several expressions reads the inputs as they were", "[popops][map]") {
  test::Harness h(2);
  auto& g = h.graph();
  auto& p = h.prog();
  const Tensor a = h.input("a", FLOAT, {4}, {1, 2, 3, 4});
  const Tensor b = h.input("b", FLOAT, {4}, {10, 20, 30, 40});
  // a <- b, b <- a + b: the second expression sees a's old values.
  std::vector<Any> exprs = {_2, _1 + _2};
  popops::mapInPlace(g, exprs, {a, b}, p, "swapAdd");
  h.read("a", a);
  h.read("b", b);
  h.run();
  CHECK(h.result("a") == std::vector<float>{10, 20, 30, 40});
  CHECK(h.result("b") == std::vector<float>{11, 22, 33, 44});
  CHECK_THROWS_MATCHES(popops::mapInPlace(g, {_1, _1, _1}, {a, b}, p), poputil::poplibs_error,
                       test::What(Contains("3 expressions but only 2 tensors")));
}

TEST_CASE("mapWithOutput over several expressions writes each output", "[popops][map]") {
  test::Harness h(2);
  auto& g = h.graph();
  auto& p = h.prog();
  const Tensor a = h.input("a", INT, {3}, {1, -2, 3});
  const Tensor o1 = h.input("o1", INT, {3}, {0, 0, 0});
  const Tensor o2 = h.input("o2", BOOL, {3}, {0, 0, 0});
  popops::mapWithOutput(g, {Abs(_1), Gt(_1, Const(0))}, {a}, {o1, o2}, p);
  h.read("o1", o1);
  h.read("o2", o2);
  h.run();
  CHECK(h.result("o1") == std::vector<float>{1, 2, 3});
  CHECK(h.result("o2") == std::vector<float>{1, 0, 1});
  CHECK_THROWS_MATCHES(popops::mapWithOutput(g, {Abs(_1)}, {a}, {o1, o2}, p),
                       poputil::poplibs_error, test::What(Contains("1 expressions but 2 output")));
}

TEST_CASE("varianceToInvStdDev and invStdDevToVariance take a result type", "[popops]") {
  test::Harness h(2);
  auto& g = h.graph();
  auto& p = h.prog();
  const std::vector<float> var = {0.25f, 1.0f, 4.0f, 0.01f};
  const Tensor v = h.input("v", FLOAT, {4}, var);
  const Tensor eps = h.input("eps", FLOAT, {}, {0.0f});
  // The dstType forms, as PopLibs' norms call them: a float variance to a half inverse
  // standard deviation, and back to a float variance.
  const Tensor inv = popops::varianceToInvStdDev(g, v, eps, p, HALF, "toInvStdDev");
  CHECK(inv.elementType() == HALF);
  const Tensor back = popops::invStdDevToVariance(g, inv, 0.0f, p, FLOAT);
  CHECK(back.elementType() == FLOAT);
  // Overload resolution of the older forms: a tensor epsilon without dstType is the
  // expression form (the result keeps src's type), with a debug name too.
  const Tensor same = popops::varianceToInvStdDev(g, v, eps, p);
  CHECK(same.elementType() == FLOAT);
  CHECK(popops::varianceToInvStdDev(g, v, eps, p, "named").elementType() == FLOAT);
  // A float epsilon without dstType picks PopLibs' plain function, so the default dstType
  // (HALF); a double epsilon picks the scalar template and keeps src's type, as in PopLibs.
  CHECK(popops::varianceToInvStdDev(g, v, 0.0f, p).elementType() == HALF);
  CHECK(popops::varianceToInvStdDev(g, v, 0.0, p).elementType() == FLOAT);
  CHECK(popops::invStdDevToVariance(g, inv, 0.0f, p).elementType() == FLOAT);
  h.read("inv", inv);
  h.read("back", back);
  h.read("same", same);
  h.run();
  std::vector<float> expInv, expBack, expSame;
  for (float x : var) {
    expSame.push_back(1.0f / std::sqrt(x));
    expInv.push_back(float(half(1.0f / std::sqrt(x))));
    expBack.push_back(1.0f / (expInv.back() * expInv.back()));
  }
  CHECK_THAT(h.result("inv"), test::CloseTo(expInv, 1e-3f));
  CHECK_THAT(h.result("same"), test::CloseTo(expSame, 1e-6f));
  CHECK_THAT(h.result("back"), test::CloseTo(expBack, 2e-3f));
  CHECK_THROWS_MATCHES(popops::varianceToInvStdDev(g, v, eps, p, INT), poputil::poplibs_error,
                       test::What(Contains("dstType must be float or half")));
  CHECK_THROWS_MATCHES(popops::invStdDevToVariance(g, v, v, p, FLOAT), poputil::poplibs_error,
                       test::What(Contains("epsilon must have one element")));
}

TEST_CASE("gather and scatter take option flags", "[popops]") {
  test::Harness h(4);
  auto& g = h.graph();
  auto& p = h.prog();
  const Tensor in = popops::createGatherInput(g, FLOAT, {3, 2}, 0, {}, "in");
  h.write("in", in, {1, 2, 3, 4, 5, 6});
  const Tensor idx = h.input("idx", UNSIGNED_INT, {2}, {2, 0});
  const OptionFlags sliceOptions = {{"usedForSlice", "true"}, {"availableMemoryProportion", "0.4"}};
  const Tensor rows =
      popops::gather(g, in, idx, 0, p, popops::GatherParams(), "rows", sliceOptions);
  const Tensor picked = popops::gather(g, in, idx.reshape({2, 1}), 1, {1}, {1, 2}, {0}, {0}, p,
                                       "picked", sliceOptions);
  const Tensor target = h.input("target", FLOAT, {3, 2}, std::vector<float>(6, 0));
  const Tensor upd = h.input("upd", FLOAT, {2, 2}, {7, 8, 9, 10});
  popops::scatter(g, target, idx, upd, 1, {1}, {0}, {0}, p, "scatter",
                  {{"remapOutOfBoundIndices", "true"}});
  popops::UpdateComputationFunc add = [](Graph& graph, Tensor& a, Tensor& b,
                                         program::Sequence& prog) {
    return popops::add(graph, a, b, prog);
  };
  popops::scatter(g, target, idx, upd, 1, {1}, {0}, {0}, add, p, "scatterAdd",
                  {{"usedForUpdate", "true"}});
  h.read("rows", rows);
  h.read("picked", picked);
  h.read("target", target);
  h.run();
  CHECK(h.result("rows") == std::vector<float>{5, 6, 1, 2});
  CHECK(h.result("picked") == std::vector<float>{5, 6, 1, 2});
  CHECK(h.result("target") == std::vector<float>{18, 20, 0, 0, 14, 16});
  CHECK_THROWS_AS(popops::gather(g, in, idx, 0, p, {}, {}, {{"noSuchOption", "1"}}),
                  invalid_option);
  CHECK_THROWS_AS(
      popops::scatter(g, target, idx, upd, 1, {1}, {0}, {0}, p, {}, {{"noSuchOption", "1"}}),
      invalid_option);
}

TEST_CASE("expr::Const keeps the TypeTraits of its value", "[popops][expr]") {
  const TypeTraits f = TypeTraits::make<float>();
  CHECK(f.size == 4);
  CHECK(f.align == alignof(float));
  CHECK(f.isFloat);
  CHECK_FALSE(f.isIntegral);
  CHECK(f.isSigned);
  const TypeTraits u = TypeTraits::make<unsigned short>();
  CHECK(u.size == 2);
  CHECK(u.isIntegral);
  CHECK_FALSE(u.isSigned);
  static_assert(TypeTraits::isSimpleType<int>() && TypeTraits::isSimpleType<double>() &&
                    !TypeTraits::isSimpleType<std::string>(),
                "arithmetic types are simple");
  const Const c(2.5f);
  CHECK(c.getTypeTraits().size == sizeof(float));
  CHECK(c.getTypeTraits().isFloat);
  const Const i(std::int64_t(-3));
  CHECK(i.getTypeTraits().size == 8);
  CHECK(i.getTypeTraits().isIntegral);
  CHECK(i.getTypeTraits().isSigned);
  const Const copy = i;
  CHECK(copy.getTypeTraits().size == 8);
  CHECK(ConstHalf(1.0f).getTypeTraits().isFloat);
  // PopLibs' constructor from traits and bytes.
  const float value = 7.0f;
  const Const fromBytes(TypeTraits::make<float>(), FLOAT, reinterpret_cast<const char*>(&value));
  CHECK(fromBytes.getDataAsDouble() == 7.0);
  CHECK(fromBytes.getType() == FLOAT);
}
