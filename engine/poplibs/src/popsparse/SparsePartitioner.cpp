// The host-side partitioners: storage formats to and from what the device tensors hold (see
// SparseLayout.hpp for the encoding).
#include "SparseLayout.hpp"

#include <popsparse/SparsePartitioner.hpp>
#include <poputil/exceptions.hpp>

namespace popsparse {

using poputil::poplibs_error;

namespace dynamic {

class PartitionerImpl {
public:
  detail::DynamicPlan plan;
  std::array<std::size_t, 2> block;
  std::vector<detail::ColumnChunk> chunks; ///< group 0's; every group's have the same sizes
  std::string op;

  /// The sparse matrix the partitioner encodes: [groups * m][k].
  std::size_t rows() const { return plan.groups * plan.m; }

  void checkBlock(const Block& b) const {
    if (b.getBlockDimensions() != block)
      throw poplibs_error(op + ": the matrix has " + std::to_string(b.getNumRowsInBlock()) + "x" +
                          std::to_string(b.getNumColumnsInBlock()) +
                          " blocks but the parameters' sparsity has " + std::to_string(block[0]) +
                          "x" + std::to_string(block[1]));
  }

  template <typename T> SparsityDataImpl<T> encode(const detail::Entries<T>& e) const {
    const std::size_t bucket = plan.bucketElements();
    SparsityDataImpl<T> out;
    out.metaInfo.assign(plan.groups * bucket, 0);
    out.nzValues.assign(plan.groups * plan.capacity, T(0));
    std::vector<std::size_t> used(plan.groups, 0);
    for (std::size_t i = 0; i < e.size(); ++i) {
      const std::size_t g = e.row[i] / plan.m, r = e.row[i] % plan.m;
      if (used[g] == plan.capacity)
        throw poplibs_error(op + ": group " + std::to_string(g) +
                            " has more non-zero values than "
                            "the operand's capacity of " +
                            std::to_string(plan.capacity) +
                            " per group (the parameters' numNonZeroValues)");
      ++out.metaInfo[g * bucket + r];
      out.metaInfo[g * bucket + plan.m + used[g]] = e.col[i];
      out.nzValues[g * plan.capacity + used[g]] = e.value[i];
      ++used[g];
    }
    return out;
  }

  template <typename T> detail::Entries<T> decode(const SparsityDataImpl<T>& d) const {
    const std::size_t bucket = plan.bucketElements();
    if (d.metaInfo.size() != plan.groups * bucket ||
        d.nzValues.size() != plan.groups * plan.capacity)
      throw poplibs_error(op + ": the sparsity data has " + std::to_string(d.metaInfo.size()) +
                          " meta-information entries and " + std::to_string(d.nzValues.size()) +
                          " values; this operand's are " + std::to_string(plan.groups * bucket) +
                          " and " + std::to_string(plan.groups * plan.capacity));
    detail::Entries<T> e;
    e.rows = rows(), e.cols = plan.k;
    for (std::size_t g = 0; g < plan.groups; ++g) {
      const std::size_t* meta = d.metaInfo.data() + g * bucket;
      std::size_t next = 0;
      for (std::size_t r = 0; r < plan.m; ++r) {
        if (next + meta[r] > plan.capacity)
          throw poplibs_error(op + ": the meta-information of group " + std::to_string(g) +
                              " counts more values than its bucket holds");
        for (std::size_t i = next; i < next + meta[r]; ++i) {
          if (meta[plan.m + i] >= plan.k)
            throw poplibs_error(op + ": the meta-information holds column " +
                                std::to_string(meta[plan.m + i]) + " of a matrix with " +
                                std::to_string(plan.k) + " columns");
          e.row.push_back(g * plan.m + r);
          e.col.push_back(meta[plan.m + i]);
          e.value.push_back(d.nzValues[g * plan.capacity + i]);
        }
        next += meta[r];
      }
    }
    return e;
  }
};

namespace {
std::unique_ptr<PartitionerImpl> makeImpl(std::size_t groups, std::size_t m, std::size_t k,
                                          std::size_t n, std::size_t nz, const SparsityParams& sp,
                                          const poplar::Target& target) {
  auto impl = std::make_unique<PartitionerImpl>();
  impl->op = "popsparse::dynamic::Partitioner";
  impl->plan = detail::makeDynamicPlan(groups, m, k, n, nz, impl->op);
  impl->block = sp.blockDimensions;
  impl->chunks = detail::columnChunks(target, groups, 0, n);
  return impl;
}
} // namespace

template <typename T>
Partitioner<T>::Partitioner(const FullyConnectedParams& params, const poplar::Type&,
                            const poplar::Target& target, const poplar::OptionFlags&,
                            PlanningCache*, std::string name_)
    : name(std::move(name_)),
      impl(makeImpl(params.getNumGroups(), params.getOutputChannelsPerGroup(),
                    params.getInputChannelsPerGroup(), params.getBatchSize(),
                    params.getNumNonZeroValues(), params.getSparsityParams(), target)) {}

template <typename T>
Partitioner<T>::Partitioner(const MatMulParams& params, const poplar::Type&,
                            const poplar::Target& target, const poplar::OptionFlags&,
                            PlanningCache*, std::string name_)
    : name(std::move(name_)),
      impl(makeImpl(params.getNumGroups(), params.getM(), params.getK(), params.getN(),
                    params.getNumNonZeroValues(), params.getSparsityParams(), target)) {}

template <typename T> Partitioner<T>::~Partitioner() = default;

template <typename T>
SparsityDataImpl<T> Partitioner<T>::createSparsityDataImpl(const CSCMatrix<T>& matrix_) const {
  impl->checkBlock(matrix_);
  return impl->encode(detail::toEntries(matrix_, impl->rows(), impl->plan.k, impl->op));
}
template <typename T>
SparsityDataImpl<T> Partitioner<T>::createSparsityDataImpl(const CSRMatrix<T>& matrix_) const {
  impl->checkBlock(matrix_);
  return impl->encode(detail::toEntries(matrix_, impl->rows(), impl->plan.k, impl->op));
}
template <typename T>
SparsityDataImpl<T> Partitioner<T>::createSparsityDataImpl(const COOMatrix<T>& matrix_) const {
  impl->checkBlock(matrix_);
  return impl->encode(detail::toEntries(matrix_, impl->rows(), impl->plan.k, impl->op));
}
template <typename T>
COOMatrix<T> Partitioner<T>::sparsityDataImplToCOOMatrix(const SparsityDataImpl<T>& d) const {
  return detail::toCOO(impl->decode(d));
}
template <typename T>
CSRMatrix<T> Partitioner<T>::sparsityDataImplToCSRMatrix(const SparsityDataImpl<T>& d) const {
  return detail::toCSR(impl->decode(d));
}
template <typename T>
CSCMatrix<T> Partitioner<T>::sparsityDataImplToCSCMatrix(const SparsityDataImpl<T>& d) const {
  return detail::toCSC(impl->decode(d));
}
template <typename T>
std::array<std::vector<std::size_t>, 3> Partitioner<T>::getPlanPartitions(void) const {
  std::vector<std::size_t> z;
  for (const auto& c : impl->chunks)
    z.push_back(c.cols.size());
  return {std::vector<std::size_t>{impl->plan.m}, std::vector<std::size_t>{impl->plan.k}, z};
}
template <typename T> std::size_t Partitioner<T>::getmetaInfoBucketElements(void) const {
  return impl->plan.bucketElements();
}

template class Partitioner<float>;
template class Partitioner<double>;

} // namespace dynamic

namespace static_ {

class PartitionerImpl {
public:
  MatMulParams params;
  std::string op = "popsparse::static_::Partitioner";
  std::vector<std::size_t> row, col; ///< the device matrix's pattern, last seen
  bool havePattern = false;

