// popops::splineWeighting: argument checks, an output mapped linearly, then one
// popops::SplineWeighting<T> vertex per worker's share of the output on each tile, reading its
// edges' rows of the input, basis and indices and the whole weight.
#include "SplineWork.hpp"
#include "poplibs_support/TileWork.hpp"

#include <popops/SplineWeighting.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>
#include <string>

namespace popops {

using namespace poplar;

namespace {

void checkShape(const Tensor& t, std::size_t rank, const std::string& op, const char* name) {
  poplibs_support::checkValid(t, op, name);
  if (t.rank() != rank)
    throw poputil::poplibs_error(op + ": " + name + " must have rank " + std::to_string(rank) +
                                 ", not shape " + t.shapeToString());
}

void checkDim(std::size_t got, std::size_t want, const std::string& op, const std::string& what) {
  if (got != want)
    throw poputil::poplibs_error(op + ": " + what + " is " + std::to_string(got) + ", expected " +
                                 std::to_string(want));
}

} // namespace

Tensor splineWeighting(Graph& graph, const Tensor& input, const Tensor& weight, const Tensor& basis,
                       const Tensor& weightIndex, program::Sequence& prog,
                       const DebugContext& debugContext) {
  const std::string op = "popops::splineWeighting";
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(input, weight, basis, weightIndex),
                                 "SplineWeighting");
  checkShape(input, 2, op, "input");
  checkShape(weight, 3, op, "weight");
  checkShape(basis, 2, op, "basis");
  checkShape(weightIndex, 2, op, "weightIndex");
  const Type type = input.elementType();
  poplibs_support::checkType(type, {FLOAT, HALF}, op, "input");
  for (const auto& t : {std::make_pair(&weight, "weight"), std::make_pair(&basis, "basis")})
    if (t.first->elementType() != type)
      throw poputil::poplibs_error(op + ": " + t.second + " is " +
                                   t.first->elementType().toString() + " but input is " +
                                   type.toString());
  poplibs_support::checkType(weightIndex.elementType(), {INT}, op, "weightIndex");
  const std::size_t numEdges = input.dim(0), numInCh = input.dim(1), numOutCh = weight.dim(2),
                    numSplines = basis.dim(1);
  checkDim(basis.dim(0), numEdges, op, "basis's dimension 0 (edges)");
  checkDim(weightIndex.dim(0), numEdges, op, "weightIndex's dimension 0 (edges)");
  checkDim(weightIndex.dim(1), numSplines, op, "weightIndex's dimension 1 (splines)");
  checkDim(weight.dim(1), numInCh, op, "weight's dimension 1 (input channels)");
  if (numOutCh == 0) throw poputil::poplibs_error(op + ": weight has no output channels");

  const Tensor output = graph.addVariable(type, {numEdges, numOutCh}, {di, "output"});
  poputil::mapTensorLinearly(graph, output);
  const ComputeSet cs = graph.addComputeSet({di, "SplineWeighting"});
  const std::string vertexName = poputil::templateVertex("popops::SplineWeighting", type);
  const Tensor outFlat = output.flatten(), weightFlat = weight.flatten();
  for (const auto& work : spline::splitOutput(graph, output, op)) {
    std::vector<Tensor> outEdges;
    for (const auto& r : work.regions)
      outEdges.push_back(outFlat.slice(r));
    const auto rows = [&](const Tensor& t) {
      return t.slice({work.edgeBegin, 0}, {work.edgeEnd, t.dim(1)}).flatten();
    };
    const auto v = graph.addVertex(cs, vertexName);
    graph.connect(v["input"], rows(input));
    graph.connect(v["weight"], weightFlat);
    graph.connect(v["basis"], rows(basis));
    graph.connect(v["weightIndex"], rows(weightIndex));
    graph.connect(v["offsets"], spline::offsetsTensor(graph, work, {di}));
    graph.connect(v["output"], outEdges);
    graph.setInitialValue(v["numInCh"], unsigned(numInCh));
    graph.setInitialValue(v["numOutCh"], unsigned(numOutCh));
    graph.setInitialValue(v["numSplines"], unsigned(numSplines));
    graph.setInitialValue(v["edgeOffset"], unsigned(work.edgeBegin));
    graph.setTileMapping(v, work.tile);
  }
  prog.add(program::Execute(cs, {di}));
  di.addOutput(output);
  return output;
}

} // namespace popops
