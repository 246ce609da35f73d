#include <poplin/codelets.hpp>

namespace poplin {

// The vertices are registered under the codelet source "poplin" by MatMulCodelets.cpp when this
// library is loaded.
void addCodelets(poplar::Graph& graph) {
  graph.addCodelets("poplin");
}

} // namespace poplin
