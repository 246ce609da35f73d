// Enables the popsparse vertices on a graph.
#pragma once

#include <poplar/Graph.hpp>

namespace popsparse {

/// Must be called once on a graph before any popsparse operation adds vertices to it.
void addCodelets(poplar::Graph& graph);

} // namespace popsparse
