#include "ConvPlan.hpp"
#include "poplibs_support/ChannelOps.hpp"
#include "poplibs_support/TileWork.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <ostream>
#include <poplin/ConvUtil.hpp>
#include <poplin/Convolution.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/Zero.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>
#include <sstream>

namespace poplin {

class PlanningCacheImpl {
public:
  std::mutex mutex;
  std::map<std::string, ConvPlan> plans;
};

PlanningCache::PlanningCache() : impl(new PlanningCacheImpl) {}
PlanningCache::~PlanningCache() = default;
std::size_t PlanningCache::size() const {
  std::lock_guard<std::mutex> lock(impl->mutex);
  return impl->plans.size();
}

ConvPlan planConvolutionCached(const poplar::Target& target, const ConvProblem& problem,
                               const ConvOptions& options, PlanningCache* cache) {
  if (!cache) return planConvolution(target, problem, options);
  std::ostringstream key;
  key << problem.params << "|" << problem.outRows << "," << problem.outCols << "|"
      << problem.channelsInnermost << "|" << target.getNumTiles() << "|" << options.partialsType
      << "|" << options.pass << "|" << options.availableMemoryProportion << "|" << options.firstTile
      << "+" << options.numTiles;
  std::lock_guard<std::mutex> lock(cache->impl->mutex);
  auto it = cache->impl->plans.find(key.str());
  if (it == cache->impl->plans.end())
    it = cache->impl->plans.emplace(key.str(), planConvolution(target, problem, options)).first;
  return it->second;
}

namespace {

using namespace poplar;
using poplar::program::Sequence;

std::string shapeString(const std::vector<std::size_t>& shape) {
  std::string s;
  for (auto d : shape)
    s += (s.empty() ? "" : ",") + std::to_string(d);
  return "{" + s + "}";
}

/// The plan for a problem on `target`, through the cache when there is one.
ConvPlan planFor(const Target& target, const ConvProblem& problem, const ConvOptions& options,
                 PlanningCache* cache) {
  return planConvolutionCached(target, problem, options, cache);
}

struct Planned {
  ConvProblem problem;
  ConvPlan plan;
};

Planned planParams(const Graph& graph, const ConvParams& params, const OptionFlags& options,
                   PlanningCache* cache, const std::string& op, TileRange range = {}) {
  ConvOptions opts = parseConvOptions(options, op);
  opts.firstTile = range.first;
  opts.numTiles = range.count;
  Planned p;
  p.problem = makeConvProblem(params, op);
  p.plan = planFor(graph.getTarget(), p.problem, opts, cache);
  return p;
}

/// Shapes of the user-facing tensors of a convolution.
std::vector<std::size_t> inputShape(const ConvParams& p) {
  std::vector<std::size_t> s = {p.batchSize, p.getNumInputChans()};
  s.insert(s.end(), p.inputFieldShape.begin(), p.inputFieldShape.end());
  return s;
}
std::vector<std::size_t> outputShape(const ConvParams& p) {
  std::vector<std::size_t> s = {p.batchSize, p.getNumOutputChans()};
  const auto field = p.getOutputFieldShape();
  s.insert(s.end(), field.begin(), field.end());
  return s;
}
std::vector<std::size_t> weightsShape(const ConvParams& p, bool transposed = false) {
  std::vector<std::size_t> s = {
      p.numConvGroups, transposed ? p.inputChannelsPerConvGroup : p.outputChannelsPerConvGroup,
      transposed ? p.outputChannelsPerConvGroup : p.inputChannelsPerConvGroup};
  s.insert(s.end(), p.kernelShape.begin(), p.kernelShape.end());
  return s;
}

/// A 1-D convolution's tensor seen with a spatial dimension of size 1 inserted before its last.
Tensor as2d(const Tensor& t, std::size_t fieldDims) {
  return fieldDims == 1 ? t.expand({t.rank() - 1}) : t;
}

void checkTensor(const Tensor& t, const std::vector<std::size_t>& shape, Type type,
                 const std::string& op, const std::string& name, const std::string& what) {
  poplibs_support::checkValid(t, op, name);
  if (t.shape() != shape)
    throw poputil::poplibs_error(op + ": " + name + " has shape " + t.shapeToString() +
                                 " but the convolution's parameters give " + what + " " +
                                 shapeString(shape));
  if (t.elementType() != type)
    throw poputil::poplibs_error(op + ": " + name + " has element type " +
                                 t.elementType().toString() + " but the parameters give " +
                                 type.toString());
}

std::size_t rowBlockOf(const ConvPlan& plan, std::size_t row, std::size_t rows) {
  return std::min(plan.rowBlocks - 1, rows ? row * plan.rowBlocks / rows : 0);
}

/// Maps input [B][G*Ci][H][W] (2-D form): each row to a tile whose units read it.
void mapInput(Graph& graph, const ConvPlan& plan, const Tensor& in2d) {
  const auto& p = plan.problem.params;
  const std::size_t ci = p.inputChannelsPerConvGroup, H = p.inputFieldShape[0],
                    W = p.inputFieldShape[1];
  Graph::TileToTensorMapping m(graph.getTarget().getNumTiles());
  for (std::size_t b = 0; b < p.batchSize; ++b)
    for (std::size_t g = 0; g < p.numConvGroups; ++g)
      for (std::size_t c = 0; c < ci; ++c)
        for (std::size_t r = 0; r < H; ++r) {
          const std::size_t unit = plan.unitIndex(g, b, c % plan.outChanBlocks,
                                                  rowBlockOf(plan, r, H), c / plan.inChansPerBlock);
          const std::size_t begin = (((b * p.numConvGroups + g) * ci + c) * H + r) * W;
          m[plan.placed(plan.tileOf(unit))].emplace_back(begin, begin + W);
        }
  graph.setTileMapping(in2d, m);
}

/// Maps weights [G][Co][Ci][kH][kW] (2-D form): each output channel's block of each
/// input-channel block to a tile using it.
void mapWeights(Graph& graph, const ConvPlan& plan, const Tensor& w2d) {
  const auto& p = plan.problem.params;
  const std::size_t co = p.outputChannelsPerConvGroup;
  const std::size_t kernel = p.kernelShape[0] * p.kernelShape[1];
  const std::size_t block = p.inputChannelsPerConvGroup * kernel;
  Graph::TileToTensorMapping m(graph.getTarget().getNumTiles());
  for (std::size_t g = 0; g < p.numConvGroups; ++g)
    for (std::size_t oc = 0; oc < co; ++oc)
      for (std::size_t icb = 0; icb < plan.inChanBlocks; ++icb) {
        const Interval ics = plan.inChans(icb);
        const std::size_t cb = oc / plan.outChansPerBlock;
        const std::size_t unit = plan.unitIndex(g, oc % plan.batchBlocks, cb,
                                                (oc / plan.batchBlocks) % plan.rowBlocks, icb);
        const std::size_t begin = (g * co + oc) * block;
        m[plan.placed(plan.tileOf(unit))].emplace_back(begin + ics.begin() * kernel,
                                                       begin + ics.end() * kernel);
      }
  graph.setTileMapping(w2d, m);
}

/// Maps output [B][G*Co][Ho][Wo] (2-D form, with any output padding): each row where it is
/// computed (padding rows with the nearest computed row).
void mapOutput(Graph& graph, const ConvPlan& plan, const Tensor& out2d) {
  const auto& p = plan.problem.params;
  const std::size_t co = p.outputChannelsPerConvGroup, H = out2d.dim(2), W = out2d.dim(3);
  const std::size_t rows = std::max<std::size_t>(plan.problem.outRows, 1);
  const Tensor flat = out2d.flatten();
  std::vector<std::vector<Interval>> m(graph.getTarget().getNumTiles());
  for (std::size_t b = 0; b < p.batchSize; ++b)
    for (std::size_t g = 0; g < p.numConvGroups; ++g)
      for (std::size_t oc = 0; oc < co; ++oc)
        for (std::size_t r = 0; r < H; ++r) {
          const long o = std::min<long>(std::max<long>(long(r) - long(plan.problem.outPadY), 0),
                                        long(rows) - 1);
          const std::size_t cb = oc / plan.outChansPerBlock,
                            rb = std::size_t(o) / plan.rowsPerBlock;
          // The row lives where it is computed or, input channels split, where it is summed.
          const std::size_t blockRow = (oc - plan.outChans(cb).begin()) * plan.rows(rb).size() +
                                       (std::size_t(o) - plan.rows(rb).begin());
          const unsigned tile =
              plan.placed(plan.inChanBlocks > 1 ? plan.reduceTileOf(g, b, cb, rb, blockRow)
                                                : plan.tileOf(plan.unitIndex(g, b, cb, rb)));
          const std::size_t begin = (((b * p.numConvGroups + g) * co + oc) * H + r) * W;
          m[tile].emplace_back(begin, begin + W);
        }
  // `out2d` may be a view (the weight update writes a transposed view of the deltas): map the
  // pieces of the flattened view.
  for (unsigned tile = 0; tile < m.size(); ++tile)
    for (const auto& iv : m[tile])
      graph.setTileMapping(flat.slice(iv), tile);
}

/// The compute set of the planned convolution: in [Bq][G*Ci][H][W], weights
/// [G][Co][Ci][kH][kW], out [Bq][G*Co][Ho][Wo] (2-D forms, views allowed). When the plan splits
/// the input channels, each block's vertices write partial sums, which a reduction then adds
/// into the output.
void convolveInto(Graph& graph, const ConvPlan& plan, const Tensor& in, const Tensor& weights,
                  const Tensor& out, Sequence& prog, const DebugContext& di,
                  const ComputeSet* sharedConvolve = nullptr,
                  const ComputeSet* sharedReduce = nullptr) {
  const ConvProblem& pr = plan.problem;
  const auto& p = pr.params;
  const std::size_t G = p.numConvGroups, B = p.batchSize, ci = p.inputChannelsPerConvGroup,
                    co = p.outputChannelsPerConvGroup;
  const std::size_t H = in.dim(2), W = in.dim(3), Ho = out.dim(2), Wo = out.dim(3);
  const std::size_t kernel = weights.dim(3) * weights.dim(4);
  const bool padded = pr.outRows != Ho || pr.outCols != Wo;
  const bool split = plan.inChanBlocks > 1;
  if (padded) popops::zero(graph, out, prog, {di, "zeroPadding"});
  // Where the vertices write: [B][G*Co][Ho][Wo] rows of the output, or (input channels split)
  // each input-channel block's plane of partials, laid out output block by output block
  // (ConvPlan::partialsBlockOffset) so that the reduction reads each share as one run.
  Tensor partials;
  if (split) {
    partials = graph.addVariable(plan.partialsType, {plan.inChanBlocks, plan.partialsPlaneSize()},
                                 {di, "partials"});
  }
  const Tensor inFlat = in.flatten(), outFlat = out.flatten();
  const Tensor w = weights.reshape({G * co, weights.numElements() / (G * co)});
  // A multi-convolution's parallel plan shares its two compute sets among the convolutions
  // (each on its own tiles) and executes them itself.
  const ComputeSet cs = sharedConvolve
                            ? *sharedConvolve
                            : graph.addComputeSet({di, "Convolve[" + plan.summary() + "]"});
  const std::string vertexName = plan.vertexName();
  // The output row of channel `oc` and computed row `o` of batch element `b`, group `g`.
  const auto outRow = [&](std::size_t b, std::size_t g, std::size_t oc, std::size_t o) {
    const std::size_t begin = (((b * G + g) * co + oc) * Ho + pr.outPadY + o) * Wo + pr.outPadX;
    return outFlat.slice(begin, begin + pr.outCols);
  };
  for (std::size_t g = 0; g < G; ++g)
    for (std::size_t b = 0; b < B; ++b)
      for (std::size_t icb = 0; icb < plan.inChanBlocks; ++icb)
        for (std::size_t cb = 0; cb < plan.outChanBlocks; ++cb)
          for (std::size_t rb = 0; rb < plan.rowBlocks; ++rb) {
            const Interval rows = plan.rows(rb), chans = plan.outChans(cb), ics = plan.inChans(icb);
            if (rows.size() == 0 || chans.size() == 0 || ics.size() == 0) continue;
            const unsigned tile = plan.placed(plan.tileOf(plan.unitIndex(g, b, cb, rb, icb)));
            // The real input rows this block reads.
            int lo = -1, hi = -1;
            for (std::size_t o = rows.begin(); o < rows.end(); ++o)
              for (int ky = 0; ky < pr.y.kernelCount; ++ky) {
                const int r = pr.y.inputIndex(pr.y.position(long(o), ky));
                if (r < 0) continue;
                lo = lo < 0 ? r : std::min(lo, r);
                hi = std::max(hi, r);
              }
            if (lo < 0) lo = hi = std::min<int>(pr.y.inTruncation, int(H) - 1); // all padding
            std::vector<Tensor> inEdges, wEdges, outEdges;
            for (std::size_t c = ics.begin(); c < ics.end(); ++c)
              for (int r = lo; r <= hi; ++r) {
                const std::size_t begin = (((b * G + g) * ci + c) * H + std::size_t(r)) * W;
                inEdges.push_back(inFlat.slice(begin, begin + W));
              }
            for (std::size_t oc = chans.begin(); oc < chans.end(); ++oc)
              wEdges.push_back(w[g * co + oc].slice(ics.begin() * kernel, ics.end() * kernel));
            if (split) {
              // The block's rows, channel by channel, in its run of this block's partials.
              const std::size_t begin = plan.partialsBlockOffset(g, b, cb, rb);
              const std::size_t size = chans.size() * rows.size() * pr.outCols;
              const Tensor run = partials[icb].slice(begin, begin + size);
              graph.setTileMapping(run, tile);
              for (std::size_t r = 0; r < chans.size() * rows.size(); ++r)
                outEdges.push_back(run.slice(r * pr.outCols, (r + 1) * pr.outCols));
            } else {
              for (std::size_t oc = chans.begin(); oc < chans.end(); ++oc)
                for (std::size_t o = rows.begin(); o < rows.end(); ++o)
                  outEdges.push_back(outRow(b, g, oc, o));
            }
            std::vector<int> geometry(ConvVertexGeometry::kInts);
            geometry[0] = lo, geometry[1] = hi - lo + 1, geometry[2] = int(rows.begin());
            pr.y.store(geometry.data() + 3);
            pr.x.store(geometry.data() + 3 + ConvDimGeometry::kInts);
            const Tensor geo =
                graph.addConstant(INT, {geometry.size()}, geometry, {di, "worklist"});
            graph.setTileMapping(geo, tile);
            const auto v = graph.addVertex(cs, vertexName);
            graph.connect(v["in"], inEdges);
            graph.connect(v["weights"], wEdges);
            graph.connect(v["out"], outEdges);
            graph.connect(v["geometry"], geo);
            graph.setInitialValue(v["inChans"], unsigned(ics.size()));
            graph.setInitialValue(v["kernelY"], unsigned(pr.y.kernelCount));
            graph.setInitialValue(v["kernelX"], unsigned(pr.x.kernelCount));
            graph.setTileMapping(v, tile);
          }
  if (!sharedConvolve) prog.add(program::Execute(cs, {di, "Convolve"}));
  if (!split) return;

  // The reduction stage, as PopLibs' conv reduction and the matmul's: poplin::ReduceAdd
  // vertices, each summing the input-channel blocks' partials of a run of an output block's
  // rows on the tile that holds them (ConvPlan::reduceTileOf), as the planner costed them.
  const ComputeSet reduce = sharedReduce ? *sharedReduce : graph.addComputeSet({di, "Reduce"});
  const std::string reduceVertex = poputil::templateVertex("poplin::ReduceAdd", out.elementType(),
                                                           plan.partialsType, false, false);
  for (const ReduceWork& rw : reduceWork(plan)) {
    const Interval rows = plan.rows(rw.rb), chans = plan.outChans(rw.cb);
    const std::size_t begin =
        plan.partialsBlockOffset(rw.g, rw.bb, rw.cb, rw.rb) + rw.rowBegin * pr.outCols;
    const std::size_t end = begin + (rw.rowEnd - rw.rowBegin) * pr.outCols;
    std::vector<Tensor> edges, outEdges;
    for (std::size_t icb = 0; icb < plan.inChanBlocks; ++icb)
      edges.push_back(partials[icb].slice(begin, end));
    for (std::size_t r = rw.rowBegin; r < rw.rowEnd; ++r)
      outEdges.push_back(
          outRow(rw.bb, rw.g, chans.begin() + r / rows.size(), rows.begin() + r % rows.size()));
    const auto v = graph.addVertex(reduce, reduceVertex);
    graph.connect(v["partials"], edges);
    graph.connect(v["out"], outEdges);
    graph.setTileMapping(v, plan.placed(rw.tile));
  }
  if (!sharedReduce) prog.add(program::Execute(reduce, {di, "Reduce"}));
}

Tensor createOutput2d(Graph& graph, const ConvPlan& plan, const ConvParams& params,
                      const DebugContext& dc) {
  const Tensor out = graph.addVariable(params.outputType, outputShape(params), dc);
  mapOutput(graph, plan, as2d(out, params.getNumFieldDims()));
  return out;
}

/// The weight-update convolution of a forward problem: the deltas [G][Co][Ci][kH][kW] are the
/// correlation of the input with the output gradients over the batch and the output field.
/// Cast as a convolution whose "batch" is the forward input channels, whose input channels are
/// the forward batch, and whose kernel is the output gradient.
ConvProblem weightUpdateProblem(const ConvProblem& fwd, std::size_t zRows, std::size_t zCols) {
  const ConvParams& f = fwd.params;
  ConvProblem q;
  q.params = ConvParams(f.inputType, f.inputType, f.inputChannelsPerConvGroup, f.inputFieldShape,
                        {zRows, zCols}, f.batchSize, f.outputChannelsPerConvGroup, f.numConvGroups)
                 .canonicalize();
  q.outRows = std::size_t(fwd.y.kernelCount);
  q.outCols = std::size_t(fwd.x.kernelCount);
  q.outPadY = unsigned(fwd.y.kernelBegin);
  q.outPadX = unsigned(fwd.x.kernelBegin);
  const auto swap = [](const ConvDimGeometry& d, unsigned zPad, std::size_t zCount,
                       std::size_t zFull) {
    ConvDimGeometry g = d; // the input map is unchanged
    g.outOffset = d.outOffset + d.kernelOffset;
    g.stride = d.kernelStep;
    g.kernelOffset = 0;
    g.kernelStep = d.stride;
    g.kernelBegin = int(zPad);
    g.kernelCount = int(zCount);
    g.kernelFull = int(zFull);
    return g;
  };
  q.y = swap(fwd.y, fwd.outPadY, fwd.outRows, zRows);
  q.x = swap(fwd.x, fwd.outPadX, fwd.outCols, zCols);
  return q;
}

Tensor weightDeltas(Graph& graph, const Tensor& zDeltas, const Tensor& activations,
                    const ConvParams& params, Sequence& prog, const DebugContext& di,
                    const OptionFlags& options, PlanningCache* cache, const std::string& op) {
  const ConvOptions opts = parseConvOptions(options, op);
  const ConvProblem fwd = makeConvProblem(params, op);
  const auto& p = fwd.params;
  checkTensor(activations, inputShape(params), params.inputType, op, "activations", "the input");
  checkTensor(zDeltas, outputShape(params), params.outputType, op, "zDeltas", "the output");
  const std::size_t dims = params.getNumFieldDims();
  const Tensor acts2d = as2d(activations, dims);
  Tensor z2d = as2d(zDeltas, dims);
  if (z2d.elementType() != p.inputType)
    z2d = popops::cast(graph, z2d, p.inputType, prog, {di, "castDeltas"});
  const std::size_t G = p.numConvGroups, B = p.batchSize, ci = p.inputChannelsPerConvGroup,
                    co = p.outputChannelsPerConvGroup;
  const std::size_t H = p.inputFieldShape[0], W = p.inputFieldShape[1];
  const std::size_t Ho = z2d.dim(2), Wo = z2d.dim(3);
  const ConvProblem q = weightUpdateProblem(fwd, Ho, Wo);
  const ConvPlan plan = planFor(graph.getTarget(), q, opts, cache);

  const Tensor deltas = graph.addVariable(p.inputType, weightsShape(params), {di, "weightDeltas"});
  const Tensor d2d = as2d(deltas, dims);
  // [Ci][G*Co][kH][kW]: the deltas as the weight-update convolution writes them.
  const Tensor qOut =
      d2d.dimShuffle({2, 0, 1, 3, 4}).reshape({ci, G * co, p.kernelShape[0], p.kernelShape[1]});
  mapOutput(graph, plan, qOut);
  const Tensor qIn =
      acts2d.reshape({B, G, ci, H, W}).dimShuffle({2, 1, 0, 3, 4}).reshape({ci, G * B, H, W});
  const Tensor qWeights = z2d.reshape({B, G, co, Ho, Wo}).dimShuffle({1, 2, 0, 3, 4});
  convolveInto(graph, plan, qIn, qWeights, qOut, prog, di);
  return deltas;
}

} // namespace

std::uint64_t getFwdFlops(const ConvParams& params) {
  const ConvProblem pr = makeConvProblem(params, "poplin::getFwdFlops");
  const auto& p = pr.params;
  // Count the kernel positions that land on real input elements, row by row and column by column.
  const auto realTaps = [](const ConvDimGeometry& d, std::size_t outSize) {
    std::uint64_t n = 0;
    for (std::size_t o = 0; o < outSize; ++o)
      for (int k = 0; k < d.kernelCount; ++k)
        n += d.inputIndex(d.position(long(o), k)) >= 0;
    return n;
  };
  const std::uint64_t taps = realTaps(pr.y, pr.outRows) * realTaps(pr.x, pr.outCols);
  return 2 * taps * p.batchSize * p.numConvGroups * p.inputChannelsPerConvGroup *
         p.outputChannelsPerConvGroup;
}

std::uint64_t getBwdFlops(const ConvParams& params) {
  return getFwdFlops(params); // the same multiply-adds, in the other direction
}

std::uint64_t getWuFlops(const ConvParams& params) {
  return getFwdFlops(params);
}

namespace {
double perfectCycles(const Graph& graph, const ConvParams& params, std::uint64_t flops) {
  const unsigned macsPerCycle = params.inputType == HALF ? 64 : 16;
  return double(flops) / 2.0 / macsPerCycle / graph.getTarget().getNumTiles();
}
} // namespace

double getFwdPerfectCycleCount(const Graph& graph, const ConvParams& params) {
  return perfectCycles(graph, params, getFwdFlops(params));
}
double getBwdPerfectCycleCount(const Graph& graph, const ConvParams& params) {
  return perfectCycles(graph, params, getBwdFlops(params));
}
double getWuPerfectCycleCount(const Graph& graph, const ConvParams& params) {
  return perfectCycles(graph, params, getWuFlops(params));
}

Tensor createWeights(Graph& graph, const ConvParams& params, const DebugContext& debugContext,
                     const OptionFlags& options, PlanningCache* cache) {
  const Planned p = planParams(graph, params, options, cache, "poplin::createWeights");
  const Tensor w = graph.addVariable(params.inputType, weightsShape(params), debugContext);
  mapWeights(graph, p.plan, as2d(w, params.getNumFieldDims()));
  return w;
}

Tensor createBiases(Graph& graph, const Tensor& activations, const DebugContext& debugContext) {
  const std::string op = "poplin::createBiases";
  poplibs_support::checkValid(activations, op, "activations");
  if (activations.rank() < 2)
    throw poputil::poplibs_error(op + ": activations have shape " + activations.shapeToString() +
                                 "; expected [batch][channels][field...]");
  const Tensor biases =
      graph.addVariable(activations.elementType(), {activations.dim(1)}, debugContext);
  poputil::mapTensorLinearly(graph, biases);
  return biases;
}

Tensor createBiases(Graph& graph, const Tensor& activations, const ConvParams& params,
                    const DebugContext& debugContext, const OptionFlags& options,
                    PlanningCache* cache) {
  parseConvOptions(options, "poplin::createBiases");
  if (activations.valid() && activations.rank() >= 2 &&
      activations.dim(1) != params.getNumOutputChans())
    throw poputil::poplibs_error(
        "poplin::createBiases: activations have " + std::to_string(activations.dim(1)) +
        " channels but the parameters give " + std::to_string(params.getNumOutputChans()));
  return createBiases(graph, activations, debugContext);
}

Tensor createInput(Graph& graph, const ConvParams& params, const DebugContext& debugContext,
                   const OptionFlags& options, PlanningCache* cache) {
  const Planned p = planParams(graph, params, options, cache, "poplin::createInput");
  const Tensor in = graph.addVariable(params.inputType, inputShape(params), debugContext);
  mapInput(graph, p.plan, as2d(in, params.getNumFieldDims()));
  return in;
}

Tensor createConvOutput(Graph& graph, const ConvParams& params, const DebugContext& debugContext,
                        const OptionFlags& options, PlanningCache* cache) {
  const Planned p = planParams(graph, params, options, cache, "poplin::createConvOutput");
  return createOutput2d(graph, p.plan, params, debugContext);
}

namespace {
/// convolution() and convolutionWithOutput(): `out` invalid means a new output tensor.
Tensor convolveWith(Graph& graph, const Tensor& in, const Tensor& weights, Tensor out,
                    const ConvParams& params, bool transposeAndFlipWeights, Sequence& prog,
                    const DebugContext& di, const OptionFlags& options, PlanningCache* cache,
                    const std::string& op) {
  const Planned p = planParams(graph, params, options, cache, op);
  const std::size_t dims = params.getNumFieldDims();
  checkTensor(in, inputShape(params), params.inputType, op, "in", "the input");
  checkTensor(weights, weightsShape(params, transposeAndFlipWeights), params.inputType, op,
              "weights", transposeAndFlipWeights ? "the transposed weights" : "the weights");
  if (out.valid())
    checkTensor(out, outputShape(params), params.outputType, op, "out", "the output");
  Tensor w = weights;
  if (transposeAndFlipWeights) {
    // As PopLibs: a copy of the weights with the channels swapped and the kernel reversed,
    // laid out for this convolution.
    w = graph.addVariable(params.inputType, weightsShape(params), {di, "transposedWeights"});
    mapWeights(graph, p.plan, as2d(w, dims));
    weightsTransposeChansFlipXY(graph, weights, w, prog, {di, "transposeAndFlip"});
  }
  if (!out.valid()) out = createOutput2d(graph, p.plan, params, {di, "output"});
  convolveInto(graph, p.plan, as2d(in, dims), as2d(w, dims), as2d(out, dims), prog, di);
  return out;
}
} // namespace

Tensor convolution(Graph& graph, const Tensor& in, const Tensor& weights, const ConvParams& params,
                   bool transposeAndFlipWeights, Sequence& prog, const DebugContext& debugContext,
                   const OptionFlags& options, PlanningCache* cache) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "Conv");
  return convolveWith(graph, in, weights, Tensor(), params, transposeAndFlipWeights, prog, di,
                      options, cache, "poplin::convolution");
}

