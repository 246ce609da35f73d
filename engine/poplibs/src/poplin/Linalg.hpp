// What poplin's Cholesky factorisation and triangular solve share: their options, the batch
// view of [..., R, C] tensors, triangle masks, and copying blocks into contiguous per-batch
// buffers for their vertices. Private to poplin.
#pragma once

#include <cstddef>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <string>
#include <vector>

namespace poplin {
namespace linalg {

struct Options {
  std::size_t blockSize;
  /// Everything but blockSize, checked as matmul options.
  poplar::OptionFlags matmul;
};

/// Reads "blockSize" (a positive integer, else poplar::invalid_option naming `op`) and checks
/// the rest as matmul options.
Options parseOptions(const poplar::OptionFlags& options, std::size_t defaultBlockSize,
                     const std::string& op);

/// Checks that `shape` is [..., R, C] with R, C non-zero (and R == C when `square`); returns
/// the product of the leading dimensions (1 without any).
std::size_t batchOf(const std::vector<std::size_t>& shape, bool square, const std::string& op,
                    const std::string& what);

/// `t` [..., R, C] as [G, R, C] (a view).
poplar::Tensor asBatch(const poplar::Tensor& t);

/// Throws poputil::poplibs_error unless `t` is valid and float or half.
void checkFloat(const poplar::Tensor& t, const std::string& op, const std::string& what);

/// A [G,N,N] view of the constant 1 where (i, j) is in the triangle kept (lower: j <= i, upper:
/// j >= i; the diagonal only when `withDiagonal`), else 0.
poplar::Tensor triangleConstant(poplar::Graph& graph, const poplar::Type& type, std::size_t G,
                                std::size_t N, bool lower, bool withDiagonal,
                                const poplar::DebugContext& dc);

/// A [G,N,N] view of the identity, as a constant.
poplar::Tensor identityConstant(poplar::Graph& graph, const poplar::Type& type, std::size_t G,
                                std::size_t N, const poplar::DebugContext& dc);

/// The tile batch entry g of G works on.
unsigned tileOfBatch(const poplar::Graph& graph, std::size_t g, std::size_t G);

/// A new [G, R*C] buffer, row g on tileOfBatch(g), holding a copy (added to `prog`) of each
/// [R, C] block of `blocks` ([G, R, C], any view).
poplar::Tensor contiguousCopy(poplar::Graph& graph, const poplar::Tensor& blocks,
                              poplar::program::Sequence& prog, const poplar::DebugContext& dc);

} // namespace linalg
} // namespace poplin
