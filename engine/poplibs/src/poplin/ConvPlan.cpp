#include "ConvPlan.hpp"

#include "poplibs_support/ConvCycleEstimators.hpp"
#include "poplibs_support/Logging.hpp"
#include "poplibs_support/TileWork.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <ostream>
#include <poplar/exceptions.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>
#include <sstream>
#include <tuple>

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
    << (firstTile ? " tiles from tile " + std::to_string(firstTile) : std::string(" tiles"))
    << ": convGroupSplit " << groups() << ", batchSplit " << batchBlocks << " (" << batchPerBlock
    << " of " << batch() << " per tile), outChanSplit " << outChanBlocks << " (" << outChansPerBlock
    << " of " << p.outputChannelsPerConvGroup << " per tile), fieldSplit " << rowBlocks << "x1 ("
    << rowsPerBlock << " of " << problem.outRows << " rows), inChanSplit " << inChanBlocks << " ("
    << inChansPerBlock << " of " << p.inputChannelsPerConvGroup << " per tile)";
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

/// Vertex estimates already worked out while planning one problem, by method, output type,
/// rows, input and output channels (the estimators walk every kernel position and context, and
/// candidates share most block sizes).
using EstimateMemo =
    std::map<std::tuple<int, int, std::size_t, std::size_t, std::size_t>, std::uint64_t>;

/// The estimates of a plan's units. A unit's blocks are whole except the last of each split, so
/// there are at most 16 different units: each is costed once, by its estimator.
class UnitCycles {
public:
  UnitCycles(const poplar::Target& target, const ConvPlan& c, EstimateMemo* memo = nullptr)
      : target_(target), c_(c), memo_(memo) {}

  std::uint64_t operator()(std::size_t bb, std::size_t icb, std::size_t cb, std::size_t rb) {
    const unsigned key = (bb + 1 == c_.batchBlocks) | (icb + 1 == c_.inChanBlocks) << 1 |
                         (cb + 1 == c_.outChanBlocks) << 2 | (rb + 1 == c_.rowBlocks) << 3;
    if (!known_[key]) {
      const auto& pr = c_.problem;
      const bool inner = pr.channelsInnermost;
      const std::size_t rows = inner ? c_.batches(bb).size() : c_.rows(rb).size();
      const std::size_t ci = c_.inChans(icb).size(), co = c_.outChans(cb).size();
      const auto estimate = [&] {
        return unitVertexCycles(target_, pr, c_.method, c_.vertexOutputType(), rows,
                                inner ? 1 : pr.outCols, ci, co);
      };
      // A 1x1 unit's estimate is a short formula, cheaper than the look-up.
      if (memo_ && pr.y.kernelCount * pr.x.kernelCount > 1) {
        const auto k = std::make_tuple(int(c_.method), int(c_.vertexOutputType() == poplar::HALF),
                                       rows, ci, co);
        auto it = memo_->find(k);
        if (it == memo_->end()) it = memo_->emplace(k, estimate()).first;
        cycles_[key] = it->second;
      } else {
        cycles_[key] = estimate();
      }
      known_[key] = true;
    }
    return cycles_[key];
  }
  /// A unit of one shape (unitShapeCounts' bits): the first block of a dimension stands for its
  /// whole blocks, the last for its last.
  std::uint64_t ofShape(unsigned shape) {
    const auto pick = [&](unsigned bit, std::size_t blocks) {
      return shape & (1u << bit) ? blocks - 1 : std::size_t(0);
    };
    return (*this)(pick(0, c_.batchBlocks), pick(1, c_.inChanBlocks), pick(2, c_.outChanBlocks),
                   pick(3, c_.rowBlocks));
  }
  /// The cheapest and the dearest unit.
  std::pair<std::uint64_t, std::uint64_t> range() {
    std::uint64_t lo = std::numeric_limits<std::uint64_t>::max(), hi = 0;
    for (std::size_t bb : {std::size_t(0), c_.batchBlocks - 1})
      for (std::size_t icb : {std::size_t(0), c_.inChanBlocks - 1})
        for (std::size_t cb : {std::size_t(0), c_.outChanBlocks - 1})
          for (std::size_t rb : {std::size_t(0), c_.rowBlocks - 1}) {
            const std::uint64_t u = (*this)(bb, icb, cb, rb);
            lo = std::min(lo, u), hi = std::max(hi, u);
          }
    return {lo, hi};
  }

private:
  const poplar::Target& target_;
  const ConvPlan& c_;
  EstimateMemo* memo_;
  std::uint64_t cycles_[16] = {};
  bool known_[16] = {};
};

