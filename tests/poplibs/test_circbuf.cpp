// popops::CircBuf: entries added and read back by position, wrapping, inside a device loop.
#include "TestUtil.hpp"

#include <popops/CircBuf.hpp>
#include <popops/ElementWise.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using namespace poplar::program;

TEST_CASE("CircBuf keeps the last entries added, newest first, and wraps", "[popops][circbuf]") {
  test::Harness h(4);
  popops::CircBuf buf(h.graph(), FLOAT, 3, {2, 2}, "history");
  CHECK(buf.size() == 3);
  const Tensor A = h.input("A", FLOAT, {2, 2}, {1, 2, 3, 4});
  const Tensor B = h.input("B", FLOAT, {4}, {5, 6, 7, 8}); // any shape with as many elements
  const Tensor C = h.input("C", FLOAT, {2, 2}, {9, 10, 11, 12});
  const Tensor D = h.input("D", FLOAT, {2, 2}, {13, 14, 15, 16});
  buf.add(A, h.prog());
  buf.add(B, h.prog());
  h.read("newest", buf.prev(0, h.prog()));
  h.read("before", buf.prev(1, h.prog()));
  h.read("unwritten", buf.prev(2, h.prog()));
  buf.add(C, h.prog());
  buf.add(D, h.prog()); // replaces A, the oldest
  h.read("wrapped0", buf.prev(0, h.prog()));
  h.read("wrapped2", buf.prev(2, h.prog()));
  h.read("index", buf.getIndex());
  // The buffer lives on tiles: every element of it is mapped.
  std::size_t mapped = 0;
  for (const auto& tile : buf.getTileMapping())
    for (const auto& interval : tile)
      mapped += interval.size();
  CHECK(mapped == 3 * 4);
  h.run();
  CHECK(h.result("newest") == std::vector<float>{5, 6, 7, 8});
  CHECK(h.result("before") == std::vector<float>{1, 2, 3, 4});
  CHECK(h.result("unwritten") == std::vector<float>{0, 0, 0, 0});
  CHECK(h.result("wrapped0") == std::vector<float>{13, 14, 15, 16});
  CHECK(h.result("wrapped2") == std::vector<float>{5, 6, 7, 8});
  CHECK(h.result("index") == std::vector<float>{1}); // four additions to three entries
}

TEST_CASE("CircBuf in a device loop: the index lives on the device", "[popops][circbuf]") {
  test::Harness h(2);
  popops::CircBuf buf(h.graph(), INT, 4, {1});
  const Tensor counter = h.input("counter", INT, {1}, {0});
  Sequence body;
  popops::mapInPlace(h.graph(), popops::expr::_1 + popops::expr::Const(1), {counter}, body);
  buf.add(counter, body);
  h.prog().add(Repeat(6, body));
  h.read("last", buf.prev(0, h.prog()));
  h.read("third", buf.prev(3, h.prog()));
  h.run();
  CHECK(h.result("last") == std::vector<float>{6});
  CHECK(h.result("third") == std::vector<float>{3});
}

TEST_CASE("CircBuf refuses what it cannot hold", "[popops][circbuf][errors]") {
  test::Harness h(2);
  CHECK_THROWS_AS(popops::CircBuf(h.graph(), FLOAT, 0, {2}), poputil::poplibs_error);
  CHECK_THROWS_AS(popops::CircBuf(h.graph(), FLOAT, 2, {0}), poputil::poplibs_error);
  popops::CircBuf buf(h.graph(), FLOAT, 2, {3});
  CHECK_THROWS_AS(buf.prev(2, h.prog()), poputil::poplibs_error);
  const Tensor wrongSize = h.input("w", FLOAT, {4}, {0, 0, 0, 0});
  CHECK_THROWS_AS(buf.add(wrongSize, h.prog()), poputil::poplibs_error);
  const Tensor wrongType = h.input("i", INT, {3}, {0, 0, 0});
  CHECK_THROWS_AS(buf.add(wrongType, h.prog()), poputil::poplibs_error);
}
