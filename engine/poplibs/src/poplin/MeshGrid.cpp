#include <poplin/MeshGrid.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>
#include <string>

namespace poplin {

poplar::Tensor linspace(poplar::Graph& graph, const poplar::Type& type, float left, float right,
                        size_t count, const poplar::DebugContext& debugContext) {
  if (count == 0) throw poputil::poplibs_error("poplin::linspace: count must be at least 1");
  if (type != poplar::FLOAT && type != poplar::HALF)
    throw poputil::poplibs_error("poplin::linspace: type must be float or half, not " +
                                 type.toString());
  const poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(left, right, count), "linspace");
  std::vector<float> values(count);
  // Each value from its index, not by accumulating a step, so the last one is exactly `right`.
  for (size_t i = 0; i < count; ++i)
    values[i] = count == 1
                    ? left
                    : float(double(left) + (double(right) - left) * double(i) / double(count - 1));
  poplar::Tensor t = graph.addConstant(type, {count}, values.data(), {di, "linspace"});
  poputil::mapTensorLinearly(graph, t);
  return t;
}

std::vector<poplar::Tensor> meshgrid2d(poplar::Graph&, poplar::Tensor x, poplar::Tensor y) {
  if (x.rank() != 1 || y.rank() != 1)
    throw poputil::poplibs_error("poplin::meshgrid2d: x and y must have rank 1, not " +
                                 std::to_string(x.rank()) + " and " + std::to_string(y.rank()));
  const unsigned n = unsigned(x.numElements()), m = unsigned(y.numElements());
  return {x.expand({0}).broadcast(m, 0), y.expand({1}).broadcast(n, 1)};
}

} // namespace poplin
