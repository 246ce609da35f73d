// The host kernel behind poplin::ReduceAdd<float,float>: the element-wise sum of a block's
// partials. Only the host's simulation speed depends on it; the vertex's cycle estimate does not.
#pragma once

#include <cstddef>

namespace poplin {

/// out[j] = ((0 + p[0][j]) + p[1][j]) + ... + p[count-1][j] for j < n, in float, partials in
/// order: the order the vertex always summed in, so the bits are those of a plain loop on any
/// host. On CPUs with AVX2 eight columns at a time, every partial read once as a stream, no
/// buffer in between; elsewhere portable loops.
void reduceAddFloat(const float* const* partials, std::size_t count, float* out, std::size_t n);

} // namespace poplin
