// popops/PerformanceEstimation.hpp: PopLibs' estimator names give Tessera's estimators' figures
// (the ones the vertices charge), values worked out by hand from PopLibs' formulas, and
// parameters outside what Tessera estimates rejected with a clear error.
#include "TestUtil.hpp"
#include "poplibs_support/CycleEstimators.hpp"
#include "poplibs_support/ElementWiseCycleEstimators.hpp"
#include "poplibs_support/SliceCycleEstimators.hpp"

#include <popops/PerformanceEstimation.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using namespace popops::internal;
using Catch::Contains;
using popops::expr::BinaryOpType;

TEST_CASE("PerformanceEstimation: element-wise building blocks", "[popops][cycles][perfest]") {
  const Target t = Target::createIPUTarget(1, "ipu2");
  CHECK(basicOpSupervisorOverhead() == 11);
  CHECK(basicOpSupervisorOverhead(true) == 13);
  CHECK(basicOpLoopCycles(10, 4, 3) == 3 * 13 / 4);
  // float vectors of 2, half of 4; (cycles + overhead) per vector.
  CHECK(binaryOpInnerLoopCycles(t, FLOAT, 1, true, 10, 2) == 5 * 3);
  CHECK(binaryOpInnerLoopCycles(t, HALF, 1, true, 10, 2) == 3 * 3);
  CHECK(binaryOpInnerLoopCycles(t, HALF, 1, false, 10, 2) == 10 * 3);
  // BinaryOp1DInPlace as a MultiVertex: 6 workers of ceil(60 / 6) elements + the supervisor,
  // from the same worker estimate the in-place vertices charge.
  const auto info = poplibs_support::binaryOpLoopInfo("ADD", FLOAT, true);
  REQUIRE(info);
  CHECK(getBinaryOp1DInPlaceEstimate(t, FLOAT, BinaryOpType::ADD, 60) ==
        6 * poplibs_support::binaryOp1DWorkerCycles(t, "ADD", FLOAT, true, 10, *info) + 11);
  CHECK_THROWS_MATCHES(getBinaryOp1DInPlaceEstimate(t, UNSIGNED_CHAR, BinaryOpType::ADD, 8),
                       poputil::poplibs_error, test::What(Contains("no BinaryOp1DInPlace")));
}

TEST_CASE("PerformanceEstimation: slicing", "[popops][cycles][perfest]") {
  const Target t = Target::createIPUTarget(1, "ipu2");
  CHECK(getDynamicSlice1DEstimate(t, FLOAT, 100, 3) == 25 + (41 + (27 + 8) * 3) * 6);
  CHECK(getDynamicSlice1DEstimate(t, HALF, 50, 2) ==
        poplibs_support::dynamicSlice1dCycles(t, HALF, 50, 2));
  // MultiSlice: 16 + per offset 19 + 3 per 64-bit copy, as the vertex charges it.
  const MultiSliceTargetParameters fp(t, FLOAT), hp(t, HALF);
  CHECK(getMultiSliceCycleEstimate(fp, 7, 5, 5, 1) == 16 + 5 * (19 + 4 * 3));
  CHECK(getMultiSliceCycleEstimate(hp, 8, 2, 2, 1, true) ==
        poplibs_support::multiSliceCycles(t, HALF, 8, 2));
  // MultiUpdateAdd (scaled ADD) and MultiUpdateOp, the worker figure x 6.
  const MultiUpdateOpTargetParameters fu(t, FLOAT), hu(t, HALF);
  CHECK(getMultiUpdateOpCycleEstimate(fu, false, 6, 4, 4, 1, popops::Operation::ADD, true) ==
        (3 + 14 + (11 + 5 * 3) * 4) * 6);
  CHECK(getMultiUpdateOpCycleEstimate(hu, false, 4, 2, 2, 1, popops::Operation::ADD, true) ==
        (3 + 15 + (12 + 1 * 3) * 2) * 6);
  CHECK(getMultiUpdateOpCycleEstimate(fu, false, 6, 4, 4, 1, popops::Operation::MAX, false) ==
        (3 + 24 + (11 + 5 * 3) * 4) * 6);
  CHECK(getMultiUpdateOpCycleEstimate(fu, false, 6, 4, 4, 1, popops::Operation::MAX, false) ==
        6 * poplibs_support::multiUpdateOpWorkerCycles(t, FLOAT, 6, 4));
}

