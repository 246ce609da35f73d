// Dynamically sparse matmul and fully connected layers. One bucket per group holds the sparse
// operand (SparseLayout.hpp); each tile of a group gets a copy of the bucket and computes a
// chunk of the dense columns, so the result needs no reduction across tiles, whatever the
// pattern written at run time.
#include "BucketProduct.hpp"
#include "SparseLayout.hpp"
#include "poplibs_support/TileWork.hpp"

#include <popsparse/FullyConnected.hpp>
#include <popsparse/MatMul.hpp>
#include <popsparse/MatMulParams.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popsparse {
namespace dynamic {
namespace {

using namespace poplar;
using poplar::program::Sequence;
using poputil::poplibs_error;

const detail::DynamicPlan& planOf(const SparseTensor& t, const std::string& op) {
  const auto* d = dynamic_cast<const detail::DynamicMetaData*>(t.getOpMetaData().getData());
  if (!d)
    throw poplibs_error(op + ": the sparse operand was not created by "
                             "createSparseDenseMatMulLHS or createFullyConnectedWeights");
  return d->plan;
}

SparseTensor createSparse(Graph& graph, const Type& type, const detail::DynamicPlan& plan,
                          const poputil::PoplibsOpDebugInfo& dnai, const std::string& op) {
  poplibs_support::checkType(type, {FLOAT, HALF}, op, "inputType");
  const std::size_t bucket = plan.bucketElements();
  const Tensor meta = graph.addVariable(UNSIGNED_SHORT, {plan.groups * bucket}, {dnai, "metaInfo"});
  const Tensor nz = graph.addVariable(type, {plan.groups * plan.capacity}, {dnai, "nzValues"});
  for (std::size_t g = 0; g < plan.groups; ++g) {
    const unsigned tile = detail::columnChunks(graph.getTarget(), plan.groups, g, plan.n)[0].tile;
    graph.setTileMapping(meta.slice(g * bucket, (g + 1) * bucket), tile);
    graph.setTileMapping(nz.slice(g * plan.capacity, (g + 1) * plan.capacity), tile);
  }
  return SparseTensor(meta, nz,
                      poputil::TensorMetaData(std::make_unique<detail::DynamicMetaData>(plan)));
}

/// A dense [groups][rows][n], each group's column chunks on their tiles.
Tensor createDense(Graph& graph, const Type& type, std::size_t groups, std::size_t rows,
                   std::size_t n, const poputil::PoplibsOpDebugInfo& dnai,
                   const std::string& name) {
  const Tensor t = graph.addVariable(type, {groups, rows, n}, {dnai, name});
  for (std::size_t g = 0; g < groups; ++g)
    for (const auto& c : detail::columnChunks(graph.getTarget(), groups, g, n))
      graph.setTileMapping(t[g].slice(c.cols, 1), c.tile);
  return t;
}

/// lhs (or its transpose) times rhs [groups][rows][n]: [groups][m or k][n].
Tensor product(Graph& graph, const SparseTensor& lhs, const Tensor& rhs, bool transposeLHS,
               Sequence& prog, const poputil::PoplibsOpDebugInfo& dnai, const std::string& op) {
  const auto& plan = planOf(lhs, op);
  const Tensor& meta = lhs.getMetaInfoTensor();
  const Tensor& nz = lhs.getNzValuesTensor();
  poplibs_support::checkValid(rhs, op, "rhs");
  const std::size_t inRows = transposeLHS ? plan.m : plan.k;
  const std::size_t outRows = transposeLHS ? plan.k : plan.m;
  if (rhs.rank() != 3 || rhs.dim(0) != plan.groups || rhs.dim(1) != inRows || rhs.dim(2) == 0)
    throw poplibs_error(op + ": the dense operand has shape " + rhs.shapeToString() +
                        "; the sparse operand needs [" + std::to_string(plan.groups) + "][" +
                        std::to_string(inRows) + "][n]");
  if (rhs.elementType() != nz.elementType())
    throw poplibs_error(op + ": the dense operand is " + rhs.elementType().toString() +
                        " but the sparse operand's values are " + nz.elementType().toString());
  if (meta.numElements() != plan.groups * plan.bucketElements() ||
      nz.numElements() != plan.groups * plan.capacity || meta.elementType() != UNSIGNED_SHORT)
    throw poplibs_error(op + ": the sparse operand's tensors do not match its plan");
  const std::size_t n = rhs.dim(2);
  const Tensor out = createDense(graph, rhs.elementType(), plan.groups, outRows, n, dnai, "out");
  const ComputeSet cs = graph.addComputeSet({dnai, "sparseDenseMatMul"});
  const std::size_t bucket = plan.bucketElements();
  for (std::size_t g = 0; g < plan.groups; ++g) {
    const Tensor gMeta = meta.slice(g * bucket, (g + 1) * bucket);
    const Tensor gNz = nz.slice(g * plan.capacity, (g + 1) * plan.capacity);
    for (const auto& c : detail::columnChunks(graph.getTarget(), plan.groups, g, n)) {
      std::vector<Tensor> rhsRows, outRowsT;
      for (std::size_t i = 0; i < inRows; ++i)
        rhsRows.push_back(rhs[g][i].slice(c.cols));
      for (std::size_t i = 0; i < outRows; ++i)
        outRowsT.push_back(out[g][i].slice(c.cols));
      detail::addBucketVertex(graph, cs, rhs.elementType(), gMeta, gNz, rhsRows, outRowsT,
                              transposeLHS, c.tile);
    }
  }
  prog.add(program::Execute(cs, {dnai}));
  return out;
}

/// Activations [batch][groups * channels] as [groups][channels][batch].
Tensor groupedColumns(const Tensor& t, std::size_t groups, std::size_t channels, std::size_t batch,
                      const std::string& op, const char* what) {
  if (t.rank() != 2 || t.dim(0) != batch || t.dim(1) != groups * channels)
    throw poplibs_error(op + ": " + what + " have shape " + t.shapeToString() + "; expected [" +
                        std::to_string(batch) + "][" + std::to_string(groups * channels) + "]");
  return t.reshape({batch, groups, channels}).dimShuffle({1, 2, 0});
}

/// [groups][channels][batch] back to [batch][groups * channels].
Tensor batchRows(const Tensor& t) {
  return t.dimShuffle({2, 0, 1}).reshape({t.dim(2), t.dim(0) * t.dim(1)});
}

detail::DynamicPlan fcPlan(const FullyConnectedParams& p, const std::string& op) {
  return detail::makeDynamicPlan(p.getNumGroups(), p.getOutputChannelsPerGroup(),
                                 p.getInputChannelsPerGroup(), p.getBatchSize(),
                                 p.getNumNonZeroValues(), op);
}

void checkFcWeights(const SparseTensor& w, const FullyConnectedParams& p, const std::string& op) {
  const auto& plan = planOf(w, op);
  if (plan.groups != p.getNumGroups() || plan.m != p.getOutputChannelsPerGroup() ||
      plan.k != p.getInputChannelsPerGroup())
    throw poplibs_error(op + ": the weights were created for other parameters than these");
}

} // namespace

SparseTensor createSparseDenseMatMulLHS(Graph& graph, const Type& inputType,
                                        const MatMulParams& params,
                                        const DebugContext& debugContext,
                                        const OptionFlags& options, PlanningCache*) {
  const std::string op = "popsparse::dynamic::createSparseDenseMatMulLHS";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "createSparseDenseMatMulLHS");
  detail::checkSparseOptions(options, op);
  const auto plan = detail::makeDynamicPlan(params.getNumGroups(), params.getM(), params.getK(),
                                            params.getN(), params.getNumNonZeroValues(), op);
  return createSparse(graph, inputType, plan, di, op);
}

