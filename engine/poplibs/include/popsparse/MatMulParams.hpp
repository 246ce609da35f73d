// The shape of a matrix product with one sparse operand.
//   dynamic::MatMulParams   sparse [groups][m][k] * dense [groups][k][n] = dense [groups][m][n],
//                           the sparse operand's pattern known only at run time (a capacity of
//                           non-zero values is fixed when the graph is built);
//   static_::MatMulParams   the same, or dense [groups][n][k] * sparse [groups][k][m], with the
//                           pattern fixed when the graph is built.
#pragma once

#include <cstddef>
#include <ostream>
#include <popsparse/SparsityParams.hpp>

namespace popsparse {
namespace dynamic {

class MatMulParams {
  SparsityParams sparsityParams;
  double nzRatio;
  std::size_t groups;
  std::size_t m;
  std::size_t k;
  std::size_t n;

public:
  /// nzRatio is the proportion of [groups][m][k] that may be non-zero, in (0, 1].
  static MatMulParams createWithNzRatio(const SparsityParams& sparsityParams, double nzRatio,
                                        std::size_t groups, std::size_t m, std::size_t k,
                                        std::size_t n);
  /// numNonZeroElems counts elements (not blocks) over all groups.
  static MatMulParams createWithNumNonZeroValues(const SparsityParams& sparsityParams,
                                                 std::size_t numNonZeroElems, std::size_t groups,
                                                 std::size_t m, std::size_t k, std::size_t n);

  const SparsityParams& getSparsityParams() const { return sparsityParams; }
  std::size_t getNumGroups() const { return groups; }
  std::size_t getM() const { return m; }
  std::size_t getK() const { return k; }
  std::size_t getN() const { return n; }
  double getNzRatio() const;
  /// Elements over all groups: ceil(nzRatio * groups * m * k).
  std::size_t getNumNonZeroValues() const;

  friend bool operator<(const MatMulParams& a, const MatMulParams& b);
  friend bool operator==(const MatMulParams& a, const MatMulParams& b);
  friend bool operator!=(const MatMulParams& a, const MatMulParams& b);
};
std::ostream& operator<<(std::ostream&, const MatMulParams&);

} // namespace dynamic

namespace static_ {

class MatMulParams {
  std::size_t groups;
  std::size_t m;
  std::size_t k;
  std::size_t n;
  bool transposed; ///< created for dense * sparse

public:
  /// sparse [groups][m][k] * dense [groups][k][n] = dense [groups][m][n].
  static MatMulParams createForSparseDense(std::size_t groups, std::size_t m, std::size_t k,
                                           std::size_t n);
  /// dense [groups][n][k] * sparse [groups][k][m] = dense [groups][n][m].
  static MatMulParams createForDenseSparse(std::size_t groups, std::size_t n, std::size_t k,
                                           std::size_t m);

  std::size_t getNumGroups() const { return groups; }
  std::size_t getM() const { return m; }
  std::size_t getK() const { return k; }
  std::size_t getN() const { return n; }
  bool isTransposed() const { return transposed; }

  friend bool operator<(const MatMulParams& a, const MatMulParams& b);
  friend bool operator==(const MatMulParams& a, const MatMulParams& b);
  friend bool operator!=(const MatMulParams& a, const MatMulParams& b);
};
std::ostream& operator<<(std::ostream&, const MatMulParams&);

} // namespace static_
} // namespace popsparse
