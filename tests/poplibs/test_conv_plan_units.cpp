// The convolution planner costs a candidate's busiest tile by counting each tile's units by
// shape (poplin::unitShapeCounts) once a candidate has many units a tile, instead of visiting
// them one by one: the counts must be those of visiting them, for any block counts and range.
#include "poplin/ConvPlan.hpp"

#include <array>
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>

TEST_CASE("unitShapeCounts counts a range of units as visiting each one does", "[poplin][plan]") {
  std::mt19937_64 rng(38);
  const auto pick = [&](std::uint64_t most) { return 1 + rng() % most; };
  for (int trial = 0; trial < 500; ++trial) {
    poplin::ConvPlan c;
    c.problem.params.numConvGroups = pick(3);
    c.batchBlocks = pick(4), c.inChanBlocks = pick(5), c.outChanBlocks = pick(6);
    c.rowBlocks = pick(3);
    const std::uint64_t units = c.numUnits();
    const std::uint64_t begin = rng() % (units + 1);
    const std::uint64_t end = begin + rng() % (units - begin + 1);
    std::array<std::uint64_t, 16> expected{};
    for (std::size_t g = 0; g < c.groups(); ++g)
      for (std::size_t bb = 0; bb < c.batchBlocks; ++bb)
        for (std::size_t icb = 0; icb < c.inChanBlocks; ++icb)
          for (std::size_t cb = 0; cb < c.outChanBlocks; ++cb)
            for (std::size_t rb = 0; rb < c.rowBlocks; ++rb) {
              const std::size_t u = c.unitIndex(g, bb, cb, rb, icb);
              if (u < begin || u >= end) continue;
              ++expected[(bb + 1 == c.batchBlocks) | (icb + 1 == c.inChanBlocks) << 1 |
                         (cb + 1 == c.outChanBlocks) << 2 | (rb + 1 == c.rowBlocks) << 3];
            }
    INFO("blocks " << c.groups() << "x" << c.batchBlocks << "x" << c.inChanBlocks << "x"
                   << c.outChanBlocks << "x" << c.rowBlocks << ", units [" << begin << ", " << end
                   << ")");
    CHECK(poplin::unitShapeCounts(c, begin, end) == expected);
  }
}
