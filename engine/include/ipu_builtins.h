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
unsigned __builtin_ipu_urand32(void) TESSERA_IPU_NO_HOST(__builtin_ipu_urand32);
float2 __builtin_ipu_f32v2grand(void) TESSERA_IPU_NO_HOST(__builtin_ipu_f32v2grand);
void __builtin_ipu_ld128putcs(unsigned index) TESSERA_IPU_NO_HOST(__builtin_ipu_ld128putcs);

#endif
