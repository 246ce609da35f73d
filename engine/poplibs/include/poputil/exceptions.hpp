// Errors raised by the PopLibs-style operations.
#pragma once

#include <poplar/exceptions.hpp>
#include <string>

namespace poputil {

/// An operation was called with arguments it cannot accept (shapes, types, dimensions). The
/// message names the operation and the offending shapes or types.
struct poplibs_error : poplar::poplar_error {
  explicit poplibs_error(const std::string& what) : poplar::poplar_error(what) {}
};

} // namespace poputil
