#include <popnn/codelets.hpp>

namespace popnn {

// The vertices are registered under the codelet source "popnn" by the *Codelets.cpp files of
// this library when it is loaded.
void addCodelets(poplar::Graph& graph) {
  graph.addCodelets("popnn");
}

} // namespace popnn
