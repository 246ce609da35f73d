// The PopLibs vertices' cycle estimates equal PopLibs' published estimator formulas
// (graphcore/poplibs lib/popops/PopopsCycleEstimators.cpp), worked out by hand here for several
// sizes and types on the Mk2 and Mk1 targets (64-bit data path on both).
#include "poplibs_support/CycleEstimators.hpp"
#include "poplibs_support/ElementWiseCycleEstimators.hpp"
#include "poplibs_support/NnCycleEstimators.hpp"
#include "poplibs_support/ReduceCycleEstimators.hpp"

#include <catch2/catch.hpp>
#include <optional>
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

// Element-wise vertices (popopsCycleEstimators.cpp, UnaryOp1D / BinaryOp1D and in place): the
// worker cycles for a worker's n elements. Vector widths on both targets: float 2, half 4, int 2.
TEST_CASE("popops element-wise worker estimates follow PopLibs' formulas", "[poplibs][cycles]") {
  using namespace poplibs_support;
  for (const char* arch : {"ipu2", "ipu1"}) {
    const Target t = Target::createIPUTarget(1, arch);
    INFO(arch);
    const auto binary = [&](const char* op, Type type, bool inPlace, std::uint64_t n) {
      const auto info = binaryOpLoopInfo(op, type, inPlace);
      REQUIRE(info);
      return binaryOp1DWorkerCycles(t, op, type, inPlace, n, *info);
    };
    const auto unary = [&](const char* op, Type type, bool inPlace, std::uint64_t n) {
      const auto info = unaryOpLoopInfo(op, type, inPlace);
      REQUIRE(info);
      return unaryOp1DWorkerCycles(t, op, type, inPlace, n, *info);
    };
    // BinaryOp1D: 29 (float) / 26 set-up; ADD/SUB/MUL on float/half: 1 + 2 per vector.
    CHECK(binary("ADD", FLOAT, false, 10) == 29 + 5 * 3);
    CHECK(binary("ADD", HALF, false, 10) == 26 + 3 * 3);
    CHECK(binary("SUBTRACT", FLOAT, false, 1) == 29 + 1 * 3);
    CHECK(binary("MULTIPLY", HALF, false, 1000) == 26 + 250 * 3);
    // Integer ADD: 7 cycles per element (unrolled by 1).
    CHECK(binary("ADD", INT, false, 10) == 26 + 10 * 7);
    // In place: 58 set-up.
    CHECK(binary("ADD", FLOAT, true, 7) == 58 + 4 * 3);
    CHECK(binary("MULTIPLY", UNSIGNED_INT, true, 3) == 58 + 3 * 7);
    // Unrolled loops: MAXIMUM float 4 cycles per 2, DIVIDE half 21 per 4, EQUAL float 14 per 4.
    CHECK(binary("MAXIMUM", FLOAT, false, 5) == 29 + 3 * 4);
    CHECK(binary("MAXIMUM", UNSIGNED_INT, false, 2) == 26 + 2 * 8);
    CHECK(binary("DIVIDE", HALF, false, 9) == 26 + 3 * 21);
    CHECK(binary("DIVIDE", INT, false, 2) == 26 + 2 * 277);
    CHECK(binary("EQUAL", FLOAT, false, 6) == 29 + 2 * 14);
    CHECK(binary("LESS_THAN", INT, false, 9) == 26 + 3 * 22);
    // No in-place comparison of non-bool types in PopLibs.
    CHECK_FALSE(binaryOpLoopInfo("EQUAL", FLOAT, true));
    CHECK(binaryOpLoopInfo("EQUAL", BOOL, true));

    // UnaryOp1D: 17 set-up (33 for EXPONENT); UnaryOp1DInPlace 55.
    CHECK(unary("EXPONENT", FLOAT, false, 5) == 33 + 3 * 6);
    CHECK(unary("EXPONENT", FLOAT, true, 5) == 55 + 3 * 6);
    CHECK(unary("EXPONENT", HALF, false, 5) == 33 + 2 * 4);
    CHECK(unary("LOGARITHM", FLOAT, false, 4) == 17 + 2 * 12);
    CHECK(unary("LOGARITHM", FLOAT, true, 4) == 55 + 2 * 14);
    CHECK(unary("TANH", HALF, true, 8) == 55 + 2 * 2);
    CHECK(unary("SIGMOID", FLOAT, false, 3) == 17 + 2 * 12);
    // One element per loop plus 4 of overhead: NEGATE int, ABSOLUTE float.
    CHECK(unary("NEGATE", INT, false, 4) == 17 + 4 * 6);
    CHECK(unary("ABSOLUTE", FLOAT, false, 3) == 17 + 3 * 5);
    // Natural vectors plus 4, rounded as PopLibs rounds: (c + 4) * (n + w - 1) / w.
    CHECK(unary("ABSOLUTE", FLOAT, true, 3) == 55 + 5 * 4 / 2);
    CHECK(unary("SQUARE", INT, false, 5) == 17 + 5 * 6 / 2);
    CHECK(unary("EXPONENT_MINUS_ONE", HALF, false, 6) == 17 + 9 * 9 / 4);

    // By vertex name, as the map vertices are estimated.
    CHECK(elementWise1DWorkerCycles(t, "popops::BinaryOp1D<popops::expr::BinaryOpType::ADD,float>",
                                    10) == std::optional<std::uint64_t>(29 + 5 * 3));
    CHECK(elementWise1DWorkerCycles(
              t, "popops::UnaryOp1DInPlace<popops::expr::UnaryOpType::EXPONENT,float>", 5) ==
          std::optional<std::uint64_t>(55 + 3 * 6));
    CHECK(elementWise1DWorkerCycles(
              t, "popops::BinaryOp1D<popops::expr::BinaryOpType::MAXIMUM,unsigned int>", 2) ==
          std::optional<std::uint64_t>(26 + 2 * 8));
    CHECK_FALSE(elementWise1DWorkerCycles(
        t, "popops::BinaryOp1DInPlace<popops::expr::BinaryOpType::EQUAL,float>", 4));
    CHECK_FALSE(elementWise1DWorkerCycles(t, "popops::map::ADD_float_float", 4));
  }
}

