// PopLibs vertices outside popops' element-wise and poplin's conv families against PopLibs'
// published estimators (graphcore/poplibs lib/*/...CycleEstimators.cpp), each value worked out
// by hand from the formulas (Mk2 and Mk1: 6 worker contexts, 64-bit data path).
#include "poplibs_support/ChannelCycleEstimators.hpp"
#include "poplibs_support/PoolCycleEstimators.hpp"
#include "poplibs_support/RandomCycleEstimators.hpp"
#include "poplibs_support/SliceCycleEstimators.hpp"
#include "poplibs_support/SortCycleEstimators.hpp"

#include <catch2/catch.hpp>
#include <poplar/Target.hpp>

using namespace poplar;
using namespace poplibs_support;

TEST_CASE("poprand estimates follow PopLibs' poprandCycleEstimators", "[poplibs][cycles][random]") {
  for (const char* arch : {"ipu2", "ipu1"}) {
    const Target t = Target::createIPUTarget(1, arch);
    INFO(arch);
    // Uniform float/half: "width" 64 / 2 = 32 or 64 / 4 = 16; 4 x (n + w - 1) / w.
    CHECK(uniformCycles(t, FLOAT, 100) == 4 + 524 / 32 + 22 * 6 + 4);
    CHECK(uniformCycles(t, HALF, 64) == 4 + 316 / 16 + 24 * 6);
    // Uniform int: full range 1 per pair, else 6 per pair + 2 for the odd one.
    CHECK(uniformIntCycles(t, true, 9) == 4 + 132 + 4);
    CHECK(uniformIntCycles(t, false, 9) == 4 + 132 + 24 + 2);
    // Bernoulli: "width" 16 (half) / 32; 1 per vector; 21 / 23 per context; 9 / 1 partial.
    CHECK(bernoulliCycles(t, HALF, 20) == 4 + 2 + 126 + 9);
    CHECK(bernoulliCycles(t, FLOAT, 64) == 4 + 2 + 138);
    CHECK(bernoulliCycles(t, INT, 33) == 4 + 2 + 138 + 1);
    // Normal: 64-bit vectors (2 floats, 4 halves); 3 / 12 for a partial vector.
    CHECK(normalCycles(t, FLOAT, 5) == 4 + 12 + 132 + 3);
    CHECK(normalCycles(t, HALF, 6) == 4 + 9 + 144 + 12);
    // Truncated normal: float (11 it + 5) per vector, (13 it + 2) partial; half 12 it + 5, 12 it
    // + 10.
    CHECK(truncatedNormalCycles(t, FLOAT, 7, 3) == 4 + 156 + 38 * 8 / 2 + 41);
    CHECK(truncatedNormalCycles(t, HALF, 8, 2) == 4 + 168 + 29 * 11 / 4);
    // Dropout: 6 + 24 per context + 2 per vector + 1 (float) / 9 partial.
    CHECK(dropoutCycles(t, FLOAT, 3) == 6 + 144 + 4 + 1);
    CHECK(dropoutCycles(t, HALF, 10) == 6 + 144 + 26 / 4 + 9);
    CHECK(setSeedCycles(t) == 14 + 27 * 6);
  }
}

