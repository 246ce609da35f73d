// Enables popfloat's vertices on a graph.
#pragma once

#include <poplar/Graph.hpp>

namespace popfloat {
namespace experimental {

/// Call once on a graph before popfloat adds vertices to it: enables the gfloat cast vertices
/// (CastToGfloat.hpp).
void addCodelets(poplar::Graph& graph);

} // end namespace experimental
} // end namespace popfloat
