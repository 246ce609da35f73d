// The serialized graph (serialized_graph.capnp, written with the engine option
// autoReport.outputSerializedGraph): the graph as the program built it, i.e. variables with
// their tile mappings, compute sets, their vertices, and the variable regions each vertex field
// is connected to. Read whole and eagerly; it is a plain value with no link to the file.
//
//   pva::SerializedGraph g = pva::openSerializedGraph("reports/mlp/serialized_graph.capnp");
//   for (const pva::SerializedComputeSet& cs : g.computeSets) ...
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pva {

class Report;

/// Elements [begin, end) of a variable placed on one tile.
struct SerializedInterval {
  std::uint64_t begin = 0, end = 0;
  unsigned tile = 0;
};

struct SerializedVariable {
  std::string name;
  std::string elementType; ///< "float", "half", "int"...
  std::vector<std::uint64_t> shape;
  bool isConstant = false;
  std::vector<SerializedInterval> mapping;
};

/// Elements [begin, end) of variable number `variable` (an index into SerializedGraph::variables).
struct SerializedRegion {
  unsigned variable = 0;
  std::uint64_t begin = 0, end = 0;
};

/// A vertex field: one edge per connected tensor (a vector field has several), each edge the
/// variable regions that make up that tensor.
struct SerializedField {
  std::string name;
  std::vector<std::vector<SerializedRegion>> edges;
};

struct SerializedVertex {
  std::string type;
  unsigned tile = 0;
  std::vector<SerializedField> fields;
};

struct SerializedComputeSet {
  std::string name;
  std::uint64_t vertexCount = 0;
  std::vector<unsigned> tiles; ///< distinct tiles of its vertices, ascending
  std::vector<unsigned>
      variables; ///< distinct variables its vertices' fields connect to, ascending
  /// Every vertex; empty when read with SerializedGraphDetail::Outline.
  std::vector<SerializedVertex> vertices;
};

/// How much openSerializedGraph keeps: everything, or compute sets without their vertices
/// (their counts, tiles and variables still filled in). An outline of a graph with many
/// vertices reads several times faster and takes a fraction of the memory.
enum class SerializedGraphDetail { Vertices, Outline };

struct SerializedGraph {
  unsigned numIpus = 0;
  unsigned tilesPerIpu = 0;
  std::vector<SerializedVariable> variables;
  std::vector<SerializedComputeSet> computeSets;
  std::string path; ///< the file it was read from
};

/// Reads a serialized graph (the whole file is checked whatever `detail` keeps). Throws
/// FileNotFoundError (missing or unreadable) or InvalidReportError (not a serialized graph,
/// truncated, corrupted, or a region naming a variable that does not exist), each naming the file.
SerializedGraph openSerializedGraph(const std::string& path,
                                    SerializedGraphDetail detail = SerializedGraphDetail::Vertices);

/// Where the report's serialized graph would be: serialized_graph.capnp beside its profile.pop.
std::string serializedGraphPath(const Report& report);

/// True when that file exists (the report was written with autoReport.outputSerializedGraph).
bool hasSerializedGraph(const Report& report);

} // namespace pva
