// Cycle estimates of PopLibs vertices as PopLibs' published estimators compute them
// (graphcore/poplibs, lib/popops/PopopsCycleEstimators.cpp: the formulas and constants are
// facts about the vertices' assembly; this is our own code). Each function is the estimate of
// one worker vertex for its field sizes, element types and target; the codelet's
// getCycleEstimate calls it. tests/poplibs/test_cycle_estimators.cpp checks each against the
// formula for several sizes and types.
#pragma once

#include <algorithm>
#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>
#include <vector>

namespace poplibs_support {

/// popops::Fill<T> (one vector of n elements). Stores go out a data path (64 bits) at a time.
/// half: 15 cycles for one element, 21 for two, else 26 + n / 4 (the alignment of a half is
/// usually 2 bytes, which the loop prologue fixes up). Other 32-bit types: 16 before the loop,
/// one per 2 elements, 6 after it, 1 more when an odd element is left, 1 for the average
/// 4-byte (rather than 8-byte) alignment. This form takes the target's data path width in bits
/// (popops::internal::getFill1DCycleEstimate's parameters).
inline std::uint64_t fillCycles(unsigned dataPathWidth, poplar::Type type, std::uint64_t n) {
  const bool half = type == poplar::HALF;
  const std::uint64_t width = dataPathWidth / (half ? 16 : 32);
  if (half) return n == 1 ? 15 : n == 2 ? 21 : 26 + n / width;
  return 16 + n / width + 6 + (n % width == 1 ? 1 : 0) + 1;
}
inline std::uint64_t fillCycles(const poplar::Target& target, poplar::Type type, std::uint64_t n) {
  return fillCycles(target.getDataPathWidth(), type, n);
}

/// popops::Fill2D<T> (one worker filling a list of regions): 5, each region's Fill figure, 1
/// more for 32-bit types, less the per-region entry and exit the Fill figure counts (2, or 3
/// for 32-bit types). Tessera runs Fill<T> per region; this is PopLibs' figure for the 2-D
/// vertex, for popops::internal::getFill2DCycleEstimate.
inline std::uint64_t fill2DCycles(unsigned dataPathWidth, poplar::Type type,
                                  const std::vector<unsigned>& regions) {
  const bool half = type == poplar::HALF;
  std::uint64_t cycles = 5 + (half ? 0 : 1);
  for (unsigned n : regions)
    cycles += fillCycles(dataPathWidth, type, n) - (half ? 2 : 3);
  return cycles;
}

/// The conversion loop of popops::Cast<From,To> over n elements (not the char types, which
/// Tessera does not cast). Between floating-point types the auxiliary pipeline converts a
/// vector as wide as two 64-bit loads and one 64-bit store allow; other conversions run
/// element by element in C++, one more cycle each. 19 cycles of prologue, the vectors, then
/// per power of two below the vector width one cycle to test the remainder and two more to
/// convert and store it when present. `dataPathWidth` in bits.
inline std::uint64_t castWorkerCycles(unsigned dataPathWidth, poplar::Type from, poplar::Type to,
                                      std::uint64_t n) {
  const std::uint64_t pathBytes = dataPathWidth / 8;
  const std::uint64_t loadWidth = pathBytes / from.size(), storeWidth = pathBytes / to.size();
  const bool floating = from.isFloatingPoint() && to.isFloatingPoint();
  constexpr std::uint64_t readPorts = 2, writePorts = 1;
  const std::uint64_t vector =
      floating ? std::min(loadWidth * readPorts, storeWidth * writePorts) : 1;
  const std::uint64_t loadCycles = vector / std::min(vector, loadWidth);
  const std::uint64_t storeCycles = vector / std::min(vector, storeWidth);
  const std::uint64_t perVector = std::max(loadCycles, storeCycles) + (floating ? 0 : 1);
  std::uint64_t cycles = 19 + perVector * (n / vector);
  const std::uint64_t rest = n % vector;
  for (std::uint64_t bit = 1; bit < vector; bit <<= 1)
    cycles += 1 + ((rest & bit) ? 2 : 0);
  return cycles;
}
inline std::uint64_t castWorkerCycles(const poplar::Target& target, poplar::Type from,
                                      poplar::Type to, std::uint64_t n) {
  return castWorkerCycles(target.getDataPathWidth(), from, to, n);
}

/// popops::Cast<From,To> (one worker vertex, PopLibs' Cast1DSingleWorker): 3 cycles to read its
/// parameters, 2 to call the conversion loop and exit, and the loop.
inline std::uint64_t castCycles(unsigned dataPathWidth, poplar::Type from, poplar::Type to,
                                std::uint64_t n) {
  return 3 + 2 + castWorkerCycles(dataPathWidth, from, to, n);
}
inline std::uint64_t castCycles(const poplar::Target& target, poplar::Type from, poplar::Type to,
                                std::uint64_t n) {
  return castCycles(target.getDataPathWidth(), from, to, n);
}

/// PopLibs' Cast1D MultiVertex over n elements: 12, and per worker context 18 plus the loop
/// over its ceil(n / contexts) elements. For popops::internal::getCast1DCycleEstimate (Tessera
/// splits a cast into Cast<From,To> worker vertices itself).
inline std::uint64_t cast1DCycles(unsigned dataPathWidth, unsigned contexts, poplar::Type from,
                                  poplar::Type to, std::uint64_t n) {
  const std::uint64_t perWorker = (n + contexts - 1) / contexts;
  return 12 + contexts * (castWorkerCycles(dataPathWidth, from, to, perWorker) + 18);
}

/// PopLibs' Cast2D (one worker over a list of regions): 5, and per region 11 plus the loop.
inline std::uint64_t cast2DCycles(unsigned dataPathWidth, poplar::Type from, poplar::Type to,
                                  const std::vector<unsigned>& regions) {
  std::uint64_t cycles = 5;
  for (unsigned n : regions)
    cycles += 11 + castWorkerCycles(dataPathWidth, from, to, n);
  return cycles;
}

} // namespace poplibs_support