Tensor createSparseDenseMatMulRHS(Graph& graph, const Type& inputType, const MatMulParams& params,
                                  const DebugContext& debugContext, const OptionFlags& options,
                                  PlanningCache*) {
  const std::string op = "popsparse::dynamic::createSparseDenseMatMulRHS";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "createSparseDenseMatMulRHS");
  detail::checkSparseOptions(options, op);
  poplibs_support::checkType(inputType, {FLOAT, HALF}, op, "inputType");
  const auto plan = detail::makeDynamicPlan(params.getNumGroups(), params.getM(), params.getK(),
                                            params.getN(), params.getNumNonZeroValues(), op);
  return createDense(graph, inputType, plan.groups, plan.k, plan.n, di, "rhs");
}

Tensor sparseDenseMatMul(Graph& graph, const SparseTensor& lhs, const Tensor& rhs, Sequence& prog,
                         bool transposeLHS, bool transposeRHS, const DebugContext& debugContext,
                         const OptionFlags& options, PlanningCache*) {
  const std::string op = "popsparse::dynamic::sparseDenseMatMul";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "sparseDenseMatMul");
  detail::checkSparseOptions(options, op);
  poplibs_support::checkValid(rhs, op, "rhs");
  if (rhs.rank() != 3)
    throw poplibs_error(op + ": the dense operand must be [groups][rows][columns], not " +
                        rhs.shapeToString());
  const Tensor dense = transposeRHS ? rhs.dimShuffle({0, 2, 1}) : rhs;
  return product(graph, lhs, dense, transposeLHS, prog, di, op);
}

