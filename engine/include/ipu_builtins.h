/* IPU intrinsics for codelets, as the IPU Model offers them on the host. Those with a meaning
 * on the host are implemented here; those that need the IPU's hardware (cycle counters,
 * control registers, the exchange, the accumulating matrix product unit) are declared
 * unavailable, so a codelet that calls one fails to compile with an error naming it:
 *   error: '__builtin_ipu_get_scount_l' is unavailable: ... has no host implementation ...
 * (docs/compatibility.md lists both sets). */
#ifndef TESSERA_DEVICE_IPU_BUILTINS_H
#define TESSERA_DEVICE_IPU_BUILTINS_H

#include <ipudef.h>
#include <math.h>

/* `rptsize_t`, the loop-count type of the `rpt` instruction, comes with the builtins: codelets
 * that include this header and not <poplar/Loops.hpp> use it (PopLibs' broadcastCodelets.cpp and
 * elemwiseUnaryCodelets.cpp, and kouteisang/PaperID13Alenex25's Hungarian-algorithm codelets). */
#ifdef __cplusplus
#include <poplar/Loops.hpp>
#endif

#ifdef __cplusplus
extern "C" {
#endif
/* The tile the running vertex is on (libpoplar: the runtime sets it before each vertex). */
unsigned tessera_device_tile_id(void);
#ifdef __cplusplus
}
#endif

#if defined(__clang__)
#define TESSERA_IPU_NO_HOST(name)                                                                  \
  __attribute__((unavailable("the IPU intrinsic " #name " has no host implementation in Tessera: " \
                             "it needs the IPU's hardware (see docs/compatibility.md, Poplar)")))
#else
#define TESSERA_IPU_NO_HOST(name)                                                                  \
  __attribute__((error("the IPU intrinsic " #name " has no host implementation in Tessera: "       \
                       "it needs the IPU's hardware (see docs/compatibility.md, Poplar)")))
#endif

static inline unsigned __builtin_ipu_get_tile_id(void) {
  return tessera_device_tile_id();
}

static inline float __builtin_ipu_max(float a, float b) {
  return a > b ? a : b;
}
static inline float __builtin_ipu_min(float a, float b) {
  return a < b ? a : b;
}

#if defined(__cplusplus) && defined(__clang__)
/* The arithmetic and bit builtins that public codelets call, computed on the host with the
 * instruction's meaning: element by element for the short vectors, half elements in float.
 * Overloaded as the IPU compiler's are (scalar float, float2, half2, half4). C++ with clang
 * only: popc compiles codelets with clang as C++ (GCC gives every __builtin_ name C linkage, so
 * it cannot overload them). */
#include <atomic>
#include <cstdint>
#include <cstring>
#include <poplar/HalfFloat.hpp>

