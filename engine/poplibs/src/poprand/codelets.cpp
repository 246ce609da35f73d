#include <poprand/codelets.hpp>

namespace poprand {

// The vertices are registered under the codelet source "poprand" by RandomCodelets.cpp when
// this library loads.
void addCodelets(poplar::Graph& graph) {
  graph.addCodelets("poprand");
}

} // namespace poprand
