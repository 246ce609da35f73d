// The graph view's counts read independently of libpva and the viewer: serialized_graph.capnp
// decoded with Cap'n Proto's own stream reader and the schema.
#pragma once

#include <QString>
#include <map>
#include <set>

namespace viewer_test {

struct RawGraph {
  int computeSets = 0, variables = 0;
  /// Distinct (compute set, variable) pairs joined by a vertex field: the view's edges.
  int edges = 0;
  /// Tiles each variable is mapped to, by name.
  std::map<QString, std::set<unsigned>> variableTiles;
};

RawGraph readRawGraph(const QString& path);

} // namespace viewer_test
