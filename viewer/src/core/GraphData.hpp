// The computation graph view's data: the serialized graph (read by libpva) turned into nodes
// (compute sets and variables) and edges (a compute set's vertices read or write a variable),
// laid out by Graphviz (GraphLayout). Built off the GUI thread by loadGraphView; this is the one
// place the viewer derives anything from the serialized graph.
#pragma once

#include "core/Background.hpp"

#include <QPainterPath>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <QVector>
#include <memory>
#include <set>
#include <vector>

namespace pva {
struct SerializedGraph;
class Report;
} // namespace pva

namespace tessera::viewer {

class Document;

struct GraphNode {
  /// Group: a layer or operation standing for the compute sets and variables under its path
  /// (GraphGroups), until it is opened.
  enum class Kind { ComputeSet, Variable, Group };
  Kind kind = Kind::ComputeSet;
  int index = 0;  ///< into the serialized graph's computeSets or variables; a Group's group id
  QString name;   ///< full name (search, selection, tooltips)
  QString label;  ///< drawn text, elided to fit the box
  QString detail; ///< second line: "12 vertices on 4 tiles" or "float[64,32], 8 KiB"
  QString tiles;  ///< where it lives: the variable's mapping or the vertices' tiles, "0-3,7"
  QRectF rect;    ///< laid out, in graph coordinates (y down)
  /// Comparing (GraphViewData::compared): against the base's element of the same name
  /// (pva::compareSerializedGraphs).
  enum class Change { Same, Changed, New };
  Change change = Change::Same;
};

struct GraphEdge {
  enum class Direction { Read, Write, ReadWrite, Unknown };
  int from = 0, to = 0; ///< node indices; reads go variable -> compute set, writes the other way
  Direction direction = Direction::Unknown;
  QPainterPath path; ///< laid out, ends at the arrow's tip
  QPointF arrowTip, arrowBase;
  /// False for an edge of a hub (a node with more than kRoutedDegree edges, GraphLayout): a
  /// straight line between the laid-out nodes instead of routed by Graphviz, drawn only while
  /// one of its ends is selected.
  bool routed = true;
};

struct GraphViewData {
  bool present = true;      ///< false: the report was written without a serialized graph
  QVector<GraphNode> nodes; ///< compute sets first, then variables
  QVector<GraphEdge> edges; ///< one per (compute set, variable) pair joined by a vertex field
  int computeSets = 0, variables = 0;
  QRectF bounds;              ///< of every node and edge
  QString path;               ///< serialized_graph.capnp
  double layoutSeconds = 0.0; ///< Graphviz's share of loading
  /// Comparing with a base report that has a serialized graph: nodes say what changed, and the
  /// base's elements the current graph no longer has are named here.
  bool compared = false;
  QStringList onlyInBase;
  int changedNodes = 0, newNodes = 0;
  /// A graph shown by groups (shownGraph): some nodes stand for a closed group. Then, by shown
  /// node, the full graph's node it is (-1 for a group), and by full-graph node, the shown node
  /// that is it or holds it. Empty when the graph is shown whole (node i is full node i).
  bool grouped = false;
  QVector<int> leafOfNode, nodeOfLeaf;
  int groupsShown = 0; ///< closed groups among the nodes
  /// The shown node for a full-graph node (itself when shown whole).
  int shownNodeOf(int leaf) const {
    if (!grouped) return leaf;
    return leaf >= 0 && leaf < nodeOfLeaf.size() ? nodeOfLeaf[leaf] : -1;
  }
  /// The full-graph node a shown node is (-1: a group).
  int leafOf(int node) const {
    if (!grouped) return node;
    return node >= 0 && node < leafOfNode.size() ? leafOfNode[node] : -1;
  }
};

/// Nodes and edges of `graph` (not laid out). `report`, when given, orients each edge by how
/// the compute set's OnTileExecute program accesses the variable; without it edges are Unknown
/// and drawn from variable to compute set.
GraphViewData buildGraph(const pva::SerializedGraph& graph, const pva::Report* report);

/// Reads the document's serialized graph through libpva, builds and lays it out; `present` is
/// false (and nothing else set) when the report has none. Throws pva::Exception or Cancelled.
/// The whole graph: for a large one, the Graph page lays out groups (readGraph, GraphGroups).
GraphViewData loadGraphView(const Document& doc, Progress& progress);

/// Reads and builds the document's graph (marked against the base's when comparing), without
/// laying it out.
GraphViewData readGraph(const Document& doc, Progress& progress);

/// Marks each node with its change against the base graph (pva::compareSerializedGraphs).
void markChanges(GraphViewData& data, const pva::SerializedGraph& base,
                 const pva::SerializedGraph& current);

/// "0-3,7,9-10" (the Memory view's tile-list syntax).
QString tileRanges(const std::set<unsigned>& tiles);
/// The same of distinct tiles in ascending order.
QString sortedTileRanges(const std::vector<unsigned>& tiles);

/// Indices of the nodes whose name contains `text` (case-insensitive), in node order.
QVector<int> findNodes(const GraphViewData& data, const QString& text);

} // namespace tessera::viewer
