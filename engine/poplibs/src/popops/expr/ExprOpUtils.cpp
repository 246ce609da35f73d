#include "ExprNames.hpp"

#include <ostream>
#include <popops/ExprOpUtils.hpp>

namespace popops {
namespace expr {
namespace ostream_ext {

std::ostream& operator<<(std::ostream& os, const UnaryOpType& t) {
  return os << opName(t);
}
std::ostream& operator<<(std::ostream& os, const BinaryOpType& t) {
  return os << opName(t);
}
std::ostream& operator<<(std::ostream& os, const TernaryOpType& t) {
  return os << opName(t);
}

} // namespace ostream_ext
} // namespace expr
} // namespace popops
