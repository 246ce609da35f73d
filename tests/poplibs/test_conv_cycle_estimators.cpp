// poplin's convolution partial vertices (which also run matmuls, as PopLibs runs them) against
// PopLibs' published estimators (graphcore/poplibs lib/poplin/PerformanceEstimation.hpp and
// poplinCycleEstimators.cpp), each value worked out by hand from the formulas. AMP figures: 8 conv
// units (16 for half x half), 32 weight bytes per unit, 8 coefficient bytes per cycle without
// 128-bit loads: 32 loads (64 for 16 units).
#include "common/Devices.hpp"
#include "common/ScratchDir.hpp"
#include "poplibs_support/ConvCycleEstimators.hpp"
#include "poplin/ConvVertexEstimates.hpp"

#include <catch2/catch.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Target.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>
#include <pva/pva.hpp>

using namespace poplar;
using namespace poplibs_support;

TEST_CASE("ConvPartial1x1Out worker cycles follow PopLibs' cases", "[poplibs][cycles][conv]") {
  // half activations, half partials, 8 units: 41 + (2 + 2n) with zeroing + 4 per element past 3.
  CHECK(conv1x1WorkerCycles(5, true, false, false, 8) == 41 + 12 + 8);
  CHECK(conv1x1WorkerCycles(5, false, false, false, 8) == 41 + 8);
  CHECK(conv1x1WorkerCycles(0, true, false, false, 8) == 24);
  // half activations, float partials: the common path, 37/38 + 4 per element past 3, less 7.
  CHECK(conv1x1WorkerCycles(4, true, false, true, 8) == 37 + 4 - 7);
  CHECK(conv1x1WorkerCycles(2, false, false, true, 8) == 42 - 7);
  CHECK(conv1x1WorkerCycles(0, true, false, false, 16) == 21 - 7);
  // float activations: 46/47 + (2 + 4n) with zeroing + 8 per element past 3, no retention.
  CHECK(conv1x1WorkerCycles(1, true, true, true, 8) == 47 + 6);
  CHECK(conv1x1WorkerCycles(6, true, true, true, 8) == 46 + 2 + 24 + 24);
  CHECK(conv1x1WorkerCycles(6, false, true, true, 8) == 46 + 24);
}

TEST_CASE("ConvPartial1x1Out estimates follow PopLibs' formula, a matmul block's too",
          "[poplibs][cycles][conv]") {
  for (const char* arch : {"ipu2", "ipu1"}) {
    const Target t = Target::createIPUTarget(1, arch);
    INFO(arch);
    // half x float, 20 field elements ([4,4,3,3,3,3]), 32 in chans (2 groups), 8 out chans.
    // Workers with zeroing 6 x 34, without 6 x 35; retention 6 x (7 + 3); later in group
    // 15 + 19 + (6 + 32 + 210); first 11 + 18 + (7 + 32 + 204); 50 + 60 + 12 + 1 + ...
    CHECK(poplin::conv1x1VertexCycles(t, HALF, FLOAT, 4, 5, 32, 8) == 677);
    // float x float, 6 elements ([1] each), 8 in chans, 16 out chans (2 groups).
    // With zeroing max(6 x 53, 6 x 53 + 14) = 332, first group 11 + 2 x (18 + 7 + 32 + 332).
    CHECK(poplin::conv1x1VertexCycles(t, FLOAT, FLOAT, 1, 6, 8, 16) == 50 + 13 + 789);
    // half x half (16 units, 64 loads), one element: 6 x 25 with zeroing; retention 6 x 7.
    CHECK(poplin::conv1x1VertexCycles(t, HALF, HALF, 1, 1, 16, 16) ==
          50 + 42 + 13 + 11 + 18 + 7 + 64 + 150);
    // A matmul block 10 x 20 x 12 float (10 batch elements of width 1): field 10 ([2,2,2,2,1,1]), 3
    // in groups, 2 out groups. Zeroing 6 x 56 = 336; otherwise max(6 x 47, 6 x 46 + 14) = 290.
    // Later groups 2 x (15 + 2 x (19 + 6 + 32 + 290)); first 11 + 2 x (18 + 7 + 32 + 336).
    CHECK(poplin::conv1x1VertexCycles(t, FLOAT, FLOAT, 10, 1, 20, 12) == 50 + 13 + 1418 + 797);
  }
}

