// Size, alignment and kind of a host C++ type (Poplar's poplar/TypeTraits.hpp): what
// popops::expr::Const keeps about the value it stores.
#pragma once

#include <cstddef>
#include <type_traits>

namespace poplar {

struct TypeTraits {
  std::size_t align = 0; ///< alignof(T)
  std::size_t size = 0;  ///< sizeof(T)
  bool isIntegral = false;
  bool isFloat = false; ///< a C++ floating-point type
  bool isSigned = false;

  /// The traits of host type T.
  template <typename T> static TypeTraits make() {
    TypeTraits t;
    t.align = alignof(T);
    t.size = sizeof(T);
    t.isIntegral = std::is_integral<T>::value;
    t.isFloat = std::is_floating_point<T>::value;
    t.isSigned = std::is_signed<T>::value;
    return t;
  }
  /// Whether T is a plain arithmetic value (an integer, bool or C++ floating-point type), which
  /// a constant can hold as bytes.
  template <typename T> static constexpr bool isSimpleType() {
    return std::is_integral<T>::value || std::is_floating_point<T>::value;
  }
};

} // namespace poplar
