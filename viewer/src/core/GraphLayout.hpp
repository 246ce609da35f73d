// Lays out GraphViewData with Graphviz's libgvc (the "dot" layered layout): node positions and
// edge splines, converted to Qt coordinates (points, y down). The viewer's only Graphviz code.
#pragma once

namespace tessera::viewer {

struct GraphViewData;
class Progress;

/// Fills every node's rect, every edge's path and arrow, and data.bounds. Node sizes come from
/// their labels. Throws std::runtime_error when Graphviz cannot lay out (no dot plugin), or
/// Cancelled. Graphviz keeps global state: layouts are serialized by a mutex.
void layoutGraph(GraphViewData& data, Progress& progress);

} // namespace tessera::viewer