TEST_CASE("ConvPartialnx1 estimates follow PopLibs' formula", "[poplibs][cycles][conv]") {
  const Target t = Target::createIPUTarget(1, "ipu2");
  // half x float, 4 rows of 5, 3 x 3 kernel, 16 in chans, 8 out chans. Zeroing 160 partials:
  // 6 x (ceil(27 / 2) + 14 - 9) = 114. Supervisor 3 x (14 + 3 x (12 + 32 + 15 + 3)) = 600.
  // Workers with a row 17 + 3 + 34 + 8 - 9 = 53, idle 17: 9 positions x 318.
  // Outer 109 + 54 + 54 + 18 + 1 + 16 + 14 + 14.
  CHECK(poplin::convNx1VertexCycles(t, HALF, FLOAT, 4, 5, 3, 3, 16, 8) ==
        114 + 109 + 54 + 54 + 18 + 1 + 16 + 14 + 14 + 600 + 9 * 318);
  // float x float, 7 rows of 2 (context 0 takes two), 1 x 2 kernel, 8 in, 8 out chans.
  // Zeroing 6 x (10 + 5) = 90; supervisor 14 + 2 x 62; workers 17 + 2 x 38 = 93 -> 2 x 558.
  CHECK(poplin::convNx1VertexCycles(t, FLOAT, FLOAT, 7, 2, 1, 2, 8, 8) ==
        90 + 109 + 54 + 54 + 18 + 1 + 16 + 14 + 14 + 138 + 1116);
  // No input channels: the overhead and the zeroing only.
  ConvGroups none;
  none.numInGroups = 0;
  CHECK(convPartialNx1Cycles(t, HALF, HALF, none, 1, 1, 1, {}, 0) == 109 + 6 * (0 + 15 - 10));
}

TEST_CASE("ConvPartialHorizontalMac estimates follow PopLibs' formula", "[poplibs][cycles][conv]") {
  const Target t = Target::createIPUTarget(1, "ipu2");
  // Dot products: float x float over 3 channels steps 1 at 2 cycles + 1 warm-up: 7 + 1 + 6.
  CHECK(hmacDotProductCycles(2, true, true, 3) == 14);
  CHECK(hmacDotProductCycles(2, true, true, 8) == 7 + 4);
  // half x float over 6: step 2 (narrower than 64 bits): 7 + 1 + 3 x 2; over 8: step 4, 7 + 2.
  CHECK(hmacDotProductCycles(4, false, true, 6) == 14);
  CHECK(hmacDotProductCycles(4, false, true, 8) == 9);
  // half x half: two output channels per loop: 3 x 2 + 1 + 3 + 1, + 2 warm-up when narrow.
  CHECK(hmacDotProductCycles(4, false, false, 8) == 11 + 2);
  CHECK(hmacDotProductCycles(4, false, false, 5) == 11 + 2 + 10);
  // float, 3 rows of 4, 2 kernel positions, 3 in chans, 2 out chans. Zeroing 6 x 7;
  // worker with a row 16 + 2 x (16 + 19 + 4 x (7 + 2 x 14)) = 366.
  CHECK(poplin::convHmacVertexCycles(t, FLOAT, FLOAT, 3, 4, 2, 3, 2) ==
        42 + 58 + 54 + 23 + 15 + 10 + 6 * 366);
  // half x half, 1 row of 2, 8 in chans, 4 out chans (2 per loop). Zeroing 6 x 6;
  // worker 16 + 16 + 19 + 2 x (7 + 2 x 13) = 117.
  CHECK(poplin::convHmacVertexCycles(t, HALF, HALF, 1, 2, 1, 8, 4) ==
        36 + 63 + 60 + 23 + 15 + 10 + 6 * 117);
}

