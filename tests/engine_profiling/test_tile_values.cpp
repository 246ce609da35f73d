// The program model's per-tile figures held as runs (engine/src/models/TileValues.hpp): read back
// tile by tile as the (tile, value) arrays they replace.
#include "models/TileValues.hpp"

#include <catch2/catch.hpp>
#include <utility>
#include <vector>

using poplar::detail::models::TileValue;
using poplar::detail::models::TileValues;

namespace {
std::vector<std::pair<unsigned, std::uint64_t>> pairs(const TileValues& v) {
  std::vector<std::pair<unsigned, std::uint64_t>> out;
  for (const TileValue& tv : v)
    out.emplace_back(tv.tile, tv.value);
  return out;
}
} // namespace

TEST_CASE("TileValues keep equal values on consecutive tiles as one run", "[program][tiles]") {
  TileValues v;
  CHECK(v.empty());
  CHECK(v.begin() == v.end());
  for (unsigned t = 0; t < 1000; ++t)
    v.push_back({t, 42});
  v.push_back({1000, 7}); // a new value: a new run
  v.push_back({1002, 7}); // a gap: a new run
  v.push_back({1003, 7});
  CHECK(v.size() == 1003);
  REQUIRE(v.runs().size() == 3);
  CHECK(v.runs()[0].first == 0);
  CHECK(v.runs()[0].count == 1000);
  CHECK(v.runs()[2].first == 1002);
  CHECK(v.runs()[2].count == 2);
  const auto p = pairs(v);
  REQUIRE(p.size() == 1003);
  CHECK(p[999] == std::make_pair(999u, std::uint64_t(42)));
  CHECK(p[1000] == std::make_pair(1000u, std::uint64_t(7)));
  CHECK(p[1001] == std::make_pair(1002u, std::uint64_t(7)));
  CHECK(v.toVector().size() == 1003);
}

TEST_CASE("TileValues made from (tile, value) pairs read back in ascending tiles",
          "[program][tiles]") {
  const TileValues v(std::vector<TileValue>{{5, 1}, {2, 9}, {3, 9}, {4, 1}, {9, 0}});
  CHECK(pairs(v) ==
        std::vector<std::pair<unsigned, std::uint64_t>>{{2, 9}, {3, 9}, {4, 1}, {5, 1}, {9, 0}});
  CHECK(v.runs().size() == 3); // a value of 0 is still a tile taking part
  CHECK(v.size() == 5);
}

TEST_CASE("TileValues append whole runs, joining them where they meet", "[program][tiles]") {
  TileValues v;
  v.appendRun(0, 1472, 4);
  v.appendRun(1472, 1472, 4); // the next IPU, the same value: one run
  v.appendRun(2944, 0, 4);    // nothing
  v.appendRun(3000, 2, 5);
  CHECK(v.size() == 2946);
  REQUIRE(v.runs().size() == 2);
  CHECK(v.runs()[0].count == 2944);
  std::uint64_t sum = 0;
  unsigned last = 0;
  for (const TileValue& tv : v) {
    sum += tv.value;
    last = tv.tile;
  }
  CHECK(sum == 2944 * 4 + 2 * 5);
  CHECK(last == 3001);
}
