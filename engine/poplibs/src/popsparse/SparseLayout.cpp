#include "SparseLayout.hpp"

#include <algorithm>
#include <numeric>
#include <poputil/exceptions.hpp>

namespace popsparse {
namespace detail {
namespace {

using poputil::poplibs_error;

std::string num(std::size_t v) {
  return std::to_string(v);
}

/// Rows and columns of the matrix: the caller's, which a matrix's own non-zero numRows or
/// numColumns must agree with.
void checkDims(std::size_t declaredRows, std::size_t declaredCols, std::size_t rows,
               std::size_t cols, const std::string& op) {
  if ((declaredRows && declaredRows != rows) || (declaredCols && declaredCols != cols))
    throw poplibs_error(op + ": the matrix is " + num(declaredRows) + " x " + num(declaredCols) +
                        " but the operation's sparse operand is " + num(rows) + " x " + num(cols));
}

std::array<std::size_t, 2> blockOf(const Block& b, std::size_t rows, std::size_t cols,
                                   const std::string& op) {
  const auto d = b.getBlockDimensions();
  if (d[0] == 0 || d[1] == 0 || rows % d[0] != 0 || cols % d[1] != 0)
    throw poplibs_error(op + ": block dimensions " + num(d[0]) + " x " + num(d[1]) +
                        " do not tile a " + num(rows) + " x " + num(cols) + " matrix");
  return d;
}

/// Adds the block at element position (r, c) whose values start at values[first].
template <typename T>
void addBlock(Entries<T>& e, std::size_t r, std::size_t c, std::array<std::size_t, 2> block,
              const std::vector<T>& values, std::size_t first, const std::string& op) {
  if (r % block[0] != 0 || c % block[1] != 0 || r + block[0] > e.rows || c + block[1] > e.cols)
    throw poplibs_error(op + ": a non-zero " + (block[0] * block[1] > 1 ? "block" : "value") +
                        " at row " + num(r) + ", column " + num(c) + " lies outside the " +
                        num(e.rows) + " x " + num(e.cols) + " matrix or off the block grid");
  for (std::size_t i = 0; i < block[0]; ++i)
    for (std::size_t j = 0; j < block[1]; ++j) {
      e.row.push_back(r + i);
      e.col.push_back(c + j);
      e.value.push_back(values[first + i * block[1] + j]);
    }
}

/// Sorts by (row, column) and rejects a position given twice.
template <typename T> void canonicalise(Entries<T>& e, const std::string& op) {
  std::vector<std::size_t> order(e.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return e.row[a] != e.row[b] ? e.row[a] < e.row[b] : e.col[a] < e.col[b];
  });
  Entries<T> s;
  s.rows = e.rows, s.cols = e.cols;
  for (std::size_t i : order) {
    if (!s.row.empty() && s.row.back() == e.row[i] && s.col.back() == e.col[i])
      throw poplibs_error(op + ": the position row " + num(e.row[i]) + ", column " + num(e.col[i]) +
                          " holds more than one non-zero value");
    s.row.push_back(e.row[i]);
    s.col.push_back(e.col[i]);
    s.value.push_back(e.value[i]);
  }
  e = std::move(s);
}

/// Offsets of a compressed format: `count` + 1 non-decreasing multiples of `blockSize` from 0 to
/// `total`.
void checkOffsets(const std::vector<std::size_t>& offsets, std::size_t count, std::size_t blockSize,
                  std::size_t total, const char* what, const std::string& op) {
  if (offsets.size() != count + 1)
    throw poplibs_error(op + ": " + what + " has " + num(offsets.size()) + " entries; expected " +
                        num(count + 1));
  if (offsets.front() != 0 || offsets.back() != total)
    throw poplibs_error(op + ": " + what + " must run from 0 to the number of values (" +
                        num(total) + ")");
  for (std::size_t i = 0; i < count; ++i)
    if (offsets[i] > offsets[i + 1] || offsets[i] % blockSize != 0)
      throw poplibs_error(op + ": " + what + " entry " + num(i) +
                          " is decreasing or not a multiple of the block size");
}

} // namespace

template <typename T>
Entries<T> toEntries(const COOMatrix<T>& m, std::size_t rows, std::size_t cols,
                     const std::string& op) {
  checkDims(m.numRows, m.numColumns, rows, cols, op);
  const auto block = blockOf(m, rows, cols, op);
  const std::size_t blocks = m.rowIndices.size(), bs = block[0] * block[1];
  if (m.columnIndices.size() != blocks || m.nzValues.size() != blocks * bs)
    throw poplibs_error(op + ": the COO matrix has " + num(m.rowIndices.size()) + " row indices, " +
                        num(m.columnIndices.size()) + " column indices and " +
                        num(m.nzValues.size()) + " values; they must agree");
  Entries<T> e;
  e.rows = rows, e.cols = cols;
  for (std::size_t b = 0; b < blocks; ++b)
    addBlock(e, m.rowIndices[b], m.columnIndices[b], block, m.nzValues, b * bs, op);
  canonicalise(e, op);
  return e;
}

template <typename T>
Entries<T> toEntries(const CSRMatrix<T>& m, std::size_t rows, std::size_t cols,
                     const std::string& op) {
  checkDims(m.numRows, m.numColumns, rows, cols, op);
  const auto block = blockOf(m, rows, cols, op);
  const std::size_t bs = block[0] * block[1];
  checkOffsets(m.rowIndices, rows / block[0], bs, m.nzValues.size(), "rowIndices", op);
  if (m.columnIndices.size() * bs != m.nzValues.size())
    throw poplibs_error(op + ": the CSR matrix has " + num(m.columnIndices.size()) +
                        " column indices for " + num(m.nzValues.size()) + " values");
  Entries<T> e;
  e.rows = rows, e.cols = cols;
  for (std::size_t br = 0; br + 1 < m.rowIndices.size(); ++br)
    for (std::size_t v = m.rowIndices[br]; v < m.rowIndices[br + 1]; v += bs)
      addBlock(e, br * block[0], m.columnIndices[v / bs], block, m.nzValues, v, op);
  canonicalise(e, op);
  return e;
}

template <typename T>
Entries<T> toEntries(const CSCMatrix<T>& m, std::size_t rows, std::size_t cols,
                     const std::string& op) {
  checkDims(m.numRows, m.numColumns, rows, cols, op);
  const auto block = blockOf(m, rows, cols, op);
  const std::size_t bs = block[0] * block[1];
  checkOffsets(m.columnIndices, cols / block[1], bs, m.nzValues.size(), "columnIndices", op);
  if (m.rowIndices.size() * bs != m.nzValues.size())
    throw poplibs_error(op + ": the CSC matrix has " + num(m.rowIndices.size()) +
                        " row indices for " + num(m.nzValues.size()) + " values");
  Entries<T> e;
  e.rows = rows, e.cols = cols;
  for (std::size_t bc = 0; bc + 1 < m.columnIndices.size(); ++bc)
    for (std::size_t v = m.columnIndices[bc]; v < m.columnIndices[bc + 1]; v += bs)
      addBlock(e, m.rowIndices[v / bs], bc * block[1], block, m.nzValues, v, op);
  canonicalise(e, op);
  return e;
}

template <typename T> Entries<T> transposed(const Entries<T>& e) {
  Entries<T> t;
  t.rows = e.cols, t.cols = e.rows;
  t.row = e.col, t.col = e.row, t.value = e.value;
  canonicalise(t, "popsparse");
  return t;
}

template <typename T> COOMatrix<T> toCOO(const Entries<T>& e) {
  return COOMatrix<T>(e.rows, e.cols, e.value, e.col, e.row);
}

template <typename T> CSRMatrix<T> toCSR(const Entries<T>& e) {
  std::vector<std::size_t> offsets(e.rows + 1, 0);
  for (std::size_t r : e.row)
    ++offsets[r + 1];
  std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
  return CSRMatrix<T>(e.rows, e.cols, e.value, e.col, offsets);
}

template <typename T> CSCMatrix<T> toCSC(const Entries<T>& e) {
  const Entries<T> t = transposed(e); // sorted by (column, row)
  std::vector<std::size_t> offsets(e.cols + 1, 0);
  for (std::size_t c : t.row)
    ++offsets[c + 1];
  std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
  return CSCMatrix<T>(e.rows, e.cols, t.value, offsets, t.col);
}

#define POPSPARSE_LAYOUT(T)                                                                        \
  template Entries<T> toEntries(const COOMatrix<T>&, std::size_t, std::size_t,                     \
                                const std::string&);                                               \
  template Entries<T> toEntries(const CSRMatrix<T>&, std::size_t, std::size_t,                     \
                                const std::string&);                                               \
  template Entries<T> toEntries(const CSCMatrix<T>&, std::size_t, std::size_t,                     \
                                const std::string&);                                               \
  template Entries<T> transposed(const Entries<T>&);                                               \
  template COOMatrix<T> toCOO(const Entries<T>&);                                                  \
  template CSRMatrix<T> toCSR(const Entries<T>&);                                                  \
  template CSCMatrix<T> toCSC(const Entries<T>&)
POPSPARSE_LAYOUT(float);
POPSPARSE_LAYOUT(double);

// ---- plans ----------------------------------------------------------------------------------

DynamicPlan makeDynamicPlan(std::size_t groups, std::size_t m, std::size_t k, std::size_t n,
                            std::size_t numNonZeroValues, const std::string& op) {
  if (groups == 0 || m == 0 || k == 0 || n == 0)
    throw poplibs_error(op + ": groups, m, k and n must all be positive (got " + num(groups) +
                        ", " + num(m) + ", " + num(k) + ", " + num(n) + ")");
  if (k > kMaxMetaValue || m > kMaxMetaValue)
    throw poplibs_error(op + ": Tessera's meta-information indexes at most " + num(kMaxMetaValue) +
                        " rows and columns; the sparse operand is " + num(m) + " x " + num(k));
  DynamicPlan p;
  p.groups = groups, p.m = m, p.k = k, p.n = n;
  p.capacity = std::max<std::size_t>(1, (numNonZeroValues + groups - 1) / groups);
  p.capacity = std::min(p.capacity, m * k);
  return p;
}

std::vector<ColumnChunk> columnChunks(const poplar::Target& target, std::size_t groups,
                                      std::size_t g, std::size_t n) {
  const std::size_t tiles = target.getNumTiles();
  const std::size_t tilesPerGroup = std::max<std::size_t>(1, tiles / groups);
  // At least 8 columns a tile, so each tile's copy of the bucket serves enough work.
  constexpr std::size_t kMinColumns = 8;
  const std::size_t chunks =
      std::max<std::size_t>(1, std::min(tilesPerGroup, (n + kMinColumns - 1) / kMinColumns));
  std::vector<ColumnChunk> out;
  for (std::size_t c = 0; c < chunks; ++c) {
    const std::size_t begin = n * c / chunks, end = n * (c + 1) / chunks;
    if (begin == end) continue;
    out.push_back({unsigned((g * tilesPerGroup + c) % tiles), {begin, end}});
  }
  return out;
}

std::vector<StaticPartition> partitionRows(const poplar::Target& target, std::size_t m,
                                           const std::vector<std::size_t>& row) {
  // About 32 values a tile at least, as a vertex's supervisor overhead (~120 cycles) would
  // otherwise dominate its work.
  constexpr std::size_t kMinValues = 32;
  const std::size_t nnz = row.size();
  const std::size_t parts = std::max<std::size_t>(
      1, std::min({std::size_t(target.getNumTiles()), m, (nnz + kMinValues - 1) / kMinValues}));
  std::vector<std::size_t> rowStart(m + 1, 0); // first value of each row
  for (std::size_t r : row)
    ++rowStart[r + 1];
  std::partial_sum(rowStart.begin(), rowStart.end(), rowStart.begin());
  std::vector<StaticPartition> out;
  std::size_t r = 0;
  for (std::size_t p = 0; p < parts && r < m; ++p) {
    // Rows until this partition's share of the values is reached, leaving a row for each
    // partition still to come.
    const std::size_t target_ = nnz * (p + 1) / parts;
    std::size_t end = r + 1;
    while (end < m - (parts - 1 - p) && rowStart[end] < target_)
      ++end;
    if (p + 1 == parts) end = m;
    out.push_back({r, end, rowStart[r], rowStart[end], unsigned(p)});
    r = end;
  }
  return out;
}

} // namespace detail
} // namespace popsparse
