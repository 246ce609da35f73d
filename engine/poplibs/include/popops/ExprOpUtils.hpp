// Printing the operators of element expressions: "ADD", "GREATER_THAN", "SQRT", ... In their own
// namespace, as PopLibs, so that they are only used where asked for:
//   using namespace popops::expr::ostream_ext;
#pragma once

#include <iosfwd>
#include <popops/ExprOp.hpp>

namespace popops {
namespace expr {
namespace ostream_ext {

std::ostream& operator<<(std::ostream& os, const UnaryOpType& t);
std::ostream& operator<<(std::ostream& os, const BinaryOpType& t);
std::ostream& operator<<(std::ostream& os, const TernaryOpType& t);

} // namespace ostream_ext
} // namespace expr
} // namespace popops
