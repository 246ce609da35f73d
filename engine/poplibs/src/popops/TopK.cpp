#include "RowWork.hpp"
#include "poplibs_support/TileWork.hpp"

#include <numeric>
#include <ostream>
#include <popops/TopK.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

using namespace poplar;

TopKParams::TopKParams(unsigned k_, bool largest_, SortOrder sortOrder_, bool stableSort_) noexcept
    : k(k_), largest(largest_), sortOrder(sortOrder_), stableSort(stableSort_) {}

std::ostream& operator<<(std::ostream& os, const TopKParams& p) {
  return os << "{k=" << p.k << ", largest=" << (p.largest ? "true" : "false")
            << ", sortOrder=" << p.sortOrder << ", stableSort=" << (p.stableSort ? "true" : "false")
            << '}';
}

namespace {

const std::initializer_list<Type> kTypes = {FLOAT, HALF, INT, UNSIGNED_INT};

void checkTopKInput(const Tensor& t, const TopKParams& params, const std::string& op,
                    const std::string& name) {
  poplibs_support::checkValid(t, op, name);
  poplibs_support::checkType(t.elementType(), kTypes, op, name);
  if (t.rank() == 0)
    throw poputil::poplibs_error(op + ": " + name +
                                 " is a scalar; it needs an innermost dimension");
  const std::size_t n = t.dim(t.rank() - 1);
  if (params.k == 0 || params.k > n)
    throw poputil::poplibs_error(op + ": k = " + std::to_string(params.k) +
                                 " must be between 1 and the innermost dimension " +
                                 std::to_string(n) + " of " + name + " (shape " +
                                 t.shapeToString() + ")");
}

/// The top k of `keys` with the matching `values` (or, when values is null, positions).
std::pair<Tensor, Tensor> topKImpl(Graph& graph, program::Sequence& prog, const Tensor& keys,
                                   const Tensor* values, const TopKParams& params,
                                   const DebugContext& di, const std::string& op) {
  checkTopKInput(keys, params, op, values ? "keys" : "t");
  const unsigned last = keys.rank() - 1;
  const std::size_t n = keys.dim(last);
  const Tensor keys2d = detail::rowsAlong(keys, last);
  const std::size_t rows = keys2d.dim(0);
  Tensor values2d;
  if (values) {
    poplibs_support::checkValid(*values, op, "values");
    poplibs_support::checkType(values->elementType(), kTypes, op, "values");
    if (values->shape() != keys.shape())
      throw poputil::poplibs_error(op + ": values has shape " + values->shapeToString() +
                                   " but keys has " + keys.shapeToString());
    values2d = detail::rowsAlong(*values, last);
  } else {
    std::vector<unsigned> positions(rows * n);
    for (std::size_t i = 0; i < positions.size(); ++i)
      positions[i] = unsigned(i % n);
    values2d = graph.addConstant(UNSIGNED_INT, {rows, n}, positions, {di, "positions"});
    graph.setTileMapping(values2d, poplibs_support::tileMapping(graph, keys2d, op));
  }
  auto outShape = keys.shape();
  outShape[last] = params.k;
  if (rows == 0)
    return {graph.addVariable(keys.elementType(), outShape, {di, "topK"}),
            graph.addVariable(values2d.elementType(), outShape, {di, "topKValues"})};
  const auto work = poplibs_support::splitRowsByTile(graph, keys2d, op);
  const Tensor outKeys =
      detail::addRowsLike(graph, keys.elementType(), rows, params.k, work, {di, "topK"});
  const Tensor outValues =
      detail::addRowsLike(graph, values2d.elementType(), rows, params.k, work, {di, "topKValues"});
  const ComputeSet cs = graph.addComputeSet(di);
  const auto vertices = detail::addRowVertices(
      graph, cs,
      poputil::templateVertex("popops::TopK", keys.elementType(), values2d.elementType()), work,
      {{"key", keys2d}, {"value", values2d}}, unsigned(n));
  for (std::size_t i = 0, g = 0; i < work.size(); ++i)
    for (const auto& r : work[i]) {
      const auto& v = vertices[g++];
      graph.connect(v["outKey"], outKeys.slice(r).flatten());
      graph.connect(v["outValue"], outValues.slice(r).flatten());
      graph.setInitialValue(v["k"], params.k);
      graph.setInitialValue(v["largest"], params.largest ? 1u : 0u);
      graph.setInitialValue(v["order"], unsigned(params.sortOrder));
      graph.setInitialValue(v["stable"], params.stableSort ? 1u : 0u);
    }
  prog.add(program::Execute(cs, di));
  return {outKeys.reshape(outShape), outValues.reshape(outShape)};
}

std::pair<Tensor, Tensor> bestOfRows(Graph& graph, const Tensor& input, program::Sequence& prog,
                                     bool max, const DebugContext& di, const std::string& op) {
  poplibs_support::checkValid(input, op, "input");
  poplibs_support::checkType(input.elementType(), kTypes, op, "input");
  if (input.rank() != 2 || input.dim(1) == 0)
    throw poputil::poplibs_error(op + ": input has shape " + input.shapeToString() +
                                 "; it must be 2-dimensional [batch, n] with n > 0");
  const std::size_t rows = input.dim(0);
  const auto work = poplibs_support::splitRowsByTile(graph, input, op);
  const Tensor values =
      detail::addRowsLike(graph, input.elementType(), rows, 1, work, {di, max ? "max" : "min"});
  const Tensor indices =
      detail::addRowsLike(graph, UNSIGNED_INT, rows, 1, work, {di, max ? "argMax" : "argMin"});
  const ComputeSet cs = graph.addComputeSet(di);
  detail::addRowVertices(
      graph, cs,
      poputil::templateVertex(max ? "popops::ReduceMaxClassGather" : "popops::ReduceMinClassGather",
                              input.elementType(), UNSIGNED_INT),
      work, {{"activations", input}, {"value", values}, {"index", indices}},
      unsigned(input.dim(1)));
  prog.add(program::Execute(cs, di));
  return {values.reshape({rows}), indices.reshape({rows})};
}

} // namespace