TEST_CASE("popops::ScaledAdd estimates follow PopLibs' ScaledAdd2D formula", "[poplibs][cycles]") {
  using poplibs_support::scaledAdd2DCycles;
  // 9 + 15 (one region), 5 + 3 per grain (2 floats, 4 halves), the rest.
  CHECK(scaledAdd2DCycles(FLOAT, 8) == 24 + 5 + 4 * 3);
  CHECK(scaledAdd2DCycles(FLOAT, 7) == 24 + 5 + 3 * 3 + 7);
  CHECK(scaledAdd2DCycles(FLOAT, 1) == 24 + 7);
  CHECK(scaledAdd2DCycles(HALF, 4) == 24 + 5 + 3);
  CHECK(scaledAdd2DCycles(HALF, 11) == 24 + 5 + 2 * 3 + 4 + 6 + 7);
  CHECK(scaledAdd2DCycles(HALF, 2) == 24 + 4 + 6);
  CHECK(scaledAdd2DCycles(HALF, 1) == 24 + 4 + 7);
  // A tensor scale costs 1 more; memory-constrained loops 2 per grain.
  CHECK(scaledAdd2DCycles(FLOAT, 8, false, true) == 25 + 5 + 4 * 2);
  // Integers: 8 + 7 per region + 5 per element.
  CHECK(scaledAdd2DCycles(INT, 5) == 8 + 7 + 25);
}

TEST_CASE("popops reduce estimates follow PopLibs' formulas", "[poplibs][cycles]") {
  using poplibs_support::reduceEdgesCycles;
  for (const char* arch : {"ipu2", "ipu1"}) {
    const Target t = Target::createIPUTarget(1, arch);
    INFO(arch);
    // One edge (single-input vertex): 3 + 6 + loop + 5 + remainder + 3 (+ 5 unless float out).
    // float partials: 4 per loop of 2 cycles.
    CHECK(reduceEdgesCycles(t, FLOAT, FLOAT, {10}, false) == 3 + 6 + 5 + 5 + 2 + 3);
    // half partials: 8 per loop of 2 cycles.
    CHECK(reduceEdgesCycles(t, HALF, FLOAT, {10}, false) == 3 + 6 + 2 + 5 + 2 + 3);
    CHECK(reduceEdgesCycles(t, FLOAT, HALF, {3}, false) == 3 + 6 + 1 + 5 + 3 + 3 + 5);
    CHECK(reduceEdgesCycles(t, INT, INT, {5}, false) == 3 + 6 + 5 + 5 + 0 + 3 + 5);
    // Several equal edges (ContinuousReduce): outputs × (partials / per loop) + 2 if odd
    // + 12 per output + 10 (+ 1 update) + 7. Per loop: float 2, half 4.
    CHECK(reduceEdgesCycles(t, FLOAT, FLOAT, {10, 10, 10}, false) == 15 + 0 + 36 + 10 + 7);
    CHECK(reduceEdgesCycles(t, FLOAT, FLOAT, {10, 10, 10}, true) == 15 + 0 + 36 + 10 + 1 + 7);
    CHECK(reduceEdgesCycles(t, HALF, FLOAT, {9, 9, 9, 9}, false) == 8 + 2 + 48 + 10 + 7);
    // Unequal edges: each its own loops and 12.
    CHECK(reduceEdgesCycles(t, FLOAT, FLOAT, {4, 5}, false) == 17 + (2 + 12) + (2 + 12) + 2);
  }
}

