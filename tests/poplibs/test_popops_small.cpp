// popops' small headers: OperationDefUtil.hpp, ExprOpUtils.hpp, GatherStatistics.hpp,
// SequenceSlice.hpp.
#include "TestUtil.hpp"

#include <cmath>
#include <popops/ExprOpUtils.hpp>
#include <popops/GatherStatistics.hpp>
#include <popops/OperationDefUtil.hpp>
#include <popops/SequenceSlice.hpp>
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

TEST_CASE("sequenceSlice copies runs of rows at run-time offsets", "[popops]") {
  using namespace poplar;
  const bool zeroUnused = GENERATE(false, true);
  test::Harness h(8);
  std::vector<float> in(6 * 3), out(5 * 3, 7.0f);
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = float(i);
  const Tensor tIn = h.input("in", FLOAT, {6, 3}, in);
  const Tensor tOut = h.input("out", FLOAT, {5, 1, 3}, out);
  // Rows 4..5 of tIn to rows 0..1 of tOut, row 1 to row 3; the third run is after a 0.
  const Tensor n = h.input("n", UNSIGNED_INT, {4}, {2, 1, 0, 1});
  const Tensor from = h.input("from", UNSIGNED_INT, {4}, {4, 1, 0, 0});
  const Tensor to = h.input("to", UNSIGNED_INT, {4}, {0, 3, 0, 4});
  popops::sequenceSlice(h.graph(), tIn, tOut, n, from, to, zeroUnused, h.prog());
  h.read("out", tOut);
  h.run();
  const float u = zeroUnused ? 0.0f : 7.0f;
  CHECK(h.result("out") == std::vector<float>{12, 13, 14, 15, 16, 17, u, u, u, 3, 4, 5, u, u, u});
}

TEST_CASE("sequenceSlice errors", "[popops][errors]") {
  using namespace poplar;
  test::Harness h(4);
  const Tensor a = h.input("a", FLOAT, {4, 2}, std::vector<float>(8));
  const Tensor b = h.input("b", FLOAT, {4, 3}, std::vector<float>(12));
  const Tensor n = h.input("n", UNSIGNED_INT, {1}, {3});
  const Tensor off = h.input("off", UNSIGNED_INT, {1}, {2});
  const Tensor i = h.input("i", INT, {1}, {0});
  CHECK_THROWS_MATCHES(popops::sequenceSlice(h.graph(), a, b, n, off, off, false, h.prog()),
                       poputil::poplibs_error, test::What(Catch::Contains("same number")));
  CHECK_THROWS_MATCHES(popops::sequenceSlice(h.graph(), a, a, n, i, off, false, h.prog()),
                       poputil::poplibs_error, test::What(Catch::Contains("unsigned int")));
  // Rows 2..4 of a 4-row tensor: the run leaves it, and the program stops.
  Tensor c = h.graph().clone(a, "c");
  popops::sequenceSlice(h.graph(), a, c, n, off, off, false, h.prog());
  CHECK_THROWS_AS(h.run(), poplar::application_runtime_error);
}
