// Enables the popnn vertices (non-linearities, losses) on a graph.
#pragma once

#include <poplar/Graph.hpp>

namespace popnn {

/// Must be called once on a graph before any popnn operation adds vertices to it. The popnn
/// operations also use popops vertices: call popops::addCodelets too.
void addCodelets(poplar::Graph& graph);

} // namespace popnn
