// The vertices the engine, report and libpva tests run (defined in TestCodelets.cpp), and graphs
// that have them.
#pragma once

#include <poplar/Device.hpp>
#include <poplar/Graph.hpp>

namespace test {

/// Adds the test vertices (SumVertex, IotaVertex, IncrementVertex, ScaleVertex, ...) to `g`.
void addTestCodelets(poplar::Graph& g);

/// A graph on `device` with the test codelets added.
poplar::Graph makeGraph(const poplar::Device& device, unsigned replicationFactor = 1);

} // namespace test
