// The compute-set forms of popops::fill and popops::zero: regions of one tile, a whole tensor
// on one tile, and a per-tile mapping, all in the caller's compute set.
#include "TestUtil.hpp"

#include <popops/Fill.hpp>
#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using Catch::Contains;

TEST_CASE("fill and zero add their vertices to the caller's compute set", "[popops][fill]") {
  test::Harness h(4);
  std::vector<float> ones(24, 1.0f);
  const Tensor a = h.input("a", FLOAT, {24}, ones);
  const Tensor b = h.input("b", INT, {2, 3}, std::vector<float>(6, 1.0f));
  const Tensor c = h.input("c", HALF, {8}, std::vector<float>(8, 1.0f));
  const ComputeSet cs = h.graph().addComputeSet("fills");
  // a: elements [2, 5) and [10, 12) set to 7 by tile 0's vertices; [20, 24) zeroed on tile 3.
  popops::fill(h.graph(), a, {Interval(2, 5), Interval(10, 12)}, 0, cs, 7.0f);
  popops::zero(h.graph(), a, {Interval(20, 24)}, 3, cs);
  // b: every element filled with -3 by tile 1.
  popops::fill(h.graph(), b, 1, cs, -3);
  // c: zeroed where its mapping says each element lives.
  popops::zero(h.graph(), c, h.graph().getTileMapping(c), cs);
  h.prog().add(program::Execute(cs));
  h.read("a", a);
  h.read("b", b);
  h.read("c", c);
  h.run();
  std::vector<float> expectA = ones;
  for (int i : {2, 3, 4, 10, 11})
    expectA[i] = 7.0f;
  for (int i : {20, 21, 22, 23})
    expectA[i] = 0.0f;
  CHECK(h.result("a") == expectA);
  CHECK(h.result("b") == std::vector<float>(6, -3.0f));
  CHECK(h.result("c") == std::vector<float>(8, 0.0f));

  CHECK_THROWS_MATCHES(popops::zero(h.graph(), a, 9, cs), poputil::poplibs_error,
                       test::What(Contains("tile 9")));
  CHECK_THROWS_MATCHES(popops::fill(h.graph(), a, {Interval(20, 30)}, 0, cs, 1.0f),
                       poputil::poplibs_error, test::What(Contains("outside the tensor")));
}