/// Above this many units a tile, convolveStageCycles counts each tile's units by shape.
constexpr std::uint64_t kUnitsCountedByShape = 32;

/// The first unit ConvPlan::tileOf places on tile `t` (numUnits() for t = numTiles).
std::uint64_t firstUnitOf(const ConvPlan& c, unsigned t) {
  const std::uint64_t units = c.numUnits();
  return (std::uint64_t(t) * units + c.numTiles - 1) / c.numTiles;
}

/// The busiest tile of the partials compute set, vertex by vertex (supervisor vertices on one
/// tile run one after another). Units are visited in index order, so tiles come in order too.
std::uint64_t convolveStageCycles(const poplar::Target& target, const ConvPlan& c,
                                  EstimateMemo* memo = nullptr) {
  UnitCycles unit(target, c, memo);
  const std::uint64_t units = c.numUnits();
  if (units <= c.numTiles) return kComputeSetLaunchCycles + unit.range().second;
  if (units > kUnitsCountedByShape * c.numTiles) {
    // Each tile's run of units counted by shape (a few hundred operations a tile) rather than
    // unit by unit: a large matmul's candidates have billions of units.
    std::uint64_t worst = 0;
    for (unsigned t = 0; t < c.numTiles; ++t) {
      const auto counts = unitShapeCounts(c, firstUnitOf(c, t), firstUnitOf(c, t + 1));
      std::uint64_t sum = 0;
      for (unsigned shape = 0; shape < 16; ++shape)
        if (counts[shape]) sum += counts[shape] * unit.ofShape(shape);
      worst = std::max(worst, sum);
    }
    return kComputeSetLaunchCycles + worst;
  }
  std::uint64_t worst = 0, current = 0;
  unsigned tile = 0;
  for (std::size_t g = 0; g < c.groups(); ++g)
    for (std::size_t bb = 0; bb < c.batchBlocks; ++bb)
      for (std::size_t icb = 0; icb < c.inChanBlocks; ++icb)
        for (std::size_t cb = 0; cb < c.outChanBlocks; ++cb)
          for (std::size_t rb = 0; rb < c.rowBlocks; ++rb) {
            const unsigned t = c.tileOf(c.unitIndex(g, bb, cb, rb, icb));
            if (t != tile) worst = std::max(worst, current), current = 0, tile = t;
            current += unit(bb, icb, cb, rb);
          }
  return kComputeSetLaunchCycles + std::max(worst, current);
}

/// Calls f(work) for each poplin::ReduceAdd vertex of a plan that splits the input channels:
/// each output block's rows are shared in consecutive runs among the tiles of its
/// input-channel blocks' units (reduceTileOf), and each tile's run is cut into one vertex per
/// worker.
template <typename F> void forEachReduceWork(const ConvPlan& c, F&& f) {
  if (c.inChanBlocks <= 1) return;
  const std::size_t workers = c.numWorkerContexts;
  for (std::size_t g = 0; g < c.groups(); ++g)
    for (std::size_t bb = 0; bb < c.batchBlocks; ++bb)
      for (std::size_t cb = 0; cb < c.outChanBlocks; ++cb)
        for (std::size_t rb = 0; rb < c.rowBlocks; ++rb) {
          const std::size_t rows = c.blockRows(bb, cb, rb);
          for (std::size_t share = 0; share < c.inChanBlocks; ++share) {
            const std::size_t begin = (rows * share + c.inChanBlocks - 1) / c.inChanBlocks;
            const std::size_t end = (rows * (share + 1) + c.inChanBlocks - 1) / c.inChanBlocks;
            if (begin >= end) continue;
            const unsigned tile = c.reduceTileOf(g, bb, cb, rb, begin);
            const std::size_t pieces = std::min(workers, end - begin);
            for (std::size_t w = 0; w < pieces; ++w)
              f(ReduceWork{tile, g, bb, cb, rb, begin + (end - begin) * w / pieces,
                           begin + (end - begin) * (w + 1) / pieces});
          }
        }
}

