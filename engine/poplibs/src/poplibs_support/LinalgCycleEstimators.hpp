// Cycle estimates of poplin's dense linear algebra vertices, PopLibs' published ones
// (graphcore/poplibs lib/poplin/poplinCycleEstimators.cpp): Cholesky,
// TriangularInverseWithTranspose, TriangularSolve and the LU factorisation's LUD* vertices. Integer
// arithmetic as PopLibs writes it (its
// divisions truncate).
#pragma once

#include <cstdint>

namespace poplibs_support {

/// poplin::Cholesky<T,lower> factorising one dim x dim block in place (one worker).
inline std::uint64_t choleskyCycles(std::uint64_t dim, bool half) {
  if (half) return dim * dim * dim / 2 + 795 * dim * dim / 4 + 191 * dim / 2 + 426;
  return dim * dim * dim + 102 * dim * dim + 101 * dim + 102;
}

/// poplin::TriangularInverseWithTranspose<T> inverting one dim x dim triangular block (the
/// whole MultiVertex, in tile cycles).
inline std::uint64_t triangularInverseCycles(std::uint64_t dim, bool half) {
  if (half) return 7 * dim * dim * dim + 123 * dim * dim + 269 * dim - 24;
  return 6 * dim * dim * dim + 51 * dim * dim + 213 * dim + 12;
}

/// poplin::TriangularSolve<T,lower> solving one unit-diagonal an x an system for one vector
/// (one worker).
inline std::uint64_t triangularSolveCycles(std::uint64_t an, bool half, bool lower) {
  if (half)
    return lower ? 3 * an * an / 4 + 318 * an - 150 : 135 * an * an / 16 + 1089 * an / 4 + 12;
  return lower ? 3 * an * an / 2 + 180 * an - 126 : 27 * an * an / 4 + 327 * an / 2 + 54;
}

/// The LU factorisation's vertices (poplin::experimental::LUD*Vertex<align>, whole MultiVertex
/// figures as published). `align` 8 (even sizes: pairs of floats) or 4. PopLibs' row repeat is
/// rows / contexts with an integer division (its ceil of an integer quotient), and several of
/// its loops start at i + 1 rather than 0: kept as published.
namespace lud {
inline std::uint64_t pairs(std::uint64_t n) {
  return (n + 1) / 2;
}
} // namespace lud

/// LUDCoreVertex: factorising the depth x depth diagonal block in place.
inline std::uint64_t ludCoreCycles(unsigned align, std::uint64_t depth, std::uint64_t contexts) {
  const std::uint64_t rpt = depth / contexts;
  std::uint64_t cycles = 5;
  for (std::uint64_t i = 0; i < depth; ++i) {
    cycles += 5;
    for (std::uint64_t y = i + 1; y < rpt; ++y)
      cycles += align == 8 ? 22 + 3 * lud::pairs(depth - i - 1) : 16 + 7 * (depth - i - 1);
  }
  return cycles;
}

/// LUDRowVertex: a depth x width block of U right of the diagonal block.
inline std::uint64_t ludRowCycles(unsigned align, std::uint64_t depth, std::uint64_t width,
                                  std::uint64_t contexts) {
  const std::uint64_t rpt = depth / contexts;
  std::uint64_t cycles = 5;
  for (std::uint64_t i = 0; i < depth; ++i) {
    cycles += align == 8 ? 10 : 5;
    for (std::uint64_t y = i + 1; y < rpt; ++y)
      cycles += align == 8 ? 22 + 3 * lud::pairs(width) : 16 + 7 * width;
  }
  return cycles;
}

/// LUDColVertex: a height x depth block of L below the diagonal block.
inline std::uint64_t ludColCycles(unsigned align, std::uint64_t depth, std::uint64_t height,
                                  std::uint64_t contexts) {
  const std::uint64_t rpt = height / contexts;
  std::uint64_t cycles = 5;
  for (std::uint64_t i = 0; i < depth; ++i) {
    if (align == 8) {
      cycles += 10;
      for (std::uint64_t y = i + 1; y < rpt; ++y)
        cycles += 22 + 3 * lud::pairs(depth - i - 1);
    } else {
      cycles += 5 + rpt * (16 + 7 * (depth - i - 1));
    }
  }
  return cycles;
}

/// LUDBlockVertex: a height x width block of the trailing matrix less the product of its L and
/// U panels of `depth`.
inline std::uint64_t ludBlockCycles(unsigned align, std::uint64_t depth, std::uint64_t height,
                                    std::uint64_t width, std::uint64_t contexts) {
  const std::uint64_t rpt = height / contexts;
  std::uint64_t cycles = 5;
  for (std::uint64_t i = 0; i < depth; ++i) {
    if (align == 8) {
      cycles += 10;
      for (std::uint64_t y = i + 1; y < rpt; ++y)
        cycles += 28 + 2 * lud::pairs(width);
    } else {
      cycles += 5 + rpt * (8 + 7 * width);
    }
  }
  return cycles;
}

/// LUDCoreSplitVertex / LUDBlockSplitVertex: a height x width block of the factorised matrix
/// split into L and U (25 + 8, or 12 + 4, per element of a row's repeat).
inline std::uint64_t ludSplitCycles(bool core, std::uint64_t height, std::uint64_t width,
                                    std::uint64_t contexts) {
  const std::uint64_t rpt = height / contexts;
  return core ? rpt * (25 + 8 * width) : rpt * (12 + 4 * width);
}

/// The QR factorisation's vertices (poplin::experimental::RowCopy, PartialSquareElements,
/// Householder, Update), PopLibs' published figures for 6 workers. PopLibs' estimators assume
/// an average padding of 16 elements because its padding is a run-time value; Tessera knows
/// each column's padding (the column index) when it builds the vertex, and passes it.
namespace qr {
inline std::uint64_t divUp(std::uint64_t a, std::uint64_t b) {
  return (a + b - 1) / b;
}
} // namespace qr

/// RowCopy: a column of `rows` elements copied out, with its diagonal value.
inline std::uint64_t qrRowCopyCycles(std::uint64_t rows) {
  return 6 * (16 + 7 * qr::divUp(rows, 6) + 16);
}

/// PartialSquareElements: `nelems` elements, those before `padding` zeroed, the rest squared.
inline std::uint64_t qrPartialSquareCycles(std::uint64_t nelems, std::uint64_t padding) {
  const std::uint64_t skipped = padding < nelems ? padding : nelems;
  return 6 * (34 + 2 * qr::divUp(skipped, 6) + 6 + qr::divUp(nelems - skipped, 6) * 5 + 1);
}

/// Householder: the `nelems`-element column made the unit reflector vector.
inline std::uint64_t qrHouseholderCycles(std::uint64_t nelems, std::uint64_t padding) {
  const std::uint64_t skipped = padding < nelems ? padding : nelems;
  return 6 * (37 + 4 * qr::divUp(skipped, 6) + 9 + qr::divUp(nelems - skipped, 6) * 5 + 1);
}

/// Update: `rows` rows of `nelems` elements, each less twice its projection on v.
inline std::uint64_t qrUpdateCycles(std::uint64_t nelems, std::uint64_t rows,
                                    std::uint64_t padding) {
  const std::uint64_t perWorker = qr::divUp(nelems - (padding < nelems ? padding : nelems), 6);
  return 72 + 6 * ((41 + 3 * perWorker + 3) + (29 + 4 * perWorker + 3)) * qr::divUp(rows, 6) + 8;
}

} // namespace poplibs_support
