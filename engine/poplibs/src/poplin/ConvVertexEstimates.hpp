// How Tessera's convolution and matmul vertices become the inputs of PopLibs' published conv
// partial estimators (poplibs_support/ConvCycleEstimators.hpp). A Tessera conv vertex computes a
// block of `rows` output rows, `width` wide, for `outChans` output channels of one conv group
// over all `inChans` input channels, as PopLibs' vertex of the same name does for its groups:
// - the AMP vertices see the input channels in groups of the AMP's input width (16 halves,
//   8 floats) and the output channels in groups of the conv units (one pass each);
// - ConvPartial1x1Out splits the block's field elements evenly over the worker contexts (one
//   worklist entry each); ConvPartialnx1 and ConvPartialHorizontalMac give each output row to
//   a context in turn, at every kernel position, as their worklists do;
// - HorizontalMac takes all channels as one group (its dot products run over the channels).
// A matrix product runs as PopLibs runs it, on these vertices with the channels innermost: a
// block's rows of A are its field elements (width 1), its K the input channels and its columns
// of B the output channels.
#pragma once

#include "poplibs_support/ConvCycleEstimators.hpp"

#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>
#include <vector>

namespace poplin {

/// The AMP vertices' channel groups for `inChans` x `outChans`.
inline poplibs_support::ConvGroups ampGroups(poplar::Type in, poplar::Type out,
                                             std::uint64_t inChans, std::uint64_t outChans) {
  const auto amp = poplibs_support::ampFigures(in, out);
  const unsigned inPerGroup = amp.weightBytesPerConvUnit / unsigned(in.size());
  poplibs_support::ConvGroups g;
  g.inChansPerGroup = inPerGroup;
  g.numInGroups = unsigned((inChans + inPerGroup - 1) / inPerGroup);
  g.outChansPerGroup = amp.numConvUnits;
  g.numOutGroups = unsigned((outChans + amp.numConvUnits - 1) / amp.numConvUnits);
  return g;
}

/// `elems` field elements split evenly over the contexts, the first ones taking the remainder.
inline std::vector<std::uint64_t> splitOverContexts(std::uint64_t elems, unsigned contexts) {
  std::vector<std::uint64_t> parts(contexts);
  for (unsigned c = 0; c < contexts; ++c)
    parts[c] = elems / contexts + (c < elems % contexts ? 1 : 0);
  return parts;
}

/// Output rows dealt to the contexts in turn, the same at each of `kernelSize` positions:
/// [context][kernel position] -> the lengths of its rows.
inline std::vector<std::vector<std::vector<std::uint64_t>>>
dealRowsPerKernelPosition(std::uint64_t rows, std::uint64_t width, unsigned kernelSize,
                          unsigned contexts) {
  std::vector<std::vector<std::uint64_t>> perContext(contexts);
  for (std::uint64_t r = 0; r < rows; ++r)
    perContext[r % contexts].push_back(width);
  std::vector<std::vector<std::vector<std::uint64_t>>> out(contexts);
  for (unsigned c = 0; c < contexts; ++c)
    out[c].assign(kernelSize, perContext[c]);
  return out;
}

inline std::uint64_t conv1x1VertexCycles(const poplar::Target& t, poplar::Type in, poplar::Type out,
                                         std::uint64_t rows, std::uint64_t width,
                                         std::uint64_t inChans, std::uint64_t outChans) {
  return poplibs_support::convPartial1x1OutCycles(
      t, in, out, ampGroups(in, out, inChans, outChans),
      splitOverContexts(rows * width, t.getNumWorkerContexts()));
}

inline std::uint64_t convNx1VertexCycles(const poplar::Target& t, poplar::Type in, poplar::Type out,
                                         std::uint64_t rows, std::uint64_t width, unsigned kernelY,
                                         unsigned kernelX, std::uint64_t inChans,
                                         std::uint64_t outChans) {
  const auto g = ampGroups(in, out, inChans, outChans);
  const unsigned contexts = t.getNumWorkerContexts();
  return poplibs_support::convPartialNx1Cycles(
      t, in, out, g, kernelY, kernelX, 1,
      dealRowsPerKernelPosition(rows, width, kernelY * kernelX, contexts),
      rows * width * g.outChansPerGroup);
}

inline std::uint64_t convHmacVertexCycles(const poplar::Target& t, poplar::Type in,
                                          poplar::Type out, std::uint64_t rows, std::uint64_t width,
                                          unsigned kernelSize, std::uint64_t inChans,
                                          std::uint64_t outChans) {
  poplibs_support::ConvGroups g;
  g.inChansPerGroup = unsigned(inChans);
  g.outChansPerGroup = unsigned(outChans);
  const unsigned contexts = t.getNumWorkerContexts();
  return poplibs_support::convPartialHorizontalMacCycles(
      t, in, out, g, kernelSize, dealRowsPerKernelPosition(rows, width, kernelSize, contexts),
      rows * width * outChans);
}

} // namespace poplin
