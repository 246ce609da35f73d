// The non-linearities popnn implements.
#pragma once

namespace popnn {

/// SOFTMAX, SOFTMAX_STABLE and SOFTMAX_SCALED normalise over the innermost dimension;
/// SOFTMAX_STABLE subtracts each row's maximum first so that large inputs do not overflow, and
/// SOFTMAX_SCALED is the stable form with its outputs multiplied by a scaling factor (which the
/// overloads taking `float& nonLinearityScaling` report) to use more of half's range.
/// GELU uses the tanh approximation 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), GELU_ERF the
/// exact 0.5 x (1 + erf(x / sqrt(2))); SWISH is x sigmoid(x); HARD_SIGMOID is
/// max(0, min(1, 0.2 x + 0.5)).
enum class NonLinearityType {
  SIGMOID,
  HARD_SIGMOID,
  RELU,
  TANH,
  GELU,
  GELU_ERF,
  SWISH,
  SOFTMAX,
  SOFTMAX_STABLE,
  SOFTMAX_SCALED
};

} // namespace popnn
