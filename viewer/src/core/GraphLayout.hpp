// Lays out GraphViewData with Graphviz's libgvc (the "dot" layered layout): node positions and
// edge splines, converted to Qt coordinates (points, y down). The viewer's only Graphviz code.
#pragma once

namespace tessera::viewer {

struct GraphViewData;
class Progress;

/// In a graph shown by groups, edges of a node with more than this many edges are not routed by
/// Graphviz. At model scale a
/// closed group such as "fwd" or "params" joins every block of an opened "bwd", the blocks a
/// chain 80 ranks deep: dot routes each such edge through a virtual node per rank it crosses, and
/// 3 such hubs of ~100 edges took a 119-node layout from 2 ms to minutes. Those edges are drawn
/// straight between the laid-out nodes (GraphEdge::routed false).
constexpr int kRoutedDegree = 12;

/// Fills every node's rect, every edge's path and arrow, and data.bounds. Node sizes come from
/// their labels. Throws std::runtime_error when Graphviz cannot lay out (no dot plugin), or
/// Cancelled. Graphviz keeps global state: layouts are serialized by a mutex.
void layoutGraph(GraphViewData& data, Progress& progress);

} // namespace tessera::viewer