TEST_CASE("PerformanceEstimation: casts and fills", "[popops][cycles][perfest]") {
  const Target t = Target::createIPUTarget(1, "ipu2");
  const CastTargetParameters c(t, FLOAT, HALF);
  // float to half: vectors of 4 at 2 cycles; 10 elements: 19 + 2 x 2 + remainder bits 1 + 3.
  CHECK(getCast1DSingleWorkerCycleEstimate(c, FLOAT, HALF, 10) == 5 + 27);
  CHECK(getCast1DSingleWorkerCycleEstimate(c, FLOAT, HALF, 10) ==
        poplibs_support::castCycles(t, FLOAT, HALF, 10));
  CHECK(getCast1DCycleEstimate(c, FLOAT, HALF, 60) == 12 + 6 * (27 + 18));
  std::vector<unsigned> regions = {10, 4};
  CHECK(getCast2DCycleEstimate(c, FLOAT, HALF, regions) == 5 + (11 + 27) + (11 + 23));
  CHECK_THROWS_MATCHES(getCast1DCycleEstimate(CastTargetParameters(t, CHAR, HALF), CHAR, HALF, 4),
                       poputil::poplibs_error, test::What(Contains("no cast estimate for char")));
  const FillTargetParameters f(t);
  CHECK(getFill1DCycleEstimate(f, FLOAT, 1000) == 16 + 500 + 6 + 0 + 1);
  CHECK(getFill1DCycleEstimate(f, HALF, 2) == poplibs_support::fillCycles(t, HALF, 2));
  // Fill2D: 5, +1 for 32-bit types, each region's Fill less 3 (2 for half).
  CHECK(getFill2DCycleEstimate(f, FLOAT, {1000, 7}) == 5 + 1 + (523 - 3) + (27 - 3));
  CHECK(getFill2DCycleEstimate(f, HALF, {3, 8}) == 5 + (26 - 2) + (28 - 2));
}

TEST_CASE("PerformanceEstimation: scaled arithmetic and broadcasts", "[popops][cycles][perfest]") {
  const Target t = Target::createIPUTarget(1, "ipu2");
  using layout::Vector;
  const ScaledArithmeticTargetParameters ip(t, INT), fp(t, FLOAT);
  // Integers: 53 + 26 per 3, 6 + 26 per leftover, 14 to finish (+1 subtracting).
  CHECK(getScaledArithmeticSupervisorCycleEstimate(ip, INT, INT, false, ScaledArithmeticOp::ADD,
                                                   Vector::OnePtr, Vector::OnePtr,
                                                   10) == 53 + 78 + 32 + 14);
  CHECK(getScaledArithmeticSupervisorCycleEstimate(ip, INT, INT, false,
                                                   ScaledArithmeticOp::SUBTRACT, Vector::OnePtr,
                                                   Vector::OnePtr, 10) == 53 + 78 + 32 + 14 + 1);
  // Float, 25 elements: 12 vectors of 2 (2 per worker) and one left. Supervisor 21 + 11 + 13
  // + 12 + 6; worker 0 takes the leftover: 15 + (6 + 3) + 2 + 1 + 8 + 1 = 36.
  CHECK(getScaledArithmeticSupervisorCycleEstimate(fp, FLOAT, FLOAT, false, ScaledArithmeticOp::ADD,
                                                   Vector::OnePtr, Vector::OnePtr,
                                                   25) == 63 + 36 * 6);
  // ScaledPtr64 operands cost 6 more on the supervisor, and aX+bY unpacks both (+12 + 1 + 1);
  // 24 elements leave none over (7, not 13); worker 0 checks for leftovers (+1).
  CHECK(getScaledArithmeticSupervisorCycleEstimate(
            fp, FLOAT, FLOAT, false, ScaledArithmeticOp::AXPLUSBY, Vector::ScaledPtr64,
            Vector::ScaledPtr64, 24) == 21 + 6 + 11 + 7 + 12 + 6 + 14 + (16 + 6 + 3 + 1 + 1) * 6);
  CHECK_THROWS_AS(getScaledArithmeticSupervisorCycleEstimate(fp, BOOL, BOOL, false,
                                                             ScaledArithmeticOp::ADD,
                                                             Vector::OnePtr, Vector::OnePtr, 4),
                  poputil::poplibs_error);
  // Broadcasts: the binary tables' loop costs, 20 per worker (1D) or 20 + 28 per region (2D).
  const auto info = poplibs_support::binaryOpLoopInfo("ADD", FLOAT, true);
  REQUIRE(info);
  REQUIRE(info->natural);
  const auto one = broadcastArithmetic1DCycleEstimate(t, BinaryOpType::ADD, FLOAT, FLOAT, true, 60);
  CHECK(one.cycles == 6 * (20 + 5 * (info->cyclesPerLoop + 1)) + 11);
  CHECK(one.flops == 60);
  const auto two =
      broadcastArithmeticCycleEstimate(t, BinaryOpType::ADD, FLOAT, FLOAT, true, false, {6, 3});
  CHECK(two.cycles == 20 + 3 * (info->cyclesPerLoop + 4) + 28 + 2 * (info->cyclesPerLoop + 4) + 28);
  CHECK(
      broadcastArithmetic1DCycleEstimate(t, BinaryOpType::BITWISE_AND, INT, INT, false, 8).flops ==
      0);
  CHECK_THROWS_MATCHES(broadcastArithmeticCycleEstimate(t, BinaryOpType::VARIANCE_TO_INV_STD_DEV,
                                                        FLOAT, HALF, false, false, {4}),
                       poputil::poplibs_error, test::What(Contains("non-uniform scalar")));
}
