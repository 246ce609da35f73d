// Embedding lookups into dynamic sparse weights (one group). The slices are cut into chunks of
// indices over tiles, each tile with a copy of the bucket; an update runs on the bucket's tile,
// the only one that writes the values.
#include "BucketProduct.hpp"
#include "SparseLayout.hpp"
#include "poplibs_support/TileWork.hpp"

#include <popsparse/Embedding.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popsparse {
namespace dynamic {
namespace {

using namespace poplar;
using poplar::program::Sequence;
using poputil::poplibs_error;

detail::DynamicPlan embeddingPlan(const FullyConnectedParams& p, const std::string& op) {
  if (p.getNumGroups() != 1)
    throw poplibs_error(op + ": embeddings take one group, not " +
                        std::to_string(p.getNumGroups()));
  return detail::makeDynamicPlan(1, p.getOutputChannelsPerGroup(), p.getInputChannelsPerGroup(),
                                 p.getBatchSize(), p.getNumNonZeroValues(), op);
}

/// The plan of t, which must be these parameters' weights.
const detail::DynamicPlan& weightsPlan(const SparseTensor& t, const FullyConnectedParams& p,
                                       const std::string& op) {
  const auto* d = dynamic_cast<const detail::DynamicMetaData*>(t.getOpMetaData().getData());
  if (!d) throw poplibs_error(op + ": the sparse tensor was not created by popsparse");
  const auto expected = embeddingPlan(p, op);
  if (d->plan.m != expected.m || d->plan.k != expected.k || d->plan.groups != 1 ||
      d->plan.capacity != expected.capacity)
    throw poplibs_error(op + ": the sparse tensor was created for other parameters than these");
  return d->plan;
}

void checkIndices(const Tensor& indices, const std::string& op) {
  poplibs_support::checkValid(indices, op, "indices");
  if (indices.rank() != 1 || indices.elementType() != UNSIGNED_INT)
    throw poplibs_error(op + ": indices must be a 1-D UNSIGNED_INT tensor, not " +
                        indices.elementType().toString() + " " + indices.shapeToString());
}

unsigned bucketTile(const Graph& graph) {
  return detail::columnChunks(graph.getTarget(), 1, 0, 1)[0].tile;
}

/// The tile holding the first element of t (the values' bucket lives on one tile).
unsigned tileOf(const Graph& graph, const Tensor& t, const std::string& op) {
  const auto mapping = poplibs_support::tileMapping(graph, t.slice(0, 1), op);
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    if (!mapping[tile].empty()) return tile;
  return 0;
}

} // namespace

Tensor createIndicesTensor(Graph& graph, const FullyConnectedParams& params, std::size_t numIndices,
                           const OptionFlags& options, const DebugContext& debugContext) {
  const std::string op = "popsparse::dynamic::createIndicesTensor";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "createIndicesTensor");
  detail::checkSparseOptions(options, op);
  embeddingPlan(params, op);
  if (numIndices == 0) throw poplibs_error(op + ": numIndices must be positive");
  const Tensor t = graph.addVariable(UNSIGNED_INT, {numIndices}, {di, "indices"});
  graph.setTileMapping(t, bucketTile(graph));
  return t;
}

Tensor createSliceTensor(Graph& graph, const Type& dataType, const FullyConnectedParams& params,
                         std::size_t numIndices, const DebugContext& debugContext,
                         const OptionFlags& options, PlanningCache*) {
  const std::string op = "popsparse::dynamic::createSliceTensor";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "createSliceTensor");
  detail::checkSparseOptions(options, op);
  poplibs_support::checkType(dataType, {FLOAT, HALF}, op, "dataType");
  const auto plan = embeddingPlan(params, op);
  if (numIndices == 0) throw poplibs_error(op + ": numIndices must be positive");
  const Tensor t = graph.addVariable(dataType, {numIndices, plan.k}, {di, "slices"});
  for (const auto& c : detail::columnChunks(graph.getTarget(), 1, 0, numIndices))
    graph.setTileMapping(t.slice(c.cols), c.tile);
  return t;
}

