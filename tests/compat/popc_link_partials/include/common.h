#pragma once
// Shared by the codelet sources; the IPU builds use the assembly version of ScaleAsm.
#ifdef __IPU__
#define USE_ASM_SCALE 1
#else
#define USE_ASM_SCALE 0
#endif
