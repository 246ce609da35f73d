// Constants of an IPU tile that codelets use to divide work and size buffers. The values are
// the simulated IPU's (Mk2, docs/engine.md): 6 worker contexts per tile.
#pragma once

/// Worker contexts of a tile: a MultiVertex's compute(workerId) runs once on each.
#ifndef CTXT_WORKERS
#define CTXT_WORKERS (6)
#endif
#define NUM_WORKERS (CTXT_WORKERS)

/// Bytes of one interleaved tile-memory element.
#define TMEM_ELEMSIZE (0x4000)
/// Address bits of a byte in tile memory.
#define TMEM_BYTE_MAX_ADDRESS_WIDTH (21)
/// Bits of a stride operand.
#define NUM_STRIDE_BITS (10)
/// Index of the floating-point control register (poplar/CSRFunctions.hpp sets it).
#define CSR_W_FP_CTL__INDEX (258)
/// Elements the convolution unit loads per cycle.
#define CONV_UNIT_INPUT_LOAD_ELEMS_FLOAT (2)
#define CONV_UNIT_INPUT_LOAD_ELEMS_HALF (4)
