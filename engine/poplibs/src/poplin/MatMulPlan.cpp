#include "MatMulPlan.hpp"

#include "MatMulCycles.hpp"
#include "poplibs_support/TileWork.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <ostream>
#include <poplar/exceptions.hpp>

namespace poplin {

// PopLibs' matmul options: only partialsType changes the plan here, the others are checked so a
// typo or a bad value fails as it would on PopLibs.
MatMulOptions parseMatMulOptions(const poplar::OptionFlags& options, const std::string& op) {
  poplibs_support::checkOptions(options,
                                {"partialsType", "availableMemoryProportion", "fullyConnectedPass",
                                 "inputRHSIsPreArranged", "use128BitConvUnitLoad",
                                 "enableMultiStageReduce", "enableFastReduce", "remapOutputTensor",
                                 "planConstraints", "gatherOutput", "disableSRForAMPVertices"},
                                op);
  MatMulOptions parsed;
  for (const auto& kv : options) {
    const std::string& k = kv.first;
    const std::string& v = kv.second;
    auto bad = [&](const char* want) {
      throw poplar::invalid_option(op + ": option '" + k + "' = '" + v + "': expected " + want);
    };
    if (k == "partialsType") {
      if (v == "float")
        parsed.partialsType = poplar::FLOAT;
      else if (v == "half")
        parsed.partialsType = poplar::HALF;
      else
        bad("float or half");
    } else if (k == "availableMemoryProportion") {
      char* end = nullptr;
      const double d = std::strtod(v.c_str(), &end);
      if (end == v.c_str() || *end || d < 0 || d > 1) bad("a number in [0, 1]");
    } else if (k == "fullyConnectedPass") {
      if (v != "NONE" && v != "INFERENCE_FWD" && v != "TRAINING_FWD" && v != "TRAINING_BWD" &&
          v != "TRAINING_WU")
        bad("NONE, INFERENCE_FWD, TRAINING_FWD, TRAINING_BWD or TRAINING_WU");
    } else if (k != "planConstraints") {
      if (v != "true" && v != "false") bad("true or false");
    }
  }
  return parsed;
}

namespace {

std::size_t ceilDiv(std::size_t a, std::size_t b) {
  return (a + b - 1) / b;
}

/// Calls f(size) for each distinct size ceil(total / parts), parts in [minParts, maxParts].
template <typename F>
void forEachPartSize(std::size_t total, std::size_t minParts, std::size_t maxParts, F&& f) {
  std::size_t previous = 0;
  for (std::size_t parts = minParts; parts <= maxParts; ++parts) {
    const std::size_t size = ceilDiv(total, parts);
    if (size != previous) f(size);
    previous = size;
  }
}

} // namespace

MatMulPlan planMatMul(const poplar::Target& target, poplar::Type inputType,
                      poplar::Type partialsType, std::size_t M, std::size_t K, std::size_t N,
                      unsigned numTiles, unsigned tileBase) {
  const unsigned tiles = numTiles ? numTiles : target.getNumTiles();
  const std::uint64_t sync = target.getMaxIPUSyncDelay();
  const auto exchange = [&](std::uint64_t bytes) {
    return ceilDiv(bytes, target.getExchangeBytesPerCycle());
  };
  MatMulPlan best;
  std::uint64_t bestCost = std::numeric_limits<std::uint64_t>::max();
  // Columns per block: at least 16 (when N allows) so the inner loop over columns vectorises,
  // at most what one vertex accumulates.
  const std::size_t minColBlocks = ceilDiv(N, std::min(N, kMaxBlockCols));
  const std::size_t maxColBlocks = ceilDiv(N, std::min<std::size_t>(N, 16));
  forEachPartSize(N, minColBlocks, maxColBlocks, [&](std::size_t cols) {
    forEachPartSize(M, 1, M, [&](std::size_t rows) {
      MatMulPlan p;
      p.inputType = inputType, p.partialsType = partialsType;
      p.M = M, p.K = K, p.N = N;
      p.numTiles = tiles;
      p.tileBase = tileBase;
      p.rowsPerBlock = rows, p.colsPerBlock = cols;
      p.rowBlocks = ceilDiv(M, rows), p.colBlocks = ceilDiv(N, cols);
      // Splitting K only pays while there are idle tiles for the extra partial products.
      const std::size_t blocks = p.rowBlocks * p.colBlocks;
      const std::size_t maxChunks =
          std::max<std::size_t>(1, std::min<std::size_t>(K, tiles / blocks));
      forEachPartSize(K, 1, maxChunks, [&](std::size_t depth) {
        p.kPerChunk = depth;
        p.kChunks = ceilDiv(K, depth);
        const std::uint64_t perTile = ceilDiv(p.numVertices(), tiles);
        const std::uint64_t inputs = (rows * depth + depth * cols) * inputType.size();
        p.stage1Cycles =
            perTile * (matMulPartialCycles(rows, depth, cols, inputType == poplar::HALF) +
                       exchange(inputs)) +
            sync;
        p.stage2Cycles = 0;
        if (p.kChunks > 1) {
          // Stage 2 runs on the tile of each output element; outputs are spread evenly.
          const std::size_t outputs = ceilDiv(M * N, tiles);
          p.stage2Cycles =
              reducePartialsCycles(p.kChunks, outputs, target.getVectorWidth(partialsType)) +
              exchange(std::uint64_t(outputs) * p.kChunks * partialsType.size()) + sync;
        }
        const std::uint64_t cost = p.stage1Cycles + p.stage2Cycles;
        if (cost < bestCost || (cost == bestCost && p.numVertices() < best.numVertices())) {
          best = p;
          bestCost = cost;
        }
      });
    });
  });
  return best;
}

std::ostream& operator<<(std::ostream& os, const MatMulPlan& p) {
  os << "matMul [" << p.M << "," << p.K << "] x [" << p.K << "," << p.N << "] of " << p.inputType
     << " (partials " << p.partialsType << "): output blocks of " << p.rowsPerBlock << "x"
     << p.colsPerBlock << " (" << p.rowBlocks << "x" << p.colBlocks << "), ";
  if (p.kChunks > 1)
    os << "K split " << p.kChunks << " ways in chunks of " << p.kPerChunk;
  else
    os << "K not split";
  os << "; " << p.numVertices() << " partial products on " << p.numTiles << " tiles; stage 1 ~"
     << p.stage1Cycles << " cycles";
  if (p.kChunks > 1) os << ", stage 2 (sum of partials) ~" << p.stage2Cycles << " cycles";
  return os;
}

} // namespace poplin
