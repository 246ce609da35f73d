// The PopLibs vertices' cycle estimates equal PopLibs' published estimator formulas
// (graphcore/poplibs lib/popops/PopopsCycleEstimators.cpp), worked out by hand here for several
// sizes and types on the Mk2 and Mk1 targets (64-bit data path on both).
#include "poplibs_support/CycleEstimators.hpp"

#include <catch2/catch.hpp>

#include <poplar/Target.hpp>

using namespace poplar;
using poplibs_support::castCycles;
using poplibs_support::fillCycles;

TEST_CASE("popops::Fill estimates follow PopLibs' formula", "[poplibs][cycles]") {
  for (const char* arch : {"ipu2", "ipu1"}) {
    const Target t = Target::createIPUTarget(1, arch);
    INFO(arch);
    // half: 1 element 15, 2 elements 21, else 26 + n / 4.
    CHECK(fillCycles(t, HALF, 1) == 15);
    CHECK(fillCycles(t, HALF, 2) == 21);
    CHECK(fillCycles(t, HALF, 3) == 26);
    CHECK(fillCycles(t, HALF, 8) == 28);
    CHECK(fillCycles(t, HALF, 1001) == 26 + 250);
    // 32-bit types: 16 + n / 2 + 6 + (odd ? 1 : 0) + 1.
    for (Type type : {FLOAT, INT, UNSIGNED_INT}) {
      CHECK(fillCycles(t, type, 1) == 16 + 0 + 6 + 1 + 1);
      CHECK(fillCycles(t, type, 2) == 16 + 1 + 6 + 0 + 1);
      CHECK(fillCycles(t, type, 7) == 16 + 3 + 6 + 1 + 1);
      CHECK(fillCycles(t, type, 1000) == 16 + 500 + 6 + 0 + 1);
    }
  }
}

TEST_CASE("popops::Cast estimates follow PopLibs' formula", "[poplibs][cycles]") {
  const Target t = Target::createIPUTarget(1, "ipu2");
  // 5 (parameters, call, exit) + 19 (prologue) + vectors + remainder tests.
  // float -> half: 4 per vector (two 64-bit loads, one store), 2 cycles each; remainder bits 1, 2.
  CHECK(castCycles(t, FLOAT, HALF, 8) == 5 + 19 + 2 * 2 + 1 + 1);
  CHECK(castCycles(t, FLOAT, HALF, 11) == 5 + 19 + 2 * 2 + (1 + 2) + (1 + 2));
  CHECK(castCycles(t, FLOAT, HALF, 1) == 5 + 19 + 0 + (1 + 2) + 1);
  // half -> float: 2 per vector (one 64-bit store), 1 cycle each; remainder bit 1.
  CHECK(castCycles(t, HALF, FLOAT, 10) == 5 + 19 + 5 + 1);
  CHECK(castCycles(t, HALF, FLOAT, 7) == 5 + 19 + 3 + (1 + 2));
  // Integer conversions: one element at a time, 2 cycles each (load/store and the C++ convert).
  for (Type from : {INT, UNSIGNED_INT})
    for (Type to : {FLOAT, HALF}) {
      CHECK(castCycles(t, from, to, 1) == 5 + 19 + 2);
      CHECK(castCycles(t, from, to, 100) == 5 + 19 + 200);
    }
  CHECK(castCycles(t, FLOAT, INT, 33) == 5 + 19 + 66);
  CHECK(castCycles(t, HALF, UNSIGNED_INT, 5) == 5 + 19 + 10);
}
