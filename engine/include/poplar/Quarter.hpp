// The 8-bit floating-point element type QUARTER and its metadata (Poplar's poplar/Quarter.hpp).
//
// A QUARTER element is one byte in one of two formats, chosen (with a power-of-two scale) by a
// QuarterMetadata rather than by the type: F143 (1 sign, 4 exponent bits with bias 8, 3 mantissa
// bits; 2^-10 to 240) and F152 (1 sign, 5 exponent bits with bias 16, 2 mantissa bits; 2^-17 to
// 57344). Both have subnormals, one NaN (the code 0x80, where a negative zero would be) and no
// infinities. An element with code q stands for decode(q) * 2^scale, scale in [-32, 31].
// On the device the metadata is a one-byte tensor of type QUARTER_METADATA.
//
// Where Tessera differs from Poplar: QUARTER and QUARTER_METADATA are declared here (and reach
// every includer of poplar/Type.hpp through it) with type ids after Type's own enumeration, so
// Type::isFloatingPoint() is false for QUARTER; Tensor::getMetadata() and the metadata forms of
// Graph::addVariable are not provided: a QUARTER tensor gets its metadata from the popops::cast
// that creates it (see poplar::detail::getQuarterMetadata below).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <poplar/Type.hpp>
#include <string>

namespace poplar {

class Tensor;

/// The format and scale of QUARTER elements.
class QuarterMetadata {
public:
  enum class Format : std::uint8_t {
    F143, ///< 1 sign bit, 4 exponent bits (bias 8), 3 mantissa bits
    F152  ///< 1 sign bit, 5 exponent bits (bias 16), 2 mantissa bits
  };
  QuarterMetadata() = default;
  /// Throws poplar_error when scale is outside [-32, 31] (six bits, as the device stores it).
  QuarterMetadata(Format format, int scale);
  Format getFormat() const { return format_; }
  /// The power of two every element is multiplied by.
  int getScale() const { return scale_; }
  bool operator==(const QuarterMetadata& o) const {
    return format_ == o.format_ && scale_ == o.scale_;
  }
  bool operator!=(const QuarterMetadata& o) const { return !(*this == o); }
  std::string toString() const; ///< "F143, scale -3"

private:
  Format format_ = Format::F143;
  std::int8_t scale_ = 0;
};

std::ostream& operator<<(std::ostream& os, const QuarterMetadata& m);
std::ostream& operator<<(std::ostream& os, QuarterMetadata::Format f);

// Ids after Type::Id::UnsignedLongLong (Type.cpp checks they stay free).
#if __cplusplus >= 201703L
#define POPLAR_QUARTER_CONSTANT_ inline constexpr
#else
#define POPLAR_QUARTER_CONSTANT_ constexpr
#endif
/// One-byte floating-point elements; their format and scale are in a QUARTER_METADATA tensor.
POPLAR_QUARTER_CONSTANT_ Type QUARTER{static_cast<Type::Id>(13)};
/// One byte: a QuarterMetadata (bit 7 the format, 1 for F152; bits 0-5 the scale).
POPLAR_QUARTER_CONSTANT_ Type QUARTER_METADATA{static_cast<Type::Id>(14)};
#undef POPLAR_QUARTER_CONSTANT_

namespace detail {
/// The byte a QUARTER_METADATA element holds for `m`, and back.
std::uint8_t packQuarterMetadata(const QuarterMetadata& m);
QuarterMetadata unpackQuarterMetadata(std::uint8_t byte);
/// The value of quarter code `code` under `m` (NaN for 0x80).
float quarterToFloat(std::uint8_t code, const QuarterMetadata& m);
/// The code nearest to x / 2^scale (ties to even). NaN, infinities and values beyond the
/// format's largest give NaN (0x80), as an IPU with floating-point overflow exceptions off and
/// NaN-on-overflow set (the IPU Model's behaviour); values at or below half the smallest
/// subnormal give 0 (there is no negative zero).
std::uint8_t floatToQuarter(float x, const QuarterMetadata& m);
/// The largest finite value of a format, unscaled (240 or 57344).
float quarterMax(QuarterMetadata::Format f);

/// Tessera's stand-in for Poplar's Tensor::getMetadata(): records that the QUARTER tensor
/// `quarter` (every variable it is made of) takes its format and scale from `metadata`, a
/// one-element QUARTER_METADATA tensor of the same graph. Throws poplar_error otherwise.
void setQuarterMetadata(const Tensor& quarter, const Tensor& metadata);
/// The metadata recorded for the variables of `quarter`; an invalid tensor when there is none.
/// Throws poplar_error when its variables were given different metadata tensors.
Tensor getQuarterMetadata(const Tensor& quarter);
} // namespace detail

} // namespace poplar
