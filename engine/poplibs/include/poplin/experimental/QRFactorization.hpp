// QR factorisation A = Q R by Householder reflections (poplin::experimental, as in PopLibs).
//
// Per column k of A, on the tiles: the column is copied out (RowCopy), its squares below the
// diagonal summed (PartialSquareElements, then a popops reduction), the unit Householder vector
// v formed (Householder), and every column of A at or right of k and every row of Q updated by
// x -= 2 (x . v) v (Update). Work is in float; half matrices are cast in and back out.
//
// Differences from PopLibs: "rowsPerIteration" is accepted and checked, but Tessera builds one
// program per column whatever its value (it only trades compile time against run time on the
// IPU); R's entries below the diagonal are left as computed (rounding-sized), not zeroed.
#pragma once

#include <array>
#include <cstddef>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace poplin {
namespace experimental {

/// Matrices A [m, n] and Q [m, m] of `type` (FLOAT or HALF, m >= n >= 1), rows spread over the
/// tiles as QRFactorization() expects them.
std::array<poplar::Tensor, 2>
createQRFactorizationMatrices(poplar::Graph& graph, const poplar::Type& type, const std::size_t m,
                              const std::size_t n, const poplar::DebugContext& debugContext);

/// Factorises A [M, N] (M >= N) in place: afterwards A holds R (upper triangular) and Q, which
/// must hold the M x M identity when the program runs, holds the orthogonal factor, so that the
/// input equals Q R. Option "rowsPerIteration" (a positive integer, default 32); any other
/// option, a wrong shape or type gives poputil::poplibs_error / poplar::invalid_option.
void QRFactorization(poplar::Graph& graph, poplar::Tensor& A, poplar::Tensor& Q,
                     poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {},
                     const poplar::OptionFlags& options = {});

} // namespace experimental
} // namespace poplin
