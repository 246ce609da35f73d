// Index and range helpers for one spatial dimension of a convolution (or pooling): which
// input, kernel and output elements meet once every transform of ConvParams is applied; and
// the parameters of the backward and weight update convolutions built from the forward one.
// Ranges are [begin, end) pairs; an empty answer is {0, 0}. A dimension out of range gives
// poputil::poplibs_error.
#pragma once

#include <poplin/ConvParams.hpp>
#include <poplin/Convolution.hpp>
#include <tuple>
#include <utility>
#include <vector>

namespace poplin {

/// The size of `size` elements with dilation - 1 zeros placed between neighbours.
unsigned getDilatedSize(unsigned size, unsigned dilation);

/// The input element multiplied by kernel element `kernelIndex` for output `outputIndex`;
/// ~0U when there is none (padding, dilation or truncation).
unsigned getInputIndex(unsigned dim, unsigned outputIndex, unsigned kernelIndex,
                       const ConvParams& params);

/// The kernel element multiplied by input element `inputIndex` for output `outputIndex`; ~0U
/// when there is none.
unsigned getKernelIndex(unsigned dim, unsigned outputIndex, unsigned inputIndex,
                        const ConvParams& params);

/// The part of `outputRange` whose outputs use kernel element `kernelIndex`.
std::pair<unsigned, unsigned>
getOutputRangeForKernelIndex(unsigned dim, std::pair<unsigned, unsigned> outputRange,
                             unsigned kernelIndex, const ConvParams& params);

/// The part of `outputRange` whose outputs use input element `inputIndex`.
std::pair<unsigned, unsigned> getOutputRangeForInputIndex(unsigned dim,
                                                          std::pair<unsigned, unsigned> outputRange,
                                                          unsigned inputIndex,
                                                          const ConvParams& params);

/// The part of `outputRange` whose outputs use any kernel element of `kernelIndexRange`.
std::pair<unsigned, unsigned>
getOutputRangeForKernelRange(unsigned dim, std::pair<unsigned, unsigned> outputRange,
                             std::pair<unsigned, unsigned> kernelIndexRange,
                             const ConvParams& params);

/// The part of `outputRange` whose outputs use any input element of `inputRange`.
std::pair<unsigned, unsigned> getOutputRangeForInputRange(unsigned dim,
                                                          std::pair<unsigned, unsigned> outputRange,
                                                          std::pair<unsigned, unsigned> inputRange,
                                                          const ConvParams& params);

/// The input elements met by kernel element `kernelIndex` over `outputRange`.
std::pair<unsigned, unsigned> getInputRange(unsigned dim, std::pair<unsigned, unsigned> outputRange,
                                            unsigned kernelIndex, const ConvParams& params);

/// The kernel elements met by input element `inputIndex` over `outputRange`.
std::pair<unsigned, unsigned> getKernelRange(unsigned dim,
                                             std::pair<unsigned, unsigned> outputRange,
                                             unsigned inputIndex, const ConvParams& params);

/// The input elements met by the kernel elements of `kernelIndexRange` over `outputRange`.
std::pair<unsigned, unsigned> getInputRange(unsigned dim, std::pair<unsigned, unsigned> outputRange,
                                            std::pair<unsigned, unsigned> kernelIndexRange,
                                            const ConvParams& params);

/// The kernel elements met by the input elements of `inputRange` over `outputRange`.
std::pair<unsigned, unsigned> getKernelRange(unsigned dim,
                                             std::pair<unsigned, unsigned> outputRange,
                                             std::pair<unsigned, unsigned> inputRange,
                                             const ConvParams& params);

/// The input elements met by the kernel elements of `kernelIndexRange` for one output.
inline std::pair<unsigned, unsigned> getInputRange(unsigned dim, unsigned outputIndex,
                                                   std::pair<unsigned, unsigned> kernelIndexRange,
                                                   const ConvParams& params) {
  return getInputRange(dim, {outputIndex, outputIndex + 1}, kernelIndexRange, params);
}

/// The input elements met by the whole kernel for one output.
inline std::pair<unsigned, unsigned> getInputRange(unsigned dim, unsigned outputIndex,
                                                   const ConvParams& params) {
  return getInputRange(dim, outputIndex, {0, unsigned(params.kernelShape[dim])}, params);
}

/// The input elements met by the whole kernel over `outputRange`.
inline std::pair<unsigned, unsigned>
getInputRange(unsigned dim, std::pair<unsigned, unsigned> outputRange, const ConvParams& params) {
  return getInputRange(dim, outputRange, {0, unsigned(params.kernelShape[dim])}, params);
}

/// The parameters of the backward convolution: convolving the gradient with respect to the
/// forward output [B][G*Co][output field...] with the forward weights (transposed and flipped:
/// convolution(..., transposeAndFlipWeights = true, ...)) gives the gradient with respect to the
/// forward input [B][G*Ci][input field...]. Supported forward transforms: input padding and
/// truncation, kernel dilation, output striding; others give poputil::poplibs_error naming the
/// transform.
ConvParams getGradientParams(const ConvParams& params);

/// The parameters of the weight update convolution: the forward activations with batch and
/// input channels swapped (batch Ci, channels B) convolved with the output gradients as the
/// kernel (kernel shape = the forward output field) give the weight deltas (field = the
/// forward kernel shape), as PopLibs defines it: the forward output transform becomes the
/// kernel transform and the forward kernel transform the output transform.
ConvParams getWeightUpdateParams(const ConvParams& fwdParams);

} // namespace poplin
