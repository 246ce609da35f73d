#include <popsparse/codelets.hpp>

namespace popsparse {

// The vertices are registered under the codelet source "popsparse" by SparseCodelets.cpp when
// this library loads. The operations also zero outputs with popops' vertices.
void addCodelets(poplar::Graph& graph) {
  graph.addCodelets("popsparse");
  graph.addCodelets("popops");
}

} // namespace popsparse