void convolutionWithOutput(Graph& graph, const Tensor& in, const Tensor& weights, const Tensor& out,
                           const ConvParams& params, bool transposeAndFlipWeights, Sequence& prog,
                           const DebugContext& debugContext, const OptionFlags& options,
                           PlanningCache* cache) {
  const std::string op = "poplin::convolutionWithOutput";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "Conv");
  poplibs_support::checkValid(out, op, "out");
  convolveWith(graph, in, weights, out, params, transposeAndFlipWeights, prog, di, options, cache,
               op);
}

void preplanConvolutions(const std::set<ConvPlanParams>& convs, PlanningCache& cache) {
  for (const auto& c : convs) {
    const Target* target = std::get<0>(c);
    if (!target) throw poputil::poplibs_error("poplin::preplanConvolutions: a null target");
    const OptionFlags* options = std::get<2>(c);
    const ConvOptions opts =
        parseConvOptions(options ? *options : OptionFlags(), "poplin::preplanConvolutions");
    planFor(*target, makeConvProblem(std::get<1>(c), "poplin::preplanConvolutions"), opts, &cache);
  }
}

void preplanConvolutions(Graph&, const std::set<ConvPlanParams>& convs, PlanningCache& cache) {
  preplanConvolutions(convs, cache);
}

namespace {
/// weightsIn with its channel dimensions swapped and its kernel reversed, checked against
/// weightsOut.
Tensor transposedAndFlipped(const Tensor& weightsIn, const Tensor& weightsOut,
                            const std::string& op) {
  poplibs_support::checkValid(weightsIn, op, "weightsIn");
  poplibs_support::checkValid(weightsOut, op, "weightsOut");
  if (weightsIn.rank() < 3)
    throw poputil::poplibs_error(op + ": weightsIn has shape " + weightsIn.shapeToString() +
                                 "; expected [groups][outChans][inChans][kernel...]");
  std::vector<unsigned> perm(weightsIn.rank());
  for (unsigned i = 0; i < perm.size(); ++i)
    perm[i] = i;
  std::swap(perm[1], perm[2]);
  Tensor t = weightsIn.dimShuffle(perm);
  for (unsigned d = 3; d < t.rank(); ++d)
    t = t.reverse(d);
  if (t.shape() != weightsOut.shape())
    throw poputil::poplibs_error(op + ": weightsOut has shape " + weightsOut.shapeToString() +
                                 " but weightsIn " + weightsIn.shapeToString() + " transposed is " +
                                 t.shapeToString());
  if (weightsIn.elementType() != weightsOut.elementType())
    throw poputil::poplibs_error(op + ": weightsIn is " + weightsIn.elementType().toString() +
                                 " but weightsOut is " + weightsOut.elementType().toString());
  return t;
}
} // namespace

