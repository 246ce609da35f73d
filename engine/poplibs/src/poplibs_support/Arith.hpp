// Arithmetic as vertices perform it: HALF computes in float and rounds back, integers wrap
// around on overflow (as IPU integer instructions do) instead of being undefined behaviour.
#pragma once

#include <cmath>
#include <limits>
#include <poplar/Type.hpp>
#include <type_traits>

namespace poplibs_support {

/// The type a vertex computes in for elements of type T.
template <typename T> using Arith = std::conditional_t<std::is_same_v<T, poplar::half>, float, T>;

template <typename C> C wrappingAdd(C a, C b) {
  if constexpr (std::is_integral_v<C>)
    return static_cast<C>(static_cast<std::make_unsigned_t<C>>(a) +
                          static_cast<std::make_unsigned_t<C>>(b));
  else
    return a + b;
}

template <typename C> C wrappingSub(C a, C b) {
  if constexpr (std::is_integral_v<C>)
    return static_cast<C>(static_cast<std::make_unsigned_t<C>>(a) -
                          static_cast<std::make_unsigned_t<C>>(b));
  else
    return a - b;
}

template <typename C> C wrappingMul(C a, C b) {
  if constexpr (std::is_integral_v<C>)
    return static_cast<C>(static_cast<std::make_unsigned_t<C>>(a) *
                          static_cast<std::make_unsigned_t<C>>(b));
  else
    return a * b;
}

/// `v` converted to To: floating-point destinations round, integer destinations truncate toward
/// zero and saturate at their limits; NaN becomes 0.
template <typename To> To saturatingCast(double v) {
  if constexpr (std::is_same_v<To, float> || std::is_same_v<To, poplar::half>) {
    return To(static_cast<float>(v));
  } else {
    if (std::isnan(v)) return To(0);
    if (v <= double(std::numeric_limits<To>::lowest())) return std::numeric_limits<To>::lowest();
    if (v >= double(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
    return static_cast<To>(v);
  }
}

} // namespace poplibs_support
