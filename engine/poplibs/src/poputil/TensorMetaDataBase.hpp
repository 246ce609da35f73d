// What libraries derive from to attach meta-data to a tensor (internal, as in PopLibs).
#pragma once

#include <memory>

namespace poputil {

class TensorMetaDataBase {
public:
  virtual ~TensorMetaDataBase() = default;
  /// A deep copy: TensorMetaData's copies call it.
  virtual std::unique_ptr<TensorMetaDataBase> clone() const = 0;
};

} // namespace poputil
