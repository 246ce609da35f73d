// Cycle estimates of the per-channel vertices (AddToChannel, ScaledAddToChannel, ChannelMul)
// and of poplin::InverseStdDeviation as PopLibs' published estimators compute them (graphcore/
// poplibs lib/popconv, later lib/poplin, ...CycleEstimators.cpp: the constants are facts about
// the vertices' assembly; the code is ours).
//
// Tessera's channel vertices hold one block per channel (the channel's field, contiguous), with
// one operand value per channel: each block is a region of PopLibs' 2D vertex
// (AddToChannel2D, ScaledAddToChannel2D, ChannelMul2D) with a single channel in its group, so
// the estimate is the 2D worker vertex's for `channels` regions of `block` elements.
#pragma once

#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>

namespace poplibs_support {

namespace detail {
inline std::uint64_t channelVectors(const poplar::Target& t, poplar::Type type, std::uint64_t n) {
  const std::uint64_t width = t.getDataPathWidth() / (type == poplar::FLOAT ? 32 : 16);
  return (n + width - 1) / width;
}
} // namespace detail

/// AddToChannel2D: 5, per region 2 (load the pointers) + one 64-bit vector per cycle + 1 branch.
inline std::uint64_t addToChannelCycles(const poplar::Target& t, poplar::Type type,
                                        std::uint64_t channels, std::uint64_t block) {
  return 5 + channels * (2 + detail::channelVectors(t, type, block) + 1);
}

/// ScaledAddToChannel2D: as AddToChannel2D with 1 more per region to load the scale's CSR.
inline std::uint64_t scaledAddToChannelCycles(const poplar::Target& t, poplar::Type type,
                                              std::uint64_t channels, std::uint64_t block) {
  return 5 + channels * (3 + detail::channelVectors(t, type, block) + 1);
}

/// ChannelMul2D (and in place): 5, per region 3 (load the scale and pointers) + a vector a cycle.
inline std::uint64_t channelMulCycles(const poplar::Target& t, poplar::Type type,
                                      std::uint64_t channels, std::uint64_t block) {
  return 5 + channels * (3 + detail::channelVectors(t, type, block));
}

/// poplin::InverseStdDeviation over `regions` regions of `n` channels: 6, per region 4 + per
/// float vector (intermediates are float) 3 + the vector width (the inverse square root runs
/// element by element).
inline std::uint64_t inverseStdDeviationCycles(const poplar::Target& t, std::uint64_t regions,
                                               std::uint64_t n) {
  const std::uint64_t width = t.getDataPathWidth() / 32;
  return 6 + regions * (4 + (3 + width) * ((n + width - 1) / width));
}

} // namespace poplibs_support
