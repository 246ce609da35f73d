// Errors raised by the PopLibs-style operations.
#pragma once

#include <poplar/exceptions.hpp>
#include <string>

namespace poputil {

/// An operation was called with arguments it cannot accept (shapes, types, dimensions). The
/// message names the operation and the offending shapes or types.
struct poplibs_error : poplar::poplar_error {
  /// The kind of error, as PopLibs names it ("poplibs_error").
  std::string type = "poplibs_error";
  explicit poplibs_error(const std::string& what) : poplar::poplar_error(what) {}
  explicit poplibs_error(const char* what) : poplar::poplar_error(std::string(what)) {}
};

} // namespace poputil
