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

// R rows of out (R <= 6) times one packed panel of B (16 columns, `depth` rows, contiguous):
// R x 2 accumulators stay in registers for the whole sweep of k (12 of the 16 ymm registers at
// R = 6, with two for B and one for the broadcast of A), so each B load feeds R FMAs and each
// broadcast of A feeds two. Six rows rather than four: the loads per FMA fall from 6/8 to 8/12,
// and twelve independent accumulators cover the FMA units' latency (two units, 4-5 cycles).
// Every loop over r is unrolled (R is a constant).
template <int R>
POPLIN_AVX2 inline void sweep(const float* const* a, const float* panel, float* const* out,
                              std::size_t depth, std::size_t j, std::size_t width) {
  const float* ar[R];
  __m256 acc0[R], acc1[R];
#pragma GCC unroll 6
  for (int r = 0; r < R; ++r) {
    ar[r] = a[r];
    acc0[r] = _mm256_setzero_ps();
    acc1[r] = _mm256_setzero_ps();
  }
  for (std::size_t k = 0; k < depth; ++k) {
    const __m256 b0 = _mm256_load_ps(panel + 16 * k), b1 = _mm256_load_ps(panel + 16 * k + 8);
#pragma GCC unroll 6
    for (int r = 0; r < R; ++r) {
      const __m256 av = _mm256_broadcast_ss(ar[r] + k);
      acc0[r] = _mm256_fmadd_ps(av, b0, acc0[r]);
      acc1[r] = _mm256_fmadd_ps(av, b1, acc1[r]);
    }
  }
#pragma GCC unroll 6
  for (int r = 0; r < R; ++r) {
    storeColumns(out[r] + j, acc0[r], width);
    storeColumns(out[r] + j + 8, acc1[r], width > 8 ? width - 8 : 0);
  }
}

// B's rows are usually slices of a wider matrix, a power-of-two stride apart (a 512-wide B puts
// a tile's rows 2 KiB apart): read in place, a sweep's rows fall in the same few L1 sets and
// evict each other. So B is first copied into 16-column panels, each `depth` x 16 contiguous
// and 32-byte aligned (zero-padded past the last column), and every group of rows sweeps a panel
// while it sits in L1. The copy reads each row of B once, left to right, in vector loads (a
// library copy per 16 floats cost as much as the products of a small block).
// Rows of A and B are a few cache lines each, far apart (a row of the whole matrix between them):
// the hardware prefetchers do not follow that pattern, and a tile's block waited on each line in
// turn (the copy into panels and the first sweep over A were most of the kernel's time). So the
// kernel asks for every line of its block of A up front, and for the rows of B a few rows ahead
// of the copy, so that many lines are on their way at once.
constexpr std::size_t kPrefetchRows = 8;

inline void prefetchRow(const float* row, std::size_t n) {
  const char* p = reinterpret_cast<const char*>(row);
  const char* end = reinterpret_cast<const char*>(row + n);
  for (; p < end; p += 64)
    _mm_prefetch(p, _MM_HINT_T0);
  _mm_prefetch(end - 1, _MM_HINT_T0); // the last line, when the row does not start on one
}

POPLIN_AVX2 void packPanels(const float* const* b, float* packed, std::size_t depth,
                            std::size_t cols) {
  const std::size_t full = cols / 16, tail = cols % 16;
  const __m256i mask0 = laneMask(tail), mask1 = laneMask(tail > 8 ? tail - 8 : 0);
  for (std::size_t k = 0; k < depth; ++k) {
    const float* src = b[k];
    if (k + kPrefetchRows < depth) prefetchRow(b[k + kPrefetchRows], cols);
    float* dst = packed + 16 * k;
    for (std::size_t p = 0; p < full; ++p, src += 16, dst += 16 * depth) {
      _mm256_store_ps(dst, _mm256_loadu_ps(src));
      _mm256_store_ps(dst + 8, _mm256_loadu_ps(src + 8));
    }
    if (tail) { // masked lanes read nothing and load zeros
      _mm256_store_ps(dst, _mm256_maskload_ps(src, mask0));
      _mm256_store_ps(dst + 8, _mm256_maskload_ps(src + 8, mask1));
    }
  }
}

POPLIN_AVX2 void blockAvx2(const float* const* a, const float* const* b, float* const* out,
                           std::size_t rows, std::size_t depth, std::size_t cols) {
  const std::size_t panels = (cols + 15) / 16;
  // 32-byte aligned storage (C++17's aligned new serves an over-aligned element type), so the
  // panel loads are aligned.
  struct alignas(32) Eight {
    float v[8];
  };
  thread_local std::vector<Eight> storage;
  storage.resize(panels * depth * 2);
  float* packed = storage.data()->v;
  for (std::size_t i = 0; i < rows; ++i)
    prefetchRow(a[i], depth);
  for (std::size_t k = 0; k < std::min(depth, kPrefetchRows); ++k)
    prefetchRow(b[k], cols);
  packPanels(b, packed, depth, cols);
  for (std::size_t p = 0; p < panels; ++p) {
    const float* panel = packed + p * depth * 16;
    const std::size_t j = 16 * p, width = std::min<std::size_t>(16, cols - j);
    std::size_t i = 0;
    for (; i + 6 <= rows; i += 6)
      sweep<6>(a + i, panel, out + i, depth, j, width);
    switch (rows - i) {
    case 5:
      sweep<5>(a + i, panel, out + i, depth, j, width);
      break;
    case 4:
      sweep<4>(a + i, panel, out + i, depth, j, width);
      break;
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
