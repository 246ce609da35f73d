// popfloat's host-side conversions between single precision and the bits of an IEEE half, as
// programs use them to prepare `half` data for the device and read it back.
#pragma once

#include <cstdint>

namespace popfloat {
namespace experimental {

/// The 16-bit pattern of `value` rounded to half precision (round to nearest, ties to even).
/// As PopLibs' function, a finite value beyond the half range saturates to the largest half
/// (±65504) whether or not `enNanoo` is set; infinities stay infinite and NaNs stay NaNs
/// (quiet or signalling as they were).
uint16_t singleToHalf(float value, bool enNanoo = false);

/// The single-precision value of the half whose bits are `ihalf` (exact: every half is a
/// float). A NaN comes back as a positive NaN, quiet or signalling as it was.
float halfToSingle(uint16_t ihalf);

} // end namespace experimental
} // end namespace popfloat
