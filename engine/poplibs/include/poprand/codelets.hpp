// Enables the poprand vertices (random distributions, dropout, seeds) on a graph.
#pragma once

#include <poplar/Graph.hpp>

namespace poprand {

/// Must be called once on a graph before any poprand operation adds vertices to it. logUniform
/// and shapedDropout also use popops vertices: call popops::addCodelets too.
void addCodelets(poplar::Graph& graph);

} // namespace poprand
