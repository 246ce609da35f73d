// popops::splineBasis: argument checks, then one popops::SplineBasis<T,degree> vertex per
// worker's share of basis's elements on each tile, reading the pseudo rows of its edges.
#include "SplineWork.hpp"
#include "poplibs_support/TileWork.hpp"

#include <popops/SplineBasis.hpp>
#include <poputil/DebugInfo.hpp>
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

} // namespace

void splineBasis(Graph& graph, const Tensor& pseudo, const Tensor& kernelSize,
                 const Tensor& isOpenSpline, const Tensor& basis, const Tensor& weightIndex,
                 unsigned degree, program::Sequence& prog, const DebugContext& debugContext) {
  const std::string op = "popops::splineBasis";
  const poputil::PoplibsOpDebugInfo di(
      debugContext, DI_ARGS(pseudo, kernelSize, isOpenSpline, basis, weightIndex, degree),
      "SplineBasis");
  checkShape(pseudo, 2, op, "pseudo");
  checkShape(kernelSize, 1, op, "kernelSize");
  checkShape(isOpenSpline, 1, op, "isOpenSpline");
  checkShape(basis, 2, op, "basis");
  checkShape(weightIndex, 2, op, "weightIndex");
  const Type type = pseudo.elementType();
  poplibs_support::checkType(type, {FLOAT, HALF}, op, "pseudo");
  poplibs_support::checkType(kernelSize.elementType(), {INT}, op, "kernelSize");
  poplibs_support::checkType(isOpenSpline.elementType(), {UNSIGNED_CHAR}, op, "isOpenSpline");
  poplibs_support::checkType(weightIndex.elementType(), {INT}, op, "weightIndex");
  if (basis.elementType() != type)
    throw poputil::poplibs_error(op + ": basis is " + basis.elementType().toString() +
                                 " but pseudo is " + type.toString());
  const std::size_t numEdges = pseudo.dim(0), numDims = pseudo.dim(1);
  if (kernelSize.dim(0) != numDims || isOpenSpline.dim(0) != numDims)
    throw poputil::poplibs_error(op + ": kernelSize " + kernelSize.shapeToString() +
                                 " and isOpenSpline " + isOpenSpline.shapeToString() +
                                 " must have one element per column of pseudo " +
                                 pseudo.shapeToString());
  if (degree < 1 || degree > 3)
    throw poputil::poplibs_error(op + ": degree must be 1, 2 or 3, not " + std::to_string(degree));
  std::size_t numSplines = 1;
  for (std::size_t d = 0; d < numDims; ++d)
    numSplines *= degree + 1;
  const std::vector<std::size_t> outShape = {numEdges, numSplines};
  if (basis.shape() != outShape || weightIndex.shape() != outShape)
    throw poputil::poplibs_error(op + ": basis " + basis.shapeToString() + " and weightIndex " +
                                 weightIndex.shapeToString() + " must both be [" +
                                 std::to_string(numEdges) + "][" + std::to_string(numSplines) +
                                 "] (numEdges, (degree + 1)^numDims)");

  const ComputeSet cs = graph.addComputeSet({di, "SplineBasis"});
  const std::string vertexName = poputil::templateVertex("popops::SplineBasis", type, degree);
  const Tensor basisFlat = basis.flatten(), indexFlat = weightIndex.flatten();
  for (const auto& work : spline::splitOutput(graph, basis, op)) {
    std::vector<Tensor> basisEdges, indexEdges;
    for (const auto& r : work.regions) {
      basisEdges.push_back(basisFlat.slice(r));
      indexEdges.push_back(indexFlat.slice(r));
    }
    const auto v = graph.addVertex(cs, vertexName);
    graph.connect(v["pseudo"],
                  pseudo.slice({work.edgeBegin, 0}, {work.edgeEnd, numDims}).flatten());
    graph.connect(v["kernelSize"], kernelSize);
    graph.connect(v["isOpenSpline"], isOpenSpline);
    graph.connect(v["offsets"], spline::offsetsTensor(graph, work, {di}));
    graph.connect(v["basis"], basisEdges);
    graph.connect(v["weightIndex"], indexEdges);
    graph.setInitialValue(v["numDims"], unsigned(numDims));
    graph.setInitialValue(v["numSplines"], unsigned(numSplines));
    graph.setInitialValue(v["edgeOffset"], unsigned(work.edgeBegin));
    graph.setTileMapping(v, work.tile);
  }
  prog.add(program::Execute(cs, {di}));
}

} // namespace popops
