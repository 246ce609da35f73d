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
  case Operation::LOGICAL_AND:
    return "LOGICAL_AND";
  case Operation::LOGICAL_OR:
    return "LOGICAL_OR";
  case Operation::SQUARE_ADD:
    return "SQUARE_ADD";
  case Operation::LOG_ADD:
    return "LOG_ADD";
  }
  return "?";
}

std::ostream& operator<<(std::ostream& os, Operation op) {
  return os << asString(op);
}

} // namespace popops