// ---- fully connected ------------------------------------------------------------------------

SparseTensor createFullyConnectedWeights(Graph& graph, const Type& inputType,
                                         const FullyConnectedParams& params,
                                         const DebugContext& debugContext,
                                         const OptionFlags& options, PlanningCache*) {
  const std::string op = "popsparse::dynamic::createFullyConnectedWeights";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "createFullyConnectedWeights");
  detail::checkSparseOptions(options, op);
  return createSparse(graph, inputType, fcPlan(params, op), di, op);
}

Tensor createFullyConnectedInput(Graph& graph, const Type& inputType,
                                 const FullyConnectedParams& params,
                                 const DebugContext& debugContext, const OptionFlags& options,
                                 PlanningCache*) {
  const std::string op = "popsparse::dynamic::createFullyConnectedInput";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "createFullyConnectedInput");
  detail::checkSparseOptions(options, op);
  poplibs_support::checkType(inputType, {FLOAT, HALF}, op, "inputType");
  const auto plan = fcPlan(params, op);
  // Laid out as the forward pass reads it: [groups][inputChannels][batch] by batch chunk.
  return batchRows(createDense(graph, inputType, plan.groups, plan.k, plan.n, di, "input"));
}

Tensor fullyConnectedFwd(Graph& graph, const SparseTensor& weights, const Tensor& activations,
                         const FullyConnectedParams& fcParams, Sequence& prog,
                         const DebugContext& debugContext, const OptionFlags& options,
                         PlanningCache*) {
  const std::string op = "popsparse::dynamic::fullyConnectedFwd";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "fullyConnectedFwd");
  detail::checkSparseOptions(options, op);
  poplibs_support::checkValid(activations, op, "activations");
  checkFcWeights(weights, fcParams, op);
  const Tensor in =
      groupedColumns(activations, fcParams.getNumGroups(), fcParams.getInputChannelsPerGroup(),
                     fcParams.getBatchSize(), op, "activations");
  return batchRows(product(graph, weights, in, false, prog, di, op));
}

Tensor fullyConnectedGradA(Graph& graph, const SparseTensor& weights, const Tensor& gradients,
                           const FullyConnectedParams& fcParams, Sequence& prog,
                           const DebugContext& debugContext, const OptionFlags& options,
                           PlanningCache*) {
  const std::string op = "popsparse::dynamic::fullyConnectedGradA";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "fullyConnectedGradA");
  detail::checkSparseOptions(options, op);
  poplibs_support::checkValid(gradients, op, "gradients");
  checkFcWeights(weights, fcParams, op);
  const Tensor in =
      groupedColumns(gradients, fcParams.getNumGroups(), fcParams.getOutputChannelsPerGroup(),
                     fcParams.getBatchSize(), op, "gradients");
  return batchRows(product(graph, weights, in, true, prog, di, op));
}

