// Host-side storage formats of a sparse matrix: coordinate (COO), compressed sparse rows (CSR)
// and compressed sparse columns (CSC), element-wise or in blocks of [rows, columns] elements.
//
// In a block matrix the indices count elements, each naming a block's first row or column, and
// nzValues holds each block's elements row-major, one block after the other.
#pragma once

#include <array>
#include <cstddef>
#include <utility>
#include <vector>

namespace popsparse {

/// The block shape shared by the formats; {1, 1} for element-wise sparsity.
struct Block {
  std::size_t getNumColumnsInBlock() const { return blockDimensions[1]; }
  std::size_t getNumRowsInBlock() const { return blockDimensions[0]; }
  std::size_t getBlockSize() const { return blockDimensions[0] * blockDimensions[1]; }
  std::array<std::size_t, 2> getBlockDimensions() const { return blockDimensions; }

protected:
  std::array<std::size_t, 2> blockDimensions;
};

/// Coordinate format: one (row, column) pair per non-zero value or block.
template <typename T> struct COOMatrix : Block {
  std::size_t numRows = 0;
  std::size_t numColumns = 0;
  std::vector<T> nzValues;
  std::vector<std::size_t> columnIndices;
  std::vector<std::size_t> rowIndices;

  COOMatrix(const std::vector<T>& nzValues_, const std::vector<std::size_t>& columnIndices_,
            const std::vector<std::size_t>& rowIndices_,
            const std::array<std::size_t, 2>& blockDimensions_ = {1, 1})
      : nzValues(nzValues_), columnIndices(columnIndices_), rowIndices(rowIndices_) {
    Block::blockDimensions = blockDimensions_;
  }
  COOMatrix(std::size_t numRows_, std::size_t numColumns_, const std::vector<T>& nzValues_,
            const std::vector<std::size_t>& columnIndices_,
            const std::vector<std::size_t>& rowIndices_,
            const std::array<std::size_t, 2>& blockDimensions_ = {1, 1})
      : numRows(numRows_), numColumns(numColumns_), nzValues(nzValues_),
        columnIndices(columnIndices_), rowIndices(rowIndices_) {
    Block::blockDimensions = blockDimensions_;
  }
  COOMatrix(std::vector<T>&& nzValues_, std::vector<std::size_t>&& columnIndices_,
            std::vector<std::size_t>&& rowIndices_,
            const std::array<std::size_t, 2>& blockDimensions_ = {1, 1})
      : nzValues(std::move(nzValues_)), columnIndices(std::move(columnIndices_)),
        rowIndices(std::move(rowIndices_)) {
    Block::blockDimensions = blockDimensions_;
  }
  COOMatrix(std::size_t numRows_, std::size_t numColumns_, std::vector<T>&& nzValues_,
            std::vector<std::size_t>&& columnIndices_, std::vector<std::size_t>&& rowIndices_,
            const std::array<std::size_t, 2>& blockDimensions_ = {1, 1})
      : numRows(numRows_), numColumns(numColumns_), nzValues(std::move(nzValues_)),
        columnIndices(std::move(columnIndices_)), rowIndices(std::move(rowIndices_)) {
    Block::blockDimensions = blockDimensions_;
  }
  /// Room for numNZValues entries (values and both indices), to be filled in.
  COOMatrix(std::size_t numNZValues, const std::array<std::size_t, 2>& blockDimensions_ = {1, 1})
      : nzValues(numNZValues), columnIndices(numNZValues), rowIndices(numNZValues) {
    Block::blockDimensions = blockDimensions_;
  }
  COOMatrix(const std::array<std::size_t, 2>& blockDimensions_ = {1, 1}) {
    Block::blockDimensions = blockDimensions_;
  }
  COOMatrix(const COOMatrix&) = default;
};

/// Compressed sparse columns: columnIndices holds numColumns + 1 offsets into nzValues (per
/// column of blocks), rowIndices the row of each value or block.
template <typename T> struct CSCMatrix : Block {
  std::size_t numRows = 0;
  std::size_t numColumns = 0;
  std::vector<T> nzValues;
  std::vector<std::size_t> columnIndices;
  std::vector<std::size_t> rowIndices;

  CSCMatrix(const std::vector<T>& nzValues_, const std::vector<std::size_t>& columnIndices_,
            const std::vector<std::size_t>& rowIndices_,
            const std::array<std::size_t, 2>& blockDimensions_ = {1, 1})
      : nzValues(nzValues_), columnIndices(columnIndices_), rowIndices(rowIndices_) {
    Block::blockDimensions = blockDimensions_;
  }
  CSCMatrix(std::size_t numRows_, std::size_t numColumns_, const std::vector<T>& nzValues_,
            const std::vector<std::size_t>& columnIndices_,
            const std::vector<std::size_t>& rowIndices_,
            const std::array<std::size_t, 2>& blockDimensions_ = {1, 1})
      : numRows(numRows_), numColumns(numColumns_), nzValues(nzValues_),
        columnIndices(columnIndices_), rowIndices(rowIndices_) {
    Block::blockDimensions = blockDimensions_;
  }
  CSCMatrix(std::vector<T>&& nzValues_, std::vector<std::size_t>&& columnIndices_,
            std::vector<std::size_t>&& rowIndices_,
            const std::array<std::size_t, 2>& blockDimensions_ = {1, 1})
      : nzValues(std::move(nzValues_)), columnIndices(std::move(columnIndices_)),
        rowIndices(std::move(rowIndices_)) {
    Block::blockDimensions = blockDimensions_;
  }
  CSCMatrix(std::size_t numRows_, std::size_t numColumns_, std::vector<T>&& nzValues_,
            std::vector<std::size_t>&& columnIndices_, std::vector<std::size_t>&& rowIndices_,
            const std::array<std::size_t, 2>& blockDimensions_ = {1, 1})
      : numRows(numRows_), numColumns(numColumns_), nzValues(std::move(nzValues_)),
        columnIndices(std::move(columnIndices_)), rowIndices(std::move(rowIndices_)) {
    Block::blockDimensions = blockDimensions_;
  }
  /// Room for numNZValues values and row indices and numColumns + 1 column offsets.
  CSCMatrix(std::size_t numNZValues, std::size_t numColumns_,
            const std::array<std::size_t, 2>& blockDimensions_ = {1, 1})
      : nzValues(numNZValues), columnIndices(numColumns + 1), rowIndices(numNZValues) {
    Block::blockDimensions = blockDimensions_;
  }
  CSCMatrix(const std::array<std::size_t, 2>& blockDimensions_ = {1, 1}) {
    Block::blockDimensions = blockDimensions_;
  }
  CSCMatrix(const CSCMatrix&) = default;
};

/// Compressed sparse rows: rowIndices holds numRows + 1 offsets into nzValues (per row of
/// blocks), columnIndices the column of each value or block.
template <typename T> struct CSRMatrix : Block {
  std::size_t numRows = 0;
  std::size_t numColumns = 0;
  std::vector<T> nzValues;
  std::vector<std::size_t> columnIndices;
  std::vector<std::size_t> rowIndices;

  CSRMatrix(const std::vector<T>& nzValues_, const std::vector<std::size_t>& columnIndices_,
            const std::vector<std::size_t>& rowIndices_,
            const std::array<std::size_t, 2>& blockDimensions_ = {1, 1})
      : nzValues(nzValues_), columnIndices(columnIndices_), rowIndices(rowIndices_) {
    Block::blockDimensions = blockDimensions_;
  }
  CSRMatrix(std::size_t numRows_, std::size_t numColumns_, const std::vector<T>& nzValues_,
            const std::vector<std::size_t>& columnIndices_,
            const std::vector<std::size_t>& rowIndices_,
            const std::array<std::size_t, 2>& blockDimensions_ = {1, 1})
      : numRows(numRows_), numColumns(numColumns_), nzValues(nzValues_),
        columnIndices(columnIndices_), rowIndices(rowIndices_) {
    Block::blockDimensions = blockDimensions_;
  }
  CSRMatrix(std::vector<T>&& nzValues_, std::vector<std::size_t>&& columnIndices_,
            std::vector<std::size_t>&& rowIndices_,
            const std::array<std::size_t, 2>& blockDimensions_ = {1, 1})
      : nzValues(std::move(nzValues_)), columnIndices(std::move(columnIndices_)),
        rowIndices(std::move(rowIndices_)) {
    Block::blockDimensions = blockDimensions_;
  }
  CSRMatrix(std::size_t numRows_, std::size_t numColumns_, std::vector<T>&& nzValues_,
            std::vector<std::size_t>&& columnIndices_, std::vector<std::size_t>&& rowIndices_,
            const std::array<std::size_t, 2>& blockDimensions_ = {1, 1})
      : numRows(numRows_), numColumns(numColumns_), nzValues(std::move(nzValues_)),
        columnIndices(std::move(columnIndices_)), rowIndices(std::move(rowIndices_)) {
    Block::blockDimensions = blockDimensions_;
  }
  /// Room for numNZValues values and column indices and numRows + 1 row offsets.
  CSRMatrix(std::size_t numNZValues, std::size_t numRows_,
            const std::array<std::size_t, 2>& blockDimensions_ = {1, 1})
      : nzValues(numNZValues), columnIndices(numNZValues), rowIndices(numRows + 1) {
    Block::blockDimensions = blockDimensions_;
  }
  CSRMatrix(const std::array<std::size_t, 2>& blockDimensions_ = {1, 1}) {
    Block::blockDimensions = blockDimensions_;
  }
  CSRMatrix(const CSRMatrix&) = default;
};

} // namespace popsparse
