// Reduction operations.
#pragma once

#include <iosfwd>

namespace popops {

/// How a reduction combines elements. SQUARE_ADD sums the squares of the elements.
enum class Operation { ADD, MUL, MIN, MAX, SQUARE_ADD };

/// "ADD", "MUL", "MIN", "MAX" or "SQUARE_ADD".
const char* asString(Operation op);
std::ostream& operator<<(std::ostream& os, Operation op);

} // namespace popops
