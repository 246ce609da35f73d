// Opaque extra data that an operation attaches to the tensors it creates (popsparse keeps the
// sparsity plan of a SparseTensor here), copied with the tensor handle.
#pragma once

#include <memory>

namespace poputil {

/// The payload's interface; defined where operations derive their payloads from it.
class TensorMetaDataBase;

/// Holds an optional payload; copies clone it, so each copy owns its own.
class TensorMetaData {
  std::unique_ptr<TensorMetaDataBase> data;

public:
  TensorMetaData();
  TensorMetaData(const TensorMetaData& other);
  TensorMetaData(TensorMetaData&& other);
  TensorMetaData& operator=(const TensorMetaData& other);
  TensorMetaData& operator=(TensorMetaData&& other);

  /// Takes ownership of an operation's payload.
  TensorMetaData(std::unique_ptr<TensorMetaDataBase> data);
  ~TensorMetaData();
  /// The payload, or null when there is none.
  const TensorMetaDataBase* getData() const { return data.get(); }
};

} // namespace poputil
