// Extra data an operation attaches to a tensor it creates (PopSparse keeps its partitioning
// there): an owning, copyable handle to a TensorMetaDataBase, which libraries derive from.
#pragma once

#include <memory>

namespace poputil {

class TensorMetaDataBase;

/// Unspecified meta-data of a tensor; copies clone the held data.
class TensorMetaData {
  std::unique_ptr<TensorMetaDataBase> data;

public:
  TensorMetaData();
  TensorMetaData(const TensorMetaData& other);
  TensorMetaData(TensorMetaData&& other);
  TensorMetaData& operator=(const TensorMetaData& other);
  TensorMetaData& operator=(TensorMetaData&& other);

  TensorMetaData(std::unique_ptr<TensorMetaDataBase> data);
  ~TensorMetaData();
  const TensorMetaDataBase* getData() const { return data.get(); }
};

} // namespace poputil
