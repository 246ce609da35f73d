// What a BSMatMulParams holds (its shape, mask and types, checked once when it is built), and
// the block geometry that block-sparse matmul and softmax share: the non-zero blocks of a mask,
// the views of a [non-zero blocks][area] tensor as dense rows, and the sub-block mask.
#pragma once

#include <array>
#include <cstddef>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <popsparse/experimental/BlockSparse.hpp>
#include <string>
#include <vector>

namespace popsparse {
namespace experimental {

class BSMatMulImpl {
public:
  std::array<int, 3> dim{};       ///< M, K, N of one group's product (K, N swapped if transposed)
  std::array<int, 3> blockSize{}; ///< block rows of lhs, block columns of lhs, of the result
  std::vector<unsigned char> sparsity; ///< rhs's (dense x sparse) or the result's mask
  bool resultSparse = false;           ///< dense x dense = sparse, else dense x sparse = dense
  bool rhsNeedTranspose = false;
  poplar::Type inType, outType, partialType;
  SubBlockMask subBlockMask = SubBlockMask::None;
  unsigned numGroups = 1;

  std::size_t blockRowsM() const { return std::size_t(dim[0] / blockSize[0]); }
  std::size_t blockRowsK() const { return std::size_t(dim[1] / blockSize[1]); }
  std::size_t blockColsN() const { return std::size_t(dim[2] / blockSize[2]); }
  std::size_t masksPerGroup() const { return sparsity.size() / numGroups; }
  /// The non-zero blocks of group g's mask.
  std::size_t nonZeroBlocks(unsigned g) const;
};

namespace detail {

/// A block-sparse matrix's geometry: blockRows x blockCols blocks of blockRow x blockCol, the
/// mask one byte per block (row-major), and each block's index among the non-zero ones (-1 for
/// a zero block).
struct BlockGrid {
  std::size_t blockRow = 0, blockCol = 0, blockRows = 0, blockCols = 0;
  std::vector<long> index;
  std::size_t nonZero = 0;

  BlockGrid(std::size_t blockRow, std::size_t blockCol, std::size_t blockRows,
            std::size_t blockCols, const unsigned char* mask);
  long at(std::size_t br, std::size_t bc) const { return index[br * blockCols + bc]; }
  std::size_t area() const { return blockRow * blockCol; }
};

/// Throws poplibs_error naming `op` unless `t` is [grid.nonZero][grid.area()] of half or float.
void checkSparseTensor(const poplar::Tensor& t, const BlockGrid& grid, const std::string& op,
                       const std::string& what);

/// Whether element (r, c) of a block-sparse matrix is zeroed by `mask`; rows count from the
/// start of their group of groupRows rows.
bool maskedOut(SubBlockMask mask, std::size_t r, std::size_t c, std::size_t groupRows);

/// The non-zero blocks of block row br, as a [blockRow][blocks x blockCol] view of `sparse`.
poplar::Tensor blockRowView(const poplar::Tensor& sparse, const BlockGrid& grid, std::size_t br);

/// Sets the elements of `sparse` that `mask` zeroes to `value` (0: a product's result; the type's
/// lowest: a softmax input), with a constant multiplier and offset per diagonal block, as
/// PopLibs does. Returns without adding anything when no block crosses the diagonal. A block
/// wholly zeroed by the mask is an error (as in PopLibs: a mask that names it is wrong).
void applySubBlockMask(poplar::Graph& graph, const poplar::Tensor& sparse, const BlockGrid& grid,
                       SubBlockMask mask, std::size_t groupRows, float value,
                       poplar::program::Sequence& prog, const poplar::DebugContext& dnai,
                       const std::string& op);

} // namespace detail
} // namespace experimental
} // namespace popsparse
