// The cycle model of the convolution vertices, shared by their estimators and the planner so
// that plans are chosen by the costs the profile will show. The formulas follow PopLibs'
// published estimators for the same vertices (lib/poplin/PerformanceEstimation.hpp): a
// supervisor overhead, loops over conv groups, input channel groups and output channel groups,
// and per worker a cost per run ("partition") of output elements. Our vertex computes a block
// of output rows; each row is one partition, the rows dealt to the workers in turn.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace poplin {

/// Which PopLibs vertex a convolution's work is named and costed as.
enum class ConvMethod { AMP_1X1, AMP_NX1, HMAC };

/// The accumulating matrix product (AMP) units of a Mk2 tile: input channels consumed per
/// group, conv units (output channels per pass) and input elements loaded per cycle.
struct AmpShape {
  unsigned inChansPerGroup, numConvUnits, inputLoadElemsPerCycle, coeffLoadBytesPerCycle;
};
inline AmpShape ampShape(bool halfInputs, bool halfOutputs) {
  return {halfInputs ? 16u : 8u, halfInputs && halfOutputs ? 16u : 8u, halfInputs ? 4u : 2u, 8u};
}

/// Output rows dealt to `workers` worker contexts in turn: per worker, the rows' lengths.
inline std::vector<std::vector<unsigned>> dealRows(std::size_t rows, unsigned rowLength,
                                                   unsigned workers) {
  std::vector<std::vector<unsigned>> out(std::min<std::size_t>(rows, workers));
  for (std::size_t r = 0; r < rows; ++r)
    out[r % workers].push_back(rowLength);
  return out;
}

/// Cycles of the slowest of the used workers, times the number of contexts (a supervisor sees
/// each worker cycle as one of `workers` interleaved cycles); an idle context costs nothing.
template <typename F>
std::uint64_t slowestWorker(std::size_t usedWorkers, unsigned workers, F&& cyclesOf) {
  std::uint64_t worst = 0;
  for (std::size_t w = 0; w < usedWorkers; ++w)
    worst = std::max<std::uint64_t>(worst, cyclesOf(w));
  return worst * workers;
}

/// poplin::ConvPartialnx1: per kernel position and output-channel pass, the workers run their
/// partitions (costed by length) after the supervisor loads the pass's coefficients.
inline std::uint64_t convNx1Cycles(std::size_t rows, unsigned rowLength, unsigned kernelOuter,
                                   unsigned kernelInner, unsigned inChans, unsigned outChans,
                                   bool floatInputs, const AmpShape& amp, unsigned workers) {
  const auto parts = dealRows(rows, rowLength, workers);
  const unsigned numLoads = amp.inputLoadElemsPerCycle * 4 * amp.numConvUnits *
                            (floatInputs ? 4 : 2) / amp.coeffLoadBytesPerCycle;
  const std::uint64_t innermost = numLoads + 15; // filter height 1
  const std::uint64_t perPass = slowestWorker(parts.size(), workers, [&](std::size_t w) {
    std::uint64_t c = 19;
    for (unsigned n : parts[w]) {
      if (n == 0) c += 18;
      else if (n == 1) c += floatInputs ? 34 : 30;
      else if (n == 2) c += floatInputs ? 45 : 34;
      else c += floatInputs ? 46 + (n - 3) * 8 : 35 + (n - 3) * 4;
    }
    return c;
  });
  const unsigned outPasses = 1; // output channel groups are as wide as the conv units
  const std::uint64_t inner =
      std::uint64_t(kernelOuter) * (15 + kernelInner * (20 + outPasses * (innermost + perPass)));
  const std::uint64_t inGroups = (inChans + amp.inChansPerGroup - 1) / amp.inChansPerGroup;
  const std::uint64_t outGroups = (outChans + amp.numConvUnits - 1) / amp.numConvUnits;
  return 101 + (16 + inGroups * (23 + outGroups * (23 + inner)));
}

/// poplin::ConvPartial1x1Out: one kernel position; each worker's share of the output is one
/// partition, the first input channel group zeroing the output as it goes.
inline std::uint64_t conv1x1Cycles(std::size_t rows, unsigned rowLength, unsigned inChans,
                                   unsigned outChans, bool floatInputs, bool floatOutputs,
                                   const AmpShape& amp, unsigned workers) {
  const std::uint64_t elems = std::uint64_t(rows) * rowLength;
  const std::size_t used = std::min<std::uint64_t>(workers, std::max<std::uint64_t>(elems, 1));
  const auto workerCycles = [&](bool zeroing) {
    return slowestWorker(used, workers, [&](std::size_t w) -> std::uint64_t {
      const std::uint64_t n = elems / used + (w < elems % used ? 1 : 0);
      const unsigned zeroPerGroup = floatOutputs ? 4 : 2;
      if (n == 0) return 28;
      if (floatInputs) return 50 + (2 + 8 * n) * zeroing + (n > 3 ? (n - 3) * 8 : 0);
      return 43 + (2 + zeroPerGroup * n) * zeroing + (n > 3 ? (n - 3) * 4 : 0) +
             (floatOutputs ? 0 : 2);
    }) + 14;
  };
  const unsigned numLoads = amp.inputLoadElemsPerCycle * 4 * amp.numConvUnits *
                            (floatInputs ? 4 : 2) / amp.coeffLoadBytesPerCycle;
  const std::uint64_t inGroups = (inChans + amp.inChansPerGroup - 1) / amp.inChansPerGroup;
  const std::uint64_t outGroups = (outChans + amp.numConvUnits - 1) / amp.numConvUnits;
  return 50 + (11 + (inGroups - 1) * (13 + outGroups * (18 + 6 + numLoads + workerCycles(false))) +
               (10 + outGroups * (18 + 6 + numLoads + workerCycles(true))));
}

/// Dot product of `size` elements on one worker.
inline std::uint64_t denseDotProductCycles(bool floatInputs, unsigned size) {
  if (floatInputs) return size % 2 == 0 ? 4 + size : 4 + 2 * size;
  return size % 4 == 0 ? 6 + size / 4 : 4 + size;
}

/// poplin::ConvPartialHorizontalMac: per kernel position, each worker's partitions cost a dot
/// product over the input channels for every output channel of every element.
inline std::uint64_t convHmacCycles(std::size_t rows, unsigned rowLength, unsigned kernelSize,
                                    unsigned inChans, unsigned outChans, bool floatInputs,
                                    unsigned workers) {
  const auto parts = dealRows(rows, rowLength, workers);
  const std::uint64_t inner = slowestWorker(parts.size(), workers, [&](std::size_t w) {
    std::uint64_t c = 16;
    for (unsigned k = 0; k < kernelSize; ++k) {
      std::uint64_t perK = 16;
      for (unsigned n : parts[w])
        perK += n == 0 ? 7 : 19 + std::uint64_t(n) * (7 + outChans * denseDotProductCycles(floatInputs, inChans));
      c += perK;
    }
    return c;
  });
  return (floatInputs ? 58 : 63) + (23 + (15 + (10 + inner)));
}

} // namespace poplin