  explicit PartitionerImpl(const MatMulParams& p) : params(p) {}

  /// The user's sparse matrix is [m][k] for sparse * dense, [k][m] for dense * sparse; the
  /// device holds [m][k] in (row, column) order.
  template <typename Matrix> auto toDevice(const Matrix& matrix) {
    if (params.getNumGroups() != 1)
      throw poplibs_error(op + ": only one group is supported, not " +
                          std::to_string(params.getNumGroups()));
    if (matrix.getBlockSize() != 1)
      throw poplibs_error(op + ": Tessera's static sparse matmul takes element-wise sparsity");
    auto e = params.isTransposed()
                 ? detail::transposed(detail::toEntries(matrix, params.getK(), params.getM(), op))
                 : detail::toEntries(matrix, params.getM(), params.getK(), op);
    row = e.row, col = e.col, havePattern = true;
    return e;
  }

  template <typename T> detail::Entries<T> fromDevice(const SparsityDataImpl<T>& d) const {
    if (!havePattern)
      throw poplibs_error(op + ": no sparsity pattern yet; call createSparsityDataImpl first");
    if (d.nzValues.size() != row.size())
      throw poplibs_error(op + ": the sparsity data has " + std::to_string(d.nzValues.size()) +
                          " values; the pattern has " + std::to_string(row.size()));
    detail::Entries<T> e;
    e.rows = params.getM(), e.cols = params.getK();
    e.row = row, e.col = col, e.value = d.nzValues;
    return params.isTransposed() ? detail::transposed(e) : e;
  }
};

template <typename T>
Partitioner<T>::Partitioner(const MatMulParams& params, const poplar::Type&, const poplar::Target&,
                            const poplar::OptionFlags&, PlanningCache*, std::string name_)
    : name(std::move(name_)), impl(std::make_unique<PartitionerImpl>(params)) {}
template <typename T> Partitioner<T>::~Partitioner() = default;

template <typename T>
SparsityDataImpl<T> Partitioner<T>::createSparsityDataImpl(const CSCMatrix<T>& matrix) const {
  return SparsityDataImpl<T>(impl->toDevice(matrix).value);
}
template <typename T>
SparsityDataImpl<T> Partitioner<T>::createSparsityDataImpl(const CSRMatrix<T>& matrix) const {
  return SparsityDataImpl<T>(impl->toDevice(matrix).value);
}
template <typename T>
SparsityDataImpl<T> Partitioner<T>::createSparsityDataImpl(const COOMatrix<T>& matrix) const {
  return SparsityDataImpl<T>(impl->toDevice(matrix).value);
}
template <typename T>
COOMatrix<T> Partitioner<T>::sparsityDataImplToCOOMatrix(const SparsityDataImpl<T>& d) const {
  return detail::toCOO(impl->fromDevice(d));
}
template <typename T>
CSRMatrix<T> Partitioner<T>::sparsityDataImplToCSRMatrix(const SparsityDataImpl<T>& d) const {
  return detail::toCSR(impl->fromDevice(d));
}
template <typename T>
CSCMatrix<T> Partitioner<T>::sparsityDataImplToCSCMatrix(const SparsityDataImpl<T>& d) const {
  return detail::toCSC(impl->fromDevice(d));
}

template class Partitioner<float>;
template class Partitioner<double>;

} // namespace static_
} // namespace popsparse
