// Cycle estimates of popnn's CTC vertices as PopLibs' published estimators compute them
// (graphcore/poplibs lib/popnn/PerformanceEstimation.hpp and popnnCycleEstimators.cpp: the
// constants are facts about the vertices' code; the code here is ours). PopLibs' loss vertices
// each cover a region of t time steps and l label symbols (each with its adjacent blank); a
// Tessera vertex covers a whole batch entry, so takes the formula for its region {T, L}.
#pragma once

#include <cstdint>
#include <poplar/Target.hpp>

namespace poplibs_support {

/// x + y in the log domain, max + log(1 + exp(min - max)): 4 (min/max) + 1 + 3 (exp) + 1 +
/// 6 (log) + 1.
inline std::uint64_t ctcLogAddCycles() {
  return 4 + 1 + 3 + 1 + 6 + 1;
}
/// x * y in the log domain: one add.
inline std::uint64_t ctcLogMulCycles() {
  return 1;
}

/// CTCAlpha over {t, l}: per symbol (and its blank) per step, (1 write + 3 reads) x 2, two log
/// adds and two log multiplies, 2 for the repeated-symbol test; the last blank adds one log add
/// and one log multiply.
inline std::uint64_t ctcAlphaCycles(std::uint64_t t, std::uint64_t l, bool extraBlank) {
  const std::uint64_t perSymbolStep =
      (1 + 3) * 2 + 2 * ctcLogAddCycles() + 2 * ctcLogMulCycles() + 2;
  return perSymbolStep * l * t + (extraBlank ? ctcLogAddCycles() + ctcLogMulCycles() : 0);
}

/// CTCBeta: alpha's work in the other direction.
inline std::uint64_t ctcBetaCycles(std::uint64_t t, std::uint64_t l, bool extraBlank) {
  return ctcAlphaCycles(t, l, extraBlank);
}

/// CTCGradGivenAlpha: beta, then per symbol per step (2 writes + 1 read) x 2 and (log multiply +
/// log add) x 2 to accumulate alpha x beta into the gradient; the last blank once more.
inline std::uint64_t ctcGradGivenAlphaCycles(std::uint64_t t, std::uint64_t l, bool extraBlank) {
  const std::uint64_t perSymbolStep = (2 + 1) * 2 + (ctcLogMulCycles() + ctcLogAddCycles()) * 2;
  return ctcBetaCycles(t, l, extraBlank) + perSymbolStep * l * t +
         (extraBlank ? ctcLogAddCycles() + ctcLogMulCycles() : 0);
}

/// CTCRankCandidates, ranking all `total` candidates for `beamwidth` beams on 6 workers:
/// supervisor 14 + 11 per beam + 8; per worker 13 + 28 per candidate + 3 per candidate per pair
/// of the others + 15 for the copy.
inline std::uint64_t ctcRankCandidatesCycles(const poplar::Target& target, std::uint64_t total,
                                             std::uint64_t beamwidth) {
  const std::uint64_t workers = target.getNumWorkerContexts();
  const std::uint64_t perWorker = (total + workers - 1) / workers;
  const std::uint64_t worker =
      13 + perWorker * 28 + perWorker * 3 * (total ? (total - 1) / 2 : 0) + 15;
  return 14 + (5 + 6) * beamwidth + 8 + worker * workers;
}

/// CTCReduceCandidates over `total` candidates: supervisor 24 + 12; per worker 13 +
/// (total - 1) / 2 + 6.
inline std::uint64_t ctcReduceCandidatesCycles(const poplar::Target& target, std::uint64_t total) {
  return 24 + 12 + (13 + (total ? (total - 1) / 2 : 0) + 6) * target.getNumWorkerContexts();
}

/// CTCUpdate of `beamwidth` beams: supervisor 12 + 16; per worker 16 + 7 per beam + 1.
inline std::uint64_t ctcUpdateCycles(const poplar::Target& target, std::uint64_t beamwidth) {
  return 12 + 16 + (16 + beamwidth * 7 + 1) * target.getNumWorkerContexts();
}

/// One step of beam search for `beamwidth` beams over `numClasses` classes, as PopLibs'
/// vertices for that step add up: ranking and reducing the beamwidth x (numClasses - 1) extend
/// candidates plus the beamwidth copy candidates, then the update. (PopLibs publishes no
/// figure for generating and merging candidates; they count 0, as there.)
inline std::uint64_t ctcBeamSearchStepCycles(const poplar::Target& target, std::uint64_t beamwidth,
                                             std::uint64_t numClasses) {
  const std::uint64_t total = beamwidth * (numClasses ? numClasses - 1 : 0) + beamwidth;
  return ctcRankCandidatesCycles(target, total, beamwidth) +
         ctcReduceCandidatesCycles(target, total) + ctcUpdateCycles(target, beamwidth);
}

} // namespace poplibs_support
