// Tensor views: each view must select exactly the right variable elements, without copying.
#include "TestUtil.hpp"

#include <catch2/catch.hpp>
#include <numeric>
#include <poplar/exceptions.hpp>

using namespace poplar;
using test::elementIndices;

namespace {
struct Fixture {
  Device device = test::smallDevice();
  Graph graph{device.getTarget()};
  /// A 2x3x4 variable whose element i holds the value i (by index).
  Tensor t = graph.addVariable(FLOAT, {2, 3, 4}, "t");
};
std::vector<std::size_t> iota(std::size_t n, std::size_t from = 0) {
  std::vector<std::size_t> v(n);
  std::iota(v.begin(), v.end(), from);
  return v;
}
} // namespace

TEST_CASE_METHOD(Fixture, "a new variable is one contiguous region", "[tensor]") {
  CHECK(t.shape() == std::vector<std::size_t>{2, 3, 4});
  CHECK(t.rank() == 3);
  CHECK(t.numElements() == 24);
  CHECK(t.elementType() == FLOAT);
  CHECK(t.isContiguous());
  CHECK_FALSE(t.containsAliases());
  CHECK(elementIndices(t) == iota(24));
  CHECK(t.shapeToString() == "{2,3,4}");
}

TEST_CASE_METHOD(Fixture, "slice, index and operator[] select the right elements", "[tensor]") {
  CHECK(elementIndices(t[1]) == iota(12, 12));
  CHECK(t[1].shape() == std::vector<std::size_t>{3, 4});
  CHECK(elementIndices(t.slice(1, 3, 1)) ==
        std::vector<std::size_t>{4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19, 20, 21, 22, 23});
  CHECK(elementIndices(t.slice(2, 3, 2)) == std::vector<std::size_t>{2, 6, 10, 14, 18, 22});
  CHECK(elementIndices(t.slice({1, 1, 1}, {2, 3, 3})) == std::vector<std::size_t>{17, 18, 21, 22});
  CHECK(elementIndices(t.index({1, 2})) == std::vector<std::size_t>{20, 21, 22, 23});
  CHECK(elementIndices(t[0][1][2]) == std::vector<std::size_t>{6});
  CHECK(t[0][1][2].rank() == 0);
  // Poplar's slices: one tensor per interval, concatenated by the caller (public code writes
  // `concat(t.slices(intervals))`).
  const std::vector<Tensor> parts = t.slices({{0, 1}, {2, 3}}, 1);
  REQUIRE(parts.size() == 2);
  CHECK(parts[0].shape() == std::vector<std::size_t>{2, 1, 4});
  CHECK(elementIndices(concat(parts, 1)) ==
        std::vector<std::size_t>{0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 20, 21, 22, 23});
  // Each inner list is one tensor; an empty list an empty slice.
  const std::vector<std::vector<Interval>> groups = {{{0, 1}, {2, 3}}, {{1, 2}}, {}};
  const auto grouped = t.slices(groups, 1);
  REQUIRE(grouped.size() == 3);
  CHECK(grouped[0].shape() == std::vector<std::size_t>{2, 2, 4});
  CHECK(elementIndices(grouped[1]) == std::vector<std::size_t>{4, 5, 6, 7, 16, 17, 18, 19});
  CHECK(grouped[2].numElements() == 0);
  // Indices drop the dimension, as PopLibs' multiUpdateAdd relies on.
  const std::vector<unsigned> rows = {2, 0};
  const auto picked = t.slices(rows, 2);
  REQUIRE(picked.size() == 2);
  CHECK(picked[0].shape() == std::vector<std::size_t>{2, 3});
  CHECK(elementIndices(picked[0]) == std::vector<std::size_t>{2, 6, 10, 14, 18, 22});
  CHECK_THROWS_AS(t.slices(rows, 3), poplar::index_error);
}

TEST_CASE_METHOD(Fixture, "reshape and flatten keep element order", "[tensor]") {
  CHECK(elementIndices(t.reshape({4, 6})) == iota(24));
  CHECK(t.reshape({4, 6}).shape() == std::vector<std::size_t>{4, 6});
  CHECK(t.flatten().shape() == std::vector<std::size_t>{24});
  CHECK(t.flatten(1, 3).shape() == std::vector<std::size_t>{2, 12});
  CHECK(t.flatten(0, 2).shape() == std::vector<std::size_t>{6, 4});
}

TEST_CASE_METHOD(Fixture, "dimShuffle, transpose and dimRoll permute elements", "[tensor]") {
  const auto m = t.reshape({6, 4});
  const auto tr = m.transpose();
  CHECK(tr.shape() == std::vector<std::size_t>{4, 6});
  CHECK(elementIndices(tr[1]) == std::vector<std::size_t>{1, 5, 9, 13, 17, 21});
  CHECK_FALSE(tr.isContiguous());
  CHECK(elementIndices(tr.transpose()) == iota(24));

  const auto s = t.dimShuffle({2, 0, 1}); // [4,2,3]
  CHECK(s.shape() == std::vector<std::size_t>{4, 2, 3});
  // s[k][i][j] == t[i][j][k]
  CHECK(elementIndices(s[3][1]) == std::vector<std::size_t>{15, 19, 23});
  CHECK(elementIndices(t.dimRoll(2, 0)) == elementIndices(s));
  CHECK(t.dimShuffle({0, 1, 2}).elementsAreEqual(t));
}

