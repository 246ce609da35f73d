// Grouping the graph by name paths, and the graph shown with some groups open.
#include "core/GraphGroups.hpp"

#include <QHash>
#include <QLocale>
#include <QStringList>
#include <algorithm>
#include <deque>
#include <map>

namespace tessera::viewer {

namespace {

/// Long paths keep their start and their end (as GraphData's node labels).
QString elideMiddle(const QString& s, int max = 36) {
  if (s.size() <= max) return s;
  const int left = max / 2 - 2;
  return s.left(left) + QStringLiteral("…") + s.right(max - left - 1);
}

/// The last two parts of a path ("ConvGradWeight/Reduce_1" of "bwd/block40/.../Reduce_1"): in a
/// graph shown by groups, where the open groups say the rest, the part that tells nodes apart
/// (the full name is in the details line and the search).
QString tail(const QString& path) {
  const int last = path.lastIndexOf(QLatin1Char('/'));
  const int before = last > 0 ? path.lastIndexOf(QLatin1Char('/'), last - 1) : -1;
  return before >= 0 ? path.mid(before + 1) : path;
}

/// "12 compute sets, 1 variable", without a zero part ("1,959 variables").
QString groupContent(int computeSets, int variables) {
  auto count = [](int n, const char* one, const char* many) {
    return QLocale(QLocale::English).toString(n) + QLatin1Char(' ') +
           QLatin1String(n == 1 ? one : many);
  };
  QStringList parts;
  if (computeSets > 0 || variables == 0) parts << count(computeSets, "compute set", "compute sets");
  if (variables > 0) parts << count(variables, "variable", "variables");
  return parts.join(QStringLiteral(", "));
}

} // namespace

bool naturalLess(const QString& a, const QString& b) {
  int i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i].isDigit() && b[j].isDigit()) {
      // Whole runs of digits, as numbers: skip leading zeros, then the longer run is larger.
      int ei = i, ej = j;
      while (ei < a.size() && a[ei].isDigit())
        ++ei;
      while (ej < b.size() && b[ej].isDigit())
        ++ej;
      int si = i, sj = j;
      while (si + 1 < ei && a[si] == QLatin1Char('0'))
        ++si;
      while (sj + 1 < ej && b[sj] == QLatin1Char('0'))
        ++sj;
      if (ei - si != ej - sj) return ei - si < ej - sj;
      for (; si < ei; ++si, ++sj)
        if (a[si] != b[sj]) return a[si] < b[sj];
      i = ei, j = ej;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i, ++j;
  }
  return a.size() - i < b.size() - j;
}

GraphGroups groupByPath(const GraphViewData& full) {
  GraphGroups out;
  out.groups.push_back({});
  std::map<QString, int> byPath; // name order for the children, and one group per path
  out.groupOfLeaf.assign(std::size_t(full.nodes.size()), 0);
  auto groupFor = [&](const QString& path) {
    // Every prefix of the path is a group: "a/b/c" needs "a" and "a/b".
    int parent = 0;
    int from = 0;
    while (true) {
      const int slash = path.indexOf(QLatin1Char('/'), from);
      const QString prefix = slash < 0 ? path : path.left(slash);
      auto [it, added] = byPath.emplace(prefix, int(out.groups.size()));
      if (added) {
        GraphGroups::Group g;
        g.path = prefix;
        g.parent = parent;
        out.groups.push_back(std::move(g));
      }
      parent = it->second;
      if (slash < 0) return parent;
      from = slash + 1;
    }
  };
  for (int i = 0; i < full.nodes.size(); ++i) {
    const GraphNode& n = full.nodes[i];
    const int slash = n.name.lastIndexOf(QLatin1Char('/'));
    // A name without a path ("images") sits at the top; so does one starting with '/'.
    const int group = slash > 0 ? groupFor(n.name.left(slash)) : 0;
    out.groups[std::size_t(group)].leaves.push_back(i);
    out.groupOfLeaf[std::size_t(i)] = group;
    const bool changed = n.change != GraphNode::Change::Same;
    for (int g = group; g >= 0; g = out.groups[std::size_t(g)].parent) {
      auto& grp = out.groups[std::size_t(g)];
      (n.kind == GraphNode::Kind::ComputeSet ? grp.computeSets : grp.variables) += 1;
      grp.changed |= changed;
    }
  }
  for (const auto& [path, id] : byPath)
    out.groups[std::size_t(out.groups[std::size_t(id)].parent)].groups.push_back(id);
  // Children in the model's order: "block2" before "block10" (numbers compared as numbers).
  for (auto& g : out.groups)
    std::stable_sort(g.groups.begin(), g.groups.end(), [&](int a, int b) {
      return naturalLess(out.groups[std::size_t(a)].path, out.groups[std::size_t(b)].path);
    });
  return out;
}

int representative(const GraphGroups& groups, int group) {
  while (groups.groups[std::size_t(group)].leaves.empty() &&
         groups.groups[std::size_t(group)].groups.size() == 1)
    group = groups.groups[std::size_t(group)].groups.front();
  return group;
}

std::vector<int> openPathTo(const GraphGroups& groups, int group) {
  std::vector<int> out;
  for (int g = group; g >= 0; g = groups.groups[std::size_t(g)].parent)
    out.push_back(g);
  return out;
}

