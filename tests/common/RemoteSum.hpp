// The hand-computed example of the report and libpva tests: a sum whose input is half remote.
#pragma once

#include "common/Devices.hpp"
#include "common/TestCodelets.hpp"

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace test {

/// The hand-computed example of the report tests, on a 4-tile IPU:
///   a   float[8], elements 0-3 on tile 0, 4-7 on tile 1, with an initial value (always live)
///   out float[1] on tile 0
///   compute set "sum": one SumVertex on tile 0, in = a, out = out
///   program: Execute(sum)
/// Expected steps: Sync "sum/Sync", DoExchange "sum/Exchange" (a[4..8) from tile 1 to tile 0,
/// 16 bytes), OnTileExecute "sum".
struct RemoteSum {
  poplar::Device device = tinyDevice();
  poplar::Graph graph = makeGraph(device);
  poplar::Tensor a, out;
  poplar::program::Program program;
  RemoteSum();
};

} // namespace test
