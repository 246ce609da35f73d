#include "TensorMetaDataBase.hpp"

namespace poputil {

TensorMetaData::TensorMetaData() = default;
TensorMetaData::TensorMetaData(const TensorMetaData& other)
    : data(other.data ? other.data->clone() : nullptr) {}
TensorMetaData::TensorMetaData(TensorMetaData&& other) = default;
TensorMetaData::TensorMetaData(std::unique_ptr<TensorMetaDataBase> d) : data(std::move(d)) {}
TensorMetaData::~TensorMetaData() = default;

TensorMetaData& TensorMetaData::operator=(const TensorMetaData& other) {
  if (this != &other) data = other.data ? other.data->clone() : nullptr;
  return *this;
}
TensorMetaData& TensorMetaData::operator=(TensorMetaData&& other) = default;

} // namespace poputil
