// The host kernel behind MatMulPartial<float,float>: a tile's block product out = A . B where A's
// rows, B's rows and out's rows are separate vectors (edges). Only the host's simulation speed
// depends on it; the vertex's cycle estimate does not.
#pragma once

#include <cstddef>

namespace poplin {

/// out[i][j] = sum over k of a[i][k] * b[k][j] for i < rows, j < cols, k < depth, summed in
/// float in k order. On CPUs with AVX2 and FMA: B copied into 16-column panels, then register-
/// blocked vector loops (4 rows x 16 columns per sweep of k); elsewhere portable loops.
/// Deterministic on a given host; the two paths may differ in the last bits (FMA rounds once per
/// product-add).
void matMulBlockFloat(const float* const* a, const float* const* b, float* const* out,
                      std::size_t rows, std::size_t depth, std::size_t cols);

} // namespace poplin
