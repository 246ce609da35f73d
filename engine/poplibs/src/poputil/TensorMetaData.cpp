#include "TensorMetaDataBase.hpp"

#include <poputil/TensorMetaData.hpp>

namespace poputil {

namespace {
std::unique_ptr<TensorMetaDataBase> cloneOf(const std::unique_ptr<TensorMetaDataBase>& d) {
  return d ? d->clone() : nullptr;
}
} // namespace

TensorMetaData::TensorMetaData() = default;
TensorMetaData::TensorMetaData(const TensorMetaData& other) : data(cloneOf(other.data)) {}
TensorMetaData::TensorMetaData(TensorMetaData&& other) = default;
TensorMetaData& TensorMetaData::operator=(const TensorMetaData& other) {
  if (this != &other) data = cloneOf(other.data);
  return *this;
}
TensorMetaData& TensorMetaData::operator=(TensorMetaData&& other) = default;
TensorMetaData::TensorMetaData(std::unique_ptr<TensorMetaDataBase> d) : data(std::move(d)) {}
TensorMetaData::~TensorMetaData() = default;

} // namespace poputil
