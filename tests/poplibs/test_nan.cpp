// popops/NaN.hpp: hasNaN and hasNaNOrInf against the host's std::isnan / std::isinf, over
// tensors spread across tiles (the MultiVertex path) and scattered within a tile (the
// worker-vertex path), and PopLibs' estimates of their vertices.
#include "TestUtil.hpp"
#include "poplibs_support/NaNCycleEstimators.hpp"

#include <cmath>
#include <limits>
#include <popops/NaN.hpp>
#include <poputil/exceptions.hpp>
#include <type_traits>

using namespace poplar;
using Catch::Contains;

// PopLibs' signatures exactly (the debug context defaults to {}).
using CheckFn = Tensor (*)(Graph&, const Tensor&, program::Sequence&, const DebugContext&);
static_assert(std::is_same<decltype(&popops::hasNaN), CheckFn>::value, "hasNaN signature");
static_assert(std::is_same<decltype(&popops::hasNaNOrInf), CheckFn>::value,
              "hasNaNOrInf signature");

namespace {

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

bool hostHas(const std::vector<float>& v, bool orInf) {
  for (float x : v)
    if (std::isnan(x) || (orInf && std::isinf(x))) return true;
  return false;
}

} // namespace

TEST_CASE("hasNaN and hasNaNOrInf find a NaN or an infinity anywhere in the tensor",
          "[popops][nan]") {
  const Type type = GENERATE(FLOAT, HALF);
  INFO(type);
  // One poisoned element at a time, on different tiles and at a region's ends; and none.
  const std::size_t n = 3 * 37;
  struct Case {
    std::ptrdiff_t at;
    float value;
  };
  const Case cases[] = {{-1, 0}, {0, kNaN}, {n - 1, kNaN}, {55, -kInf}, {70, kInf}, {12, -kNaN}};
  for (const Case& c : cases) {
    INFO("poison at " << c.at << " value " << c.value);
    test::Harness h(4);
    auto values = test::randomValues(n, -100, 100, 5);
    if (c.at >= 0) values[std::size_t(c.at)] = c.value;
    const Tensor src = h.input("src", type, {3, 37}, values);
    const Tensor nan = popops::hasNaN(h.graph(), src, h.prog(), "nan");
    const Tensor nanOrInf = popops::hasNaNOrInf(h.graph(), src, h.prog(), "nanOrInf");
    CHECK(nan.elementType() == BOOL);
    CHECK(nan.rank() == 0);
    h.read("nan", nan);
    h.read("nanOrInf", nanOrInf);
    h.run();
    CHECK(h.result("nan") == std::vector<float>{hostHas(values, false) ? 1.0f : 0.0f});
    CHECK(h.result("nanOrInf") == std::vector<float>{hostHas(values, true) ? 1.0f : 0.0f});
  }
}

TEST_CASE("hasNaN scans tiles whose elements are scattered in memory", "[popops][nan]") {
  // A transposed view: on each tile the elements of the view are many one-element regions, so
  // the op uses the worker vertices over region lists rather than the MultiVertex.
  for (bool poison : {false, true}) {
    test::Harness h(2);
    std::vector<float> values = test::randomValues(8 * 9, -1, 1, 7);
    if (poison) values[5 * 9 + 2] = kNaN; // row 5, column 2 of the variable
    const Tensor m = h.input("m", FLOAT, {8, 9}, values);
    const Tensor r = popops::hasNaN(h.graph(), m.transpose(), h.prog());
    h.read("r", r);
    h.run();
    CHECK(h.result("r") == std::vector<float>{poison ? 1.0f : 0.0f});
  }
}

TEST_CASE("hasNaN of an empty tensor is false; bad arguments name themselves", "[popops][nan]") {
  test::Harness h(2);
  const Tensor empty = h.graph().addVariable(FLOAT, {0, 4}, "empty");
  const Tensor r = popops::hasNaN(h.graph(), empty, h.prog());
  h.read("r", r);
  h.run();
  CHECK(h.result("r") == std::vector<float>{0.0f});

  test::Harness g(2);
  const Tensor ints = g.input("ints", INT, {4}, {1, 2, 3, 4});
  CHECK_THROWS_MATCHES(popops::hasNaN(g.graph(), ints, g.prog()), poputil::poplibs_error,
                       test::What(Contains("popops::hasNaN") && Contains("src")));
  CHECK_THROWS_MATCHES(popops::hasNaNOrInf(g.graph(), Tensor(), g.prog()), poputil::poplibs_error,
                       test::What(Contains("popops::hasNaNOrInf") && Contains("src")));
  const Tensor unmapped = g.graph().addVariable(FLOAT, {4}, "unmapped");
  CHECK_THROWS_AS(popops::hasNaN(g.graph(), unmapped, g.prog()), poplar::poplar_error);
}

TEST_CASE("HasNaNOrInf estimates follow PopLibs' formulas", "[poplibs][cycles][nan]") {
  using namespace poplibs_support;
  const Target t = Target::createIPUTarget(1, "ipu2");
  // Loop: float 10 + (2, or 3 checking infinity too) per 4 + 2 for a pair + 1 for a single.
  CHECK(hasNaNLoopCycles(FLOAT, 0, true) == 10);
  CHECK(hasNaNLoopCycles(FLOAT, 10, true) == 10 + 3 * 2 + 2);
  CHECK(hasNaNLoopCycles(FLOAT, 7, false) == 10 + 2 + 2 + 1);
  // half NaN only: 12 + 3 per 4; half NaN or Inf: 12 + 2 per 8 + 2 per leftover 4, 2, 1.
  CHECK(hasNaNLoopCycles(HALF, 9, false) == 12 + 3 * 2 + 1);
  CHECK(hasNaNLoopCycles(HALF, 13, true) == 12 + 2 + 2 + 2);
  CHECK(hasNaNResultCycles(FLOAT, false) == 7);
  CHECK(hasNaNResultCycles(HALF, true) == 12);
  // 1D: ((2 + 1) grains x 2 floats + 1 = 7 elements) -> (15 + 15 + 7) x 6 + 24.
  CHECK(hasNaN1DCycles(t, FLOAT, 2, 1, 1, false) == (15 + 15 + 7) * 6 + 24);
  // half: 4 x 4 + 0 = 16 elements, both checks -> (15 + (12 + 4) + 12) x 6 + 24.
  CHECK(hasNaN1DCycles(t, HALF, 4, 0, 0, true) == (15 + 16 + 12) * 6 + 24);
  // 2D: 6 alone when empty, else (7 + loops + result) x 6.
  CHECK(hasNaN2DCycles(t, FLOAT, {}, false) == 6);
  CHECK(hasNaN2DCycles(t, FLOAT, {4, 1}, false) == (7 + (10 + 2) + (10 + 1) + 7) * 6);
}
