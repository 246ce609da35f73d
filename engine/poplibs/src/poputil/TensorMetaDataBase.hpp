// The interface behind poputil::TensorMetaData's opaque payload. Private to PopLibs: operations
// (popsparse) derive their payloads from it and downcast what getData() returns.
#pragma once

#include <memory>
#include <poputil/TensorMetaData.hpp>

namespace poputil {

class TensorMetaDataBase {
public:
  virtual ~TensorMetaDataBase() = default;
  /// A deep copy, so that copies of a TensorMetaData never share a payload.
  virtual std::unique_ptr<TensorMetaDataBase> clone() const = 0;
};

} // namespace poputil
