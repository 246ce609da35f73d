// Only <poplar/Graph.hpp>: poplar::poplar_error and its family come with it, as in the SDK.
#include <poplar/Graph.hpp>

std::string sliceError(poplar::Graph &graph) {
  poplar::Tensor t = graph.addVariable(poplar::FLOAT, {4});
  graph.setTileMapping(t, 0);
  try {
    t.slice(2, 9);
  } catch (const poplar::index_error &e) {
    return "index_error";
  } catch (const poplar::poplar_error &e) {
    return "poplar_error";
  }
  return "none";
}
