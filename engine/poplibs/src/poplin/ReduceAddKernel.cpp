#include "ReduceAddKernel.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define POPLIN_HAVE_AVX2_REDUCE 1
#endif

namespace poplin {

namespace {

void reducePortable(const float* const* partials, std::size_t count, float* out, std::size_t n) {
  for (std::size_t j = 0; j < n; ++j) {
    float acc = 0.0f;
    for (std::size_t p = 0; p < count; ++p)
      acc += partials[p][j];
    out[j] = acc;
  }
}

#ifdef POPLIN_HAVE_AVX2_REDUCE
// 32 columns (four vectors) at a time so that four independent sums hide the adds' latency; the
// sum starts from +0 as the scalar loop does (0 + -0 is +0, so starting from the first partial
// would change the sign of a zero).
__attribute__((target("avx2"))) void reduceAvx2(const float* const* partials, std::size_t count,
                                                float* out, std::size_t n) {
  std::size_t j = 0;
  for (; j + 32 <= n; j += 32) {
    __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    for (std::size_t p = 0; p < count; ++p) {
      const float* src = partials[p] + j;
      a0 = _mm256_add_ps(a0, _mm256_loadu_ps(src));
      a1 = _mm256_add_ps(a1, _mm256_loadu_ps(src + 8));
      a2 = _mm256_add_ps(a2, _mm256_loadu_ps(src + 16));
      a3 = _mm256_add_ps(a3, _mm256_loadu_ps(src + 24));
    }
    _mm256_storeu_ps(out + j, a0);
    _mm256_storeu_ps(out + j + 8, a1);
    _mm256_storeu_ps(out + j + 16, a2);
    _mm256_storeu_ps(out + j + 24, a3);
  }
  for (; j + 8 <= n; j += 8) {
    __m256 a = _mm256_setzero_ps();
    for (std::size_t p = 0; p < count; ++p)
      a = _mm256_add_ps(a, _mm256_loadu_ps(partials[p] + j));
    _mm256_storeu_ps(out + j, a);
  }
  for (; j < n; ++j) {
    float acc = 0.0f;
    for (std::size_t p = 0; p < count; ++p)
      acc += partials[p][j];
    out[j] = acc;
  }
}
#endif

} // namespace

void reduceAddFloat(const float* const* partials, std::size_t count, float* out, std::size_t n) {
#ifdef POPLIN_HAVE_AVX2_REDUCE
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) return reduceAvx2(partials, count, out, n);
#endif
  reducePortable(partials, count, out, n);
}

} // namespace poplin
