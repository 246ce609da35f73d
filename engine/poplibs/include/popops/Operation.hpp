// Reduction operations.
#pragma once

#include <iosfwd>
#include <popops/OperationDef.hpp>

namespace popops {

/// "ADD", "MUL", "MIN", "MAX", "LOGICAL_AND", "LOGICAL_OR", "SQUARE_ADD" or "LOG_ADD".
const char* asString(Operation op);
std::ostream& operator<<(std::ostream& os, Operation op);

} // namespace popops
