// The reduction operations, without the printing functions: its own header, as in PopLibs, for
// code that only names an operation. popops/Operation.hpp includes it.
#pragma once

namespace popops {

/// How a reduction combines elements. SQUARE_ADD sums the squares of the elements.
enum class Operation { ADD, MUL, MIN, MAX, SQUARE_ADD };

} // namespace popops
