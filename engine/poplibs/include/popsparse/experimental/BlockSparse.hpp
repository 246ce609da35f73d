// Block-sparse operations (popsparse/experimental/BlockSparse.hpp).
//
// A block-sparse matrix [rows][cols] is cut into blocks [blockSize[0]][blockSize[1]]; a
// sparsity mask, one byte per block in row-major block order, says which blocks are non-zero
// (1) and which are zero (0). The device tensor holds only the non-zero blocks, in the mask's
// order: [non-zero blocks][block area], each block's elements row-major.
//
// Softmax runs over each dense row's non-zero blocks only: a zero block's elements take no part
// (as if they were minus infinity). A sub-block mask zeroes the elements above (or below) the
// diagonal row == column; with numGroups > 1 the dense rows are numGroups stacked matrices of
// dim[0] rows each (the mask then covers numGroups x blocks), and the diagonal restarts in each.
// A row whose every element is masked out comes out as zeros.
//
// Where Tessera differs from PopLibs: PopLibs treats a row as empty when its diagonal block masks
// all of that row's elements, even if a block to its left is unmasked (it then exponentiates the
// row without normalising it); Tessera computes the softmax of such a row over its unmasked
// elements (see docs/compatibility.md).
#pragma once

#include <array>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <string>
#include <vector>

namespace popsparse {
namespace experimental {

/// Which elements inside a block are zeroed, relative to the diagonal row index == column index.
enum class SubBlockMask {
  None,              ///< no element is zeroed
  ZeroUpperTriangle, ///< elements above the diagonal (column > row) are zeroed
  ZeroLowerTriangle  ///< elements below the diagonal (column < row) are zeroed
};

/// Softmax of each dense row of the block-sparse `sparseTensor` [non-zero blocks][block area],
/// into a new tensor of the same shape. dim = {rows, cols} of one group's dense matrix.
poplar::Tensor bsSoftmax(poplar::Graph& graph, poplar::Tensor sparseTensor,
                         const std::array<int, 2>& dim, const std::array<int, 2>& blockSize,
                         const std::vector<unsigned char>& sparsity, SubBlockMask subBlockMaskType,
                         unsigned numGroups, poplar::program::Sequence& prog,
                         const poplar::DebugContext& debugContext = {});

/// bsSoftmax, writing the result over `sparseTensor`.
void bsSoftmaxInPlace(poplar::Graph& graph, poplar::Tensor sparseTensor,
                      const std::array<int, 2>& dim, const std::array<int, 2>& blockSize,
                      const std::vector<unsigned char>& sparsity, SubBlockMask subBlockMaskType,
                      unsigned numGroups, poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {});

/// The gradient of softmax's input: out * (outGrad - sum over the row of out * outGrad), for
/// the block-sparse activations `sparseOut` and gradients `sparseOutGrad` (same shape and type).
poplar::Tensor bsSoftmaxGrad(poplar::Graph& graph, poplar::Tensor sparseOut,
                             poplar::Tensor sparseOutGrad, const std::array<int, 2>& dim,
                             const std::array<int, 2>& blockSize,
                             const std::vector<unsigned char>& sparsity,
                             poplar::program::Sequence& prog,
                             const poplar::DebugContext& debugContext = {});

} // namespace experimental
} // namespace popsparse
