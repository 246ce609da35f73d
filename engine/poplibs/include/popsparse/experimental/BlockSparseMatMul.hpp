// Block-sparse matrix products (popsparse/experimental/BlockSparseMatMul.hpp).
//
// Two forms, fixed when the BSMatMulParams is built (the pattern is known when the graph is):
//   dense x sparse = dense:  lhs [dim[0]][dim[1]] dense, rhs block-sparse [dim[1]][dim[2]] with
//       blocks [blockSize[1]][blockSize[2]]; with rhsNeedTranspose the rhs is stored as the
//       block-sparse [dim[2]][dim[1]] (blocks [blockSize[2]][blockSize[1]], mask and block data
//       in that original order) and multiplied transposed.
//   dense x dense = sparse:  only the result blocks the mask names are computed; the result is
//       [non-zero blocks][blockSize[0] * blockSize[2]], optionally with a SubBlockMask applied.
// Sparse operands and results are [non-zero blocks][block area] (see BlockSparse.hpp). With
// numGroups > 1 the operands and results of the groups are concatenated along dimension 0 and
// the masks one after the other.
//
// Options (bsMatMul and the create functions): numberOfPass (integer >= 1, default 1),
// partitionMethod (block, block-naive, block-group2, strip, stripv0; default strip) and
// memoryCycleRatio (number, default 0.2) are accepted. Tessera computes each result block on one
// tile whatever the method, so they do not change the plan (see docs/compatibility.md).
#pragma once

#include <array>
#include <memory>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <popsparse/experimental/BlockSparse.hpp>
#include <vector>

namespace popsparse {
namespace experimental {

class BSMatMulImpl;

/// The shape, block size, sparsity mask and types of a block-sparse product; the data comes
/// with bsMatMul(). Bad parameters (types other than half/float, float inputs with half partials,
/// dimensions not multiples of the block size, a mask of the wrong size) throw poplibs_error.
class BSMatMulParams {
public:
  /// Dense [dim[0]][dim[1]] x block-sparse right-hand matrix (see the file comment).
  BSMatMulParams(const std::array<int, 3>& dim, const std::array<int, 3>& blockSize,
                 const std::vector<unsigned char>& rhsSparsity, bool rhsNeedTranspose,
                 poplar::Type inDataType, poplar::Type outDataType, poplar::Type partialDataType,
                 unsigned numGroupsIn = 1);

  /// Dense x dense with a block-sparse result whose blocks resSparsity names.
  BSMatMulParams(const std::array<int, 3>& dim, const std::array<int, 3>& blockSize,
                 const std::vector<unsigned char>& resSparsity, poplar::Type inDataType,
                 poplar::Type outDataType, poplar::Type partialDataType,
                 SubBlockMask subBlockMask = SubBlockMask::None, unsigned numGroupsIn = 1);

  BSMatMulParams(BSMatMulParams&& other);

  ~BSMatMulParams();

  std::unique_ptr<BSMatMulImpl> impl;
};

/// The left operand: a dense [numGroups * dim[0]][dim[1]] matrix laid out block by block.
poplar::Tensor createBSMatMulInputLHS(poplar::Graph& graph, const BSMatMulParams& bsMatMul,
                                      const poplar::DebugContext& debugContext,
                                      const poplar::OptionFlags& options = {});

/// The right operand: the non-zero blocks [blocks][block area] for dense x sparse, or a dense
/// [numGroups * dim[1]][dim[2]] matrix for dense x dense = sparse.
poplar::Tensor createBSMatMulInputRHS(poplar::Graph& graph, const BSMatMulParams& bsMatMul,
                                      const poplar::DebugContext& debugContext,
                                      const poplar::OptionFlags& options = {});

/// lhsMatrix x rhsMatrix as bsMatMulParams describes: a dense [numGroups * dim[0]][dim[2]]
/// result, or the result's non-zero blocks. Operands of the wrong rank, shape or type throw.
poplar::Tensor bsMatMul(poplar::Graph& graph, const BSMatMulParams& bsMatMulParams,
                        poplar::program::Sequence& prog, const poplar::Tensor& lhsMatrix,
                        const poplar::Tensor& rhsMatrix, const poplar::OptionFlags& options = {},
                        const poplar::DebugContext& debugContext = {});

} // namespace experimental
} // namespace popsparse
