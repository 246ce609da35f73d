// The cycle estimate of popops::NormaliseImage as PopLibs' published estimator computes it
// (graphcore/poplibs lib/popops/PopopsCycleEstimators.cpp). The constants are facts about the
// vertex; the code is ours.
#pragma once

#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>

namespace poplibs_support {

/// A MultiVertex whose state packs the pixels per worker (above bit 3) and the workers that
/// take one more (the low 3 bits). Each worker is charged a set-up (28 cycles for
/// UNSIGNED_CHAR input, 51 otherwise), then per pixel 8 (UNSIGNED_CHAR), 11 (HALF) or 17
/// (FLOAT) cycles for the largest share, and 1 to exit. PopLibs counts the extra pixel only
/// when more than one worker takes one; the formula keeps that.
inline std::uint64_t normaliseImageCycles(const poplar::Target& target, poplar::Type inType,
                                          unsigned packedNPixels) {
  const std::uint64_t perWorker = packedNPixels >> 3;
  const unsigned remainder = packedNPixels & 7;
  const std::uint64_t pixels = perWorker + (remainder > 1 ? 1 : 0);
  std::uint64_t worker;
  if (inType == poplar::UNSIGNED_CHAR)
    worker = 28 + pixels * 8 + 1;
  else if (inType == poplar::HALF)
    worker = 51 + pixels * 11 + 1;
  else
    worker = 51 + pixels * 17 + 1;
  return target.getNumWorkerContexts() * worker;
}

} // namespace poplibs_support
