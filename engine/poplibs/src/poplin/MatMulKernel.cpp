#include "MatMulKernel.hpp"

#include <algorithm>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define POPLIN_HAVE_AVX2_KERNEL 1
#endif

namespace poplin {

namespace {

// Portable: i-k-j, so the inner loop streams a row of B into the row of out and vectorises.
void blockPortable(const float* const* a, const float* const* b, float* const* out, std::size_t rows,
                   std::size_t depth, std::size_t cols) {
  for (std::size_t i = 0; i < rows; ++i) {
    float* o = out[i];
    std::fill(o, o + cols, 0.0f);
    for (std::size_t k = 0; k < depth; ++k) {
      const float aik = a[i][k];
      const float* bk = b[k];
      for (std::size_t j = 0; j < cols; ++j) o[j] += aik * bk[j];
    }
  }
}

#ifdef POPLIN_HAVE_AVX2_KERNEL
#define POPLIN_AVX2 __attribute__((target("avx2,fma")))

// Lanes [0, n) of an 8-float vector, for the last columns of a row.
POPLIN_AVX2 inline __m256i laneMask(std::size_t n) {
  const __m256i index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n)), index);
}

// R rows of out (R <= 4) over W vectors of 8 columns starting at column j (W = 1 or 2): R x W
// accumulators stay in registers for the whole sweep of k, so each B load feeds R FMAs and each
// broadcast of A feeds W. `tail` < 8 lanes of the last vector when the row ends inside it.
template <int R, int W>
POPLIN_AVX2 inline void sweep(const float* const* a, const float* const* b, float* const* out, std::size_t depth,
                              std::size_t j, std::size_t tail) {
  // Every loop over r and w is unrolled (R, W are constants), so the accumulators are registers.
  const float* ar[R];
  __m256 acc[R][W];
#pragma GCC unroll 4
  for (int r = 0; r < R; ++r) {
    ar[r] = a[r];
#pragma GCC unroll 2
    for (int w = 0; w < W; ++w) acc[r][w] = _mm256_setzero_ps();
  }
  const __m256i mask = laneMask(tail ? tail : 8);
  for (std::size_t k = 0; k < depth; ++k) {
    const float* bk = b[k] + j;
    __m256 bv[W];
#pragma GCC unroll 2
    for (int w = 0; w < W; ++w)
      bv[w] = (tail && w == W - 1) ? _mm256_maskload_ps(bk + 8 * w, mask) : _mm256_loadu_ps(bk + 8 * w);
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
      const __m256 av = _mm256_broadcast_ss(ar[r] + k);
#pragma GCC unroll 2
      for (int w = 0; w < W; ++w) acc[r][w] = _mm256_fmadd_ps(av, bv[w], acc[r][w]);
    }
  }
#pragma GCC unroll 4
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 2
    for (int w = 0; w < W; ++w) {
      if (tail && w == W - 1) _mm256_maskstore_ps(out[r] + j + 8 * w, mask, acc[r][w]);
      else _mm256_storeu_ps(out[r] + j + 8 * w, acc[r][w]);
    }
}

template <int R>
POPLIN_AVX2 inline void rowGroup(const float* const* a, const float* const* b, float* const* out, std::size_t depth,
                                 std::size_t cols) {
  std::size_t j = 0;
  for (; j + 16 <= cols; j += 16) sweep<R, 2>(a, b, out, depth, j, 0);
  const std::size_t left = cols - j;
  if (left > 8) sweep<R, 2>(a, b, out, depth, j, left - 8);
  else if (left == 8) sweep<R, 1>(a, b, out, depth, j, 0);
  else if (left > 0) sweep<R, 1>(a, b, out, depth, j, left);
}

POPLIN_AVX2 void blockAvx2(const float* const* a, const float* const* b, float* const* out, std::size_t rows,
                           std::size_t depth, std::size_t cols) {
  std::size_t i = 0;
  for (; i + 4 <= rows; i += 4) rowGroup<4>(a + i, b, out + i, depth, cols);
  switch (rows - i) {
  case 3: rowGroup<3>(a + i, b, out + i, depth, cols); break;
  case 2: rowGroup<2>(a + i, b, out + i, depth, cols); break;
  case 1: rowGroup<1>(a + i, b, out + i, depth, cols); break;
  default: break;
  }
}
#endif

} // namespace

void matMulBlockFloat(const float* const* a, const float* const* b, float* const* out, std::size_t rows,
                      std::size_t depth, std::size_t cols) {
#ifdef POPLIN_HAVE_AVX2_KERNEL
  static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (avx2) return blockAvx2(a, b, out, rows, depth, cols);
#endif
  blockPortable(a, b, out, rows, depth, cols);
}

} // namespace poplin
