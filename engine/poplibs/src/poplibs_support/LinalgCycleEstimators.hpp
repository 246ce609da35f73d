// Cycle estimates of poplin's dense linear algebra vertices, PopLibs' published ones
// (graphcore/poplibs lib/poplin/poplinCycleEstimators.cpp): Cholesky,
// TriangularInverseWithTranspose and TriangularSolve. Integer arithmetic as PopLibs writes it (its
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

} // namespace poplibs_support
