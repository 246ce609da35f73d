// The popops names added to complete PopLibs' headers: multiUpdateMul and its grouped form,
// planMultiple, createDynamicSliceOutput, nearbyint, isFiniteWithOutput, checkTypes,
// outputGeneratedCodelet, the expression macros and assignments, EncodingConstants,
// operator>> for Operation and ReduceParams::useScale; each against the host.
#include "TestUtil.hpp"
#include "poplibs_support/ElementWiseCycleEstimators.hpp"

#include <cmath>
#include <poplar/exceptions.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/EncodingConstants.hpp>
#include <popops/Reduce.hpp>
#include <poputil/exceptions.hpp>
#include <sstream>
#include <type_traits>

using namespace poplar;
using Catch::Contains;
namespace pe = popops::expr;

namespace popops_names_test {
// A user-defined expression class through PopLibs' macro, as public code may do.
namespace pe = popops::expr;
using pe::Expr;
using pe::UnaryOp;
using pe::UnaryOpType;
POPLIBS_DEFINE_EXPR_UNARY_OP(MyRelu, RELU)
} // namespace popops_names_test

TEST_CASE("multiUpdateMul multiplies the rows at the offsets", "[popops][dynamicslice]") {
  test::Harness h(4);
  const std::size_t entries = 5, width = 4;
  const auto plan = popops::embedding::plan(h.graph(), FLOAT, entries, width, {4},
                                            {{"operationForUpdate", "mul"}});
  const Tensor t =
      popops::createSliceableTensor(h.graph(), FLOAT, {entries, width}, {0}, {1}, plan, {}, "t");
  const auto tv = test::randomValues(entries * width, 0.5f, 2.0f, 1);
  h.write("t", t, tv);
  const std::vector<float> idxValues{1, 3, 1, 99}; // 1 twice: multiplied twice; 99 ignored
  const Tensor idx = h.input("idx", UNSIGNED_INT, {4, 1}, idxValues);
  const auto sv = test::randomValues(4 * width, -2.0f, 2.0f, 2);
  const Tensor s = h.input("s", FLOAT, {4, 1, width}, sv);
  popops::multiUpdateMul(h.graph(), t, s, idx, {0}, {1}, h.prog(), plan, {}, "mul");
  h.read("t", t);

  // Grouped: each group multiplies into its own table.
  const std::size_t G = 2;
  const auto gplan = popops::embedding::plan(h.graph(), HALF, G, entries, width, {2}, {});
  const Tensor gt = popops::createGroupedSliceableTensor(h.graph(), HALF, G, {entries, width}, {0},
                                                         {1}, gplan, {}, "gt");
  h.write("gt", gt, std::vector<float>(G * entries * width, 2.0f));
  const std::vector<float> gidx{0, 4, 2, 2};
  const Tensor gi = h.input("gi", UNSIGNED_INT, {G, 2, 1}, gidx);
  const Tensor gs = h.input("gs", HALF, {G, 2, 1, width}, std::vector<float>(G * 2 * width, 1.5f));
  popops::groupedMultiUpdateMul(h.graph(), gt, gs, gi, {0}, {1}, h.prog(), gplan, {}, "gmul");
  h.read("gt", gt);
  h.run();

  std::vector<float> want = tv;
  for (std::size_t i = 0; i < 4; ++i) {
    const std::size_t row = std::size_t(idxValues[i]);
    if (row >= entries) continue;
    for (std::size_t c = 0; c < width; ++c)
      want[row * width + c] *= sv[i * width + c];
  }
  CHECK_THAT(h.result("t"), test::CloseTo(want, 1e-6f));
  std::vector<float> gwant(G * entries * width, 2.0f);
  for (std::size_t g = 0; g < G; ++g)
    for (std::size_t i = 0; i < 2; ++i)
      for (std::size_t c = 0; c < width; ++c)
        gwant[(g * entries + std::size_t(gidx[g * 2 + i])) * width + c] *= 1.5f;
  CHECK(h.result("gt") == gwant);

  // Type mismatches are named errors, as for the other updates.
  const Tensor si = h.input("si", INT, {4, 1, width}, std::vector<float>(4 * width, 1));
  CHECK_THROWS_AS(popops::multiUpdateMul(h.graph(), t, si, idx, {0}, {1}, h.prog(), plan, {}),
                  poputil::poplibs_error);
}