void weightsTransposeChansFlipXY(Graph& graph, const Tensor& weightsIn, const Tensor& weightsOut,
                                 Sequence& prog, const DebugContext& debugContext,
                                 const OptionFlags& options) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "WeightsTransposeChansFlipXY");
  parseConvOptions(options, "poplin::weightsTransposeChansFlipXY");
  const Tensor t =
      transposedAndFlipped(weightsIn, weightsOut, "poplin::weightsTransposeChansFlipXY");
  prog.add(program::Copy(t, weightsOut, false, di));
}

void weightsTransposeChansFlipXY(Graph& graph, const Tensor& weightsInUnGrouped,
                                 const Tensor& weightsOutUnGrouped,
                                 std::vector<program::Copy>& preTranspose, ComputeSet,
                                 std::vector<program::Copy>&, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "WeightsTransposeChansFlipXY");
  const Tensor t = transposedAndFlipped(weightsInUnGrouped, weightsOutUnGrouped,
                                        "poplin::weightsTransposeChansFlipXY");
  preTranspose.emplace_back(t, weightsOutUnGrouped, false, di);
}

Tensor calculateWeightDeltas(Graph& graph, const Tensor& zDeltas, const Tensor& activations,
                             const ConvParams& params, Sequence& prog,
                             const DebugContext& debugContext, const OptionFlags& options,
                             PlanningCache* cache) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "ConvWeightDeltas");
  return weightDeltas(graph, zDeltas, activations, params, prog, di, options, cache,
                      "poplin::calculateWeightDeltas");
}