Tensor createTopKInput(Graph& graph, const Type& type, const std::vector<std::size_t>& shape,
                       const TopKParams& params, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "createTopKInput");
  const std::string op = "popops::createTopKInput";
  poplibs_support::checkType(type, kTypes, op, "type");
  if (shape.empty()) throw poputil::poplibs_error(op + ": shape is empty");
  const Tensor t = graph.addVariable(type, shape, {di, "input"});
  checkTopKInput(t, params, op, "the tensor");
  poputil::mapTensorLinearly(graph, t, 0, unsigned(shape.back()));
  return t;
}

Tensor topK(Graph& graph, program::Sequence& prog, const Tensor& t, const TopKParams& params,
            const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "topK");
  return topKImpl(graph, prog, t, &t, params, di, "popops::topK").first;
}

std::pair<Tensor, Tensor> topKKeyValue(Graph& graph, program::Sequence& prog, const Tensor& keys,
                                       const Tensor& values, const TopKParams& params,
                                       const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "topKKeyValue");
  return topKImpl(graph, prog, keys, &values, params, di, "popops::topKKeyValue");
}

std::pair<Tensor, Tensor> topKWithPermutation(Graph& graph, program::Sequence& prog,
                                              const Tensor& t, const TopKParams& params,
                                              const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "topKWithPermutation");
  return topKImpl(graph, prog, t, nullptr, params, di, "popops::topKWithPermutation");
}

Tensor argMax(Graph& graph, const Tensor& input, program::Sequence& prog,
              const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "argMax");
  return bestOfRows(graph, input, prog, true, di, "popops::argMax").second;
}

Tensor argMin(Graph& graph, const Tensor& input, program::Sequence& prog,
              const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "argMin");
  return bestOfRows(graph, input, prog, false, di, "popops::argMin").second;
}

std::pair<Tensor, Tensor> maxAndArgMax(Graph& graph, const Tensor& input, program::Sequence& prog,
                                       const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "maxAndArgMax");
  return bestOfRows(graph, input, prog, true, di, "popops::maxAndArgMax");
}

std::pair<Tensor, Tensor> minAndArgMin(Graph& graph, const Tensor& input, program::Sequence& prog,
                                       const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "minAndArgMin");
  return bestOfRows(graph, input, prog, false, di, "popops::minAndArgMin");
}

} // namespace popops