TEST_CASE("planMultiple makes the plans plan() makes", "[popops][dynamicslice]") {
  test::Harness h(4);
  const popops::embedding::SlicePlanningParameters a(h.graph(), FLOAT, 10, 8, {3}, {});
  const popops::embedding::SlicePlanningParameters b(h.graph(), HALF, 2, 6, 4, {2, 5},
                                                     {{"usedForSlice", "false"}});
  CHECK(a.groupSize == 1);
  CHECK(b.groupSize == 2);
  CHECK(b.numLookups == std::vector<std::size_t>{2, 5});
  const auto plans = popops::embedding::planMultiple({a, b});
  REQUIRE(plans.size() == 2);
  CHECK(plans[0] == popops::embedding::plan(h.graph(), FLOAT, 10, 8, {3}, {}));
  CHECK(plans[1] ==
        popops::embedding::plan(h.graph(), HALF, 2, 6, 4, {2, 5}, {{"usedForSlice", "false"}}));
  CHECK(plans[0] != plans[1]);
  CHECK(popops::embedding::planMultiple({}).empty());
  // A bad entry fails as plan() would.
  const popops::embedding::SlicePlanningParameters bad(h.graph(), FLOAT, 0, 8, {3}, {});
  CHECK_THROWS_AS(popops::embedding::planMultiple({a, bad}), poputil::poplibs_error);
  const popops::embedding::SlicePlanningParameters badOption(h.graph(), FLOAT, 4, 8, {3},
                                                             {{"operationForUpdate", "pow"}});
  CHECK_THROWS_AS(popops::embedding::planMultiple({badOption}), poplar::invalid_option);
}

TEST_CASE("createDynamicSliceOutput is laid out as dynamicSlice's result",
          "[popops][dynamicslice]") {
  test::Harness h(4);
  const Tensor t = h.input("t", FLOAT, {6, 8}, test::randomValues(48, -1, 1, 3));
  const Tensor offset = h.input("offset", UNSIGNED_INT, {1}, {2});
  const Tensor out = popops::createDynamicSliceOutput(h.graph(), t, offset, {0}, {3}, "out");
  CHECK(out.shape() == std::vector<std::size_t>{3, 8});
  CHECK(h.graph().getTileMapping(out) == popops::getSliceMapping(h.graph(), t, {0}, {3}));
  popops::dynamicSliceWithOutput(h.graph(), out, t, offset, {0}, {3}, h.prog(), "slice");
  h.read("out", out);
  h.run();
  const auto tv = test::randomValues(48, -1, 1, 3);
  CHECK(h.result("out") == std::vector<float>(tv.begin() + 16, tv.begin() + 40));
  CHECK_THROWS_AS(popops::createDynamicSliceOutput(h.graph(), t, offset, {2}, {1}),
                  poputil::poplibs_error);
  CHECK_THROWS_AS(
      popops::createDynamicSliceOutput(h.graph(), t, offset, {0}, {3}, {}, {{"noSuchOption", "1"}}),
      poplar::invalid_option);
}

TEST_CASE("nearbyint rounds ties to even; RELU; isFiniteWithOutput", "[popops][elementwise]") {
  test::Harness h(4);
  const std::vector<float> v{0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 2.4f, -2.6f, 7.0f};
  const Tensor a = h.input("a", FLOAT, {8}, v);
  const Tensor b = h.input("b", HALF, {8}, v);
  const Tensor c = h.input("c", FLOAT, {8}, v);
  const Tensor r = popops::nearbyint(h.graph(), a, h.prog(), "nearbyint");
  popops::nearbyintInPlace(h.graph(), b, h.prog(), "nearbyintInPlace");
  const Tensor out = h.graph().clone(a, "out");
  popops::nearbyintWithOutput(h.graph(), a, out, h.prog(), "nearbyintWithOutput");
  const Tensor viaExpr = popops::map(h.graph(), pe::NearbyInt(pe::_1) * 2, {a}, h.prog());
  const Tensor relu = popops::map(h.graph(), pe::UnaryOpType::RELU, c, h.prog());
  const Tensor mine = popops::map(h.graph(), popops_names_test::MyRelu(pe::_1), {c}, h.prog());
  const std::vector<float> odd{1.0f, INFINITY, NAN, -2.0f};
  const Tensor d = h.input("d", FLOAT, {4}, odd);
  const Tensor fin = h.graph().addVariable(BOOL, {4}, "fin");
  h.graph().setTileMapping(fin, 0);
  popops::isFiniteWithOutput(h.graph(), d, fin, h.prog(), "isFinite");
  for (auto [name, t] : {std::pair<const char*, Tensor>{"r", r},
                         {"b", b},
                         {"out", out},
                         {"viaExpr", viaExpr},
                         {"relu", relu},
                         {"mine", mine},
                         {"fin", fin}})
    h.read(name, t);
  h.run();
  std::vector<float> want, twice, rl;
  for (float x : v) {
    want.push_back(std::nearbyint(x));
    twice.push_back(2 * std::nearbyint(x));
    rl.push_back(x > 0 ? x : 0.0f);
  }
  CHECK(want == std::vector<float>{0, 2, 2, -0.0f, -2, 2, -3, 7});
  CHECK(h.result("r") == want);
  CHECK(h.result("b") == want);
  CHECK(h.result("out") == want);
  CHECK(h.result("viaExpr") == twice);
  CHECK(h.result("relu") == rl);
  CHECK(h.result("mine") == rl);
  CHECK(h.result("fin") == std::vector<float>{1, 0, 0, 1});
  // Float and half only, as PopLibs' vertices; a mismatched output is named.
  const Tensor i = h.input("i", INT, {2}, {1, 2});
  CHECK_THROWS_AS(popops::nearbyint(h.graph(), i, h.prog()), poputil::poplibs_error);
  CHECK_THROWS_AS(popops::isFiniteWithOutput(h.graph(), d, a, h.prog()), poputil::poplibs_error);
}

