#include <popfloat/experimental/codelets.hpp>

namespace popfloat {
namespace experimental {

// Nothing to enable until popfloat has vertices (see the header).
void addCodelets(poplar::Graph& graph) {
  (void)graph;
}

} // end namespace experimental
} // end namespace popfloat
