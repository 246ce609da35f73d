/* Device-side definitions for codelets: the short vector types of the IPU (float2, half4,
 * int2, ...). Tessera compiles codelets for the host with clang, whose ext_vector_type gives
 * the same element access (v.x, v[0]) and element-wise arithmetic as the IPU compiler's.
 * half vectors hold __fp16 elements (storage in half precision, arithmetic in float). */
#ifndef TESSERA_DEVICE_IPUDEF_H
#define TESSERA_DEVICE_IPUDEF_H

#if defined(__clang__)
#define TESSERA_IPU_VECTOR(type, n) __attribute__((ext_vector_type(n)))
#else
/* GCC (a codelet compiled into a host program with TESSERA_VERTEX): vector_size gives
 * element access with [] and element-wise arithmetic, not .x/.y. */
#define TESSERA_IPU_VECTOR(type, n) __attribute__((vector_size(sizeof(type) * (n))))
#endif

typedef float float2 TESSERA_IPU_VECTOR(float, 2);
typedef float float4 TESSERA_IPU_VECTOR(float, 4);
typedef int int2 TESSERA_IPU_VECTOR(int, 2);
typedef int int4 TESSERA_IPU_VECTOR(int, 4);
typedef unsigned int uint2 TESSERA_IPU_VECTOR(unsigned int, 2);
typedef unsigned int uint4 TESSERA_IPU_VECTOR(unsigned int, 4);
typedef short short2 TESSERA_IPU_VECTOR(short, 2);
typedef short short4 TESSERA_IPU_VECTOR(short, 4);
typedef unsigned short ushort2 TESSERA_IPU_VECTOR(unsigned short, 2);
typedef unsigned short ushort4 TESSERA_IPU_VECTOR(unsigned short, 4);
typedef char char2 TESSERA_IPU_VECTOR(char, 2);
typedef char char4 TESSERA_IPU_VECTOR(char, 4);
typedef unsigned char uchar2 TESSERA_IPU_VECTOR(unsigned char, 2);
typedef unsigned char uchar4 TESSERA_IPU_VECTOR(unsigned char, 4);
#if defined(__clang__)
typedef __fp16 half2 TESSERA_IPU_VECTOR(__fp16, 2);
typedef __fp16 half4 TESSERA_IPU_VECTOR(__fp16, 4);
#endif

#if defined(__clang__) && defined(__cplusplus)
/* On the IPU `half` is a built-in scalar type, so `(half)alpha * v` scales a half4 and
 * `v + h` adds a half to every element. On the host `half` is the class poplar::half: these
 * operators give the same element-wise meaning (the scalar rounded to half once, as the IPU
 * holds it). In namespace poplar so that argument-dependent lookup always finds them. */
#include <poplar/HalfFloat.hpp>
#include <type_traits>
namespace poplar {
/* Templates, so that only a half2 or half4 operand itself selects them: a plain function would
 * also take an int or a float converted (clang splats scalars to vectors) and make `h / 2` or
 * `alpha * h` ambiguous. */
template <typename V>
using TesseraHalfVector =
    typename std::enable_if<std::is_same<V, half2>::value || std::is_same<V, half4>::value,
                            V>::type;
#define TESSERA_HALF_VECTOR_SCALAR_OP(op)                                                          \
  template <typename V> inline TesseraHalfVector<V> operator op(V v, half h) {                     \
    return v op(__fp16)(float) h;                                                                  \
  }                                                                                                \
  template <typename V> inline TesseraHalfVector<V> operator op(half h, V v) {                     \
    return (__fp16)(float)h op v;                                                                  \
  }
TESSERA_HALF_VECTOR_SCALAR_OP(+)
TESSERA_HALF_VECTOR_SCALAR_OP(-)
TESSERA_HALF_VECTOR_SCALAR_OP(*)
TESSERA_HALF_VECTOR_SCALAR_OP(/)
#undef TESSERA_HALF_VECTOR_SCALAR_OP
} /* namespace poplar */
#endif

/* Worker contexts per tile of the simulated IPU (poplar/TileConstants.hpp has the same). */
#ifndef CTXT_WORKERS
#define CTXT_WORKERS (6)
#endif

/* On the IPU the __builtin_ipu_* intrinsics are the compiler's own: a codelet calls
 * __builtin_ipu_urand32() having included only <ipudef.h> (Graphcore's Monte Carlo examples do).
 * On the host they are functions Tessera declares, so they come with this header. Last, and
 * inside the guard: ipu_builtins.h includes this header back and needs its types. */
#include <ipu_builtins.h>

#endif
