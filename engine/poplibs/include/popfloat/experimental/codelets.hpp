// Enables popfloat's vertices on a graph.
#pragma once

#include <poplar/Graph.hpp>

namespace popfloat {
namespace experimental {

/// Call once on a graph before popfloat adds vertices to it. Tessera's popfloat has no vertices
/// yet (the gfloat casts of CastToGfloat.hpp are not provided), so this adds none; programs
/// that call it, as PopLibs' users do before any popfloat call, build and run unchanged.
void addCodelets(poplar::Graph& graph);

} // end namespace experimental
} // end namespace popfloat
