// Spatial softmax as PopLibs builds it from public operations: scale by 1 / temperature, the
// softmax, then one matrix product of the [F, H x W] weights with the [H x W, 2] grid of (y, x)
// coordinates, which is the pointwise products and the sums over each field at once.
#include <cmath>
#include <poplin/MatMul.hpp>
#include <poplin/MeshGrid.hpp>
#include <popnn/SpatialSoftMax.hpp>
#include <popops/ElementWise.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>

namespace popnn {

using namespace poplar;

std::pair<Tensor, Tensor> spatialSoftMax2D(Graph& graph, program::Sequence& prog,
                                           const Tensor& fields, float temperature,
                                           bool disableSoftmax, const DebugContext& debugContext) {
  const std::string op = "popnn::spatialSoftMax2D";
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(fields, disableSoftmax, temperature),
                                 "SpatialSoftMax2D");
  if (!fields.valid() || fields.rank() != 3)
    throw poputil::poplibs_error(op + ": fields tensor must have rank 3 ([F, H, W]), not " +
                                 (fields.valid() ? fields.shapeToString() : "(invalid)"));
  const Type type = fields.elementType();
  if (type != FLOAT && type != HALF)
    throw poputil::poplibs_error(op + ": fields must be FLOAT or HALF, not " + type.toString());
  if (fields.numElements() == 0)
    throw poputil::poplibs_error(op + ": fields " + fields.shapeToString() + " is empty");
  if (temperature == 0.0f || !std::isfinite(temperature))
    throw poputil::poplibs_error(op + ": temperature must be finite and non-zero, not " +
                                 std::to_string(temperature));

  const Tensor temp = graph.addVariable(type, {}, {di, "temperature"});
  graph.setInitialValue(temp, temperature);
  graph.setTileMapping(temp, 0);
  const Tensor one = graph.addConstant(type, {}, 1.0f, {di, "one"});
  graph.setTileMapping(one, 0);
  const Tensor scale = popops::div(graph, one, temp, prog, {di, "scale_factor"});
  Tensor weights = popops::mul(graph, fields, scale, prog, {di, "fields_scaled"}).flatten();
  if (!disableSoftmax)
    weights = nonLinearity(graph, NonLinearityType::SOFTMAX, weights, prog, {di, "softmax"});

  const std::size_t F = fields.dim(0), H = fields.dim(1), W = fields.dim(2);
  const Tensor xs = poplin::linspace(graph, type, -1.0f, 1.0f, W, {di, "x"});
  const Tensor ys = poplin::linspace(graph, type, -1.0f, 1.0f, H, {di, "y"});
  const auto grids = poplin::meshgrid2d(graph, xs, ys); // each [H, W]
  // Column 0 holds y, column 1 x, so results keep (row, column) order.
  const Tensor coords = concat(grids[1].reshape({H * W, 1}), grids[0].reshape({H * W, 1}), 1);
  const Tensor result =
      poplin::matMul(graph, weights.reshape({F, H * W}), coords, prog, type, {di, "mat_mul"});
  di.addOutputs({{"result", poputil::toProfileValue(result)},
                 {"temperature", poputil::toProfileValue(temp)}});
  return {result, temp};
}

} // namespace popnn
