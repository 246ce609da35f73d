#include <istream>
#include <ostream>
#include <popops/Operation.hpp>
#include <poputil/exceptions.hpp>
#include <string>

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

std::ostream& operator<<(std::ostream& os, const Operation& op) {
  return os << asString(op);
}

std::istream& operator>>(std::istream& is, Operation& op) {
  std::string word;
  is >> word;
  for (Operation o :
       {Operation::ADD, Operation::MUL, Operation::MIN, Operation::MAX, Operation::LOGICAL_AND,
        Operation::LOGICAL_OR, Operation::SQUARE_ADD, Operation::LOG_ADD})
    if (word == asString(o)) {
      op = o;
      return is;
    }
  throw poputil::poplibs_error("popops::operator>>: unrecognised operation '" + word +
                               "'; expected ADD, MUL, MIN, MAX, LOGICAL_AND, LOGICAL_OR, "
                               "SQUARE_ADD or LOG_ADD");
}

} // namespace popops