/// The busiest tile of the ReduceAdd compute set: each tile's worker vertices go, in the order
/// they are added, to its least-loaded context, as the engine runs them. `scratch` holds the
/// contexts' loads (tiles x contexts), reused from one candidate to the next.
std::uint64_t reduceStageCycles(const poplar::Target& target, const ConvPlan& c,
                                std::vector<std::uint64_t>& scratch) {
  const unsigned contexts = target.getNumWorkerContexts();
  const bool outFloat = c.problem.params.outputType == poplar::FLOAT;
  const bool partialsFloat = c.partialsType == poplar::FLOAT;
  scratch.assign(std::size_t(c.numTiles) * contexts, 0);
  std::uint64_t worst = 0;
  forEachReduceWork(c, [&](const ReduceWork& w) {
    const auto l = scratch.begin() + std::ptrdiff_t(w.tile) * contexts;
    auto least = std::min_element(l, l + contexts);
    *least += poplibs_support::reduceAddWorkerCycles(
        target, (w.rowEnd - w.rowBegin) * c.blockRowLength(w.cb), c.inChanBlocks, outFloat,
        partialsFloat);
    worst = std::max(worst, *least);
  });
  return kComputeSetLaunchCycles + worst * contexts;
}

/// What ranking a candidate needs beyond its exact stage cycles: a unit's input exchange, the
/// reduction's exchange and the plan's temporary memory per tile.
struct CandidateFigures {
  std::uint64_t unitExchange = 0, reduceExchange = 0, tempBytes = 0;
};

CandidateFigures candidateFigures(const poplar::Target& target, const ConvPlan& c) {
  const auto& pr = c.problem;
  const auto& p = pr.params;
  const bool inner = pr.channelsInnermost;
  const std::size_t ci = c.inChansPerBlock, chans = c.outChansPerBlock, rows = c.rowsPerBlock,
                    batch = c.batchPerBlock;
  const std::size_t kernelRows =
      std::size_t(std::abs(pr.y.kernelStep)) * (pr.y.kernelCount - 1) + 1;
  const std::size_t perTile = ceilDiv(c.numUnits(), c.numTiles);
  // Inputs each unit fetches: its input rows of its input channels (channelsInnermost: its
  // batch elements' input channels), and its weights; and the outputs (partials) it writes.
  const std::size_t inRows = std::min<std::size_t>(
      p.inputFieldShape[0], (rows - 1) * std::size_t(pr.y.stride) + kernelRows);
  const std::uint64_t inElems =
      inner ? std::uint64_t(batch) * ci : std::uint64_t(ci) * inRows * p.inputFieldShape[1];
  const std::uint64_t weightElems = std::uint64_t(chans) * ci * p.kernelShape[0] * p.kernelShape[1];
  const std::uint64_t outElems =
      inner ? std::uint64_t(batch) * chans : std::uint64_t(chans) * rows * pr.outCols;
  CandidateFigures f;
  const unsigned bytesPerCycle = target.getExchangeBytesPerCycle();
  f.unitExchange = ceilDiv((inElems + weightElems) * p.inputType.size(), bytesPerCycle);
  // PopLibs' temporary memory of a partition (addConvTempMemoryEstimate): the inputs and the
  // weights a tile's units work on and their partials; the reduction's (the same partials) is
  // no larger.
  f.tempBytes = perTile * ((inElems + weightElems) * p.inputType.size() +
                           outElems * c.vertexOutputType().size());
  if (c.inChanBlocks > 1) {
    // Each tile of a block receives the other blocks' partials of its share of the rows.
    const std::uint64_t shareElems =
        ceilDiv(c.blockRows(0, 0, 0), c.inChanBlocks) * c.blockRowLength(0) * perTile;
    f.reduceExchange =
        ceilDiv(shareElems * (c.inChanBlocks - 1) * c.partialsType.size(), bytesPerCycle);
  }
  return f;
}

} // namespace

std::vector<ReduceWork> reduceWork(const ConvPlan& c) {
  std::vector<ReduceWork> work;
  forEachReduceWork(c, [&](const ReduceWork& w) { work.push_back(w); });
  return work;
}

