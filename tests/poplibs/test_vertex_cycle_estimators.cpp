// PopLibs vertices outside popops' element-wise and poplin's conv families against PopLibs'
// published estimators (graphcore/poplibs lib/*/...CycleEstimators.cpp), each value worked out
// by hand from the formulas (Mk2 and Mk1: 6 worker contexts, 64-bit data path).
#include "poplibs_support/RandomCycleEstimators.hpp"

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
    // Truncated normal: float (11 it + 5) per vector, (13 it + 2) partial; half 12 it + 5, 12 it + 10.
    CHECK(truncatedNormalCycles(t, FLOAT, 7, 3) == 4 + 156 + 38 * 8 / 2 + 41);
    CHECK(truncatedNormalCycles(t, HALF, 8, 2) == 4 + 168 + 29 * 11 / 4);
    // Dropout: 6 + 24 per context + 2 per vector + 1 (float) / 9 partial.
    CHECK(dropoutCycles(t, FLOAT, 3) == 6 + 144 + 4 + 1);
    CHECK(dropoutCycles(t, HALF, 10) == 6 + 144 + 26 / 4 + 9);
    CHECK(setSeedCycles(t) == 14 + 27 * 6);
  }
}