namespace tessera_ipu {
template <typename To, typename From> inline To bitsAs(From x) {
  static_assert(sizeof(To) == sizeof(From), "bit casts keep the size");
  To out;
  std::memcpy(&out, &x, sizeof out);
  return out;
}
/* A comparison's result as the IPU gives it: every bit set for true, zero for false. */
inline float maskOf(bool b) {
  return b ? bitsAs<float>(0xffffffffu) : 0.0f;
}
inline float sigmoid(float x) {
  return 1.0f / (1.0f + expf(-x));
}
inline float absMax(float a, float b) {
  return fabsf(a) > fabsf(b) ? fabsf(a) : fabsf(b);
}
/* Element-wise over a short vector (float2, half2, half4): each element computed in float. */
template <typename V, typename F> inline V map(V v, F f) {
  for (unsigned i = 0; i < sizeof(V) / sizeof(v[0]); ++i)
    v[i] = f(static_cast<float>(v[i]));
  return v;
}
template <typename V, typename F> inline V zip(V a, V b, F f) {
  for (unsigned i = 0; i < sizeof(V) / sizeof(a[0]); ++i)
    a[i] = f(static_cast<float>(a[i]), static_cast<float>(b[i]));
  return a;
}
/* Comparisons of half vectors give all-ones 16-bit lanes for true. */
template <typename V, typename F> inline V compare(V a, V b, F f) {
  V out = a;
  for (unsigned i = 0; i < sizeof(V) / sizeof(a[0]); ++i) {
    const bool t = f(static_cast<float>(a[i]), static_cast<float>(b[i]));
    if (sizeof(a[0]) == 2) {
      const std::uint16_t bits = t ? 0xffffu : 0u;
      std::memcpy(reinterpret_cast<char*>(&out) + 2 * i, &bits, 2);
    } else {
      out[i] = maskOf(t);
    }
  }
  return out;
}
/* The IPU Model's random generator: a SplitMix64 stream per tile, every tile starting from the
 * same seed (as the IPU Model's tiles do), so a program draws the same numbers on every run. */
inline std::uint64_t nextRandom() {
  static std::atomic<std::uint64_t> state[4096];
  std::uint64_t z = state[tessera_device_tile_id() % 4096].fetch_add(0x9e3779b97f4a7c15ull,
                                                                     std::memory_order_relaxed) +
                    0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
} // namespace tessera_ipu

/* Half <-> float conversions. */
static inline float __builtin_ipu_f16tof32(float h) {
  return h; /* a half argument converts exactly */
}
static inline poplar::half __builtin_ipu_f32tof16(float f) {
  return poplar::half(f);
}

/* Scalar maths (float). */
static inline float __builtin_ipu_exp(float x) {
  return expf(x);
}
static inline float __builtin_ipu_exp2(float x) {
  return exp2f(x);
}
static inline float __builtin_ipu_ln(float x) {
  return logf(x);
}
static inline float __builtin_ipu_log2(float x) {
  return log2f(x);
}
static inline float __builtin_ipu_tanh(float x) {
  return tanhf(x);
}
static inline float __builtin_ipu_sigm(float x) {
  return tessera_ipu::sigmoid(x);
}
static inline float __builtin_ipu_absadd(float a, float b) {
  return fabsf(a) + fabsf(b);
}
static inline float __builtin_ipu_absmax(float a, float b) {
  return tessera_ipu::absMax(a, b);
}
static inline float __builtin_ipu_clamp(float x, float2 range) {
  return x < range[0] ? range[0] : (x > range[1] ? range[1] : x);
}
static inline float __builtin_ipu_cmpeq(float a, float b) {
  return tessera_ipu::maskOf(a == b);
}
static inline float __builtin_ipu_cmpne(float a, float b) {
  return tessera_ipu::maskOf(a != b);
}
static inline float __builtin_ipu_cmplt(float a, float b) {
  return tessera_ipu::maskOf(a < b);
}
static inline float __builtin_ipu_cmple(float a, float b) {
  return tessera_ipu::maskOf(a <= b);
}
static inline float __builtin_ipu_cmpgt(float a, float b) {
  return tessera_ipu::maskOf(a > b);
}
static inline float __builtin_ipu_cmpge(float a, float b) {
  return tessera_ipu::maskOf(a >= b);
}
static inline int __builtin_ipu_isnan(float x) {
  return isnan(x) ? 1 : 0;
}
static inline int __builtin_ipu_isinf(float x) {
  return isinf(x) ? 1 : 0;
}
static inline int __builtin_ipu_isfinite(float x) {
  return isfinite(x) ? 1 : 0;
}

/* Bitwise operations on the bits of a float, or of an int. */
static inline float __builtin_ipu_and(float a, float b) {
  using tessera_ipu::bitsAs;
  return bitsAs<float>(bitsAs<std::uint32_t>(a) & bitsAs<std::uint32_t>(b));
}
static inline float __builtin_ipu_andc(float a, float b) {
  using tessera_ipu::bitsAs;
  return bitsAs<float>(bitsAs<std::uint32_t>(a) & ~bitsAs<std::uint32_t>(b));
}
static inline float __builtin_ipu_or(float a, float b) {
  using tessera_ipu::bitsAs;
  return bitsAs<float>(bitsAs<std::uint32_t>(a) | bitsAs<std::uint32_t>(b));
}
static inline float __builtin_ipu_not(float a) {
  using tessera_ipu::bitsAs;
  return bitsAs<float>(~bitsAs<std::uint32_t>(a));
}
static inline int __builtin_ipu_and(int a, int b) {
  return a & b;
}
static inline int __builtin_ipu_andc(int a, int b) {
  return a & ~b;
}
static inline int __builtin_ipu_or(int a, int b) {
  return a | b;
}
static inline float2 __builtin_ipu_and(float2 a, float2 b) {
  return tessera_ipu::bitsAs<float2>(tessera_ipu::bitsAs<uint2>(a) & tessera_ipu::bitsAs<uint2>(b));
}
static inline float2 __builtin_ipu_andc(float2 a, float2 b) {
  return tessera_ipu::bitsAs<float2>(tessera_ipu::bitsAs<uint2>(a) &
                                     ~tessera_ipu::bitsAs<uint2>(b));
}
static inline float2 __builtin_ipu_or(float2 a, float2 b) {
  return tessera_ipu::bitsAs<float2>(tessera_ipu::bitsAs<uint2>(a) | tessera_ipu::bitsAs<uint2>(b));
}
static inline float2 __builtin_ipu_not(float2 a) {
  return tessera_ipu::bitsAs<float2>(~tessera_ipu::bitsAs<uint2>(a));
}

/* Random numbers (the IPU Model's generator, above). */
static inline unsigned __builtin_ipu_urand32(void) {
  return static_cast<unsigned>(tessera_ipu::nextRandom());
}
static inline unsigned long long __builtin_ipu_urand64(void) {
  return tessera_ipu::nextRandom();
}

/* Short vectors: float2, half2, half4. */
#define TESSERA_IPU_VECTOR_UNARY(name, expr)                                                       \
  static inline float2 name(float2 v) {                                                            \
    return tessera_ipu::map(v, [](float x) { return expr; });                                      \
  }                                                                                                \
  static inline half2 name(half2 v) {                                                              \
    return tessera_ipu::map(v, [](float x) { return expr; });                                      \
  }                                                                                                \
  static inline half4 name(half4 v) {                                                              \
    return tessera_ipu::map(v, [](float x) { return expr; });                                      \
  }
#define TESSERA_IPU_VECTOR_BINARY(name, expr)                                                      \
  static inline float2 name(float2 a, float2 b) {                                                  \
    return tessera_ipu::zip(a, b, [](float x, float y) { return expr; });                          \
  }                                                                                                \
  static inline half2 name(half2 a, half2 b) {                                                     \
    return tessera_ipu::zip(a, b, [](float x, float y) { return expr; });                          \
  }                                                                                                \
  static inline half4 name(half4 a, half4 b) {                                                     \
    return tessera_ipu::zip(a, b, [](float x, float y) { return expr; });                          \
  }
#define TESSERA_IPU_VECTOR_COMPARE(name, op)                                                       \
  static inline float2 name(float2 a, float2 b) {                                                  \
    return tessera_ipu::compare(a, b, [](float x, float y) { return x op y; });                    \
  }                                                                                                \
  static inline half2 name(half2 a, half2 b) {                                                     \
    return tessera_ipu::compare(a, b, [](float x, float y) { return x op y; });                    \
  }                                                                                                \
  static inline half4 name(half4 a, half4 b) {                                                     \
    return tessera_ipu::compare(a, b, [](float x, float y) { return x op y; });                    \
  }

TESSERA_IPU_VECTOR_UNARY(__builtin_ipu_exp, expf(x))
TESSERA_IPU_VECTOR_UNARY(__builtin_ipu_exp2, exp2f(x))
TESSERA_IPU_VECTOR_UNARY(__builtin_ipu_ln, logf(x))
TESSERA_IPU_VECTOR_UNARY(__builtin_ipu_log2, log2f(x))
TESSERA_IPU_VECTOR_UNARY(__builtin_ipu_tanh, tanhf(x))
TESSERA_IPU_VECTOR_UNARY(__builtin_ipu_sigm, tessera_ipu::sigmoid(x))
TESSERA_IPU_VECTOR_BINARY(__builtin_ipu_max, x > y ? x : y)
TESSERA_IPU_VECTOR_BINARY(__builtin_ipu_min, x < y ? x : y)
TESSERA_IPU_VECTOR_BINARY(__builtin_ipu_absmax, tessera_ipu::absMax(x, y))
TESSERA_IPU_VECTOR_BINARY(__builtin_ipu_absadd, fabsf(x) + fabsf(y))
TESSERA_IPU_VECTOR_COMPARE(__builtin_ipu_cmpeq, ==)
TESSERA_IPU_VECTOR_COMPARE(__builtin_ipu_cmpne, !=)
TESSERA_IPU_VECTOR_COMPARE(__builtin_ipu_cmplt, <)
TESSERA_IPU_VECTOR_COMPARE(__builtin_ipu_cmple, <=)
TESSERA_IPU_VECTOR_COMPARE(__builtin_ipu_cmpgt, >)
TESSERA_IPU_VECTOR_COMPARE(__builtin_ipu_cmpge, >=)
#undef TESSERA_IPU_VECTOR_UNARY
#undef TESSERA_IPU_VECTOR_BINARY
#undef TESSERA_IPU_VECTOR_COMPARE

/* clamp(x, {lo, hi}): each element limited to [lo, hi]. */
static inline float2 __builtin_ipu_clamp(float2 v, float2 range) {
  return tessera_ipu::map(
      v, [range](float x) { return x < range[0] ? range[0] : (x > range[1] ? range[1] : x); });
}
static inline half2 __builtin_ipu_clamp(half2 v, half2 range) {
  const float lo = static_cast<float>(range[0]), hi = static_cast<float>(range[1]);
  return tessera_ipu::map(v, [lo, hi](float x) { return x < lo ? lo : (x > hi ? hi : x); });
}
static inline half4 __builtin_ipu_clamp(half4 v, half2 range) {
  const float lo = static_cast<float>(range[0]), hi = static_cast<float>(range[1]);
  return tessera_ipu::map(v, [lo, hi](float x) { return x < lo ? lo : (x > hi ? hi : x); });
}

/* sum: half2 -> float (both elements), half4 -> float2 (pairs). */
static inline float __builtin_ipu_sum(half2 v) {
  return static_cast<float>(v[0]) + static_cast<float>(v[1]);
}
static inline float2 __builtin_ipu_sum(half4 v) {
  return float2{static_cast<float>(v[0]) + static_cast<float>(v[1]),
                static_cast<float>(v[2]) + static_cast<float>(v[3])};
}

/* Conversions of whole vectors. */
static inline float2 __builtin_ipu_f16v2tof32(half2 v) {
  return float2{static_cast<float>(v[0]), static_cast<float>(v[1])};
}
static inline half2 __builtin_ipu_f32v2tof16(float2 v) {
  return half2{static_cast<__fp16>(v[0]), static_cast<__fp16>(v[1])};
}
#endif /* __cplusplus && __clang__ */

/* The hardware-only intrinsics. */
unsigned __builtin_ipu_get_scount_l(void) TESSERA_IPU_NO_HOST(__builtin_ipu_get_scount_l);
unsigned __builtin_ipu_get_scount_u(void) TESSERA_IPU_NO_HOST(__builtin_ipu_get_scount_u);
unsigned __builtin_ipu_get(unsigned csr) TESSERA_IPU_NO_HOST(__builtin_ipu_get);
void __builtin_ipu_put(unsigned value, unsigned csr) TESSERA_IPU_NO_HOST(__builtin_ipu_put);
unsigned __builtin_ipu_uget(unsigned csr) TESSERA_IPU_NO_HOST(__builtin_ipu_uget);
void __builtin_ipu_uput(unsigned value, unsigned csr) TESSERA_IPU_NO_HOST(__builtin_ipu_uput);
float2 __builtin_ipu_f32v2aop(float2 a, float2 b, unsigned op)
    TESSERA_IPU_NO_HOST(__builtin_ipu_f32v2aop);
float __builtin_ipu_urand_f32(void) TESSERA_IPU_NO_HOST(__builtin_ipu_urand_f32);
float2 __builtin_ipu_f32v2grand(void) TESSERA_IPU_NO_HOST(__builtin_ipu_f32v2grand);
void __builtin_ipu_ld128putcs(unsigned index) TESSERA_IPU_NO_HOST(__builtin_ipu_ld128putcs);
/* Packs three 21-bit tile memory addresses into one register pair for the ld2x64pace family,
 * whose only users are IPU inline assembly (which the host cannot run either). */
uint2 __builtin_ipu_tapack(const void* a, const void* b, const void* c)
    TESSERA_IPU_NO_HOST(__builtin_ipu_tapack);

#endif