TEST_CASE("popops slicing estimates follow PopLibs' formulas", "[poplibs][cycles][slice]") {
  for (const char* arch : {"ipu2", "ipu1"}) {
    const Target t = Target::createIPUTarget(1, arch);
    INFO(arch);
    // DynamicSlice1d: 25 for the supervisor; per worker ceil(region / 6) elements,
    // 41 + (27 + 64-bit copies) per slice row, x 6 contexts.
    CHECK(dynamicSlice1dCycles(t, FLOAT, 100, 3) == 25 + (41 + (27 + 8) * 3) * 6);
    CHECK(dynamicSlice1dCycles(t, HALF, 50, 2) == 25 + (41 + (27 + 2) * 2) * 6);
    CHECK(dynamicSlice1dCycles(t, INT, 5, 1) == 25 + (41 + 27) * 6);
    // DynamicSlice2d: 23 + per region (31 + 2 v) (half) / (29 + v) per slice row + 13.
    CHECK(dynamicSlice2dCycles(t, HALF, {10, 3}, 2) == 23 + (37 * 2 + 13) + (33 * 2 + 13));
    CHECK(dynamicSlice2dCycles(t, FLOAT, {5}, 4) == 23 + 32 * 4 + 13);
    // MultiSlice / MultiUpdate: 16 + per offset 19 + 3 per 64-bit copy.
    CHECK(multiSliceCycles(t, FLOAT, 7, 5) == 16 + 5 * (19 + 4 * 3));
    CHECK(multiSliceCycles(t, HALF, 8, 2) == 16 + 2 * (19 + 2 * 3));
    // MultiUpdateAdd: 3 + 14 (float) / 15 + per offset 11 / 12 + 3 per further atom.
    CHECK(multiUpdateAddCycles(t, FLOAT, 6, 4) == 3 + 14 + (11 + 5 * 3) * 4);
    CHECK(multiUpdateAddCycles(t, HALF, 8, 3) == 3 + 15 + (12 + 3 * 3) * 3);
    CHECK(multiUpdateAddCycles(t, HALF, 5, 2) == 3 + 15 + (12 + 5 * 20) * 2);
    CHECK(multiUpdateAddCycles(t, INT, 2, 1) == 3 + 15 + 12 + 3);
    CHECK(multiUpdateAddCycles(t, FLOAT, 6, 0) == 3);
    // MultiUpdateOp: 3 + 24 (32-bit) / 25 + per offset 11 / 12 + 3 per further atom.
    CHECK(multiUpdateOpWorkerCycles(t, FLOAT, 6, 4) == 3 + 24 + (11 + 15) * 4);
    CHECK(multiUpdateOpWorkerCycles(t, HALF, 4, 1) == 3 + 25 + 12 + 3);
    CHECK(multiUpdateOpWorkerCycles(t, INT, 2, 3) == 3 + 24 + (11 + 3) * 3);
  }
}

TEST_CASE("Channel ops and InverseStdDeviation follow PopLibs' formulas",
          "[poplibs][cycles][channel]") {
  for (const char* arch : {"ipu2", "ipu1"}) {
    const Target t = Target::createIPUTarget(1, arch);
    INFO(arch);
    // AddToChannel2D, one region per channel: 5 + per region 2 + 64-bit vectors + 1.
    CHECK(addToChannelCycles(t, FLOAT, 3, 5) == 5 + 3 * (2 + 3 + 1));
    CHECK(addToChannelCycles(t, HALF, 2, 8) == 5 + 2 * (2 + 2 + 1));
    // ScaledAddToChannel2D: one more per region for the scale.
    CHECK(scaledAddToChannelCycles(t, FLOAT, 1, 4) == 5 + (3 + 2 + 1));
    CHECK(scaledAddToChannelCycles(t, HALF, 4, 9) == 5 + 4 * (3 + 3 + 1));
    // ChannelMul2D: 5 + per region 3 + vectors.
    CHECK(channelMulCycles(t, FLOAT, 2, 7) == 5 + 2 * (3 + 4));
    CHECK(channelMulCycles(t, HALF, 3, 1) == 5 + 3 * (3 + 1));
    // InverseStdDeviation: 6 + per region 4 + (3 + 2) per pair of floats.
    CHECK(inverseStdDeviationCycles(t, 1, 10) == 6 + 4 + 5 * 5);
    CHECK(inverseStdDeviationCycles(t, 2, 3) == 6 + 2 * (4 + 5 * 2));
  }
}

