// Copyright: written for Tessera's compatibility tests.
// The IPU version of ScaleFast: only built for the IPU; the C++ one serves every other target.
#ifdef __IPU__
#include "common.h"

.section .text.__runCodelet_ScaleFast
.globl __runCodelet_ScaleFast
.type __runCodelet_ScaleFast, @function
__runCodelet_ScaleFast:
  ld32 $m0, $mvertex_base, $m15, 0
  exitz $m15
.size __runCodelet_ScaleFast, .-__runCodelet_ScaleFast
#endif