void convolutionWeightUpdate(Graph& graph, const Tensor& zDeltas, const Tensor& weights,
                             const Tensor& activations, ConvParams params, const Tensor& scale,
                             Sequence& prog, const DebugContext& debugContext,
                             const OptionFlags& options, PlanningCache* cache) {
  const std::string op = "poplin::convolutionWeightUpdate";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "ConvWeightUpdate");
  checkTensor(weights, weightsShape(params), params.inputType, op, "weights", "the weights");
  poplibs_support::checkValid(scale, op, "scale");
  if (scale.numElements() != 1)
    throw poputil::poplibs_error(op + ": scale has shape " + scale.shapeToString() +
                                 "; expected one element");
  poplibs_support::checkType(scale.elementType(), {FLOAT, HALF}, op, "scale");
  const Tensor deltas =
      weightDeltas(graph, zDeltas, activations, params, prog, di, options, cache, op);
  Tensor s = scale.reshape({1});
  if (s.elementType() != deltas.elementType())
    s = popops::cast(graph, s, deltas.elementType(), prog, {di, "castScale"});
  popops::mulInPlace(graph, deltas.flatten(), s, prog, {di, "scaleDeltas"});
  popops::scaledAddTo(graph, weights, deltas, 1.0f, prog, {di, "update"});
}

