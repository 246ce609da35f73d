// The host kernel behind the matmul vertices (ConvPartial*, channels innermost; half blocks are
// widened to float first): a tile's block product out = A . B where A's rows, B's rows and out's
// rows are separate vectors (edges). Only the host's simulation speed depends on it; the
// vertex's cycle estimate does not.
#pragma once

#include <cstddef>

namespace poplin {

/// out[i][j] = sum over k of a[i][k] * b[k][j] for i < rows, j < cols, k < depth, summed in
/// float in k order: one accumulator per output from +0, acc = acc + a[i][k] * b[k][j] for k
/// ascending. On CPUs with AVX2 and FMA: B copied into 16-column panels, then register-blocked
/// vector loops (6 rows x 16 columns per sweep of k), each product-add one FMA (one rounding);
/// elsewhere portable loops (a rounding for the product, one for the add). Deterministic on a
/// given host; the two paths may differ in the last bits.
void matMulBlockFloat(const float* const* a, const float* const* b, float* const* out,
                      std::size_t rows, std::size_t depth, std::size_t cols);

} // namespace poplin
