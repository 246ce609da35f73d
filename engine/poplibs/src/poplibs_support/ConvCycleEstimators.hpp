// Cycle estimates of poplin's convolution partial vertices (ConvPartial1x1Out, ConvPartialnx1,
// ConvPartialHorizontalMac) as PopLibs' published estimators compute them: graphcore/poplibs
// lib/poplin/poplinCycleEstimators.cpp (how a vertex's fields become the estimator's inputs) and
// lib/poplin/PerformanceEstimation.hpp (the formulas), the release whose AMP vertices are
// templated <in, partials, useLimitedVersion, use128BitConvUnitLoad, numConvUnits,
// convInputLoadElems> as Tessera names them. The constants are facts about the vertices'
// assembly; the code is ours. Every function returns supervisor cycles (a worker's cycles count
// numWorkerContexts times: the barrel runs the contexts in turn).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>
#include <vector>

namespace poplibs_support {

/// The accumulating matrix product (AMP) figures of a tile that the AMP estimators read.
struct AmpFigures {
  unsigned numConvUnits;           ///< output channels per pass: 16 for half x half, else 8
  unsigned weightBytesPerConvUnit; ///< conv chain length (4) x convInputLoadElems x type size
  unsigned coeffLoadBytesPerCycle; ///< 16 per cycle with 128-bit loads, halved without
};

/// AMP figures for a vertex with `in` activations and `partials` accumulators. The chain
/// length 4 and the 16 coefficient bytes per cycle are the IPU's AMP (Mk1 and Mk2); Tessera's
/// vertices are the non-128-bit-load variants (use128BitConvUnitLoad = false), as named.
inline AmpFigures ampFigures(poplar::Type in, poplar::Type partials, bool use128BitLoad = false) {
  const bool halfIn = in == poplar::HALF;
  const unsigned units = halfIn && partials == poplar::HALF ? 16 : 8;
  const unsigned inputLoadElems = halfIn ? 4 : 2;
  constexpr unsigned chainLength = 4, coeffBytes = 16;
  return {units, chainLength * inputLoadElems * unsigned(in.size()),
          use128BitLoad ? coeffBytes : coeffBytes / 2};
}

/// Worker cycles saved by state the workers keep between runs: for the 1x1 vertex (total, and
/// per later input channel group) with half activations and float partials or 16 conv units.
inline std::uint64_t conv1x1RetentionSavings(bool floatActs, bool floatPartials, unsigned units) {
  return !floatActs && (floatPartials || units == 16) ? 7 : 0;
}
inline std::uint64_t conv1x1RetentionSavingsPerInGroup(bool floatActs, bool floatPartials,
                                                       unsigned units) {
  return !floatActs && (floatPartials || units == 16) ? 3 : 0;
}
constexpr std::uint64_t kConvNx1RetentionSavings = 9;
inline std::uint64_t zeroPartialsRetentionSavings(bool floatPartials) {
  return floatPartials ? 9 : 10;
}

/// The slowest worker's cycles x contexts, and at least `tag` more than the quickest (the
/// supervisor's tail runs on the context that finishes first). A context with no work counts
/// as 0 when fewer than all contexts have a partition list.
template <typename F>
std::uint64_t supervisorWorkerCycles(std::size_t usedContexts, unsigned contexts, std::uint64_t tag,
                                     F&& workerCycles) {
  std::uint64_t maxCycles = 0;
  std::uint64_t minCycles = usedContexts < contexts ? 0 : std::numeric_limits<std::uint64_t>::max();
  for (std::size_t c = 0; c < usedContexts; ++c) {
    const std::uint64_t cycles = contexts * workerCycles(c);
    maxCycles = std::max(maxCycles, cycles);
    minCycles = std::min(minCycles, cycles);
  }
  if (usedContexts == 0) minCycles = 0;
  return std::max(maxCycles, minCycles + tag);
}

/// Zeroing the partials before accumulating: each context zeroes ceil(zeros / contexts)
/// elements a 64-bit vector at a time, + 14 (float) / 15 (half) less the retained state's
/// savings, for each output group.
inline std::uint64_t convZeroCycles(const poplar::Target& target, bool floatPartials,
                                    std::uint64_t zeros, std::uint64_t numGroups) {
  const unsigned contexts = target.getNumWorkerContexts();
  const std::uint64_t width = target.getDataPathWidth() / (floatPartials ? 32 : 16);
  const std::uint64_t perWorker = (zeros + contexts - 1) / contexts;
  const std::uint64_t worker = (perWorker + width - 1) / width + (floatPartials ? 14 : 15) -
                               zeroPartialsRetentionSavings(floatPartials);
  return worker * contexts * numGroups;
}

/// The groups a conv partial vertex loops over.
struct ConvGroups {
  unsigned numConvGroups = 1, numInGroups = 1, numOutGroups = 1;
  unsigned inChansPerGroup = 1, outChansPerGroup = 1;
};

/// One ConvPartial1x1Out worker over a partition of n field elements (its only worklist entry),
/// with or without zeroing the partials first.
inline std::uint64_t conv1x1WorkerCycles(std::uint64_t n, bool zeroing, bool floatActs,
                                         bool floatPartials, unsigned units) {
  const std::uint64_t core = floatActs ? 8 : 4;
  const std::uint64_t zeroPerGroup = floatActs && units == 16 ? 8 : floatPartials ? 4 : 2;
  const bool common = (!floatActs && units == 16) || floatPartials;
  const std::uint64_t z = zeroing ? 1 : 0;
  std::uint64_t c;
  if (floatActs) {
    c = n == 0   ? 24
        : n == 1 ? 47 + (2 + zeroPerGroup) * z
        : n == 2 ? 46 + (2 + zeroPerGroup * 2) * z
                 : 46 + (2 + zeroPerGroup * n) * z + (n - 3) * core;
  } else if (common) {
    const std::uint64_t tail = zeroing ? 1 : 2;
    c = n == 0 ? 20 + tail : n == 1 ? 31 + tail : n == 2 ? 40 + tail : 36 + tail + (n - 3) * core;
  } else {
    c = n == 0   ? 24
        : n == 1 ? 39 + (2 + zeroPerGroup) * z
        : n == 2 ? 40 + (2 + zeroPerGroup * 2) * z
                 : 41 + (2 + zeroPerGroup * n) * z + (n - 3) * core;
  }
  return c - conv1x1RetentionSavings(floatActs, floatPartials, units);
}

/// poplin::ConvPartial1x1Out<in, partials, ...>: `partitions` holds each worker context's
/// number of field elements (every context has one entry, 0 when idle).
inline std::uint64_t convPartial1x1OutCycles(const poplar::Target& target, poplar::Type in,
                                             poplar::Type partials, const ConvGroups& g,
                                             const std::vector<std::uint64_t>& partitions) {
  const bool floatActs = in == poplar::FLOAT, floatPartials = partials == poplar::FLOAT;
  const AmpFigures amp = ampFigures(in, partials);
  const unsigned contexts = target.getNumWorkerContexts();
  const auto inner = [&](bool zeroing) {
    return supervisorWorkerCycles(partitions.size(), contexts, 14, [&](std::size_t w) {
      return conv1x1WorkerCycles(partitions[w], zeroing, floatActs, floatPartials,
                                 amp.numConvUnits);
    });
  };
  const std::uint64_t withZeroing = inner(true), withoutZeroing = inner(false);
  const std::uint64_t passes = (g.outChansPerGroup + amp.numConvUnits - 1) / amp.numConvUnits;
  const std::uint64_t loads =
      std::uint64_t(amp.numConvUnits) * amp.weightBytesPerConvUnit / amp.coeffLoadBytesPerCycle;
  const std::uint64_t common = (!floatActs && amp.numConvUnits == 16) || floatPartials ? 1 : 0;
  const std::uint64_t cg = g.numConvGroups, ig = g.numInGroups, og = g.numOutGroups;
  const std::uint64_t retained =
      contexts * (conv1x1RetentionSavings(floatActs, floatPartials, amp.numConvUnits) +
                  conv1x1RetentionSavingsPerInGroup(floatActs, floatPartials, amp.numConvUnits) *
                      (ig * cg - 1));
  // Later input channel groups accumulate; the first zeroes the partials as it goes.
  const std::uint64_t laterInGroups =
      (ig - 1) * (15 - common + 1 + og * (19 + passes * (6 + loads + withoutZeroing)));
  const std::uint64_t firstInGroup =
      10 + 1 + og * (19 - common + passes * (7 + loads + withZeroing));
  return 50 + retained + cg * (12 + common + laterInGroups + firstInGroup);
}

/// One ConvPartialnx1 worker run over its partitions (field elements each) for one kernel
/// position and output channel pass.
inline std::uint64_t convNx1WorkerCycles(const std::vector<std::uint64_t>& partitions,
                                         bool floatActs, bool floatPartials, unsigned units) {
  const std::uint64_t core = floatActs ? 8 : 4;
  const bool extraStride =
      !floatActs && ((!floatPartials && units == 16) || (floatPartials && units == 8));
  std::uint64_t c = 17 + (floatPartials ? 0 : 1);
  for (std::uint64_t n : partitions) {
    c += 3;
    if (n == 0)
      c += 17;
    else if (n == 1)
      c += floatActs ? 33 : 29;
    else if (n == 2)
      c += floatActs ? 44 : 33 + (extraStride ? 1 : 0);
    else
      c += (floatActs ? 45 : 34) + (n - 3) * core;
    c -= kConvNx1RetentionSavings;
  }
  return c;
}

/// poplin::ConvPartialnx1<in, partials, ...>: `partitions[w][k]` lists worker w's partitions
/// at kernel position k (k = ky * kernelInner + kx); `zeros` is the partials the workers zero
/// per output group; `ampKernelHeight` the kernel rows one AMP pass covers (1 here).
inline std::uint64_t convPartialNx1Cycles(
    const poplar::Target& target, poplar::Type in, poplar::Type partials, const ConvGroups& g,
    unsigned kernelOuter, unsigned kernelInner, unsigned ampKernelHeight,
    const std::vector<std::vector<std::vector<std::uint64_t>>>& partitions, std::uint64_t zeros) {
  const bool floatActs = in == poplar::FLOAT, floatPartials = partials == poplar::FLOAT;
  const AmpFigures amp = ampFigures(in, partials);
  const unsigned contexts = target.getNumWorkerContexts();
  const std::uint64_t cg = g.numConvGroups, ig = g.numInGroups, og = g.numOutGroups;
  const std::uint64_t zeroCycles = convZeroCycles(target, floatPartials, zeros, og * cg);
  if (g.numInGroups * g.inChansPerGroup == 0) return 109 + zeroCycles;
  // Supervisor: per kernel position and pass, load the weights into the AMP units (64-bit
  // loads for a 4-row kernel) and the loads that depend on the AMP kernel height.
  unsigned coeffBytes = amp.coeffLoadBytesPerCycle;
  if (ampKernelHeight == 4 && coeffBytes > 8) coeffBytes /= 2;
  std::uint64_t innermost =
      std::uint64_t(amp.numConvUnits) * amp.weightBytesPerConvUnit / coeffBytes;
  innermost += ampKernelHeight == 4   ? 60
               : ampKernelHeight == 2 ? 46
               : ampKernelHeight == 1 ? 15
                                      : 20 * ampKernelHeight;
  innermost += 3;
  const std::uint64_t passes = g.outChansPerGroup / amp.numConvUnits;
  std::uint64_t inner = std::uint64_t(kernelOuter) * (14 + kernelInner * (12 + passes * innermost));
  // Workers: per kernel position, the slowest (at least 9 more than the quickest), per pass.
  for (unsigned k = 0; k < kernelOuter * kernelInner; ++k)
    inner +=
        passes * supervisorWorkerCycles(partitions.size(), contexts, 9, [&](std::size_t w) {
          return convNx1WorkerCycles(partitions[w][k], floatActs, floatPartials, amp.numConvUnits);
        });
  const std::uint64_t outer = 109 + contexts * kConvNx1RetentionSavings +
                              contexts * zeroPartialsRetentionSavings(floatPartials) +
                              cg * (og * 17 + (og - 1) * 6 + 1) + (cg - 1) * 6 + 1 +
                              cg * (16 + ig * (14 + og * (14 + inner)));
  return zeroCycles + outer;
}

/// A dot product of `size` input channels into the partials of one output channel (two for
/// half partials) in ConvPartialHorizontalMac's inner loop: the widest power of two up to the
/// activations' vector width that divides `size` sets the loop step (one cycle per 64 bits of
/// activations, two when narrower, plus a warm-up cycle per output channel).
inline std::uint64_t hmacDotProductCycles(unsigned actsVectorWidth, bool floatActs,
                                          bool floatPartials, std::uint64_t size) {
  const unsigned actsPer64Bits = floatActs ? 2 : 4;
  const bool halfHalf = !floatActs && !floatPartials;
  const std::uint64_t outChans = halfHalf ? 2 : 1;
  const std::uint64_t innerCycles = 3 * outChans + (halfHalf ? 1 : 0) + 3 + 1;
  unsigned width = 1;
  while (width < actsVectorWidth)
    width <<= 1;
  for (; width > 1 && size % width != 0; width >>= 1) {
  }
  const std::uint64_t perStep = width >= actsPer64Bits ? 1 : 2;
  const std::uint64_t warmUp = width < actsPer64Bits ? outChans : 0;
  return innerCycles + warmUp + (size / width) * perStep;
}

/// poplin::ConvPartialHorizontalMac<in, partials, ...>: `partitions[w][k]` lists worker w's
/// partitions (output field positions) at kernel position k; `zeros` as for nx1.
inline std::uint64_t convPartialHorizontalMacCycles(
    const poplar::Target& target, poplar::Type in, poplar::Type partials, const ConvGroups& g,
    unsigned kernelSize, const std::vector<std::vector<std::vector<std::uint64_t>>>& partitions,
    std::uint64_t zeros) {
  const bool floatActs = in == poplar::FLOAT, floatPartials = partials == poplar::FLOAT;
  const unsigned contexts = target.getNumWorkerContexts();
  const std::uint64_t cg = g.numConvGroups, ig = g.numInGroups, og = g.numOutGroups;
  const std::uint64_t zeroCycles = convZeroCycles(target, floatPartials, zeros, og * cg);
  const std::uint64_t overhead = floatActs ? 58 : 63;
  if (g.numInGroups * g.inChansPerGroup == 0) return zeroCycles + overhead;
  const unsigned actsWidth = target.getVectorWidth(in);
  // Half partials: the loop computes two output channels at a time.
  const std::uint64_t outChans = floatPartials ? g.outChansPerGroup : g.outChansPerGroup / 2;
  const std::uint64_t dot =
      hmacDotProductCycles(actsWidth, floatActs, floatPartials, g.inChansPerGroup);
  const std::uint64_t inner =
      supervisorWorkerCycles(partitions.size(), contexts, 0, [&](std::size_t w) {
        std::uint64_t c = 16;
        for (unsigned k = 0; k < kernelSize; ++k) {
          c += 16;
          for (std::uint64_t n : partitions[w][k])
            c += n == 0 ? 7 : 19 + n * (7 + outChans * dot);
        }
        return c;
      });
  return zeroCycles + overhead + contexts * zeroPartialsRetentionSavings(floatPartials) +
         cg * (23 + ig * (15 + og * (10 + inner)));
}

/// poplin::ReduceAdd's loop (PopLibs' getReduceCycleEstimate, several partial inputs) for one
/// worker summing `numPartials` partials into `outSize` outputs: 32 to start; an accumulator
/// vector (4 floats, 8 halves) per loop, one more loop per set bit of the remainder; each loop
/// loads every partial (vector / elements per 64-bit load, + 1 for the next pointer) and adds
/// 7 (float partials, float out), 6 (float, half out), 9 (half, float out) or 8 (half, half).
/// Tessera's ReducePartials is a worker vertex, so this is PopLibs' per-worker figure with
/// the outputs on one worker (the supervisor vertex's figure is that x the contexts).
inline std::uint64_t reduceAddWorkerCycles(const poplar::Target& target, std::uint64_t outSize,
                                           std::uint64_t numPartials, bool floatOut,
                                           bool floatPartials) {
  const std::uint64_t accWidth = floatPartials ? 4 : 8;
  const std::uint64_t perLoad = target.getDataPathWidth() / (floatPartials ? 32 : 16);
  const std::uint64_t perLoop = accWidth / std::min(accWidth, perLoad) + 1;
  std::uint64_t loops = outSize / accWidth;
  for (std::uint64_t bit = 1; bit < accWidth; bit <<= 1)
    if (outSize & bit) ++loops;
  const std::uint64_t tail = floatOut ? (floatPartials ? 7 : 9) : (floatPartials ? 6 : 8);
  return 32 + (perLoop * numPartials + tail) * loops;
}

} // namespace poplibs_support
