// The kinds popfloat's generic-float ("gfloat") casts are described with: rounding modes,
// storage formats, stochastic-rounding noise densities and the storage type of a cast's output.
#pragma once

namespace popfloat {
namespace experimental {

enum class RoundType {
  INV, // not a rounding mode
  RZ,  // towards zero
  RN,  // to nearest, ties to even
  RA,  // to nearest, ties away from zero
  RU,  // towards +infinity
  RD,  // towards -infinity
  SR,  // stochastic, with as many random bits as the mantissa drops
  SX   // stochastic with fewer random bits ("extended")
};

enum class FormatType {
  INVALID_FORMAT,     // not a format
  IEEE_FP16,          // IEEE half
  QUANTISED_FP32,     // a gfloat kept in an IEEE single
  QUANTISED_FP16,     // a gfloat kept in an IEEE half
  MIN_NORM_ALIGN_GF8, // 8 bits, fewer than 5 exponent bits
  ONE_FIVE_TWO_GF8,   // 8 bits, 1 sign/5 exponent/2 mantissa, infinities and NaNs kept
  MAX_NORM_ALIGN_GF8, // 8 bits, 1/5/2 without infinities and NaNs
  BFLOAT16,           // 1/8/7
  NO_DENORM_GF16,     // a 16-bit gfloat without denormals
  ENABLE_DENORM_GF16  // a 16-bit gfloat with denormals
};

enum class SRDensityType {
  INVALID,               // not a density
  UNIFORM,               // uniform noise
  NORMAL,                // normal noise
  TRUNCATED_NORMAL,      // normal noise, truncated
  BERNOULLI,             // round up with a given probability
  LOGISTIC,              // logistic noise
  TRUNCATED_LOGISTIC,    // logistic noise, truncated
  LAPLACE,               // Laplace noise
  TRUNCATED_LAPLACE,     // Laplace noise, truncated
  LOGIT_NORMAL,          // logit-normal noise
  TRUNCATED_LOGIT_NORMAL // logit-normal noise, truncated
};

enum class SpecType {
  FP32,  // store the cast's output as FLOAT
  BF16,  // store it as bfloat16 (kept in FLOAT)
  FP16,  // store it as HALF
  INT8,  // store it as SIGNED_CHAR
  INT16, // store it as SHORT
  INT32, // store it as INT
  AUTO   // the smallest type that holds the format
};

} // end namespace experimental
} // end namespace popfloat
