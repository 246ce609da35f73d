#include "core/GraphData.hpp"

#include "core/Document.hpp"
#include "core/GraphLayout.hpp"

#include <QElapsedTimer>
#include <algorithm>
#include <map>
#include <pva/Compare.hpp>
#include <pva/Report.hpp>
#include <pva/SerializedGraph.hpp>
#include <set>
#include <string>

namespace tessera::viewer {

namespace {

/// Long op paths ("layer1/fwd/matmul/Convolve/...") keep their start and their end.
QString elide(const QString& s, int max = 36) {
  if (s.size() <= max) return s;
  const int left = max / 2 - 2;
  return s.left(left) + QStringLiteral("…") + s.right(max - left - 1);
}

QString shapeText(const pva::SerializedVariable& v) {
  QStringList dims;
  for (auto d : v.shape)
    dims << QString::number(d);
  return QString::fromStdString(v.elementType) + "[" + dims.join(',') + "]" +
         (v.isConstant ? " const" : "");
}

using Access = std::map<std::string, GraphEdge::Direction>;

/// How each compute set's OnTileExecute program (named after it) accesses variables, by name.
std::map<std::string, Access> accessesByComputeSet(const pva::Report& report) {
  std::map<std::string, Access> out;
  for (const auto& p : report.compilation().programs()) {
    if (p->type() != pva::Program::Type::OnTileExecute) continue;
    Access& a = out[p->name()];
    for (const auto& v : p->vars()) {
      const auto d = v.access() == pva::ProgramVariable::Access::Read ? GraphEdge::Direction::Read
                     : v.access() == pva::ProgramVariable::Access::Write
                         ? GraphEdge::Direction::Write
                         : GraphEdge::Direction::ReadWrite;
      a[v.name()] = d;
    }
  }
  return out;
}

} // namespace

GraphViewData buildGraph(const pva::SerializedGraph& graph, const pva::Report* report) {
  GraphViewData data;
  data.path = QString::fromStdString(graph.path);
  data.computeSets = static_cast<int>(graph.computeSets.size());
  data.variables = static_cast<int>(graph.variables.size());
  const auto accesses = report ? accessesByComputeSet(*report) : std::map<std::string, Access>{};
  data.nodes.reserve(data.computeSets + data.variables);
  for (int c = 0; c < data.computeSets; ++c) {
    const auto& cs = graph.computeSets[static_cast<std::size_t>(c)];
    const std::vector<unsigned>& tiles = cs.tiles; // distinct and ascending (libpva)
    GraphNode n;
    n.kind = GraphNode::Kind::ComputeSet;
    n.index = c;
    n.name = QString::fromStdString(cs.name);
    n.label = elide(n.name);
    n.detail = QStringLiteral("%1 %2 on %3 %4")
                   .arg(cs.vertexCount)
                   .arg(cs.vertexCount == 1 ? QStringLiteral("vertex") : QStringLiteral("vertices"))
                   .arg(tiles.size())
                   .arg(tiles.size() == 1 ? QStringLiteral("tile") : QStringLiteral("tiles"));
    n.tiles = sortedTileRanges(tiles);
    data.nodes.push_back(n);
  }
  for (int v = 0; v < data.variables; ++v) {
    const auto& var = graph.variables[static_cast<std::size_t>(v)];
    GraphNode n;
    n.kind = GraphNode::Kind::Variable;
    n.index = v;
    n.name = QString::fromStdString(var.name);
    n.label = elide(n.name);
    n.detail = shapeText(var);
    // Sorted in a vector: a set's node per tile cost a third of building a model-scale graph.
    std::vector<unsigned> tiles;
    tiles.reserve(var.mapping.size());
    for (const auto& m : var.mapping)
      tiles.push_back(m.tile);
    std::sort(tiles.begin(), tiles.end());
    tiles.erase(std::unique(tiles.begin(), tiles.end()), tiles.end());
    n.tiles = sortedTileRanges(tiles);
    data.nodes.push_back(n);
  }
  for (int c = 0; c < data.computeSets; ++c) {
    const auto& cs = graph.computeSets[static_cast<std::size_t>(c)];
    const auto access = accesses.find(cs.name);
    for (unsigned v : cs.variables) { // ascending: edges come out in a stable order
      GraphEdge e;
      const int varNode = data.computeSets + static_cast<int>(v);
      if (access != accesses.end()) {
        const auto d = access->second.find(graph.variables[v].name);
        if (d != access->second.end()) e.direction = d->second;
      }
      // Data flows down the page: a variable above the compute sets that read it, below the
      // one that writes it.
      const bool writes = e.direction == GraphEdge::Direction::Write ||
                          e.direction == GraphEdge::Direction::ReadWrite;
      e.from = writes ? c : varNode;
      e.to = writes ? varNode : c;
      data.edges.push_back(e);
    }
  }
  return data;
}

GraphViewData loadGraphView(const Document& doc, Progress& progress) {
  GraphViewData data = readGraph(doc, progress);
  if (!data.present) return data;
  progress.setStage(0.2, 1.0);
  QElapsedTimer timer;
  timer.start();
  layoutGraph(data, progress);
  data.layoutSeconds = timer.nsecsElapsed() / 1e9;
  return data;
}

GraphViewData readGraph(const Document& doc, Progress& progress) {
  const pva::Report& report = doc.report();
  if (!pva::hasSerializedGraph(report)) {
    GraphViewData none;
    none.present = false;
    none.path = QString::fromStdString(pva::serializedGraphPath(report));
    return none;
  }
  progress.setStage(0.0, 0.2);
  // The view needs each compute set's tiles and variables, not its vertices.
  const pva::SerializedGraph graph = pva::openSerializedGraph(pva::serializedGraphPath(report),
                                                              pva::SerializedGraphDetail::Outline);
  if (progress.cancelled()) throw Cancelled{};
  GraphViewData data = buildGraph(graph, &report);
  if (doc.base()) {
    const pva::Report& base = doc.base()->report();
    if (pva::hasSerializedGraph(base))
      markChanges(data,
                  pva::openSerializedGraph(pva::serializedGraphPath(base),
                                           pva::SerializedGraphDetail::Outline),
                  graph);
  }
  return data;
}

void markChanges(GraphViewData& data, const pva::SerializedGraph& base,
                 const pva::SerializedGraph& current) {
  const pva::SerializedGraphComparison c = pva::compareSerializedGraphs(base, current);
  data.compared = true;
  auto mark = [&](GraphNode& n, pva::SerializedGraphComparison::Change change) {
    using C = pva::SerializedGraphComparison::Change;
    n.change = change == C::New       ? GraphNode::Change::New
               : change == C::Changed ? GraphNode::Change::Changed
                                      : GraphNode::Change::Same;
    if (n.change == GraphNode::Change::New) ++data.newNodes;
    if (n.change == GraphNode::Change::Changed) ++data.changedNodes;
  };
  for (GraphNode& n : data.nodes) {
    const auto& changes = n.kind == GraphNode::Kind::ComputeSet ? c.computeSets : c.variables;
    if (n.index >= 0 && std::size_t(n.index) < changes.size())
      mark(n, changes[std::size_t(n.index)]);
  }
  for (const std::string& name : c.computeSetsOnlyInBase)
    data.onlyInBase << QString::fromStdString(name);
  for (const std::string& name : c.variablesOnlyInBase)
    data.onlyInBase << QString::fromStdString(name);
}

namespace {
template <class It> QString rangesOf(It it, It end) {
  QString out;
  for (bool firstRun = true; it != end; firstRun = false) {
    const unsigned first = *it;
    unsigned last = first;
    while (++it != end && *it == last + 1)
      ++last;
    if (!firstRun) out += QLatin1Char(',');
    out += QString::number(first);
    if (last != first) out += QLatin1Char('-') + QString::number(last);
  }
  return out;
}
} // namespace

QString tileRanges(const std::set<unsigned>& tiles) {
  return rangesOf(tiles.begin(), tiles.end());
}

QString sortedTileRanges(const std::vector<unsigned>& tiles) {
  return rangesOf(tiles.begin(), tiles.end());
}

QVector<int> findNodes(const GraphViewData& data, const QString& text) {
  QVector<int> out;
  if (text.isEmpty()) return out;
  for (int i = 0; i < data.nodes.size(); ++i)
    if (data.nodes[i].name.contains(text, Qt::CaseInsensitive)) out.push_back(i);
  return out;
}

} // namespace tessera::viewer
