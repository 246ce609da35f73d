// The printed names of the expression operators ("ADD", "GREATER_THAN"), shared by Expr's
// printing and the map evaluator's errors.
#pragma once

#include <popops/ExprOp.hpp>

namespace popops::expr {

const char* opName(UnaryOpType op);
const char* opName(BinaryOpType op);
const char* opName(TernaryOpType op);

} // namespace popops::expr