TEST_CASE("Sort, top-k, arg-max and encoding estimates follow PopLibs' formulas",
          "[poplibs][cycles][sort]") {
  const Target t = Target::createIPUTarget(1, "ipu2");
  // HeapSortVertex: 8 x (19 n floor(log2 n) + 6 n + 2); KV 16 x.
  CHECK(heapSortCycles(1, false) == 8 * (6 + 2));
  CHECK(heapSortCycles(8, false) == 8 * (19 * 8 * 3 + 48 + 2));
  CHECK(heapSortCycles(10, true) == 16 * (19 * 10 * 3 + 60 + 2));
  CHECK(heapSortCycles(0, true) == 0);
  // ReduceMaxNClassSparse, n = 10, k = 3: 35; + 13; + 13 + 20 ln 2 = 74.86 -> 74;
  // + 7 x (13 + 20 ln 3) = 244.81 -> 318; + 24 = 342. Sorted: + 10 + 20 ln 3 -> 373,
  // + 10 + 20 ln 2 -> 396, + 10 -> 406.
  CHECK(reduceMaxNClassSparseCycles(10, 3, false) == 342);
  CHECK(reduceMaxNClassSparseCycles(10, 3, true) == 406);
  CHECK(reduceMaxNClassSparseCycles(5, 1, false) == 35 + 4 * 13 + 8);
  // ReduceMax/MinClassSparse: float/half 14 + 3 per further element + 13; others 23 + 6 n.
  CHECK(reduceClassSparseCycles(FLOAT, 10) == 14 + 27 + 13);
  CHECK(reduceClassSparseCycles(HALF, 1) == 14 + 13);
  CHECK(reduceClassSparseCycles(INT, 10) == 23 + 60);
  // EncodeOneHot: unsigned -> half in assembly 11 + 74 per index, else 100 per index.
  CHECK(encodeOneHotCycles(UNSIGNED_INT, HALF, 4) == 11 + 74 * 4);
  CHECK(encodeOneHotCycles(INT, FLOAT, 4) == 400);
  CHECK(encodeOneHotCycles(UNSIGNED_INT, FLOAT, 2) == 200);
  CHECK(encodeOneHotCustomValuesCycles(3) == 300);
  // Iota: 10 + 4 + 3 per vector (2 ints).
  CHECK(iotaCycles(t, INT, 10) == 14 + 15);
  CHECK(iotaCycles(t, UNSIGNED_INT, 3) == 14 + 6);
  // ForLoopCounter: a constant.
  CHECK(forLoopCounterCycles() == 43);
}

TEST_CASE("Pooling estimates follow PopLibs' getPoolingCycles", "[poplibs][cycles][pooling]") {
  // Work rows: 3 x 3 input, 3 x 3 kernel, stride 1, padding 1: output rows 0 and 2 see two
  // input rows, row 1 three; every row has runs of 2, 3, 2 output columns.
  const auto padded = poolingWorkRows({3, 3, 3, 3, 3, 3, 1, 1, 1, 1});
  REQUIRE(padded.size() == 7);
  for (const auto& row : padded)
    CHECK(row == std::vector<std::uint64_t>{2, 3, 2});
  // 4 x 4 input, 2 x 2 kernel, stride 2: 4 rows of two runs of 2.
  const PoolGeometry g{4, 4, 2, 2, 2, 2, 2, 2, 0, 0};
  const auto rows = poolingWorkRows(g);
  REQUIRE(rows.size() == 4);
  for (const auto& row : rows)
    CHECK(row == std::vector<std::uint64_t>{2, 2});
  for (const char* arch : {"ipu2", "ipu1"}) {
    const Target t = Target::createIPUTarget(1, arch);
    INFO(arch);
    // Max pooling, 3 planes, 4 outputs each: workers 0-3 have a row. Worker 0: 19 set-up,
    // (4 + 1) x 3 to initialise, 8, 3 (max), 10; the row 13 + 2 x (20 + 12 + 16 + 16 + 3) + 2
    // (per channel group 1 + (2 + 4 + 3 + 1) + 1, + 4 after the first); 1 to exit = 205.
    CHECK(poolingCycles(t, rows, 4, 3, true, false) == 7 + 205 * 6 + 6);
    // Sum pooling: 4 (unpack, load the scale) and a loop of 5 + 3: 56 + (13 + 2 x 70 + 2) + 1.
    CHECK(poolingCycles(t, rows, 4, 3, false, false) == 7 + 212 * 6 + 6);
    // Max pooling gradient: 16 input positions to initialise (3 for workers 0-3), 10 more to
    // unpack, + 6 per later channel group, a loop of 7 + 5: 71 + (13 + 2 x 86 + 2) + 1.
    CHECK(poolingCycles(t, rows, 16, 3, true, true) == 7 + 259 * 6 + 6);
  }
}