Tensor fullyConnectedSparseGradW(Graph& graph, const Tensor sparsityMetaInfo, const Tensor& gradA,
                                 const Tensor& activations, const FullyConnectedParams& fcParams,
                                 Sequence& prog, const DebugContext& debugContext,
                                 const OptionFlags& options, PlanningCache*) {
  const std::string op = "popsparse::dynamic::fullyConnectedSparseGradW";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "fullyConnectedSparseGradW");
  detail::checkSparseOptions(options, op);
  poplibs_support::checkValid(sparsityMetaInfo, op, "sparsityMetaInfo");
  poplibs_support::checkValid(gradA, op, "gradA");
  poplibs_support::checkValid(activations, op, "activations");
  const auto plan = fcPlan(fcParams, op);
  const std::size_t bucket = plan.bucketElements();
  if (sparsityMetaInfo.elementType() != UNSIGNED_SHORT ||
      sparsityMetaInfo.numElements() != plan.groups * bucket)
    throw poplibs_error(op + ": sparsityMetaInfo is " + sparsityMetaInfo.elementType().toString() +
                        " " + sparsityMetaInfo.shapeToString() +
                        "; the weights' is UNSIGNED_SHORT [" +
                        std::to_string(plan.groups * bucket) + "]");
  if (gradA.elementType() != activations.elementType())
    throw poplibs_error(op + ": gradA is " + gradA.elementType().toString() +
                        " but activations are " + activations.elementType().toString());
  poplibs_support::checkType(gradA.elementType(), {FLOAT, HALF}, op, "gradA");
  const Tensor g = groupedColumns(gradA, plan.groups, plan.m, plan.n, op, "gradA");
  const Tensor a = groupedColumns(activations, plan.groups, plan.k, plan.n, op, "activations");
  const Tensor meta = sparsityMetaInfo.flatten();
  const Tensor out =
      graph.addVariable(gradA.elementType(), {plan.groups * plan.capacity}, {di, "gradW"});
  const ComputeSet cs = graph.addComputeSet({di, "sparseGradW"});
  for (std::size_t grp = 0; grp < plan.groups; ++grp) {
    const unsigned tile = detail::columnChunks(graph.getTarget(), plan.groups, grp, plan.n)[0].tile;
    const Tensor gOut = out.slice(grp * plan.capacity, (grp + 1) * plan.capacity);
    graph.setTileMapping(gOut, tile);
    std::vector<Tensor> gradRows, actRows;
    for (std::size_t r = 0; r < plan.m; ++r)
      gradRows.push_back(g[grp][r]);
    for (std::size_t c = 0; c < plan.k; ++c)
      actRows.push_back(a[grp][c]);
    const auto v = graph.addVertex(
        cs, poputil::templateVertex("popsparse::SparseGradWBucket", gradA.elementType()));
    graph.connect(v["meta"], meta.slice(grp * bucket, (grp + 1) * bucket));
    graph.connect(v["gradA"], gradRows);
    graph.connect(v["act"], actRows);
    graph.connect(v["out"], gOut);
    graph.setTileMapping(v, tile);
  }
  prog.add(program::Execute(cs, {di}));
  return out;
}

std::tuple<unsigned, unsigned, unsigned>
fullyConnectedDenseGradWSerialSplits(const Graph&, const Type& inputType,
                                     const FullyConnectedParams& fcParams,
                                     const OptionFlags& options_, PlanningCache*) {
  const std::string op = "popsparse::dynamic::fullyConnectedDenseGradWSerialSplits";
  detail::checkSparseOptions(options_, op);
  poplibs_support::checkType(inputType, {FLOAT, HALF}, op, "inputType");
  fcPlan(fcParams, op); // the parameters' checks
  return {1u, 1u, 1u};
}

} // namespace dynamic
} // namespace popsparse
