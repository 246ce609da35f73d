// Enables the poplin vertices (matrix multiplication) on a graph.
#pragma once

#include <poplar/Graph.hpp>

namespace poplin {

/// Must be called once on a graph before any poplin operation adds vertices to it.
void addCodelets(poplar::Graph& graph);

} // namespace poplin
