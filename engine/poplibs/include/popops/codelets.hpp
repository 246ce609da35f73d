// Enables the popops vertices (element-wise, fill, cast, reduce) on a graph.
#pragma once

#include <poplar/Graph.hpp>

namespace popops {

/// Must be called once on a graph before any popops operation adds vertices to it.
void addCodelets(poplar::Graph& graph);

} // namespace popops
