// Names of the reduction operations for printing and as vertex template arguments.
#pragma once

#include <popops/Operation.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>
#include <string>

namespace poputil {

/// "Add", "Mul", "Min", "Max", "Logical And", "Logical Or", "Square Add" or "Log Add".
inline const char* asString(const popops::Operation& op) {
  switch (op) {
  case popops::Operation::ADD:
    return "Add";
  case popops::Operation::MUL:
    return "Mul";
  case popops::Operation::MIN:
    return "Min";
  case popops::Operation::MAX:
    return "Max";
  case popops::Operation::LOGICAL_AND:
    return "Logical And";
  case popops::Operation::LOGICAL_OR:
    return "Logical Or";
  case popops::Operation::SQUARE_ADD:
    return "Square Add";
  case popops::Operation::LOG_ADD:
    return "Log Add";
  }
  throw poputil::poplibs_error("Unsupported operation type " +
                               std::to_string(static_cast<int>(op)));
}

/// "popops::Operation::ADD" and so on.
template <> struct VertexTemplateToString<popops::Operation> {
  static std::string to_string(const popops::Operation& op) {
    switch (op) {
    case popops::Operation::ADD:
      return "popops::Operation::ADD";
    case popops::Operation::MUL:
      return "popops::Operation::MUL";
    case popops::Operation::MIN:
      return "popops::Operation::MIN";
    case popops::Operation::MAX:
      return "popops::Operation::MAX";
    case popops::Operation::LOGICAL_AND:
      return "popops::Operation::LOGICAL_AND";
    case popops::Operation::LOGICAL_OR:
      return "popops::Operation::LOGICAL_OR";
    case popops::Operation::SQUARE_ADD:
      return "popops::Operation::SQUARE_ADD";
    case popops::Operation::LOG_ADD:
      return "popops::Operation::LOG_ADD";
    }
    throw poputil::poplibs_error("Unsupported operation type " +
                                 std::to_string(static_cast<int>(op)));
  }
};

} // namespace poputil
