// Element conversion between host values and device types.
#pragma once

#include <cstddef>
#include <poplar/Type.hpp>

namespace poplar::detail::graph {

/// Reads element i of an array of `type` as a double.
double loadAsDouble(Type type, const void* data, std::size_t i);
/// Writes `v` converted to `type` (rounding half, truncating integers) as element i. Defined
/// for every double: integers take whole numbers of up to 64 bits modulo 2^bits (as C++
/// converts integers), NaN as 0 and anything larger as the type's limit.
void storeFromDouble(Type type, void* data, std::size_t i, double v);
/// Whether `v` truncated is a value of `type` (always, for FLOAT, HALF and BOOL).
bool representable(Type type, double v);
/// Converts n elements; when src and dst types are equal this is a memcpy.
void convertElements(Type srcType, const void* src, Type dstType, void* dst, std::size_t n);

} // namespace poplar::detail::graph