TEST_CASE("NEARBY_INT and RELU cost PopLibs' table rows", "[popops][elementwise]") {
  const auto n = poplibs_support::unaryOpLoopInfo("NEARBY_INT", FLOAT, false);
  REQUIRE(n);
  CHECK(n->cyclesPerLoop == 2);
  CHECK(n->natural);
  const auto r = poplibs_support::unaryOpLoopInfo("RELU", HALF, false);
  REQUIRE(r);
  CHECK(r->cyclesPerLoop == 3);
  CHECK(!r->natural);
  CHECK(r->unroll == 4);
  CHECK(poplibs_support::unaryOpLoopInfo("RELU", HALF, true)->cyclesPerLoop == 2);
  CHECK(!poplibs_support::unaryOpLoopInfo("NEARBY_INT", INT, false));
}

TEST_CASE("checkTypes accepts a constant only with a tensor of its device type",
          "[popops][elementwise]") {
  CHECK_NOTHROW(popops::checkTypes(FLOAT, 1.0f));
  CHECK_NOTHROW(popops::checkTypes(HALF, 1.0f));
  CHECK_NOTHROW(popops::checkTypes(HALF, 1.0));
  CHECK_NOTHROW(popops::checkTypes(INT, 3));
  CHECK_NOTHROW(popops::checkTypes(UNSIGNED_INT, 3u));
  CHECK_THROWS_MATCHES(popops::checkTypes(INT, 1.0f), poputil::poplibs_error,
                       test::What(Contains("Type mismatch")));
  CHECK_THROWS_AS(popops::checkTypes(FLOAT, 3), poputil::poplibs_error);
  CHECK_THROWS_AS(popops::checkTypes(UNSIGNED_INT, 3), poputil::poplibs_error);
}

TEST_CASE("outputGeneratedCodelet writes the expression's vertex", "[popops][elementwise]") {
  test::Harness h(4);
  const Tensor a = h.graph().addVariable(FLOAT, {4}, "a");
  const Tensor b = h.graph().addVariable(FLOAT, {4}, "b");
  const Tensor s = h.graph().addVariable(FLOAT, {1}, "s");
  std::ostringstream os;
  popops::outputGeneratedCodelet(h.graph().getTarget(),
                                 pe::Select(pe::_1 + pe::_2, pe::NearbyInt(pe::_3), pe::_1 > 0.5f),
                                 {a, b, s}, {}, os);
  const std::string text = os.str();
  CHECK_THAT(text, Contains("class "));
  CHECK_THAT(text, Contains("poplar::Input<poplar::Vector<float>> in3;"));
  CHECK_THAT(text, Contains("poplar::Output<poplar::Vector<float>> out;"));
  CHECK_THAT(text, Contains("(in1[i] + in2[i])"));
  CHECK_THAT(text, Contains("std::nearbyint(in3[0])"));
  CHECK_THAT(text, Contains("(in1[i] > 0.5"));
  // What map() rejects is rejected: a placeholder past the tensors, a bad option.
  std::ostringstream none;
  CHECK_THROWS_AS(
      popops::outputGeneratedCodelet(h.graph().getTarget(), pe::_3 + pe::_1, {a, b}, {}, none),
      poputil::poplibs_error);
  CHECK_THROWS_AS(
      popops::outputGeneratedCodelet(h.graph().getTarget(), pe::_1, {a}, {{"bogus", "1"}}, none),
      poplar::invalid_option);
  CHECK(none.str().empty());
}

