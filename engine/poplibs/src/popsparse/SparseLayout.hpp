// Tessera's representation of sparse operands, shared by the host-side partitioners and the
// operations that build the device graph.
//
// Host side, every storage format (COO, CSR, CSC, element-wise or in blocks) becomes Entries:
// the element-wise (row, column) positions and values, sorted by row then column.
//
// Device side, a sparse matrix [rows][cols] is a bucket: meta-information (UNSIGNED_SHORT)
//   [rows] count of non-zero values per row, then one column index per value, row after row,
// and the values in the same order. A bucket has a capacity; unused entries are zero.
//   dynamic  one bucket per group, capacity ceil(numNonZeroValues / groups); metaInfo is
//            [groups * (rows + capacity)], nzValues [groups * capacity]. Each tile of a group
//            reads the whole bucket and computes a chunk of the dense columns.
//   static   the pattern is known when the graph is built: the rows are cut into partitions of
//            about equal numbers of values, one per tile, each with its own constant bucket;
//            nzValues holds all values in (row, column) order, each partition's on its tile.
#pragma once

#include "poputil/TensorMetaDataBase.hpp"

#include <array>
#include <cstddef>
#include <memory>
#include <poplar/Interval.hpp>
#include <poplar/Target.hpp>
#include <popsparse/SparseStorageFormats.hpp>
#include <string>
#include <vector>

namespace popsparse {
namespace detail {

/// Element-wise non-zero values sorted by (row, column), no position twice.
template <typename T> struct Entries {
  std::size_t rows = 0, cols = 0;
  std::vector<std::size_t> row, col;
  std::vector<T> value;
  std::size_t size() const { return row.size(); }
};

/// Checks `m` (indices within rows x cols, consistent sizes, block-aligned, no repeats) and
/// expands its blocks into elements. `op` names the caller in errors.
template <typename T>
Entries<T> toEntries(const COOMatrix<T>& m, std::size_t rows, std::size_t cols,
                     const std::string& op);
template <typename T>
Entries<T> toEntries(const CSRMatrix<T>& m, std::size_t rows, std::size_t cols,
                     const std::string& op);
template <typename T>
Entries<T> toEntries(const CSCMatrix<T>& m, std::size_t rows, std::size_t cols,
                     const std::string& op);

/// The same values at transposed positions, re-sorted.
template <typename T> Entries<T> transposed(const Entries<T>& e);

template <typename T> COOMatrix<T> toCOO(const Entries<T>& e);
template <typename T> CSRMatrix<T> toCSR(const Entries<T>& e);
template <typename T> CSCMatrix<T> toCSC(const Entries<T>& e);

/// The largest index a meta-information entry holds.
constexpr std::size_t kMaxMetaValue = 0xffff;

// ---- dynamic sparsity ---------------------------------------------------------------------

/// The plan of a dynamic sparse operand [groups][m][k] times a dense [groups][k][n].
struct DynamicPlan {
  std::size_t groups = 1, m = 0, k = 0, n = 0;
  std::size_t capacity = 1; ///< values per group's bucket
  std::size_t bucketElements() const { return m + capacity; }
};

/// Checks the shape (meta-information must index m rows and k columns) and sizes the buckets.
DynamicPlan makeDynamicPlan(std::size_t groups, std::size_t m, std::size_t k, std::size_t n,
                            std::size_t numNonZeroValues, const std::string& op);

/// The tiles of group g and the chunks of the n dense columns they compute.
struct ColumnChunk {
  unsigned tile;
  poplar::Interval cols;
};
std::vector<ColumnChunk> columnChunks(const poplar::Target& target, std::size_t groups,
                                      std::size_t g, std::size_t n);

/// The payload of a dynamic SparseTensor's opMetaData.
struct DynamicMetaData : poputil::TensorMetaDataBase {
  DynamicPlan plan;
  explicit DynamicMetaData(const DynamicPlan& p) : plan(p) {}
  std::unique_ptr<poputil::TensorMetaDataBase> clone() const override {
    return std::make_unique<DynamicMetaData>(*this);
  }
};

// ---- static sparsity ----------------------------------------------------------------------

/// One tile's rows of a static sparse matrix.
struct StaticPartition {
  std::size_t rowBegin, rowEnd; ///< rows of the device matrix [m][k]
  std::size_t nzBegin, nzEnd;   ///< their values in nzValues
  unsigned tile;
};

/// The plan of a static sparse operand. The device matrix is [m][k] (for dense * sparse, the
/// transpose of the user's sparse [k][m]); the product is device matrix * dense [k][n].
struct StaticPlan {
  std::size_t m = 0, k = 0, n = 0;
  bool denseSparse = false;
  std::vector<std::size_t> row, col; ///< the pattern, sorted by (row, column)
  std::vector<StaticPartition> partitions;
};

/// The partitions of `pattern` (rows [0, m)) over the target's tiles.
std::vector<StaticPartition> partitionRows(const poplar::Target& target, std::size_t m,
                                           const std::vector<std::size_t>& row);

struct StaticMetaData : poputil::TensorMetaDataBase {
  StaticPlan plan;
  explicit StaticMetaData(StaticPlan p) : plan(std::move(p)) {}
  std::unique_ptr<poputil::TensorMetaDataBase> clone() const override {
    return std::make_unique<StaticMetaData>(*this);
  }
};

} // namespace detail
} // namespace popsparse