std::array<std::uint64_t, 16> unitShapeCounts(const ConvPlan& c, std::uint64_t begin,
                                              std::uint64_t end) {
  // A unit index is a mixed-radix number, most significant digit first: group, batch block,
  // input-channel block, output-channel block, row block (ConvPlan::unitIndex). Shape bit b
  // says digit b + 1 is its last value.
  const std::uint64_t radix[5] = {c.groups(), c.batchBlocks, c.inChanBlocks, c.outChanBlocks,
                                  c.rowBlocks};
  const std::uint64_t units = c.numUnits();
  // atLeast[s]: indices below x whose digits named by s (and maybe others) are last.
  const auto atLeast = [&](std::uint64_t x, std::array<std::uint64_t, 16>& out) {
    std::uint64_t digit[5];
    for (int k = 4; k >= 0; --k) {
      digit[k] = x % radix[k];
      x /= radix[k];
    }
    const bool whole = x > 0; // x == units: every index
    for (unsigned s = 0; s < 16; ++s) {
      const auto fixed = [&](int k) { return k > 0 && (s >> (k - 1) & 1u); };
      std::uint64_t count = 0;
      if (whole) {
        count = 1;
        for (int k = 0; k < 5; ++k)
          if (!fixed(k)) count *= radix[k];
      } else {
        // Indices below x: those that match x's digits before position k and have a smaller
        // digit at k (free below k, except the fixed digits); a fixed digit can only match.
        for (int k = 0; k < 5; ++k) {
          if (fixed(k)) {
            if (digit[k] != radix[k] - 1) break;
            continue;
          }
          std::uint64_t below = digit[k];
          for (int j = k + 1; j < 5; ++j)
            if (!fixed(j)) below *= radix[j];
          count += below;
        }
      }
      out[s] = count;
    }
  };
  std::array<std::uint64_t, 16> hi{}, lo{};
  atLeast(std::min(end, units), hi);
  atLeast(std::min(begin, units), lo);
  for (unsigned s = 0; s < 16; ++s)
    hi[s] -= lo[s];
  // From "at least these digits last" to "exactly these": inverse superset sums.
  for (unsigned bit = 1; bit < 16; bit <<= 1)
    for (unsigned s = 0; s < 16; ++s)
      if (!(s & bit)) hi[s] -= hi[s | bit];
  return hi;
}

