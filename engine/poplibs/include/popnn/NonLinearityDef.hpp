// The non-linearities popnn implements.
#pragma once

namespace popnn {

/// SOFTMAX and SOFTMAX_STABLE normalise over the innermost dimension; SOFTMAX_STABLE subtracts
/// each row's maximum first so that large inputs do not overflow. GELU uses the tanh
/// approximation 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
enum class NonLinearityType { SIGMOID, RELU, TANH, GELU, SOFTMAX, SOFTMAX_STABLE };

/// "SIGMOID", "RELU", "TANH", "GELU", "SOFTMAX" or "SOFTMAX_STABLE".
const char* asString(NonLinearityType type);

} // namespace popnn
