#include "ConvPlan.hpp"

#include "poplibs_support/ConvCycleEstimators.hpp"
#include "poplibs_support/TileWork.hpp"

#include <algorithm>
#include <limits>
#include <ostream>
#include <poplar/exceptions.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>
#include <sstream>

namespace poplin {

ConvOptions parseConvOptions(const poplar::OptionFlags& options, const std::string& op) {
  // remapOutputTensor and use128BitConvUnitLoad (PopLibs' convolution options, which public
  // programs set) are checked and accepted without effect: Tessera's planner lays out the output
  // itself and its convolution vertices do not model the 128-bit load.
  poplibs_support::checkOptions(options,
                                {"partialsType", "pass", "availableMemoryProportion",
                                 "remapOutputTensor", "use128BitConvUnitLoad"},
                                op);
  ConvOptions parsed;
  for (const char* flag : {"remapOutputTensor", "use128BitConvUnitLoad"}) {
    if (options.contains(flag)) {
      const auto& v = options.at(flag);
      if (v != "true" && v != "false")
        throw poplar::invalid_option(op + ": option '" + flag + "' = '" + v +
                                     "': expected true or false");
    }
  }
  if (options.contains("partialsType")) {
    const auto& v = options.at("partialsType");
    if (v == "float")
      parsed.partialsType = poplar::FLOAT;
    else if (v == "half")
      parsed.partialsType = poplar::HALF;
    else
      throw poplar::invalid_option(op + ": option 'partialsType' = '" + v +
                                   "': expected float or half");
  }
  if (options.contains("pass")) {
    const auto& v = options.at("pass");
    static const char* const passes[] = {
        "NONE",          "INFERENCE_FWD",    "TRAINING_FWD",    "TRAINING_BWD",
        "TRAINING_WU",   "FC_INFERENCE_FWD", "FC_TRAINING_FWD", "FC_TRAINING_BWD",
        "FC_TRAINING_WU"};
    if (std::find(std::begin(passes), std::end(passes), v) == std::end(passes))
      throw poplar::invalid_option(op + ": option 'pass' = '" + v +
                                   "': expected NONE, INFERENCE_FWD, TRAINING_FWD, TRAINING_BWD, "
                                   "TRAINING_WU or an FC_ form of these");
    parsed.pass = v;
  }
  if (options.contains("availableMemoryProportion")) {
    const auto& v = options.at("availableMemoryProportion");
    char* end = nullptr;
    const double d = std::strtod(v.c_str(), &end);
    if (v.empty() || *end != '\0' || !(d >= 0.0 && d <= 1.0))
      throw poplar::invalid_option(op + ": option 'availableMemoryProportion' = '" + v +
                                   "': expected a number between 0 and 1");
    parsed.availableMemoryProportion = d;
  }
  return parsed;
}

namespace {

std::size_t ceilDiv(std::size_t a, std::size_t b) {
  return (a + b - 1) / b;
}

/// Calls f(size) for each distinct size ceil(total / parts), parts in [1, total].
template <typename F> void forEachPartSize(std::size_t total, F&& f) {
  std::size_t previous = 0;
  for (std::size_t parts = 1; parts <= total; ++parts) {
    const std::size_t size = ceilDiv(total, parts);
    if (size != previous) f(size);
    previous = size;
  }
}

template <typename T> void insertFront(std::vector<T>& v, T value) {
  v.insert(v.begin(), value);
}

ConvDimGeometry dimGeometry(const ConvParams& p, unsigned d) {
  ConvDimGeometry g;
  const auto& kt = p.kernelTransform;
  const auto& it = p.inputTransform;
  g.outOffset = int(p.outputTransform.truncationLower[d]);
  g.stride = int(p.outputTransform.stride[d]);
  g.kernelBegin = int(kt.truncationLower[d]);
  g.kernelCount = int(p.getTruncatedKernelSize(d));
  g.kernelFull = int(p.kernelShape[d]);
  const int transformedKernel = int(p.getTransformedKernelSize(d));
  const int kd = int(kt.dilation[d]), padK = int(kt.paddingLower[d]);
  g.kernelOffset = kt.flip[d] ? transformedKernel - 1 - padK : padK;
  g.kernelStep = kt.flip[d] ? -kd : kd;
  g.inTransformed = int(p.getTransformedInputSize(d));
  g.inPadding = int(it.paddingLower[d]);
  g.inDilation = int(it.dilation[d]);
  g.inCount = int(p.getTruncatedInputSize(d));
  g.inTruncation = int(it.truncationLower[d]);
  g.inFlip = it.flip[d] ? 1 : 0;
  return g;
}

std::size_t computedOutputSize(const ConvParams& p, unsigned d) {
  return p.getOutputSize(d) - p.outputTransform.paddingLower[d] - p.outputTransform.paddingUpper[d];
}

} // namespace

ConvProblem makeConvProblem(const ConvParams& params, const std::string& op) {
  ConvParams p = params.canonicalize();
  p.validate();
  if (p.getNumFieldDims() == 0 || p.getNumFieldDims() > 2)
    throw poputil::poplibs_error(op + ": convolutions of " + std::to_string(p.getNumFieldDims()) +
                                 " spatial dimensions are not supported (1 or 2 are)");
  if (p.getNumFieldDims() == 1) {
    insertFront<std::size_t>(p.inputFieldShape, 1);
    insertFront<std::size_t>(p.kernelShape, 1);
    for (ConvParams::InputTransform* t : {&p.inputTransform, &p.kernelTransform}) {
      insertFront(t->truncationLower, 0u);
      insertFront(t->truncationUpper, 0u);
      insertFront(t->dilation, 1u);
      insertFront(t->paddingLower, 0u);
      insertFront(t->paddingUpper, 0u);
      t->flip.insert(t->flip.begin(), false);
    }
    auto& o = p.outputTransform;
    insertFront(o.truncationLower, 0u);
    insertFront(o.truncationUpper, 0u);
    insertFront(o.stride, 1u);
    insertFront(o.paddingLower, 0u);
    insertFront(o.paddingUpper, 0u);
  }
  ConvProblem c;
  c.params = p;
  c.y = dimGeometry(p, 0);
  c.x = dimGeometry(p, 1);
  c.outRows = computedOutputSize(p, 0);
  c.outCols = computedOutputSize(p, 1);
  c.outPadY = p.outputTransform.paddingLower[0];
  c.outPadX = p.outputTransform.paddingLower[1];
  return c;
}

std::string ConvPlan::vertexName() const {
  const auto& p = problem.params;
  const poplar::Type in = p.inputType, out = vertexOutputType();
  const AmpShape amp = ampShape(in == poplar::HALF, out == poplar::HALF);
  switch (method) {
  case ConvMethod::AMP_1X1:
    return poputil::templateVertex("poplin::ConvPartial1x1Out", in, out, true, false,
                                   std::to_string(amp.numConvUnits),
                                   std::to_string(amp.inputLoadElemsPerCycle));
  case ConvMethod::AMP_NX1:
    return poputil::templateVertex("poplin::ConvPartialnx1", in, out, true, false,
                                   std::to_string(amp.numConvUnits),
                                   std::to_string(amp.inputLoadElemsPerCycle));
  case ConvMethod::HMAC:
    break;
  }
  return poputil::templateVertex("poplin::ConvPartialHorizontalMac", in, out, true);
}

std::string ConvPlan::summary() const {
  const auto& p = problem.params;
  std::ostringstream s;
  s << (method == ConvMethod::HMAC      ? "ConvPartialHorizontalMac"
        : method == ConvMethod::AMP_NX1 ? "ConvPartialnx1"
                                        : "ConvPartial1x1Out")
    << " on " << std::min<std::size_t>(numUnits(), numTiles) << " of " << numTiles
    << " tiles: convGroupSplit " << groups() << ", batchSplit " << batchBlocks << " ("
    << batchPerBlock << " of " << batch() << " per tile), outChanSplit " << outChanBlocks << " ("
    << outChansPerBlock << " of " << p.outputChannelsPerConvGroup << " per tile), fieldSplit "
    << rowBlocks << "x1 (" << rowsPerBlock << " of " << problem.outRows << " rows), inChanSplit "
    << inChanBlocks << " (" << inChansPerBlock << " of " << p.inputChannelsPerConvGroup
    << " per tile)";
  return s.str();
}

namespace {

/// The launch of a compute set: the supervisor starting its workers (the engine's cycle model
/// adds it to every tile's compute).
constexpr std::uint64_t kComputeSetLaunchCycles = 30;

/// One vertex of `method` as its codelet's estimator will cost it: `rows` x `width` field
/// elements (channelsInnermost: `rows` batch elements, width 1) of `outChans` output channels
/// over `inChans` input channels.
std::uint64_t unitVertexCycles(const poplar::Target& target, const ConvProblem& problem,
                               ConvMethod method, poplar::Type outType, std::size_t rows,
                               std::size_t width, std::size_t inChans, std::size_t outChans) {
  const auto& p = problem.params;
  switch (method) {
  case ConvMethod::AMP_1X1:
    return conv1x1VertexCycles(target, p.inputType, outType, rows, width, inChans, outChans);
  case ConvMethod::AMP_NX1:
    return convNx1VertexCycles(target, p.inputType, outType, rows, width,
                               unsigned(problem.y.kernelCount), unsigned(problem.x.kernelCount),
                               inChans, outChans);
  case ConvMethod::HMAC:
    break;
  }
  return convHmacVertexCycles(target, p.inputType, outType, rows, width,
                              unsigned(problem.y.kernelCount * problem.x.kernelCount), inChans,
                              outChans);
}

/// The busiest tile of the partials compute set, vertex by vertex (supervisor vertices on one
/// tile run one after another).
std::uint64_t convolveStageCycles(const poplar::Target& target, const ConvPlan& c) {
  const auto& pr = c.problem;
  const bool inner = pr.channelsInnermost;
  std::vector<std::uint64_t> tile(c.numTiles, 0);
  for (std::size_t g = 0; g < c.groups(); ++g)
    for (std::size_t bb = 0; bb < c.batchBlocks; ++bb)
      for (std::size_t icb = 0; icb < c.inChanBlocks; ++icb)
        for (std::size_t cb = 0; cb < c.outChanBlocks; ++cb)
          for (std::size_t rb = 0; rb < c.rowBlocks; ++rb) {
            const std::size_t rows = inner ? c.batches(bb).size() : c.rows(rb).size();
            const std::size_t width = inner ? 1 : pr.outCols;
            tile[c.tileOf(c.unitIndex(g, bb, cb, rb, icb))] +=
                unitVertexCycles(target, pr, c.method, c.vertexOutputType(), rows, width,
                                 c.inChans(icb).size(), c.outChans(cb).size());
          }
  return kComputeSetLaunchCycles + *std::max_element(tile.begin(), tile.end());
}

/// The busiest tile of the ReduceAdd compute set: each tile's worker vertices go, in the order
/// they are added, to its least-loaded context, as the engine runs them.
std::uint64_t reduceStageCycles(const poplar::Target& target, const ConvPlan& c) {
  const unsigned contexts = target.getNumWorkerContexts();
  std::vector<std::vector<std::uint64_t>> load(c.numTiles, std::vector<std::uint64_t>(contexts, 0));
  const bool outFloat = c.problem.params.outputType == poplar::FLOAT;
  const bool partialsFloat = c.partialsType == poplar::FLOAT;
  std::uint64_t worst = 0;
  for (const ReduceWork& w : reduceWork(c)) {
    auto& l = load[w.tile];
    auto least = std::min_element(l.begin(), l.end());
    *least += poplibs_support::reduceAddWorkerCycles(
        target, (w.rowEnd - w.rowBegin) * c.outChans(w.cb).size(), c.inChanBlocks, outFloat,
        partialsFloat);
    worst = std::max(worst, *std::max_element(l.begin(), l.end()));
  }
  return kComputeSetLaunchCycles + worst * contexts;
}

} // namespace

std::vector<ReduceWork> reduceWork(const ConvPlan& c) {
  std::vector<ReduceWork> work;
  if (c.inChanBlocks <= 1 || !c.problem.channelsInnermost) return work;
  // Each block's rows are shared in consecutive runs among the tiles of its input-channel
  // blocks' units (reduceTileOf), and each tile's run is cut into one vertex per worker.
  const std::size_t workers = c.numWorkerContexts;
  for (std::size_t g = 0; g < c.groups(); ++g)
    for (std::size_t bb = 0; bb < c.batchBlocks; ++bb)
      for (std::size_t cb = 0; cb < c.outChanBlocks; ++cb) {
        const std::size_t rows = c.batches(bb).size();
        for (std::size_t share = 0; share < c.inChanBlocks; ++share) {
          const std::size_t begin = (rows * share + c.inChanBlocks - 1) / c.inChanBlocks;
          const std::size_t end = (rows * (share + 1) + c.inChanBlocks - 1) / c.inChanBlocks;
          if (begin >= end) continue;
          const unsigned tile = c.reduceTileOf(g, bb, cb, begin);
          const std::size_t pieces = std::min(workers, end - begin);
          for (std::size_t w = 0; w < pieces; ++w)
            work.push_back({tile, g, bb, cb, begin + (end - begin) * w / pieces,
                            begin + (end - begin) * (w + 1) / pieces});
        }
      }
  return work;
}

ConvPlan planConvolution(const poplar::Target& target, const ConvProblem& problem,
                         const ConvOptions& options) {
  const ConvParams& p = problem.params;
  ConvPlan base;
  base.problem = problem;
  base.pass = options.pass;
  base.partialsType = options.partialsType;
  base.numTiles = target.getNumTiles();
  base.numWorkerContexts = target.getNumWorkerContexts();
  base.batchBlocks = p.batchSize;
  const bool inner = problem.channelsInnermost;
  const bool halfIn = p.inputType == poplar::HALF;
  const unsigned kernelPositions = unsigned(problem.y.kernelCount * problem.x.kernelCount);
  const std::size_t ciTotal = p.inputChannelsPerConvGroup;
  const std::size_t rowsTotal = std::max<std::size_t>(problem.outRows, 1);
  const std::size_t inWidth = p.inputFieldShape[1];
  const std::size_t kernelRows =
      std::size_t(std::abs(problem.y.kernelStep)) * (problem.y.kernelCount - 1) + 1;
  const std::uint64_t outputs = std::uint64_t(p.batchSize) * p.numConvGroups *
                                p.outputChannelsPerConvGroup * rowsTotal * problem.outCols;
  const auto exchange = [&](std::uint64_t bytes) {
    return ceilDiv(bytes, target.getExchangeBytesPerCycle());
  };

  ConvPlan best = base;
  std::uint64_t bestCost = std::numeric_limits<std::uint64_t>::max();
  const auto consider = [&](std::size_t batch, std::size_t ci, std::size_t chans,
                            std::size_t rows) {
    ConvPlan c = base;
    c.batchPerBlock = batch, c.batchBlocks = ceilDiv(p.batchSize, batch);
    c.inChansPerBlock = ci, c.outChansPerBlock = chans, c.rowsPerBlock = rows;
    c.inChanBlocks = ceilDiv(ciTotal, ci);
    c.outChanBlocks = ceilDiv(p.outputChannelsPerConvGroup, chans);
    c.rowBlocks = ceilDiv(rowsTotal, rows);
    const bool split = c.inChanBlocks > 1;
    const bool halfOut = c.vertexOutputType() == poplar::HALF;
    const AmpShape amp = ampShape(halfIn, halfOut);
    c.method = ci % amp.inChansPerGroup != 0 ? ConvMethod::HMAC
               : kernelPositions == 1        ? ConvMethod::AMP_1X1
                                             : ConvMethod::AMP_NX1;
    const std::size_t perTile = ceilDiv(c.numUnits(), c.numTiles);
    // The vertex's cycles as its estimator will give them (PopLibs' published formulas).
    c.vertexCycles = inner ? unitVertexCycles(target, problem, c.method, c.vertexOutputType(),
                                              batch, 1, ci, chans)
                           : unitVertexCycles(target, problem, c.method, c.vertexOutputType(), rows,
                                              problem.outCols, ci, chans);
    // Inputs each unit fetches: its input rows of its input channels (channelsInnermost: its
    // batch elements' input channels), and its weights.
    const std::size_t inRows = std::min<std::size_t>(
        p.inputFieldShape[0], (rows - 1) * std::size_t(problem.y.stride) + kernelRows);
    const std::uint64_t inElems =
        inner ? std::uint64_t(batch) * ci : std::uint64_t(ci) * inRows * inWidth;
    c.exchangeCycles =
        exchange((inElems + std::uint64_t(chans) * ci * p.kernelShape[0] * p.kernelShape[1]) *
                 p.inputType.size());
    c.reduceCycles = 0;
    if (split && inner) {
      // poplin::ReduceAdd: each tile of a block sums about batch / inChanBlocks rows of `chans`,
      // cut over its workers, after receiving the other blocks' partials.
      const unsigned contexts = target.getNumWorkerContexts();
      const std::size_t rowsPerTile = ceilDiv(batch, c.inChanBlocks) * perTile;
      const std::uint64_t perWorker = poplibs_support::reduceAddWorkerCycles(
          target, ceilDiv(rowsPerTile, contexts) * chans, c.inChanBlocks,
          p.outputType == poplar::FLOAT, c.partialsType == poplar::FLOAT);
      c.reduceCycles = kComputeSetLaunchCycles + perWorker * contexts +
                       exchange(std::uint64_t(rowsPerTile) * chans * (c.inChanBlocks - 1) *
                                c.partialsType.size()) +
                       target.getMaxIPUSyncDelay();
    } else if (split) {
      // The tile of each output element sums its partials.
      const std::uint64_t perTileOutputs = ceilDiv(outputs, c.numTiles);
      const unsigned width = target.getVectorWidth(c.partialsType);
      c.reduceCycles = 12 + c.inChanBlocks * (2 + ceilDiv(perTileOutputs, width)) +
                       exchange(perTileOutputs * c.inChanBlocks * c.partialsType.size()) +
                       target.getMaxIPUSyncDelay();
    }
    c.totalCycles = perTile * (c.vertexCycles + c.exchangeCycles) + target.getMaxIPUSyncDelay() +
                    c.reduceCycles;
    if (c.totalCycles < bestCost || (c.totalCycles == bestCost && c.numUnits() < best.numUnits())) {
      best = c;
      bestCost = c.totalCycles;
    }
  };
  // A product's channels are split in whole AMP groups, as PopLibs splits them (input channels
  // in the AMP's input groups, output channels in its conv units), unless there are fewer.
  const AmpShape ampIn = ampShape(halfIn, p.outputType == poplar::HALF);
  const auto grouped = [&](std::size_t size, std::size_t total, std::size_t group) {
    return !inner || size == total || size % group == 0;
  };
  forEachPartSize(inner ? p.batchSize : 1, [&](std::size_t batch) {
    forEachPartSize(ciTotal, [&](std::size_t ci) {
      if (!grouped(ci, ciTotal, ampIn.inChansPerGroup)) return;
      forEachPartSize(p.outputChannelsPerConvGroup, [&](std::size_t chans) {
        if (!grouped(chans, p.outputChannelsPerConvGroup, ampIn.numConvUnits)) return;
        forEachPartSize(rowsTotal, [&](std::size_t rows) { consider(batch, ci, chans, rows); });
      });
    });
  });
  best.convolveComputeCycles = convolveStageCycles(target, best);
  if (inner && best.inChanBlocks > 1) best.reduceComputeCycles = reduceStageCycles(target, best);
  return best;
}

std::ostream& operator<<(std::ostream& os, const ConvPlan& plan) {
  const auto& p = plan.problem.params;
  os << "convolution: batch " << p.batchSize << ", conv groups " << p.numConvGroups
     << ", input channels " << p.inputChannelsPerConvGroup << ", output channels "
     << p.outputChannelsPerConvGroup << " per group; input field {" << p.inputFieldShape[0] << ","
     << p.inputFieldShape[1] << "}, kernel {" << p.kernelShape[0] << "," << p.kernelShape[1]
     << "}, computed output {" << plan.problem.outRows << "," << plan.problem.outCols << "}; "
     << p.inputType << " in, " << p.outputType << " out (partials " << plan.partialsType
     << "), pass " << plan.pass << "\n";
  os << "  plan: " << plan.summary() << "\n";
  os << "  vertex: " << plan.vertexName() << ", " << plan.numUnits() << " vertices, "
     << (plan.numUnits() + plan.numTiles - 1) / plan.numTiles << " per tile at most\n";
  os << "  modelled cycles: ~" << plan.vertexCycles << " per vertex, ~" << plan.exchangeCycles
     << " exchange per vertex";
  if (plan.inChanBlocks > 1)
    os << ", ~" << plan.reduceCycles << " to sum the " << plan.inChanBlocks
       << " input-channel blocks' partials";
  os << ", ~" << plan.totalCycles << " in all\n";
  os << "  compute sets (as the profile shows them): Convolve ~" << plan.convolveComputeCycles;
  if (plan.reduceComputeCycles) os << ", ReduceAdd ~" << plan.reduceComputeCycles;
  os << " cycles";
  return os;
}

} // namespace poplin
