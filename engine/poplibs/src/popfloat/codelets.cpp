#include <popfloat/experimental/codelets.hpp>

namespace popfloat {
namespace experimental {

// The gfloat cast vertices are registered under the codelet source "popfloat" by
// GfloatCastCodelets.cpp when the library loads.
void addCodelets(poplar::Graph& graph) {
  graph.addCodelets("popfloat");
}

} // end namespace experimental
} // end namespace popfloat
