// Helpers for building the convolutions of a training step from the forward one.
#pragma once

#include <poplin/ConvParams.hpp>

namespace poplin {

/// The parameters of the backward convolution: convolving the gradient with respect to the
/// forward output [B][G*Co][output field...] with the forward weights (transposed and flipped:
/// convolution(..., transposeAndFlipWeights = true, ...)) gives the gradient with respect to the
/// forward input [B][G*Ci][input field...]. Supported forward transforms: input padding and
/// truncation, kernel dilation, output striding; others give poputil::poplibs_error naming the
/// transform.
ConvParams getGradientParams(const ConvParams& params);

} // namespace poplin
