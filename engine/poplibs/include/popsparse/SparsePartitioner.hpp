// Host-side translation between the storage formats (COO, CSR, CSC) and what the device
// operands hold. Build a Partitioner with the operation's parameters, turn a matrix into a
// SparsityDataImpl with createSparsityDataImpl and copy its vectors to the SparseTensor's
// tensors (metaInfo as UNSIGNED_SHORT); the sparsityDataImplTo* functions go back.
#pragma once

#include <array>
#include <memory>
#include <poplar/Interval.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>
#include <popsparse/FullyConnected.hpp>
#include <popsparse/FullyConnectedParams.hpp>
#include <popsparse/MatMulParams.hpp>
#include <popsparse/SparseStorageFormats.hpp>
#include <string>
#include <vector>

namespace popsparse {
namespace dynamic {

class PartitionerImpl;

/// What a dynamic SparseTensor holds: metaInfo for its meta-information tensor, nzValues for
/// its non-zero values tensor (each exactly the tensor's size).
template <typename T> struct SparsityDataImpl {
  std::vector<std::size_t> metaInfo;
  std::vector<T> nzValues;
};

/// For a fully connected layer's weights [outputChannels][inputChannels] (groups stacked by
/// row), or a matmul's sparse operand [groups * m][k]. Instantiated for float and double.
template <typename T> class Partitioner {
  std::string name;

public:
  const PartitionerImpl& getImpl() const { return *impl; }

  Partitioner(const FullyConnectedParams& params, const poplar::Type& dataType,
              const poplar::Target& target, const poplar::OptionFlags& options,
              PlanningCache* cache = {}, std::string name = "");
  Partitioner(const MatMulParams& params, const poplar::Type& dataType,
              const poplar::Target& target, const poplar::OptionFlags& options,
              PlanningCache* cache = {}, std::string name = "");
  ~Partitioner();

  SparsityDataImpl<T> createSparsityDataImpl(const CSCMatrix<T>& matrix_) const;
  SparsityDataImpl<T> createSparsityDataImpl(const CSRMatrix<T>& matrix_) const;
  SparsityDataImpl<T> createSparsityDataImpl(const COOMatrix<T>& matrix_) const;

  /// Entries ordered by row, then column.
  COOMatrix<T> sparsityDataImplToCOOMatrix(const SparsityDataImpl<T>& sparsityDataImpl) const;
  CSRMatrix<T> sparsityDataImplToCSRMatrix(const SparsityDataImpl<T>& sparsityDataImpl) const;
  CSCMatrix<T> sparsityDataImplToCSCMatrix(const SparsityDataImpl<T>& sparsityDataImpl) const;

  /// The plan's partitions of X (rows), Y (columns of the sparse operand) and Z (columns of the
  /// dense operand): the size of each part.
  std::array<std::vector<std::size_t>, 3> getPlanPartitions(void) const;
  /// Elements of one bucket of meta-information (one per group in Tessera's plan).
  std::size_t getmetaInfoBucketElements(void) const;

private:
  std::unique_ptr<PartitionerImpl> impl;
};

} // namespace dynamic

namespace static_ {

/// What a static SparseTensor holds: the non-zero values in the device's order.
template <typename T> struct SparsityDataImpl {
  std::vector<T> nzValues;
  SparsityDataImpl(std::vector<T> nzValues_) : nzValues(std::move(nzValues_)) {}
};

class PartitionerImpl;

/// For the sparse operand of a static matmul. The device order depends only on the positions of
/// the non-zero values, so one compiled graph serves any values with the same pattern. The
/// conversions back use the pattern of the last matrix given to createSparsityDataImpl.
template <typename T> class Partitioner {
  std::string name;

public:
  const PartitionerImpl& getImpl() const { return *impl; }

  Partitioner(const MatMulParams& params, const poplar::Type& dataType,
              const poplar::Target& target, const poplar::OptionFlags& options,
              PlanningCache* cache = {}, std::string name = "");
  ~Partitioner();

  SparsityDataImpl<T> createSparsityDataImpl(const CSCMatrix<T>& matrix) const;
  SparsityDataImpl<T> createSparsityDataImpl(const CSRMatrix<T>& matrix) const;
  SparsityDataImpl<T> createSparsityDataImpl(const COOMatrix<T>& matrix) const;

  /// Entries ordered by row, then column.
  COOMatrix<T> sparsityDataImplToCOOMatrix(const SparsityDataImpl<T>& sparsityDataImpl) const;
  CSRMatrix<T> sparsityDataImplToCSRMatrix(const SparsityDataImpl<T>& sparsityDataImpl) const;
  CSCMatrix<T> sparsityDataImplToCSCMatrix(const SparsityDataImpl<T>& sparsityDataImpl) const;

private:
  std::unique_ptr<PartitionerImpl> impl;
};

} // namespace static_
} // namespace popsparse
