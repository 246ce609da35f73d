#include "MatMulKernel.hpp"

#include <algorithm>
#include <vector>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define POPLIN_HAVE_AVX2_KERNEL 1
#endif

namespace poplin {

namespace {

// Portable: i-k-j, so the inner loop streams a row of B into the row of out and vectorises.
void blockPortable(const float* const* a, const float* const* b, float* const* out,
                   std::size_t rows, std::size_t depth, std::size_t cols) {
  for (std::size_t i = 0; i < rows; ++i) {
    float* o = out[i];
    std::fill(o, o + cols, 0.0f);
    for (std::size_t k = 0; k < depth; ++k) {
      const float aik = a[i][k];
      const float* bk = b[k];
      for (std::size_t j = 0; j < cols; ++j)
        o[j] += aik * bk[j];
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

POPLIN_AVX2 inline void storeColumns(float* dst, __m256 v, std::size_t n) {
  if (n >= 8)
    _mm256_storeu_ps(dst, v);
  else if (n > 0)
    _mm256_maskstore_ps(dst, laneMask(n), v);
}

// R rows of out (R <= 4) times one packed panel of B (16 columns, `depth` rows, contiguous):
// R x 2 accumulators stay in registers for the whole sweep of k, so each B load feeds R FMAs
// and each broadcast of A feeds two. Every loop over r is unrolled (R is a constant).
template <int R>
POPLIN_AVX2 inline void sweep(const float* const* a, const float* panel, float* const* out,
                              std::size_t depth, std::size_t j, std::size_t width) {
  const float* ar[R];
  __m256 acc0[R], acc1[R];
#pragma GCC unroll 4
  for (int r = 0; r < R; ++r) {
    ar[r] = a[r];
    acc0[r] = _mm256_setzero_ps();
    acc1[r] = _mm256_setzero_ps();
  }
  for (std::size_t k = 0; k < depth; ++k) {
    const __m256 b0 = _mm256_loadu_ps(panel + 16 * k), b1 = _mm256_loadu_ps(panel + 16 * k + 8);
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
      const __m256 av = _mm256_broadcast_ss(ar[r] + k);
      acc0[r] = _mm256_fmadd_ps(av, b0, acc0[r]);
      acc1[r] = _mm256_fmadd_ps(av, b1, acc1[r]);
    }
  }
#pragma GCC unroll 4
  for (int r = 0; r < R; ++r) {
    storeColumns(out[r] + j, acc0[r], width);
    storeColumns(out[r] + j + 8, acc1[r], width > 8 ? width - 8 : 0);
  }
}

// B's rows are usually slices of a wider matrix, a power-of-two stride apart: read in place,
// a sweep's rows fall in the same few L1 sets and evict each other (this was half the speed).
// So B is first copied into 16-column panels, each `depth` x 16 contiguous (zero-padded past
// the last column), and every group of rows sweeps a panel while it sits in L1.
POPLIN_AVX2 void blockAvx2(const float* const* a, const float* const* b, float* const* out,
                           std::size_t rows, std::size_t depth, std::size_t cols) {
  const std::size_t panels = (cols + 15) / 16;
  thread_local std::vector<float> packed;
  packed.resize(panels * depth * 16);
  for (std::size_t p = 0; p < panels; ++p) {
    const std::size_t j = 16 * p, width = std::min<std::size_t>(16, cols - j);
    float* dst = packed.data() + p * depth * 16;
    for (std::size_t k = 0; k < depth; ++k, dst += 16) {
      std::copy(b[k] + j, b[k] + j + width, dst);
      std::fill(dst + width, dst + 16, 0.0f);
    }
  }
  for (std::size_t p = 0; p < panels; ++p) {
    const float* panel = packed.data() + p * depth * 16;
    const std::size_t j = 16 * p, width = std::min<std::size_t>(16, cols - j);
    std::size_t i = 0;
    for (; i + 4 <= rows; i += 4)
      sweep<4>(a + i, panel, out + i, depth, j, width);
    switch (rows - i) {
    case 3:
      sweep<3>(a + i, panel, out + i, depth, j, width);
      break;
    case 2:
      sweep<2>(a + i, panel, out + i, depth, j, width);
      break;
    case 1:
      sweep<1>(a + i, panel, out + i, depth, j, width);
      break;
    default:
      break;
    }
  }
}
#endif

} // namespace

void matMulBlockFloat(const float* const* a, const float* const* b, float* const* out,
                      std::size_t rows, std::size_t depth, std::size_t cols) {
#ifdef POPLIN_HAVE_AVX2_KERNEL
  static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (avx2) return blockAvx2(a, b, out, rows, depth, cols);
#endif
  blockPortable(a, b, out, rows, depth, cols);
}

} // namespace poplin
