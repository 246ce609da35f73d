#include <ostream>
#include <popops/Operation.hpp>

namespace popops {

const char* asString(Operation op) {
  switch (op) {
  case Operation::ADD:
    return "ADD";
  case Operation::MUL:
    return "MUL";
  case Operation::MIN:
    return "MIN";
  case Operation::MAX:
    return "MAX";
  case Operation::SQUARE_ADD:
    return "SQUARE_ADD";
  }
  return "?";
}

std::ostream& operator<<(std::ostream& os, Operation op) {
  return os << asString(op);
}

} // namespace popops