TEST_CASE("poplin::ReduceAdd follows PopLibs' ReduceAdd estimator for one worker",
          "[poplibs][cycles][conv]") {
  for (const char* arch : {"ipu2", "ipu1"}) {
    const Target t = Target::createIPUTarget(1, arch);
    INFO(arch);
    // float partials: 4 per loop at 2 per load + 1 for the pointer = 3 cycles per partial.
    // 10 outputs: 2 loops + 1 for the remainder bit 2; float out + 7.
    CHECK(reduceAddWorkerCycles(t, 10, 3, true, true) == 32 + (3 * 3 + 7) * 3);
    CHECK(reduceAddWorkerCycles(t, 4, 1, false, true) == 32 + (3 + 6) * 1);
    // half partials: 8 per loop at 4 per load + 1 = 3 per partial; half out + 8, float out + 9.
    CHECK(reduceAddWorkerCycles(t, 8, 4, false, false) == 32 + (12 + 8) * 1);
    CHECK(reduceAddWorkerCycles(t, 13, 2, true, false) == 32 + (6 + 9) * 3);
    CHECK(reduceAddWorkerCycles(t, 0, 2, true, true) == 32);
  }
}

// The codelets read their fields into the estimators as ConvVertexEstimates.hpp says: a small
// matmul on one tile (one ConvPartial1x1Out block of 3 x 8 x 5: one input group) shows the
// hand-worked figure in the profile's compile-time estimate: 30 to launch + PopLibs'
// ConvPartial1x1Out for a field of 3
// ([1,1,1,0,0,0]), one input and one output group: zeroing workers max(6 x 53, 6 x 24 + 14) =
// 318; 50 + 12 + 1 + 11 + 19 - 1 + 7 + 32 + 318 = 449.
TEST_CASE("A matmul's ConvPartial1x1Out vertex carries PopLibs' estimate into the profile",
          "[poplibs][cycles][conv]") {
  test::ScratchDir dir;
  Device device = test::smallDevice(1);
  Graph g(device.getTarget());
  poplin::addCodelets(g);
  popops::addCodelets(g);
  Tensor a = g.addVariable(FLOAT, {3, 8}, "a");
  Tensor b = g.addVariable(FLOAT, {8, 5}, "b");
  g.setTileMapping(a, 0);
  g.setTileMapping(b, 0);
  program::Sequence prog;
  poplin::matMul(g, a, b, prog, FLOAT, "mm");
  Engine e(g, prog, {{"autoReport.all", "true"}, {"autoReport.directory", dir.path().string()}});
  e.load(device);
  e.run();
  const pva::Report report = e.getReport();
  bool found = false;
  for (const auto& cs : report.compilation().computeSets())
    for (const auto& v : cs.vertices())
      if (v.type().name() == "poplin::ConvPartial1x1Out<float,float,true,false,8,2>") {
        found = true;
        CHECK(v.count() == 1);
        CHECK(cs.estimatedCyclesByTile()[0] == 30 + 449);
      }
  CHECK(found);
}

// The same for a convolution on one tile: 8 -> 8 channels, 1 x 1 kernel over a 4 x 4 field, one
// ConvPartial1x1Out of 16 field elements ([3,3,3,3,2,2]); float: zeroing workers
// max(6 x 60, 6 x 56 + 14) = 360; 50 + 12 + 1 + 11 + 19 - 1 + 7 + 32 + 360 = 491.
TEST_CASE("A convolution's ConvPartial1x1Out vertex carries PopLibs' estimate into the profile",
          "[poplibs][cycles][conv]") {
  test::ScratchDir dir;
  Device device = test::smallDevice(1);
  Graph g(device.getTarget());
  poplin::addCodelets(g);
  popops::addCodelets(g);
  const poplin::ConvParams params(FLOAT, 1, {4, 4}, {1, 1}, 8, 8, 1);
  program::Sequence prog;
  Tensor in = poplin::createInput(g, params, "in");
  Tensor w = poplin::createWeights(g, params, "w");
  poplin::convolution(g, in, w, params, false, prog, "conv");
  Engine e(g, prog, {{"autoReport.all", "true"}, {"autoReport.directory", dir.path().string()}});
  e.load(device);
  e.run();
  const pva::Report report = e.getReport();
  bool found = false;
  for (const auto& cs : report.compilation().computeSets())
    for (const auto& v : cs.vertices())
      if (v.type().name().rfind("poplin::ConvPartial1x1Out<float,float", 0) == 0) {
        found = true;
        REQUIRE(cs.numVertices() == 1);
        CHECK(cs.estimatedCyclesByTile()[0] == 30 + 491);
      }
  CHECK(found);
}
