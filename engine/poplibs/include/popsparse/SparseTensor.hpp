// A sparse operand on the device: its non-zero values and, for dynamic sparsity, the meta
// information that says where they are; the operation's plan travels in opMetaData.
#pragma once

#include <poplar/Tensor.hpp>
#include <poputil/TensorMetaData.hpp>

namespace popsparse {
namespace dynamic {

class SparseTensor {
  poplar::Tensor metaInfo;
  poplar::Tensor nzValues;
  poputil::TensorMetaData opMetaData;

public:
  SparseTensor() = default;
  SparseTensor(const SparseTensor& t) = default;
  SparseTensor(const poplar::Tensor& metaInfo_, const poplar::Tensor& nzValues_,
               const poputil::TensorMetaData& opMetaData_ = {})
      : metaInfo(metaInfo_), nzValues(nzValues_), opMetaData(opMetaData_) {}

  /// UNSIGNED_SHORT; written from Partitioner::createSparsityDataImpl's metaInfo.
  const poplar::Tensor& getMetaInfoTensor() const { return metaInfo; }
  /// Written from Partitioner::createSparsityDataImpl's nzValues.
  const poplar::Tensor& getNzValuesTensor() const { return nzValues; }
  const poputil::TensorMetaData& getOpMetaData() const { return opMetaData; }
};

} // namespace dynamic

namespace static_ {

class SparseTensor {
  poplar::Tensor nzValues;
  poputil::TensorMetaData opMetaData;

public:
  SparseTensor() = default;
  SparseTensor(const SparseTensor& t) = default;
  SparseTensor(const poplar::Tensor& nzValues_, const poputil::TensorMetaData& opMetaData_ = {})
      : nzValues(nzValues_), opMetaData(opMetaData_) {}

  /// Written from static_::Partitioner::createSparsityDataImpl's nzValues.
  const poplar::Tensor& getNzValuesTensor() const { return nzValues; }
  const poputil::TensorMetaData& getOpMetaData() const { return opMetaData; }
};

} // namespace static_
} // namespace popsparse