ConvPlan planConvolution(const poplar::Target& target, const ConvProblem& problem,
                         const ConvOptions& options) {
  const ConvParams& p = problem.params;
  ConvPlan base;
  base.problem = problem;
  base.pass = options.pass;
  base.partialsType = options.partialsType;
  base.numTiles = target.getNumTiles();
  if (options.numTiles) {
    if (options.firstTile + options.numTiles > base.numTiles)
      throw poputil::poplibs_error("poplin: tiles [" + std::to_string(options.firstTile) + ", " +
                                   std::to_string(options.firstTile + options.numTiles) +
                                   ") are not all on the target");
    base.numTiles = options.numTiles;
    base.firstTile = options.firstTile;
  }
  base.numWorkerContexts = target.getNumWorkerContexts();
  base.batchBlocks = p.batchSize;
  const bool inner = problem.channelsInnermost;
  const bool halfIn = p.inputType == poplar::HALF;
  const unsigned kernelPositions = unsigned(problem.y.kernelCount * problem.x.kernelCount);
  const std::size_t ciTotal = p.inputChannelsPerConvGroup;
  const std::size_t rowsTotal = std::max<std::size_t>(problem.outRows, 1);
  const std::uint64_t sync = target.getMaxIPUSyncDelay();

  // PopLibs' memory rule (ConvPlan.cpp, createPlan): the fastest plan whose temporary memory
  // per tile fits availableMemoryProportion of the tile's memory; if none does, the bound is
  // doubled while it is under twice the tile's memory, then dropped. A proportion of 0 asks for
  // the plan with the least temporary memory. Each level keeps its own best candidate.
  const std::uint64_t tileBytes = target.getBytesPerTile();
  const auto firstBound = std::uint64_t(double(tileBytes) * options.availableMemoryProportion);
  const bool leastMemory = firstBound == 0;
  std::vector<std::uint64_t> bounds;
  if (!leastMemory)
    for (std::uint64_t b = firstBound; bounds.empty() || bounds.back() < 2 * tileBytes; b *= 2)
      bounds.push_back(b);
  bounds.push_back(std::numeric_limits<std::uint64_t>::max());
  struct Best {
    ConvPlan plan;
    std::uint64_t cost = std::numeric_limits<std::uint64_t>::max();
    bool found = false;
  };
  std::vector<Best> best(bounds.size());
  EstimateMemo memo;
  std::vector<std::uint64_t> reduceScratch;
  ConvPlan candidate = base;
  // A candidate ranks better than `b` with fewer cycles, then (least memory: first) less
  // temporary memory, then fewer units.
  const auto better = [&](const ConvPlan& c, const Best& b) {
    if (!b.found) return true;
    if (leastMemory && c.tempBytes != b.plan.tempBytes) return c.tempBytes < b.plan.tempBytes;
    if (c.totalCycles != b.cost) return c.totalCycles < b.cost;
    if (!leastMemory && c.tempBytes != b.plan.tempBytes) return c.tempBytes < b.plan.tempBytes;
    return c.numUnits() < b.plan.numUnits();
  };

  const auto consider = [&](std::size_t batch, std::size_t ci, std::size_t chans,
                            std::size_t rows) {
    // One candidate object for all (copying the problem's shapes for each was most of the
    // planning time); every field a candidate sets is set here.
    ConvPlan& c = candidate;
    c.vertexCycles = c.exchangeCycles = c.reduceCycles = c.totalCycles = 0;
    c.convolveComputeCycles = c.reduceComputeCycles = 0;
    c.batchPerBlock = batch, c.batchBlocks = ceilDiv(p.batchSize, batch);
    c.inChansPerBlock = ci, c.outChansPerBlock = chans, c.rowsPerBlock = rows;
    c.inChanBlocks = ceilDiv(ciTotal, ci);
    c.outChanBlocks = ceilDiv(p.outputChannelsPerConvGroup, chans);
    c.rowBlocks = ceilDiv(rowsTotal, rows);
    const bool split = c.inChanBlocks > 1;
    const AmpShape amp = ampShape(halfIn, c.vertexOutputType() == poplar::HALF);
    c.method = ci % amp.inChansPerGroup != 0 ? ConvMethod::HMAC
               : kernelPositions == 1        ? ConvMethod::AMP_1X1
                                             : ConvMethod::AMP_NX1;
    const CandidateFigures f = candidateFigures(target, c);
    c.tempBytes = f.tempBytes;
    c.exchangeCycles = f.unitExchange;
    // The first level whose bound the candidate fits; it competes there and at every later one.
    std::size_t level = 0;
    while (c.tempBytes > bounds[level])
      ++level;
    std::uint64_t toBeat = 0;
    for (std::size_t l = level; l < bounds.size(); ++l)
      toBeat = std::max(toBeat, best[l].found ? best[l].cost : ~std::uint64_t(0));
    // The ranking cost: the partials' compute set (exactly as the profile will show it), the
    // busiest tile's input exchange and a sync; with the input channels split, the ReduceAdd
    // compute set (exactly), its exchange and a sync. A lower bound first, from the cheapest
    // and dearest unit (the busiest tile runs ceil(units / tiles) of them), so that most
    // candidates are rejected without working out every tile.
    const std::size_t perTile = ceilDiv(c.numUnits(), c.numTiles);
    UnitCycles unit(target, c, &memo);
    const std::uint64_t fixed = perTile * c.exchangeCycles + sync;
    // The whole unit alone (one estimate) first, then every kind of unit.
    if (!leastMemory && kComputeSetLaunchCycles + unit(0, 0, 0, 0) + fixed > toBeat) return;
    const auto [cheapest, dearest] = unit.range();
    c.vertexCycles = dearest;
    const std::uint64_t lowerBound =
        kComputeSetLaunchCycles + std::max<std::uint64_t>(perTile * cheapest, dearest) + fixed;
    if (!leastMemory && lowerBound > toBeat) return;
    c.convolveComputeCycles = convolveStageCycles(target, c, &memo);
    c.totalCycles = c.convolveComputeCycles + fixed;
    if (split) {
      if (!leastMemory && c.totalCycles > toBeat) return;
      c.reduceComputeCycles = reduceStageCycles(target, c, reduceScratch);
      c.reduceCycles = c.reduceComputeCycles + f.reduceExchange + sync;
      c.totalCycles += c.reduceCycles;
    }
    for (std::size_t l = level; l < bounds.size(); ++l)
      if (better(c, best[l])) {
        best[l].plan = c;
        best[l].cost = c.totalCycles;
        best[l].found = true;
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
  std::size_t chosen = 0;
  while (!best[chosen].found)
    ++chosen;
  ConvPlan plan = best[chosen].plan;
  plan.memoryBound = leastMemory ? 0 : firstBound;
  plan.memoryBoundMet = leastMemory || chosen == 0;
  if (!plan.memoryBoundMet)
    poplibs_support::logWarning("poplin", "Warning: convolution planner unable to meet memory "
                                          "target. Optimizing for minimum memory...");
  return plan;
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
  os << " cycles\n";
  os << "  temporary memory: " << plan.tempBytes << " bytes on the busiest tile";
  if (plan.memoryBound == 0)
    os << " (availableMemoryProportion 0: the least)";
  else
    os << (plan.memoryBoundMet ? " within " : ", over ") << "the bound of " << plan.memoryBound
       << " (availableMemoryProportion of the tile)"
       << (plan.memoryBoundMet ? "" : ": no plan fitted, the bound was relaxed");
  return os;
}

} // namespace poplin