TEST_CASE_METHOD(Fixture, "broadcast, expand and squeeze", "[tensor]") {
  const auto row = t[0][0]; // 4 elements: 0..3
  const auto b = row.expand({0}).broadcast(3, 0);
  CHECK(b.shape() == std::vector<std::size_t>{3, 4});
  CHECK(elementIndices(b) == std::vector<std::size_t>{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3});
  CHECK(b.containsAliases());
  CHECK(row.broadcast(2, 0).shape() == std::vector<std::size_t>{8});
  CHECK(row.expand({0, 1}).shape() ==
        std::vector<std::size_t>{1, 4, 1}); // positions in this tensor
  CHECK(row.expand({0, 0}).shape() == std::vector<std::size_t>{1, 1, 4});
  CHECK(row.expand({1}).shape() == std::vector<std::size_t>{4, 1});
  CHECK(row.expand({0}).squeeze({0}).shape() == std::vector<std::size_t>{4});
}

TEST_CASE_METHOD(Fixture, "concat, append, reverse and subSample", "[tensor]") {
  const auto a = t[0], b = t[1];
  CHECK(elementIndices(concat(a, b, 0)) == iota(24));
  const auto c1 = concat({a, b}, 1);
  CHECK(c1.shape() == std::vector<std::size_t>{3, 8});
  CHECK(elementIndices(c1[0]) == std::vector<std::size_t>{0, 1, 2, 3, 12, 13, 14, 15});
  CHECK(append(a, b[0], 0).shape() == std::vector<std::size_t>{4, 4});
  CHECK(elementIndices(t[0][0].reverse(0)) == std::vector<std::size_t>{3, 2, 1, 0});
  CHECK(elementIndices(t.flatten().subSample(5, 0)) == std::vector<std::size_t>{0, 5, 10, 15, 20});
  CHECK(t.reinterpret(INT).elementType() == INT);
}

TEST_CASE_METHOD(Fixture, "contiguous regions and intersections", "[tensor]") {
  const auto tr = t.reshape({6, 4}).transpose();
  CHECK(tr.getContiguousRegions().size() == 24);
  CHECK(t.slice(0, 2, 2).getContiguousRegions() ==
        std::vector<Interval>{{0, 2}, {2, 4}, {4, 6}, {6, 8}, {8, 10}, {10, 12}});
  CHECK(t[0].intersectsWith(t.slice(1, 2, 2)));
  CHECK_FALSE(t[0].intersectsWith(t[1]));
  const auto other = graph.addVariable(FLOAT, {3}, "other");
  CHECK_FALSE(other.intersectsWith(t));
  const auto mixed = concat(t.flatten().slice(0, 3), other);
  CHECK(mixed.getVarRegions().size() == 2);
  CHECK(mixed.intersectsWith(other));
}

TEST_CASE_METHOD(Fixture, "invalid views throw index_error naming the shape", "[tensor][errors]") {
  CHECK_THROWS_MATCHES(t.slice(2, 5, 1), index_error, test::What(Catch::Contains("{2,3,4}")));
  CHECK_THROWS_AS(t.slice(0, 1, 3), index_error);
  CHECK_THROWS_AS(t[2], index_error);
  CHECK_THROWS_MATCHES(t.reshape({5, 5}), index_error, test::What(Catch::Contains("24 elements")));
  CHECK_THROWS_AS(t.dimShuffle({0, 0, 1}), index_error);
  CHECK_THROWS_AS(t.dimShuffle({0, 1}), index_error);
  CHECK_THROWS_AS(t.transpose(), index_error);
  CHECK_THROWS_AS(t.squeeze({0}), index_error);
  CHECK_THROWS_AS(concat(t[0], t[0][0], 0), index_error);
  CHECK_THROWS_AS(concat(t, graph.addVariable(INT, {2, 3, 4}), 0), type_error);
  CHECK_THROWS_AS(t.reinterpret(HALF), type_error);
  CHECK_THROWS_AS(Tensor().shape(), poplar_error);
}

TEST_CASE("views of a large matrix stay compact when rows are contiguous", "[tensor]") {
  auto device = test::smallDevice();
  Graph g(device.getTarget());
  const auto big = g.addVariable(FLOAT, {1024, 1024});
  CHECK(big.slice(10, 20, 0).getVarRegions().size() == 1);
  CHECK(big.slice(10, 20, 1).getVarRegions().size() == 1024);
  CHECK(big.reshape({1024 * 1024}).slice(5, 100).isContiguous());
}