void convolutionWeightUpdate(Graph& graph, const Tensor& zDeltas, const Tensor& weights,
                             const Tensor& activations, ConvParams params, float scale,
                             Sequence& prog, const DebugContext& debugContext,
                             const OptionFlags& options, PlanningCache* cache) {
  const std::string op = "poplin::convolutionWeightUpdate";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "ConvWeightUpdate");
  checkTensor(weights, weightsShape(params), params.inputType, op, "weights", "the weights");
  const Tensor deltas =
      weightDeltas(graph, zDeltas, activations, params, prog, di, options, cache, op);
  popops::scaledAddTo(graph, weights, deltas, scale, prog, {di, "update"});
}

namespace {
void biasUpdate(Graph& graph, const Tensor& zDeltas, const Tensor& biases, const Tensor& scale,
                const OptionFlags& options, Sequence& prog, const DebugContext& di,
                const std::string& op) {
  poplibs_support::checkOptions(options, {"partialsType"}, op);
  poplibs_support::checkValid(zDeltas, op, "zDeltas");
  poplibs_support::checkValid(biases, op, "biases");
  if (zDeltas.rank() < 2 || biases.rank() != 1 || biases.dim(0) != zDeltas.dim(1))
    throw poputil::poplibs_error(op + ": biases " + biases.shapeToString() +
                                 " must have one element per channel of zDeltas " +
                                 zDeltas.shapeToString() + " ([batch][channels][field...])");
  poplibs_support::checkType(biases.elementType(), {FLOAT, HALF}, op, "biases");
  std::vector<std::size_t> dims = {0};
  for (std::size_t d = 2; d < zDeltas.rank(); ++d)
    dims.push_back(d);
  popops::reduceWithOutput(graph, zDeltas, biases, dims,
                           popops::ReduceParams(popops::Operation::ADD, true, scale), prog,
                           {di, "reduce"});
}
} // namespace