namespace {

/// Walks what shows: calls leaf(fullNode) and closed(group) in display order.
template <class Leaf, class Closed>
void walkShown(const GraphGroups& groups, const std::set<int>& expanded, Leaf&& leaf,
               Closed&& closed) {
  // Depth first in the groups' order (an open group's content in its place), without recursion:
  // (group, next child) pairs.
  std::vector<std::pair<int, std::size_t>> stack{{0, 0}};
  for (const int l : groups.groups.front().leaves)
    leaf(l);
  while (!stack.empty()) {
    auto& [g, next] = stack.back();
    const auto& grp = groups.groups[std::size_t(g)];
    if (next == grp.groups.size()) {
      stack.pop_back();
      continue;
    }
    const int child = representative(groups, grp.groups[next++]);
    if (!expanded.count(child)) {
      closed(child);
      continue;
    }
    for (const int l : groups.groups[std::size_t(child)].leaves)
      leaf(l);
    stack.emplace_back(child, 0);
  }
}

} // namespace

int shownNodes(const GraphGroups& groups, const std::set<int>& expanded) {
  int n = 0;
  walkShown(
      groups, expanded, [&](int) { ++n; }, [&](int) { ++n; });
  return n;
}

std::set<int> initialExpansion(const GraphViewData& full, const GraphGroups& groups,
                               int wholeGraph) {
  std::set<int> open{0};
  if (full.nodes.size() <= wholeGraph) {
    for (int g = 0; g < int(groups.groups.size()); ++g)
      open.insert(g);
    return open;
  }
  // Breadth first: the layers, then their operations, while the view stays readable.
  int shown = shownNodes(groups, open);
  std::deque<int> queue;
  for (const int child : groups.groups.front().groups)
    queue.push_back(representative(groups, child));
  while (!queue.empty()) {
    const int g = queue.front();
    queue.pop_front();
    const auto& grp = groups.groups[std::size_t(g)];
    const int added = int(grp.leaves.size() + grp.groups.size()) - 1;
    if (shown + added > kFirstViewNodes) continue;
    for (const int up : openPathTo(groups, g))
      open.insert(up);
    shown += added;
    for (const int child : grp.groups)
      queue.push_back(representative(groups, child));
  }
  return open;
}

GraphViewData shownGraph(const GraphViewData& full, const GraphGroups& groups,
                         const std::set<int>& expanded) {
  bool everything = true;
  walkShown(
      groups, expanded, [](int) {}, [&](int) { everything = false; });
  if (everything) return full; // node i is full node i: nothing to map

  GraphViewData out;
  out.present = full.present;
  out.path = full.path;
  out.computeSets = full.computeSets;
  out.variables = full.variables;
  out.compared = full.compared;
  out.onlyInBase = full.onlyInBase;
  out.changedNodes = full.changedNodes;
  out.newNodes = full.newNodes;
  out.grouped = true;
  out.nodeOfLeaf.fill(-1, full.nodes.size());
  walkShown(
      groups, expanded,
      [&](int leaf) {
        out.nodeOfLeaf[leaf] = int(out.nodes.size());
        out.leafOfNode.push_back(leaf);
        out.nodes.push_back(full.nodes[leaf]);
        out.nodes.back().label = elideMiddle(tail(full.nodes[leaf].name));
      },
      [&](int g) {
        const auto& grp = groups.groups[std::size_t(g)];
        GraphNode n;
        n.kind = GraphNode::Kind::Group;
        n.index = g;
        n.name = grp.path;
        n.label = elideMiddle(tail(grp.path)) + QStringLiteral(" ▸");
        n.detail = groupContent(grp.computeSets, grp.variables);
        n.change = grp.changed ? GraphNode::Change::Changed : GraphNode::Change::Same;
        out.leafOfNode.push_back(-1);
        out.nodes.push_back(std::move(n));
        ++out.groupsShown;
      });
  // Every full node hidden in a closed group is drawn as that group (only one group on its way
  // up shows: nothing inside a closed group does).
  QHash<int, int> nodeOfGroup;
  for (int i = 0; i < out.nodes.size(); ++i)
    if (out.nodes[i].kind == GraphNode::Kind::Group) nodeOfGroup.insert(out.nodes[i].index, i);
  for (int leaf = 0; leaf < full.nodes.size(); ++leaf) {
    if (out.nodeOfLeaf[leaf] >= 0) continue;
    for (int g = groups.groupOfLeaf[std::size_t(leaf)]; g >= 0;
         g = groups.groups[std::size_t(g)].parent)
      if (const auto it = nodeOfGroup.constFind(g); it != nodeOfGroup.constEnd()) {
        out.nodeOfLeaf[leaf] = it.value();
        break;
      }
  }
  // One edge per ordered pair of shown nodes; directions kept when every edge merged agrees.
  QHash<quint64, int> edgeOf;
  for (const GraphEdge& e : full.edges) {
    const int from = out.nodeOfLeaf[e.from], to = out.nodeOfLeaf[e.to];
    if (from < 0 || to < 0 || from == to) continue;
    const quint64 key = (quint64(quint32(from)) << 32) | quint32(to);
    const auto it = edgeOf.constFind(key);
    if (it == edgeOf.constEnd()) {
      GraphEdge shown;
      shown.from = from;
      shown.to = to;
      shown.direction = e.direction;
      edgeOf.insert(key, int(out.edges.size()));
      out.edges.push_back(shown);
    } else if (out.edges[it.value()].direction != e.direction) {
      out.edges[it.value()].direction = GraphEdge::Direction::Unknown;
    }
  }
  return out;
}

} // namespace tessera::viewer
