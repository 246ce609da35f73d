// Cycle estimates of poprand's supervisor vertices as PopLibs' published estimators compute them
// (graphcore/poplibs lib/poprand/poprandCycleEstimators.cpp: the constants are facts about the
// vertices' assembly; the code is ours). Each is a supervisor figure: 4 (6 for dropout) to call
// the workers, each worker's set-up x the contexts, then the loop over the output.
//
// PopLibs' formulas are followed as published, including two of their quirks: UniformSupervisor
// (float/half) and BernoulliSupervisor take their "vector width" as the data path width divided
// by 2 or 4 (32 or 16 elements, not the 2 or 4 a 64-bit vector holds), and the per-vector costs
// are rounded as (cost x (n + width - 1)) / width, not cost x ceil(n / width).
#pragma once

#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>

namespace poplibs_support {

namespace detail {
inline std::uint64_t scaledVectors(std::uint64_t cost, std::uint64_t n, std::uint64_t width) {
  return cost * (n + width - 1) / width;
}
inline std::uint64_t partialVector(std::uint64_t n, std::uint64_t width) {
  return n % width != 0 ? 1 : 0;
}
} // namespace detail

/// poprand::UniformSupervisor<float|half>: 4 + 4 per "vector" + 22 (float) / 24 (half) per
/// context + 4 / 12 for a partial one.
inline std::uint64_t uniformCycles(const poplar::Target& t, poplar::Type type, std::uint64_t n) {
  const bool isFloat = type == poplar::FLOAT;
  const std::uint64_t width = t.getDataPathWidth() / (isFloat ? 2 : 4);
  const std::uint64_t contexts = t.getNumWorkerContexts();
  return 4 + detail::scaledVectors(4, n, width) +
         (isFloat ? 22 * contexts + detail::partialVector(n, width) * 4
                  : 24 * contexts + detail::partialVector(n, width) * 12);
}

/// poprand::UniformSupervisor<int>: 4 + 22 per context, then 1 per 64-bit store for the full
/// 32-bit range (scale 0, Tessera's range 0), else 6 per pair and 2 for an odd element.
inline std::uint64_t uniformIntCycles(const poplar::Target& t, bool fullRange, std::uint64_t n) {
  const std::uint64_t base = 4 + 22 * std::uint64_t(t.getNumWorkerContexts());
  return fullRange ? base + n / 2 : base + 6 * (n / 2) + (n % 2) * 2;
}

/// poprand::BernoulliSupervisor<T>: 4 + 1 per "vector" + 21 (half) / 23 per context + 9 / 1
/// for a partial one.
inline std::uint64_t bernoulliCycles(const poplar::Target& t, poplar::Type type, std::uint64_t n) {
  const bool isHalf = type == poplar::HALF;
  const std::uint64_t width = t.getDataPathWidth() / (isHalf ? 4 : 2);
  const std::uint64_t contexts = t.getNumWorkerContexts();
  return 4 + (n + width - 1) / width +
         (isHalf ? 21 * contexts + detail::partialVector(n, width) * 9
                 : 23 * contexts + detail::partialVector(n, width));
}

/// poprand::NormalSupervisor<T>: 4 + 4 per 64-bit vector + 22 (float) / 24 per context + 3 / 12
/// for a partial vector.
inline std::uint64_t normalCycles(const poplar::Target& t, poplar::Type type, std::uint64_t n) {
  const bool isFloat = type == poplar::FLOAT;
  const std::uint64_t width = t.getDataPathWidth() / (isFloat ? 32 : 16);
  const std::uint64_t contexts = t.getNumWorkerContexts();
  return 4 + detail::scaledVectors(4, n, width) +
         (isFloat ? 22 * contexts + detail::partialVector(n, width) * 3
                  : 24 * contexts + detail::partialVector(n, width) * 12);
}

/// poprand::TruncatedNormalSupervisor<T>: 4 + 26 (float) / 28 per context, (11 / 12 x
/// iterations + 5) per vector, (13 x iterations + 2) / (12 x iterations + 10) for a partial one.
inline std::uint64_t truncatedNormalCycles(const poplar::Target& t, poplar::Type type,
                                           std::uint64_t n, std::uint64_t iterations) {
  const bool isFloat = type == poplar::FLOAT;
  const std::uint64_t width = t.getDataPathWidth() / (isFloat ? 32 : 16);
  const std::uint64_t contexts = t.getNumWorkerContexts();
  const std::uint64_t partial = detail::partialVector(n, width);
  if (isFloat)
    return 4 + 26 * contexts + detail::scaledVectors(11 * iterations + 5, n, width) +
           partial * (13 * iterations + 2);
  return 4 + 28 * contexts + detail::scaledVectors(12 * iterations + 5, n, width) +
         partial * (12 * iterations + 10);
}

/// poprand::DropoutSupervisor<T>: 6 + 24 per context + 2 per vector + 1 (float) / 9 for a
/// partial vector.
inline std::uint64_t dropoutCycles(const poplar::Target& t, poplar::Type type, std::uint64_t n) {
  const bool isFloat = type == poplar::FLOAT;
  const std::uint64_t width = t.getDataPathWidth() / (isFloat ? 32 : 16);
  return 6 + 24 * std::uint64_t(t.getNumWorkerContexts()) + detail::scaledVectors(2, n, width) +
         detail::partialVector(n, width) * (isFloat ? 1 : 9);
}

/// poprand::SetSeedSupervisor: 14 + 27 per context.
inline std::uint64_t setSeedCycles(const poplar::Target& t) {
  return 14 + 27 * std::uint64_t(t.getNumWorkerContexts());
}

} // namespace poplibs_support