void convolutionBiasUpdate(Graph& graph, const Tensor& zDeltas, const Tensor& biases,
                           const Tensor& scale, const OptionFlags& options, Sequence& prog,
                           const DebugContext& debugContext) {
  const std::string op = "poplin::convolutionBiasUpdate";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "ConvBiasUpdate");
  poplibs_support::checkValid(scale, op, "scale");
  Tensor s = scale;
  if (s.elementType() != FLOAT) s = popops::cast(graph, s, FLOAT, prog, {di, "castScale"});
  biasUpdate(graph, zDeltas, biases, s.reshape({}), options, prog, di, op);
}

void convolutionBiasUpdate(Graph& graph, const Tensor& zDeltas, const Tensor& biases, float scale,
                           const OptionFlags& options, Sequence& prog,
                           const DebugContext& debugContext) {
  const std::string op = "poplin::convolutionBiasUpdate";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "ConvBiasUpdate");
  const Tensor s = graph.addConstant(FLOAT, {}, scale, {di, "scale"});
  graph.setTileMapping(s, 0);
  biasUpdate(graph, zDeltas, biases, s, options, prog, di, op);
}

void addBias(Graph& graph, const Tensor& acts, const Tensor& biases, Sequence& prog,
             const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "AddBias");
  poplibs_support::channelOpInPlace(graph, poplibs_support::ChannelOp::ADD, acts, biases, 1.0f,
                                    prog, di, "poplin::addBias");
}

