// Cycle estimates of popops' slicing vertices as PopLibs' published estimators compute them
// (graphcore/poplibs lib/popops/popopsCycleEstimators.cpp and PerformanceEstimation.cpp, the
// release whose DynamicSlice1d / MultiUpdateAdd<T, subWordWrites> are worker or supervisor
// vertices as Tessera names them; MultiUpdateOp from the release that added it). The constants
// are facts about the vertices' assembly; the code is ours.
#pragma once

#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>
#include <vector>

namespace poplibs_support {

/// Elements one 64-bit load or store moves (the copy loops' vector width): the data path
/// width in bits over 16 for 2-byte elements, else over 32.
inline std::uint64_t copyVectorWidth(unsigned dataPathWidth, unsigned bytesPerElem) {
  return dataPathWidth / (bytesPerElem == 2 ? 16 : 32);
}
inline std::uint64_t copyVectorWidth(const poplar::Target& t, poplar::Type type) {
  return copyVectorWidth(t.getDataPathWidth(), type == poplar::HALF ? 2 : 4);
}

/// popops::DynamicSlice1d / DynamicUpdateSlice1d (supervisor): 11 + 1 + 6 + 1 + 6 for the
/// supervisor; each worker copies ceil(regionSize / contexts) elements of every slice row,
/// 41 + (27 + its 64-bit copies) per row.
inline std::uint64_t dynamicSlice1dCycles(const poplar::Target& t, poplar::Type type,
                                          std::uint64_t regionSize, std::uint64_t numSubElements) {
  const std::uint64_t contexts = t.getNumWorkerContexts();
  const std::uint64_t perWorker = (regionSize + contexts - 1) / contexts;
  const std::uint64_t copies = perWorker / copyVectorWidth(t, type);
  return 11 + 1 + 6 + 1 + 6 + (41 + (27 + copies) * numSubElements) * contexts;
}

/// popops::DynamicSlice2d / DynamicUpdateSlice2d: 23, then per region (of `regionSizes[r]`
/// elements) per slice row 31 + 2 per vector (half) or 29 + 1 per vector, + 13.
inline std::uint64_t dynamicSlice2dCycles(const poplar::Target& t, poplar::Type type,
                                          const std::vector<std::uint64_t>& regionSizes,
                                          std::uint64_t numSubElements) {
  const std::uint64_t width = copyVectorWidth(t, type);
  std::uint64_t cycles = 23;
  for (std::uint64_t size : regionSizes) {
    const std::uint64_t vectors = (size + width - 1) / width;
    cycles += (type == poplar::HALF ? 31 + 2 * vectors : 29 + vectors) * numSubElements + 13;
  }
  return cycles;
}

/// popops::MultiSlice / MultiUpdate: 16 to call, per offset 19 + 3 per 64-bit copy.
inline std::uint64_t multiSliceCycles(unsigned dataPathWidth, unsigned bytesPerElem,
                                      std::uint64_t regionSize, std::uint64_t numOffsets) {
  const std::uint64_t width = copyVectorWidth(dataPathWidth, bytesPerElem);
  return 16 + numOffsets * (19 + (regionSize + width - 1) / width * 3);
}
inline std::uint64_t multiSliceCycles(const poplar::Target& t, poplar::Type type,
                                      std::uint64_t regionSize, std::uint64_t numOffsets) {
  return multiSliceCycles(t.getDataPathWidth(), type == poplar::HALF ? 2 : 4, regionSize,
                          numOffsets);
}

/// Elements per atomic store (4 bytes): 1 for 32-bit types, 2 for half.
inline std::uint64_t elemsPerAtom(unsigned atomicWriteSize, unsigned bytesPerElem) {
  return bytesPerElem >= atomicWriteSize ? 1 : atomicWriteSize / bytesPerElem;
}
inline std::uint64_t elemsPerAtom(const poplar::Target& t, poplar::Type type) {
  return elemsPerAtom(t.getAtomicStoreGranularity(), unsigned(type.size()));
}

/// popops::MultiUpdateAdd<T, subWordWrites> (worker): 3, and with offsets 14 (float) / 15
/// before the loop and per offset 11 / 12 + 3 per further atom of the region; a region that
/// needs sub-word writes (an odd number of halves) costs 20 per element instead (PopLibs'
/// C++ path figure).
inline std::uint64_t multiUpdateAddCycles(unsigned atomicWriteSize, unsigned bytesPerElem,
                                          bool isFloat, std::uint64_t regionSize,
                                          std::uint64_t numOffsets) {
  if (numOffsets == 0) return 3;
  std::uint64_t perOffset = isFloat ? 11 : 12;
  const std::uint64_t atom = elemsPerAtom(atomicWriteSize, bytesPerElem);
  if (regionSize % atom != 0)
    perOffset += regionSize * 20;
  else if (regionSize != 0)
    perOffset += (regionSize / atom - 1) * 3;
  return 3 + (isFloat ? 14 : 15) + perOffset * numOffsets;
}
inline std::uint64_t multiUpdateAddCycles(const poplar::Target& t, poplar::Type type,
                                          std::uint64_t regionSize, std::uint64_t numOffsets) {
  return multiUpdateAddCycles(t.getAtomicStoreGranularity(), unsigned(type.size()),
                              type == poplar::FLOAT, regionSize, numOffsets);
}

/// popops::MultiUpdateOp<T, subWordWrites, op> (unscaled): PopLibs' worker figure with every
/// offset in range, 3, and with offsets 24 (32-bit data) / 25 before the loop and per offset
/// 11 / 12 + 3 per further atom (20 per element with sub-word writes). Tessera's vertex is a
/// worker vertex, so this is the figure before PopLibs' MultiVertex multiplies it by the
/// contexts and adds its 25 supervisor cycles.
inline std::uint64_t multiUpdateOpWorkerCycles(unsigned atomicWriteSize, unsigned bytesPerElem,
                                               std::uint64_t regionSize, std::uint64_t numOffsets) {
  if (numOffsets == 0) return 3;
  const bool wide = bytesPerElem == 4;
  std::uint64_t perOffset = wide ? 11 : 12;
  const std::uint64_t atom = elemsPerAtom(atomicWriteSize, bytesPerElem);
  if (regionSize % atom != 0)
    perOffset += regionSize * 20;
  else if (regionSize != 0)
    perOffset += (regionSize / atom - 1) * 3;
  return 3 + (wide ? 24 : 25) + perOffset * numOffsets;
}
inline std::uint64_t multiUpdateOpWorkerCycles(const poplar::Target& t, poplar::Type type,
                                               std::uint64_t regionSize, std::uint64_t numOffsets) {
  return multiUpdateOpWorkerCycles(t.getAtomicStoreGranularity(), unsigned(type.size()), regionSize,
                                   numOffsets);
}

} // namespace poplibs_support
