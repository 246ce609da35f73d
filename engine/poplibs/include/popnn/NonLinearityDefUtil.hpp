// Names of the non-linearities: for printing, for parsing from text (command lines, option
// files), and as vertex template arguments.
#pragma once

#include <istream>
#include <ostream>
#include <popnn/NonLinearityDef.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>
#include <string>

namespace popnn {

/// "relu", "sigmoid", "hard sigmoid", "tanh", "gelu", "gelu_erf", "swish", "softmax",
/// "softmax (stable)" or "softmax (scaled, stable)".
inline const char* asString(const popnn::NonLinearityType& type) {
  switch (type) {
  case NonLinearityType::RELU:
    return "relu";
  case NonLinearityType::SIGMOID:
    return "sigmoid";
  case NonLinearityType::HARD_SIGMOID:
    return "hard sigmoid";
  case NonLinearityType::TANH:
    return "tanh";
  case NonLinearityType::GELU:
    return "gelu";
  case NonLinearityType::GELU_ERF:
    return "gelu_erf";
  case NonLinearityType::SWISH:
    return "swish";
  case NonLinearityType::SOFTMAX:
    return "softmax";
  case NonLinearityType::SOFTMAX_STABLE:
    return "softmax (stable)";
  case NonLinearityType::SOFTMAX_SCALED:
    return "softmax (scaled, stable)";
  }
  throw poputil::poplibs_error("Unsupported non-linearity type " +
                               std::to_string(static_cast<int>(type)));
}

inline std::ostream& operator<<(std::ostream& os, const popnn::NonLinearityType& type) {
  return os << asString(type);
}

/// Reads one word: relu, sigmoid, hard_sigmoid, tanh, gelu, gelu_erf, swish, softmax,
/// softmax_stable or softmax_scaled.
inline std::istream& operator>>(std::istream& in, popnn::NonLinearityType& type) {
  std::string token;
  in >> token;
  static const struct {
    const char* name;
    NonLinearityType type;
  } names[] = {{"relu", NonLinearityType::RELU},
               {"sigmoid", NonLinearityType::SIGMOID},
               {"hard_sigmoid", NonLinearityType::HARD_SIGMOID},
               {"tanh", NonLinearityType::TANH},
               {"gelu", NonLinearityType::GELU},
               {"gelu_erf", NonLinearityType::GELU_ERF},
               {"swish", NonLinearityType::SWISH},
               {"softmax", NonLinearityType::SOFTMAX},
               {"softmax_stable", NonLinearityType::SOFTMAX_STABLE},
               {"softmax_scaled", NonLinearityType::SOFTMAX_SCALED}};
  for (const auto& n : names)
    if (token == n.name) {
      type = n.type;
      return in;
    }
  throw poputil::poplibs_error("Unsupported non-linearity type '" + token + "'");
}

} // namespace popnn

namespace poputil {

/// "popnn::NonLinearityType::RELU" and so on; softmaxes have no vertex of their own.
template <> struct VertexTemplateToString<popnn::NonLinearityType> {
  static std::string to_string(const popnn::NonLinearityType& nlType) {
    switch (nlType) {
    case popnn::NonLinearityType::SIGMOID:
      return "popnn::NonLinearityType::SIGMOID";
    case popnn::NonLinearityType::RELU:
      return "popnn::NonLinearityType::RELU";
    case popnn::NonLinearityType::TANH:
      return "popnn::NonLinearityType::TANH";
    case popnn::NonLinearityType::GELU:
      return "popnn::NonLinearityType::GELU";
    case popnn::NonLinearityType::GELU_ERF:
      return "popnn::NonLinearityType::GELU_ERF";
    case popnn::NonLinearityType::SWISH:
      return "popnn::NonLinearityType::SWISH";
    case popnn::NonLinearityType::HARD_SIGMOID:
      return "popnn::NonLinearityType::HARD_SIGMOID";
    default:
      throw poputil::poplibs_error("Unsupported non-linearity type for a vertex template: " +
                                   std::string(popnn::asString(nlType)));
    }
  }
};

} // namespace poputil
