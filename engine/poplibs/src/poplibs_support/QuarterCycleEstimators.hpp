// Cycle estimates of the casts to and from QUARTER, as PopLibs' castWorkerCycles
// (lib/popops/PerformanceEstimation.cpp) computes them: formulas and constants are facts about
// the vertices' assembly; this is our own code.
#pragma once

#include <algorithm>
#include <cstdint>
#include <poplar/Quarter.hpp>
#include <poplar/Target.hpp>

namespace poplibs_support {

/// One worker's conversion loop between QUARTER and FLOAT, HALF or QUARTER over n elements.
/// QUARTER to QUARTER (a change of format or scale) is an assembly loop of 8-element atoms:
/// 4 cycles of entry, 13 per atom after the first (the pipeline fills in the first), and 2 for
/// no remainder or 5 for any. QUARTER to and from HALF run on the auxiliary pipeline like HALF
/// to and from FLOAT: a vector as wide as two 64-bit loads and one 64-bit store allow, one
/// cycle each; QUARTER to and from FLOAT convert one element per vector, one cycle more each.
/// 19 cycles of prologue, then per power of two below the vector width one cycle to test the
/// remainder and two more to convert and store it when present. `dataPathWidth` in bits.
inline std::uint64_t castQuarterWorkerCycles(unsigned dataPathWidth, poplar::Type from,
                                             poplar::Type to, std::uint64_t n) {
  if (from == poplar::QUARTER && to == poplar::QUARTER) {
    const std::uint64_t atoms = n / 8, rest = n % 8;
    return 4 + (atoms ? (atoms - 1) * 13 : 0) + (rest ? 5 : 2);
  }
  const std::uint64_t pathBytes = dataPathWidth / 8;
  const std::uint64_t loadWidth = pathBytes / from.size(), storeWidth = pathBytes / to.size();
  const bool aux = (from == poplar::QUARTER && to == poplar::HALF) ||
                   (from == poplar::HALF && to == poplar::QUARTER);
  constexpr std::uint64_t readPorts = 2, writePorts = 1;
  const std::uint64_t vector = aux ? std::min(loadWidth * readPorts, storeWidth * writePorts) : 1;
  const std::uint64_t loadCycles = vector / std::min(vector, loadWidth);
  const std::uint64_t storeCycles = vector / std::min(vector, storeWidth);
  const std::uint64_t perVector = std::max(loadCycles, storeCycles) + (aux ? 0 : 1);
  std::uint64_t cycles = 19 + perVector * (n / vector);
  const std::uint64_t rest = n % vector;
  for (std::uint64_t bit = 1; bit < vector; bit <<= 1)
    cycles += 1 + ((rest & bit) ? 2 : 0);
  return cycles;
}

/// popops::Cast<From,To> with a QUARTER side (one worker vertex): 3 cycles to read its
/// parameters, 2 more to read and unpack each metadata byte it takes, 2 to call the loop and
/// exit, and the loop.
inline std::uint64_t castQuarterCycles(const poplar::Target& target, poplar::Type from,
                                       poplar::Type to, std::uint64_t n) {
  const unsigned metadataReads = (from == poplar::QUARTER) + (to == poplar::QUARTER);
  return 3 + 2 * metadataReads + 2 +
         castQuarterWorkerCycles(target.getDataPathWidth(), from, to, n);
}

} // namespace poplibs_support