Tensor embeddingSlice(Graph& graph, const SparseTensor& t, const Tensor& indices, Sequence& prog,
                      const FullyConnectedParams& params, const DebugContext& debugContext,
                      const OptionFlags& options, PlanningCache*) {
  const std::string op = "popsparse::dynamic::embeddingSlice";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "embeddingSlice");
  detail::checkSparseOptions(options, op);
  const auto& plan = weightsPlan(t, params, op);
  checkIndices(indices, op);
  const Tensor& nz = t.getNzValuesTensor();
  const std::size_t numIndices = indices.dim(0);
  const Tensor out = graph.addVariable(nz.elementType(), {numIndices, plan.k}, {di, "slices"});
  const ComputeSet cs = graph.addComputeSet({di, "embeddingSlice"});
  for (const auto& c : detail::columnChunks(graph.getTarget(), 1, 0, numIndices)) {
    graph.setTileMapping(out.slice(c.cols), c.tile);
    std::vector<Tensor> rows;
    for (std::size_t i = c.cols.begin(); i < c.cols.end(); ++i)
      rows.push_back(out[i]);
    const auto v = graph.addVertex(
        cs, poputil::templateVertex("popsparse::SparseEmbeddingSlice", nz.elementType()));
    graph.connect(v["meta"], t.getMetaInfoTensor());
    graph.connect(v["nz"], nz);
    graph.connect(v["indices"], indices.slice(c.cols));
    graph.connect(v["out"], rows);
    graph.setTileMapping(v, c.tile);
  }
  prog.add(program::Execute(cs, {di}));
  return out;
}

void embeddingUpdateAdd(Graph& graph, const SparseTensor& t, const Tensor& slices,
                        const Tensor& indices, const Tensor& scale, Sequence& prog,
                        const FullyConnectedParams& params, const DebugContext& debugContext,
                        const OptionFlags& options, PlanningCache*) {
  const std::string op = "popsparse::dynamic::embeddingUpdateAdd";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "embeddingUpdateAdd");
  detail::checkSparseOptions(options, op);
  const auto& plan = weightsPlan(t, params, op);
  checkIndices(indices, op);
  poplibs_support::checkValid(slices, op, "slices");
  poplibs_support::checkValid(scale, op, "scale");
  const Tensor& nz = t.getNzValuesTensor();
  if (slices.rank() != 2 || slices.dim(0) != indices.dim(0) || slices.dim(1) != plan.k)
    throw poplibs_error(op + ": slices have shape " + slices.shapeToString() + "; expected [" +
                        std::to_string(indices.dim(0)) + "][" + std::to_string(plan.k) + "]");
  if (slices.elementType() != nz.elementType() || scale.elementType() != nz.elementType() ||
      scale.numElements() != 1)
    throw poplibs_error(op + ": slices and a one-element scale must have the weights' type " +
                        nz.elementType().toString());
  const ComputeSet cs = graph.addComputeSet({di, "embeddingUpdateAdd"});
  std::vector<Tensor> rows;
  for (std::size_t i = 0; i < slices.dim(0); ++i)
    rows.push_back(slices[i]);
  const auto v = graph.addVertex(
      cs, poputil::templateVertex("popsparse::SparseEmbeddingUpdateAdd", nz.elementType()));
  graph.connect(v["meta"], t.getMetaInfoTensor());
  graph.connect(v["nz"], nz);
  graph.connect(v["indices"], indices);
  graph.connect(v["slices"], rows);
  graph.connect(v["scale"], scale.flatten());
  graph.setTileMapping(v, tileOf(graph, nz, op));
  prog.add(program::Execute(cs, {di}));
}

} // namespace dynamic
} // namespace popsparse