void reportPlanInfo(std::ostream& out, const Graph& graph, const ConvParams& params,
                    const OptionFlags& options, PlanningCache* cache) {
  out << planParams(graph, params, options, cache, "poplin::reportPlanInfo").plan << '\n';
}

void reportWeightUpdatePlanInfo(std::ostream& out, const Graph& graph, const ConvParams& fwdParams,
                                const OptionFlags& options, PlanningCache* cache) {
  const std::string op = "poplin::reportWeightUpdatePlanInfo";
  const ConvOptions opts = parseConvOptions(options, op);
  const ConvProblem fwd = makeConvProblem(fwdParams, op);
  const ConvProblem q =
      weightUpdateProblem(fwd, fwd.params.getOutputSize(0), fwd.params.getOutputSize(1));
  out << "weight update " << planFor(graph.getTarget(), q, opts, cache) << '\n';
}

PlanCosts reportPlanEstimatedCosts(const Graph& graph, const ConvParams& params,
                                   const OptionFlags& options, PlanningCache* cache) {
  const Planned p = planParams(graph, params, options, cache, "poplin::reportPlanEstimatedCosts");
  return {std::size_t(p.plan.totalCycles), std::size_t(p.plan.tempBytes)};
}

Tensor fullyConnectedWeightTranspose(Graph& graph, Tensor weights, const ConvParams& params,
                                     Sequence& prog, const DebugContext& debugContext,
                                     const OptionFlags& options, PlanningCache* cache) {
  const std::string op = "poplin::fullyConnectedWeightTranspose";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "fullyConnectedWeightTranspose");
  if (params.getNumFieldDims() != 1)
    throw poputil::poplibs_error(op + ": expects a 1-d convolution, not " +
                                 std::to_string(params.getNumFieldDims()) + "-d");
  // The backward pass's weights are the forward ones with the channels swapped; the forward
  // weights are the backward params' weights transposed.
  checkTensor(weights, weightsShape(params, true), params.inputType, op, "weights",
              "the forward weights");
  const Tensor transposed = createWeights(graph, params, {di, "transposed"}, options, cache);
  prog.add(program::Copy(weights.dimShuffle({0, 2, 1, 3}), transposed, false, {di, "transpose"}));
  return transposed;
}

