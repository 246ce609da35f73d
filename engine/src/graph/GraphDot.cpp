// Graph::outputVertexGraph and Graph::outputComputeGraph: Graphviz drawings of a graph, written
// from the graph's own records (nothing is compiled), for looking at small graphs by eye.
#include "GraphState.hpp"
#include "ProgramNode.hpp"

#include <ostream>
#include <set>

namespace poplar {
namespace {

std::string quoted(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + '"';
}

bool reads(detail::FieldDirection d) {
  return d == detail::FieldDirection::In || d == detail::FieldDirection::InOut;
}
bool writes(detail::FieldDirection d) {
  return d == detail::FieldDirection::Out || d == detail::FieldDirection::InOut;
}

/// The compute sets `programs` execute, in the order they first appear; all of the graph's
/// compute sets (in creation order) when no program is given.
std::vector<unsigned> computeSetsOf(const detail::GraphState& g,
                                    ArrayRef<program::Program> programs) {
  std::vector<unsigned> order;
  if (programs.empty()) {
    for (unsigned i = 0; i < g.computeSets.size(); ++i)
      order.push_back(i);
    return order;
  }
  std::set<unsigned> seen;
  std::set<const detail::ProgramNode*> visited;
  auto visit = [&](const detail::ProgramNode* n, auto& self) -> void {
    if (!n || !visited.insert(n).second) return;
    if (n->kind == detail::ProgramNode::Kind::Execute && n->computeSet.graphState() == &g &&
        n->computeSet.getId() < g.computeSets.size() && seen.insert(n->computeSet.getId()).second)
      order.push_back(n->computeSet.getId());
    if (n->kind == detail::ProgramNode::Kind::Call && n->function.getId() < g.functions.size())
      self(g.functions[n->function.getId()].node().get(), self);
    for (const auto& c : n->children)
      self(c.node().get(), self);
  };
  for (const auto& p : programs)
    visit(p.node().get(), visit);
  return order;
}

} // namespace

void Graph::outputVertexGraph(std::ostream& out, ArrayRef<program::Program> programs) const {
  const auto& g = *state_;
  std::set<unsigned> shown;
  for (unsigned cs : computeSetsOf(g, programs))
    shown.insert(cs);
  out << "digraph vertexGraph {\n  rankdir=LR;\n";
  std::set<unsigned> vars;
  for (unsigned v = 0; v < g.vertices.size(); ++v) {
    const auto& vertex = g.vertices[v];
    if (!shown.count(vertex.computeSet)) continue;
    out << "  v" << v << " [shape=box,label="
        << quoted(vertex.type->name + (vertex.hasTile() ? " @" + std::to_string(vertex.tile) : ""))
        << "];\n";
    for (std::size_t f = 0; f < vertex.type->fields.size(); ++f) {
      const auto& d = vertex.type->fields[f];
      std::set<unsigned> fieldVars; // one arrow per variable, however many edges reach it
      for (const auto& edge : vertex.fields[f].edges)
        if (edge.valid())
          for (const auto& r : edge)
            fieldVars.insert(r.var);
      for (unsigned var : fieldVars) {
        vars.insert(var);
        if (reads(d.direction))
          out << "  var" << var << " -> v" << v << " [label=" << quoted(d.name) << "];\n";
        if (writes(d.direction))
          out << "  v" << v << " -> var" << var << " [label=" << quoted(d.name) << "];\n";
      }
    }
  }
  for (unsigned var : vars)
    out << "  var" << var << " [shape=ellipse,label=" << quoted(g.variables[var].name) << "];\n";
  out << "}\n";
}

void Graph::outputComputeGraph(std::ostream& out, ArrayRef<program::Program> programs) const {
  const auto& g = *state_;
  out << "digraph computeGraph {\n  rankdir=LR;\n";
  std::set<unsigned> vars;
  for (unsigned cs : computeSetsOf(g, programs)) {
    const auto& set = g.computeSets[cs];
    out << "  cs" << cs << " [shape=box,label="
        << quoted(set.name + " (" + std::to_string(set.vertices.size()) + " vertices)") << "];\n";
    std::set<unsigned> in, outVars;
    for (unsigned v : set.vertices) {
      const auto& vertex = g.vertices[v];
      for (std::size_t f = 0; f < vertex.type->fields.size(); ++f) {
        const auto& d = vertex.type->fields[f];
        for (const auto& edge : vertex.fields[f].edges) {
          if (!edge.valid()) continue;
          for (const auto& r : edge) {
            if (reads(d.direction)) in.insert(r.var);
            if (writes(d.direction)) outVars.insert(r.var);
          }
        }
      }
    }
    for (unsigned var : in)
      out << "  var" << var << " -> cs" << cs << ";\n";
    for (unsigned var : outVars)
      out << "  cs" << cs << " -> var" << var << ";\n";
    vars.insert(in.begin(), in.end());
    vars.insert(outVars.begin(), outVars.end());
  }
  for (unsigned var : vars)
    out << "  var" << var << " [shape=ellipse,label=" << quoted(g.variables[var].name) << "];\n";
  out << "}\n";
}

} // namespace poplar
