// Cycle estimate of the sparse * dense vertices, after PopLibs' published estimator for its
// element-wise sparse-dense multiply (lib/popsparse/PerformanceEstimation.hpp,
// sparseDenseElementwiseMultiply) for one bucket holding the vertex's rows:
//   supervisor  30 + 47 + 46 cycles (entry, finding the bucket's one sub-group, dispatch);
//   worker      an overhead, then per row an x-overhead plus an inner loop over the row's
//               non-zero values whose cost depends on how many dense columns (z) it covers:
//               float: z == 4 -> 3 per value, z == 2 -> 2 per value, otherwise 12 + 3 per value
//               per 4 columns, 8 + 2 per value per 2 columns, 8 + 2 per value for an odd column,
//               plus 3 (1 when z is a multiple of 4);
//               half:  z == 8 -> 3, z == 4 -> 2, otherwise 16 + 3 per value per 8 columns,
//               13 + 2 per value for 4 more, 11 + 2 per value per column left.
// The rows are shared among the worker contexts; the supervisor waits for the slowest worker,
// so the vertex costs that worker's cycles times the number of contexts (the supervisor's time
// base) plus the supervisor's own. The per-row count of values is the vertex's average (its
// fields say how many values and rows it has, not how they spread).
#pragma once

#include <algorithm>
#include <cstdint>

namespace popsparse {
namespace detail {

inline std::uint64_t sparseRowCycles(bool floatInput, std::uint64_t z, std::uint64_t y) {
  std::uint64_t c = 0;
  if (floatInput) {
    if (z == 4) return 3 * y;
    if (z == 2) return 2 * y;
    if (z / 4) c += 12 + (z / 4) * 3 * y;
    if (z & 2) c += 8 + (z / 2) * 2 * y;
    if (z & 1) c += 8 + 2 * y;
    return c + ((z & 3) ? 3 : 1);
  }
  if (z == 8) return 3 * y;
  if (z == 4) return 2 * y;
  if (z / 8) c += 16 + (z / 8) * 3 * y;
  if (z & 4) c += 13 + 2 * y;
  if (z & 3) c += 11 + 2 * y * (z & 3);
  return c;
}

/// rows: rows of the sparse operand the vertex walks; nz: their non-zero values; z: dense
/// columns per row; workers: worker contexts per tile.
inline std::uint64_t sparseDenseVertexCycles(bool floatInput, std::uint64_t rows, std::uint64_t nz,
                                             std::uint64_t z, unsigned workers) {
  const std::uint64_t supervisor = 30 + 47 + 46;
  if (rows == 0 || workers == 0) return supervisor;
  const std::uint64_t rowsPerWorker = (rows + workers - 1) / workers;
  const std::uint64_t avgY = (nz + rows - 1) / rows;
  std::uint64_t overhead, xOverhead;
  if (floatInput) {
    overhead = z == 4 ? 25 : z == 2 ? 27 : 30;
    xOverhead = z == 2 ? 11 : 13;
  } else {
    overhead = z == 8 ? 28 : z == 4 ? 30 : 33;
    xOverhead = z == 8 ? 15 : z == 4 ? 11 : 12;
  }
  const std::uint64_t worker =
      overhead + rowsPerWorker * (xOverhead + sparseRowCycles(floatInput, z, avgY));
  return worker * workers + supervisor;
}

/// The embedding vertices (no published PopLibs estimator fits them; Tessera's own count in
/// the style of the one above): the supervisor's 30 + 47 + 46, a walk over the bucket's row
/// counts (1 cycle a row) to find where each row starts, then per index 13 cycles of set-up,
/// the slice row written or read 64 bits a cycle (2 floats, 4 halves) and 3 cycles per value
/// of the row (an average: the vertex's values over its rows).
inline std::uint64_t sparseEmbeddingCycles(bool floatData, std::uint64_t rows, std::uint64_t nz,
                                           std::uint64_t indices, std::uint64_t width) {
  const std::uint64_t perVector = floatData ? 2 : 4;
  const std::uint64_t avgY = rows ? (nz + rows - 1) / rows : 0;
  return 30 + 47 + 46 + rows + indices * (13 + (width + perVector - 1) / perVector + 3 * avgY);
}

} // namespace detail
} // namespace popsparse
