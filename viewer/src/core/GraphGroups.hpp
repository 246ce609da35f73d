// The Graph view at model scale: compute sets and variables grouped by the paths of their names
// (debug paths: "fwd/layer1/matmul/MatMul/Multiply" lies in "fwd/layer1/matmul/MatMul", inside
// "fwd/layer1/matmul", "fwd/layer1", "fwd"), which are the model's layers and operations. The
// view lays out the groups first, each as one node, and a group the user opens shows what is in
// it, so Graphviz only ever lays out what is on screen: a few hundred nodes, not the thousands of
// a CNN's variables.
#pragma once

#include "core/GraphData.hpp"

#include <set>
#include <vector>

namespace tessera::viewer {

struct GraphGroups {
  struct Group {
    QString path;                       ///< "fwd/layer1"; empty for the root
    int parent = -1;                    ///< -1 for the root
    std::vector<int> groups;            ///< groups directly inside, in name order
    std::vector<int> leaves;            ///< full-graph nodes directly inside, in node order
    int computeSets = 0, variables = 0; ///< every node below it
    bool changed = false;               ///< comparing: a node below it changed or is new
  };
  std::vector<Group> groups;    ///< [0] is the root
  std::vector<int> groupOfLeaf; ///< innermost group of each full-graph node
};

/// "block2" < "block10": runs of digits compared as numbers, the rest character by character
/// (the order groups are shown in).
bool naturalLess(const QString& a, const QString& b);

/// Groups the nodes of a graph built by buildGraph (not laid out) by the paths of their names.
GraphGroups groupByPath(const GraphViewData& full);

/// Graphs of at most this many nodes are shown whole at once, as they always were.
constexpr int kWholeGraphNodes = 400;
/// Opening groups stops short of this many nodes on screen (Graphviz's time grows fast with it).
constexpr int kMaxShownNodes = 1000;
/// What a large graph opens on: groups opened breadth first while at most this many nodes show.
constexpr int kFirstViewNodes = 60;

/// The groups to open first: every group for a graph of at most `wholeGraph` nodes, else groups
/// opened breadth first while at most kFirstViewNodes nodes show.
std::set<int> initialExpansion(const GraphViewData& full, const GraphGroups& groups,
                               int wholeGraph = kWholeGraphNodes);

/// How many nodes show with `expanded` open (the root always is).
int shownNodes(const GraphGroups& groups, const std::set<int>& expanded);

/// The group a node of the view stands for, skipping groups that hold only one group (opening
/// "fwd" to find only "fwd/layer1" would be a click for nothing).
int representative(const GraphGroups& groups, int group);

/// `group` and every group above it: what must be open for what is in `group` to show.
std::vector<int> openPathTo(const GraphGroups& groups, int group);

/// The graph as shown: the root's content, each open group's content in its place, every other
/// group one node (Kind::Group) that stands for what is in it; edges between shown nodes, one per
/// pair (an edge into a closed group is drawn to the group). Not laid out. When every group is
/// open, nodes and edges are `full`'s in the same order (node i is full node i).
GraphViewData shownGraph(const GraphViewData& full, const GraphGroups& groups,
                         const std::set<int>& expanded);

} // namespace tessera::viewer
