#include <popops/ElementWiseUtil.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

poplar::Tensor createOutputForElementWiseOp(poplar::Graph& graph,
                                            const std::vector<poplar::Tensor>& inputs,
                                            const poplar::Type& outputType,
                                            const poplar::DebugContext& debugContext) {
  const std::string op = "popops::createOutputForElementWiseOp";
  if (inputs.empty()) throw poputil::poplibs_error(op + ": inputs is empty");
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].valid())
      throw poputil::poplibs_error(op + ": inputs[" + std::to_string(i) + "] is invalid");
    if (inputs[i].shape() != inputs[0].shape())
      throw poputil::poplibs_error(op + ": inputs[" + std::to_string(i) + "] has shape " +
                                   inputs[i].shapeToString() + " but inputs[0] has " +
                                   inputs[0].shapeToString() + "; all inputs need one shape");
  }
  const poplar::Tensor* best = nullptr;
  std::size_t bestTiles = 0;
  for (const auto& t : inputs) {
    if (t.containsAliases()) continue;
    std::size_t tiles = 0;
    try {
      for (const auto& intervals : graph.getTileMapping(t))
        tiles += intervals.empty() ? 0 : 1;
    } catch (const poplar::poplar_error&) {
      continue; // not (completely) mapped
    }
    if (tiles > bestTiles) {
      best = &t;
      bestTiles = tiles;
    }
  }
  if (best) return graph.clone(outputType, *best, debugContext);
  poplar::Tensor out = graph.addVariable(outputType, inputs[0].shape(), debugContext);
  poputil::mapTensorLinearly(graph, out);
  return out;
}

} // namespace popops
