// Element conversion between host values and device types.
#pragma once

#include <cstddef>
#include <poplar/Type.hpp>

namespace poplar::detail {

/// Reads element i of an array of `type` as a double.
double loadAsDouble(Type type, const void* data, std::size_t i);
/// Writes `v` converted to `type` (rounding half, truncating integers) as element i.
void storeFromDouble(Type type, void* data, std::size_t i, double v);
/// Converts n elements; when src and dst types are equal this is a memcpy.
void convertElements(Type srcType, const void* src, Type dstType, void* dst, std::size_t n);

} // namespace poplar::detail
