// Reduction operations.
#pragma once

#include <iosfwd>
#include <popops/OperationDef.hpp>

namespace popops {

/// "ADD", "MUL", "MIN", "MAX", "LOGICAL_AND", "LOGICAL_OR", "SQUARE_ADD" or "LOG_ADD".
const char* asString(Operation op);
std::ostream& operator<<(std::ostream& os, const Operation& op);
/// Reads one word, an operation's name as asString spells it; any other word throws
/// poputil::poplibs_error naming it.
std::istream& operator>>(std::istream& is, Operation& op);

} // namespace popops
