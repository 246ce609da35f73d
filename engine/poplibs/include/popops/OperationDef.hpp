// The reduction operations, without the printing functions: its own header, as in PopLibs, for
// code that only names an operation. popops/Operation.hpp includes it.
#pragma once

namespace popops {

/// How a reduction combines elements. SQUARE_ADD sums the squares of the elements; LOGICAL_AND
/// and LOGICAL_OR combine BOOL elements; LOG_ADD (log of the sum of exponentials) is declared
/// for source compatibility and not provided (reduce throws).
enum class Operation { ADD, MUL, MIN, MAX, LOGICAL_AND, LOGICAL_OR, SQUARE_ADD, LOG_ADD };

} // namespace popops