TEST_CASE("expression classes copy and assign as PopLibs' do", "[popops][expr]") {
  pe::PlaceHolder p = pe::_1;
  p = pe::_2;
  CHECK(p.getIndex() == 2);
  pe::ConstHalf k(1.5f);
  k = pe::ConstHalf(2.5f);
  CHECK(k.getType() == HALF);
  CHECK(k.getDataAsDouble() == 2.5);
  pe::Cast c(pe::_1, INT);
  const pe::Cast d(pe::_2, FLOAT);
  c == d; // PopLibs' name for Cast's copy assignment
  CHECK(c.getRHSType() == FLOAT);
  CHECK(c.getLHS().getAs<pe::PlaceHolder>()->getIndex() == 2);
  CHECK(poputil::toProfileValue(pe::UnaryOpType::NEARBY_INT) == ProfileValue("NEARBY_INT"));
  CHECK(poputil::toProfileValue(pe::BinaryOpType::ADD) == ProfileValue("ADD"));
  CHECK(poputil::toProfileValue(pe::TernaryOpType::CLAMP) == ProfileValue("CLAMP"));
}

TEST_CASE("EncodingConstants, Operation streaming and ReduceParams::useScale", "[popops]") {
  CHECK(EPS_LOG_N_FLOAT == 1.17549435e-38F);
  CHECK(EPS_LOG_N_HALF == 0.000000059605F);
  CHECK(MASKED_LABEL_CODE == 0xFFFFFFFFU);

  for (auto op : {popops::Operation::ADD, popops::Operation::LOGICAL_OR,
                  popops::Operation::SQUARE_ADD, popops::Operation::LOG_ADD}) {
    std::stringstream ss;
    ss << op;
    popops::Operation back = popops::Operation::MUL;
    ss >> back;
    CHECK(back == op);
  }
  std::istringstream bad("ADDITION");
  popops::Operation op;
  CHECK_THROWS_MATCHES(bad >> op, poputil::poplibs_error, test::What(Contains("ADDITION")));

  const popops::ReduceParams plain(popops::Operation::ADD, true);
  CHECK(!plain.useScale);
  CHECK(plain.update);
  static_assert(!std::is_constructible<popops::ReduceParams, popops::Operation, float>::value,
                "a float scale is PopLibs' deleted API");
  test::Harness h(4);
  const Tensor in = h.input("in", FLOAT, {3, 4}, test::randomValues(12, -1, 1, 4));
  const Tensor k = h.input("k", FLOAT, {}, {0.5f});
  const popops::ReduceParams scaled(popops::Operation::ADD, false, k);
  CHECK(scaled.useScale);
  const Tensor sum = popops::reduce(h.graph(), in, {1}, scaled, h.prog(), "scaled");
  // A set useScale is honoured: a scale that is not a tensor is an error, not "no scale".
  popops::ReduceParams broken(popops::Operation::ADD);
  broken.useScale = true;
  CHECK_THROWS_MATCHES(popops::reduce(h.graph(), in, {1}, broken, h.prog()), poputil::poplibs_error,
                       test::What(Contains("useScale")));
  // And an unset one means no scale, whatever the tensor field holds.
  popops::ReduceParams unscaled(popops::Operation::ADD);
  unscaled.scale = k;
  const Tensor plainSum = popops::reduce(h.graph(), in, {1}, unscaled, h.prog(), "unscaled");
  h.read("sum", sum);
  h.read("plainSum", plainSum);
  h.run();
  const auto v = test::randomValues(12, -1, 1, 4);
  std::vector<float> want, wantPlain;
  for (std::size_t r = 0; r < 3; ++r) {
    float s = 0;
    for (std::size_t c = 0; c < 4; ++c)
      s += v[r * 4 + c];
    want.push_back(0.5f * s);
    wantPlain.push_back(s);
  }
  CHECK_THAT(h.result("sum"), test::CloseTo(want, 1e-5f, 1e-6f));
  CHECK_THAT(h.result("plainSum"), test::CloseTo(wantPlain, 1e-5f, 1e-6f));
}
