// PopLibs' published cycle estimates for the transposition vertices (TransposeCodelets.cpp),
// kept apart so the tests can check them against the formulas worked by hand.
#pragma once

#include <cstdint>

namespace popops {
namespace detail {

/// The IPU's repeat-count register limit: the fast paths loop with `rpt` and need their trip
/// counts below it.
constexpr unsigned kRptCountLimit = 0x1000;

/// PopLibs' estimate for Transpose2D: a fast path when the sides suit the paired (4-byte) or
/// 4x4-block (2-byte) inner loops and the strides fit, otherwise an element-by-element loop.
inline std::uint64_t transpose2dCycles(bool fourByte, std::uint64_t matrices, unsigned rows,
                                       unsigned cols) {
  if (fourByte) {
    const bool fast = rows % 2 == 0 && cols % 2 == 0 && cols / 2 < kRptCountLimit && cols >= 2 &&
                      std::uint64_t(rows) * (cols - 2) / 2 < 512 && rows < 512;
    if (fast) return 27 + matrices * (11 + (rows / 2) * (6 + 3 * (cols / 2 - 1)));
    return 13 + matrices * (8 + std::uint64_t(cols) * (5 + (std::uint64_t(rows) * 4) / 2));
  }
  if (rows % 4 == 0 && cols % 4 == 0 && cols >= 8 && cols / 4 < kRptCountLimit &&
      1 + 3 * (cols / 4) < 512)
    return 37 + matrices * (12 + (rows / 4) * (15 + 4 * (cols / 4 - 2)));
  if (rows % 4 == 0 && rows > 0 && cols == 4 && rows / 4 < kRptCountLimit &&
      1 + 3 * (rows / 4) < 512) {
    if (rows == 4) return 32 + 15 * matrices;
    return 28 + matrices * (17 + (20 + 4 * (rows / 4 - 2)));
  }
  return 15 + matrices * (8 + std::uint64_t(cols) * (5 + (std::uint64_t(rows) * 5) / 2));
}

/// PopLibs' estimate for one worker transposing `matrices` 2-byte matrices of
/// (4 rowsD4) x (4 colsD4) elements with the 4x4-block loop.
inline std::uint64_t transposeWorkerCycles(unsigned rowsD4, unsigned colsD4,
                                           std::uint64_t matrices) {
  if (rowsD4 == 1 && colsD4 == 1) return matrices <= 1 ? 17 + 12 : 17 + 20 + (matrices - 2) * 4;
  if (colsD4 == 1) return 27 + matrices * (15 + (20 + 4 * (std::uint64_t(rowsD4) - 2)));
  return 29 + matrices * (18 + std::uint64_t(rowsD4) * (12 + 4 * (std::uint64_t(colsD4) - 2)));
}

} // namespace detail
} // namespace popops
