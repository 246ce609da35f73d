// popops/UpdateScalarInRows.hpp against the same update on the host, with rows split between
// tiles and vertices, masked and out-of-range indices, and PopLibs' vertex estimate.
#include "TestUtil.hpp"
#include "poplibs_support/UpdateScalarCycleEstimators.hpp"

#include <cmath>
#include <popops/EncodingConstants.hpp>
#include <popops/UpdateScalarInRows.hpp>
#include <poputil/exceptions.hpp>
#include <type_traits>

using namespace poplar;
using Catch::Contains;

// PopLibs' signature exactly (the debug context defaults to {}).
static_assert(std::is_same<decltype(&popops::updateScalarInRows),
                           void (*)(Graph&, const Tensor&, const Tensor&, program::Sequence&,
                                    const DebugContext&)>::value,
              "updateScalarInRows signature");

TEST_CASE("updateScalarInRows decrements one element per row in place", "[popops][update]") {
  const Type type = GENERATE(FLOAT, HALF);
  INFO(type);
  // 6 rows of 7 on 4 tiles: linear mapping puts row boundaries inside tiles, so rows are split
  // between tiles and between the vertices of a tile.
  const std::size_t rows = 6, cols = 7;
  test::Harness h(4);
  const auto pv = test::randomValues(rows * cols, -4, 4, 11);
  const std::vector<float> iv = {6, 0, 3, 9 /* out of range */, 2, 0 /* masked below */};
  const Tensor params = h.input("params", type, {rows, cols}, pv);
  const Tensor idx = h.input("idx", UNSIGNED_INT, {rows}, iv);
  // MASKED_LABEL_CODE does not survive a float, so copy it in from a constant.
  const Tensor masked = h.graph().addConstant(UNSIGNED_INT, {1}, unsigned(MASKED_LABEL_CODE));
  h.graph().setTileMapping(masked, 0);
  h.prog().add(program::Copy(masked, idx.slice(5, 6)));
  popops::updateScalarInRows(h.graph(), params, idx, h.prog(), "update");
  h.read("params", params);
  h.run();

  std::vector<float> expected(pv);
  if (type == HALF)
    for (float& x : expected)
      x = float(half(x));
  for (std::size_t r = 0; r < rows; ++r) {
    if (r == 5) continue; // masked
    const auto i = std::size_t(iv[r]);
    if (i >= cols)
      for (std::size_t c = 0; c < cols; ++c)
        expected[r * cols + c] = std::nanf("");
    else
      expected[r * cols + i] -= 1.0f;
  }
  CHECK_THAT(h.result("params"), test::CloseTo(expected, type == HALF ? 2e-3f : 1e-6f));
}

TEST_CASE("updateScalarInRows updates a strided view in place", "[popops][update]") {
  // Every other column of a [3, 8] variable: the view's rows are not contiguous in memory.
  test::Harness h(2);
  const auto pv = test::randomValues(3 * 8, 0, 1, 3);
  const Tensor m = h.input("m", FLOAT, {3, 8}, pv);
  const Tensor idx = h.input("idx", UNSIGNED_INT, {3}, {1, 3, 0});
  popops::updateScalarInRows(h.graph(), m.subSample(2, 1), idx, h.prog());
  h.read("m", m);
  h.run();
  std::vector<float> expected(pv);
  expected[0 * 8 + 2] -= 1.0f;
  expected[1 * 8 + 6] -= 1.0f;
  expected[2 * 8 + 0] -= 1.0f;
  CHECK_THAT(h.result("m"), test::CloseTo(expected, 1e-6f));
}

TEST_CASE("updateScalarInRows rejects bad arguments by name", "[popops][update]") {
  test::Harness h(2);
  const Tensor params = h.input("params", FLOAT, {3, 4}, std::vector<float>(12, 0));
  const Tensor idx = h.input("idx", UNSIGNED_INT, {3}, {0, 1, 2});
  const Tensor intParams = h.input("ip", INT, {3, 4}, std::vector<float>(12, 0));
  const Tensor floatIdx = h.input("fi", FLOAT, {3}, {0, 1, 2});
  auto& g = h.graph();
  auto& p = h.prog();
  CHECK_THROWS_MATCHES(popops::updateScalarInRows(g, intParams, idx, p), poputil::poplibs_error,
                       test::What(Contains("params has element type")));
  CHECK_THROWS_MATCHES(popops::updateScalarInRows(g, params, floatIdx, p), poputil::poplibs_error,
                       test::What(Contains("indices has element type")));
  CHECK_THROWS_MATCHES(popops::updateScalarInRows(g, params.flatten(), idx, p),
                       poputil::poplibs_error, test::What(Contains("params has shape")));
  CHECK_THROWS_MATCHES(popops::updateScalarInRows(g, params, idx.slice(0, 2), p),
                       poputil::poplibs_error, test::What(Contains("indices has shape")));
  CHECK_THROWS_MATCHES(popops::updateScalarInRows(g, Tensor(), idx, p), poputil::poplibs_error,
                       test::What(Contains("params")));
}

TEST_CASE("UpdateIntervalDEC estimate follows PopLibs' formula", "[poplibs][cycles][update]") {
  // 5 + 1 + 1 entry and exit, 20 of state, 8 per row (12 for half).
  CHECK(poplibs_support::updateIntervalDecCycles(3, false) == 27 + 24);
  CHECK(poplibs_support::updateIntervalDecCycles(5, true) == 27 + 60);
}
