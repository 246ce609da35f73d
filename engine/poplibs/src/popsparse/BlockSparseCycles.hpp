// Cycle estimate of popsparse::BSMatMulBlock, the vertex computing one result block of a
// block-sparse product. PopLibs builds that block from poplin::ConvPartial1x1Out vertices (one
// per k-block product, lib/popsparse/HyperGraph.cpp) and sums them with poplin::ReduceAdd;
// Tessera's vertex does the block's products in one, so its figure is PopLibs' published
// ConvPartial1x1Out estimator (poplibs_support/ConvCycleEstimators.hpp) for the same work: a
// 1x1 convolution whose field is the block's blockRow rows (split over the worker contexts),
// whose input channels are the pairs' blockCol-deep products in AMP input groups (16 halves or
// 8 floats, the block sizes PopLibs requires) and whose output channels are the block's columns
// in groups of the AMP's conv units. Accumulating in the vertex stands for the reduction, so no
// ReduceAdd is added. A block with no products is zeroed: convZeroCycles.
#pragma once

#include "poplibs_support/ConvCycleEstimators.hpp"

#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>
#include <vector>

namespace popsparse {
namespace detail {

/// rows x depth x cols is one block product (lhs block [rows][depth], rhs block [depth][cols]);
/// pairs of them accumulate into the block.
inline std::uint64_t bsMatMulBlockCycles(const poplar::Target& target, poplar::Type in,
                                         poplar::Type partials, std::uint64_t pairs,
                                         std::uint64_t rows, std::uint64_t depth,
                                         std::uint64_t cols) {
  const bool floatPartials = partials == poplar::FLOAT;
  if (pairs == 0 || depth == 0)
    return poplibs_support::convZeroCycles(target, floatPartials, rows * cols, 1);
  const auto amp = poplibs_support::ampFigures(in, partials);
  const std::uint64_t inGroup = in == poplar::HALF ? 16 : 8;
  poplibs_support::ConvGroups g;
  g.numConvGroups = 1;
  g.inChansPerGroup = unsigned(inGroup);
  g.numInGroups = unsigned(pairs * ((depth + inGroup - 1) / inGroup));
  g.outChansPerGroup = amp.numConvUnits;
  g.numOutGroups = unsigned((cols + amp.numConvUnits - 1) / amp.numConvUnits);
  const unsigned contexts = target.getNumWorkerContexts();
  std::vector<std::uint64_t> partitions(contexts, 0);
  for (std::uint64_t r = 0; r < rows; ++r)
    ++partitions[r % contexts];
  return poplibs_support::convPartial1x1OutCycles(target, in, partials, g, partitions);
}

} // namespace detail
} // namespace popsparse
