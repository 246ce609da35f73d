// popops' small headers: OperationDefUtil.hpp, ExprOpUtils.hpp, GatherStatistics.hpp.
#include "TestUtil.hpp"

#include <cmath>
#include <popops/ExprOpUtils.hpp>
#include <popops/GatherStatistics.hpp>
#include <popops/OperationDefUtil.hpp>
#include <sstream>

TEST_CASE("reduction operations print and name vertex templates as PopLibs", "[popops]") {
  CHECK(std::string(poputil::asString(popops::Operation::SQUARE_ADD)) == "Square Add");
  CHECK(std::string(poputil::asString(popops::Operation::LOGICAL_OR)) == "Logical Or");
  CHECK(poputil::templateVertex("popops::Reduce", popops::Operation::MAX, poplar::HALF) ==
        "popops::Reduce<popops::Operation::MAX,half>");
  CHECK_THROWS_AS(poputil::asString(static_cast<popops::Operation>(99)), poputil::poplibs_error);
}

TEST_CASE("expression operators print their names", "[popops]") {
  using namespace popops::expr::ostream_ext;
  std::ostringstream os;
  os << popops::expr::UnaryOpType::SQRT << ' ' << popops::expr::BinaryOpType::GREATER_THAN << ' '
     << popops::expr::TernaryOpType::CLAMP;
  CHECK(os.str() == "SQRT GREATER_THAN CLAMP");
}

namespace {
std::vector<float> hostHistogram(const std::vector<float>& x, const std::vector<float>& levels,
                                 bool absolute) {
  std::vector<float> bins(levels.size() + 1, 0.0f);
  for (float v : x) {
    if (absolute) v = std::fabs(v);
    std::size_t b = 0;
    while (b < levels.size() && v >= levels[b])
      ++b;
    bins[b] += 1;
  }
  return bins;
}
} // namespace

TEST_CASE("histogram counts elements between levels", "[popops]") {
  using namespace poplar;
  test::Harness h(8);
  const auto x = test::randomValues(300, -4, 4, 70);
  const std::vector<float> levels{-2, -0.5f, 0, 1, 3};
  const Tensor X = h.input("X", FLOAT, {20, 15}, x);
  const Tensor L = h.input("L", FLOAT, {5}, levels);
  const Tensor plain = popops::histogram(h.graph(), X, L, false, h.prog());
  const Tensor absolute = popops::histogram(h.graph(), X, L, true, h.prog(), "abs",
                                            {{"useFloatArithmeticWithUnsignedIntOutput", "true"}});
  const Tensor asFloat =
      popops::histogram(h.graph(), X, L, false, h.prog(), "f", {{"useFloatArithmetic", "true"}});
  CHECK(plain.elementType() == UNSIGNED_INT);
  CHECK(absolute.elementType() == UNSIGNED_INT);
  CHECK(asFloat.elementType() == FLOAT);
  CHECK(plain.numElements() == 6);
  // Accumulating into an output over two calls doubles the counts.
  Tensor acc = h.graph().addVariable(UNSIGNED_INT, {6}, "acc");
  h.graph().setTileMapping(acc, 1);
  popops::histogram(h.graph(), X, acc, false, L, false, h.prog());
  popops::histogram(h.graph(), X, acc, true, L, false, h.prog());
  h.read("plain", plain);
  h.read("absolute", absolute);
  h.read("asFloat", asFloat);
  h.read("acc", acc);
  h.run();
  const auto expect = hostHistogram(x, levels, false);
  CHECK(h.result("plain") == expect);
  CHECK(h.result("asFloat") == expect);
  CHECK(h.result("absolute") == hostHistogram(x, levels, true));
  std::vector<float> twice = expect;
  for (auto& v : twice)
    v *= 2;
  CHECK(h.result("acc") == twice);
}

TEST_CASE("histogram argument and option errors", "[popops][errors]") {
  using namespace poplar;
  test::Harness h(4);
  const Tensor X = h.input("X", FLOAT, {8}, std::vector<float>(8));
  const Tensor L = h.input("L", FLOAT, {3}, {0, 1, 2});
  const Tensor LH = h.input("LH", HALF, {3}, {0, 1, 2});
  CHECK_THROWS_AS(popops::histogram(h.graph(), X, L, false, h.prog(), {},
                                    {{"useFloatArithmetic", "true"},
                                     {"useFloatArithmeticWithUnsignedIntOutput", "true"}}),
                  poplar::invalid_option);
  CHECK_THROWS_AS(popops::histogram(h.graph(), X, L, false, h.prog(), {}, {{"colour", "red"}}),
                  poplar::invalid_option);
  CHECK_THROWS_MATCHES(popops::histogram(h.graph(), X, LH, false, h.prog()), poputil::poplibs_error,
                       test::What(Catch::Contains("input's type")));
  Tensor small = h.graph().addVariable(UNSIGNED_INT, {3}, "small");
  CHECK_THROWS_MATCHES(popops::histogram(h.graph(), X, small, false, L, false, h.prog()),
                       poputil::poplibs_error, test::What(Catch::Contains("one element more")));
}