void convolutionValidateOptions(const OptionFlags& options) {
  parseConvOptions(options, "poplin::convolutionValidateOptions");
}

std::vector<TileRange> parallelTileSplit(const Target& target,
                                         const std::vector<ConvParams>& params,
                                         const std::vector<OptionFlags>& options,
                                         unsigned perConvReservedTiles, double cycleBackOff,
                                         const std::string& op) {
  const std::size_t n = params.size();
  const unsigned tiles = target.getNumTiles();
  if (n < 2 || n > tiles) return {};
  std::vector<ConvProblem> problems;
  std::vector<ConvOptions> opts;
  for (std::size_t i = 0; i < n; ++i) {
    problems.push_back(makeConvProblem(params[i], op));
    opts.push_back(parseConvOptions(i < options.size() ? options[i] : OptionFlags(), op));
  }
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return getFwdFlops(params[a]) > getFwdFlops(params[b]);
  });
  // Cycles of convolution i planned on `count` tiles (the range's position does not matter).
  const auto cycles = [&](std::size_t i, unsigned count) {
    ConvOptions o = opts[i];
    o.firstTile = 0;
    o.numTiles = count;
    return planConvolution(target, problems[i], o).totalCycles;
  };
  std::vector<TileRange> ranges(n);
  unsigned first = 0, available = tiles;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = order[k];
    const unsigned remaining = unsigned(n - k - 1);
    if (remaining == 0) {
      ranges[i] = {first, available};
      break;
    }
    const unsigned reserve = std::max<unsigned>(
        remaining, unsigned(std::min<std::uint64_t>(std::uint64_t(remaining) * perConvReservedTiles,
                                                    available - 1)));
    const unsigned budget = available - reserve;
    const double limit = double(cycles(i, budget)) * (1.0 + cycleBackOff);
    unsigned lo = 1, hi = budget;
    while (lo < hi) {
      const unsigned mid = (lo + hi) / 2;
      if (double(cycles(i, mid)) <= limit)
        hi = mid;
      else
        lo = mid + 1;
    }
    ranges[i] = {first, lo};
    first += lo;
    available -= lo;
  }
  return ranges;
}

Tensor createWeightsOn(Graph& graph, const ConvParams& params, const DebugContext& debugContext,
                       const OptionFlags& options, PlanningCache* cache, TileRange range) {
  const Planned p =
      planParams(graph, params, options, cache, "poplin::multiconv::createWeights", range);
  const Tensor w = graph.addVariable(params.inputType, weightsShape(params), debugContext);
  mapWeights(graph, p.plan, as2d(w, params.getNumFieldDims()));
  return w;
}

Tensor createInputOn(Graph& graph, const ConvParams& params, const DebugContext& debugContext,
                     const OptionFlags& options, PlanningCache* cache, TileRange range) {
  const Planned p =
      planParams(graph, params, options, cache, "poplin::multiconv::createInput", range);
  const Tensor in = graph.addVariable(params.inputType, inputShape(params), debugContext);
  mapInput(graph, p.plan, as2d(in, params.getNumFieldDims()));
  return in;
}

std::vector<Tensor> parallelConvolutions(Graph& graph, const std::vector<Tensor>& ins,
                                         const std::vector<Tensor>& weights,
                                         const std::vector<ConvParams>& params,
                                         const std::vector<OptionFlags>& options,
                                         const std::vector<TileRange>& ranges,
                                         bool transposeAndFlipWeights, Sequence& prog,
                                         const DebugContext& debugContext, PlanningCache* cache) {
  const std::string op = "poplin::multiconv::convolution";
  const ComputeSet cs = graph.addComputeSet({debugContext, "Convolve[parallel]"});
  const ComputeSet reduce = graph.addComputeSet({debugContext, "Reduce[parallel]"});
  bool anyReduce = false;
  std::vector<Tensor> outs;
  for (std::size_t i = 0; i < params.size(); ++i) {
    const DebugContext di(debugContext, "conv" + std::to_string(i));
    const Planned p = planParams(graph, params[i], options[i], cache, op, ranges[i]);
    const std::size_t dims = params[i].getNumFieldDims();
    checkTensor(ins[i], inputShape(params[i]), params[i].inputType, op, "in", "the input");
    checkTensor(weights[i], weightsShape(params[i], transposeAndFlipWeights), params[i].inputType,
                op, "weights", transposeAndFlipWeights ? "the transposed weights" : "the weights");
    Tensor w = weights[i];
    if (transposeAndFlipWeights) {
      w = graph.addVariable(params[i].inputType, weightsShape(params[i]),
                            {di, "transposedWeights"});
      mapWeights(graph, p.plan, as2d(w, dims));
      weightsTransposeChansFlipXY(graph, weights[i], w, prog, {di, "transposeAndFlip"});
    }
    const Tensor out = createOutput2d(graph, p.plan, params[i], {di, "output"});
    convolveInto(graph, p.plan, as2d(ins[i], dims), as2d(w, dims), as2d(out, dims), prog, di, &cs,
                 &reduce);
    anyReduce = anyReduce || p.plan.inChanBlocks > 1;
    outs.push_back(out);
  }
  prog.add(program::Execute(cs, {debugContext, "Convolve"}));
  if (anyReduce) prog.add(program::Execute(reduce, {debugContext, "Reduce"}));
  return outs;
}

} // namespace poplin
