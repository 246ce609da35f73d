#include <popops/codelets.hpp>

namespace popops {

// The vertices are registered under the codelet source "popops" by the *Codelets.cpp files of
// this library when it is loaded.
void addCodelets(poplar::Graph& graph) {
  graph.addCodelets("popops");
}

} // namespace popops