// popnn (popnnCycleEstimators.cpp, NonLinearity2D / NonLinearityGrad2D for one region, the loss
// transforms, ReduceMaxClassSparse, CalcAccuracy). Op cycles: RELU 1, SIGMOID 5 / 2,
// TANH 5 / 1, GELU 10 / 5 (float / half).
TEST_CASE("popnn estimates follow PopLibs' formulas", "[poplibs][cycles]") {
  using namespace poplibs_support;
  for (const char* arch : {"ipu2", "ipu1"}) {
    const Target t = Target::createIPUTarget(1, arch);
    INFO(arch);
    // 14 set-up, 8 (float) / 10 (half) per region, the vector pipeline, remainders, 1.
    CHECK(nonLinearityCycles(t, FLOAT, "RELU", 10) == 14 + 8 + (3 + 4 * 2 + 2) + 2 + 1);
    CHECK(nonLinearityCycles(t, FLOAT, "SIGMOID", 5) == 14 + 8 + (7 + 10 + 6) + (2 + 7) + 1);
    CHECK(nonLinearityCycles(t, HALF, "TANH", 7) == 14 + 10 + (3 + 0 + 2) + (2 + 3 + 2 + 4) + 1);
    CHECK(nonLinearityCycles(t, HALF, "GELU", 2) == 14 + 10 + 0 + (2 + 7 + 2) + 1);
    // Gradients: 17 + 9 per region, 4 + 3 per further vector + 1, remainders, 1.
    CHECK(nonLinearityGradCycles(t, FLOAT, 10) == 17 + 9 + (4 + 12 + 1) + 2 + 1);
    CHECK(nonLinearityGradCycles(t, HALF, 5) == 17 + 9 + 5 + (2 + 2 + 7) + 1);
    CHECK(nonLinearityGradCycles(t, FLOAT, 1) == 17 + 9 + 0 + (2 + 4) + 1);
    // The newer types: SWISH 6 / 3, GELU_ERF 30 / 15, HARD_SIGMOID 3 forward; gradients per
    // further vector SWISH 15 / 9, GELU 10 / 5, GELU_ERF 30 / 15.
    CHECK(nonLinearityCycles(t, FLOAT, "SWISH", 2) == 14 + 8 + (2 + 6 + 1 + 6) + 2 + 1);
    CHECK(nonLinearityCycles(t, HALF, "GELU_ERF", 4) == 14 + 10 + (2 + 15 + 1 + 15) + 4 + 1);
    CHECK(nonLinearityCycles(t, FLOAT, "HARD_SIGMOID", 4) == 14 + 8 + (2 + 3 + 6 + 1 + 3) + 2 + 1);
    CHECK(nonLinearityGradCycles(t, FLOAT, 10, "SWISH") == 17 + 9 + (4 + 4 * 15 + 1) + 2 + 1);
    CHECK(nonLinearityGradCycles(t, HALF, 8, "GELU") == 17 + 9 + (4 + 5 + 1) + 4 + 1);
    CHECK(nonLinearityGradCycles(t, HALF, 8, "GELU_ERF") == 17 + 9 + (4 + 15 + 1) + 4 + 1);
  }
  CHECK(lossTransformCycles(true, true, 10) == 5 + 6 + 5 + 2 + 1 + 90 + 1);
  CHECK(lossTransformCycles(false, false, 5) == 5 + 5 + 5 + 1 + 2 + 1 + 8 + (2 + 6) + 1);
  CHECK(reduceMaxClassSparseCycles(10) == 14 + 27 + 13);
  CHECK(calcAccuracyCycles(4) == 13 + 16 + 1);
}
