// popops::outputGeneratedCodelet: the C++ source of a vertex that evaluates an element
// expression, as PopLibs writes the codelet it generates for map(). Tessera runs expressions in
// its fused map vertex (MapProgram.hpp); this text shows the same computation for reading. The
// expression is compiled first, so whatever map() would reject is rejected here too.
#include "ExprNames.hpp"
#include "MapProgram.hpp"
#include "poplibs_support/TileWork.hpp"

#include <cctype>
#include <ostream>
#include <popops/ElementWise.hpp>
#include <poputil/exceptions.hpp>
#include <sstream>

namespace popops {
namespace {

using namespace expr;

std::string cppType(const poplar::Type& t) {
  return t == poplar::UNSIGNED_INT ? "unsigned" : t.toString();
}

/// The C++ spelling of a unary operation applied to `a`.
std::string unaryCpp(UnaryOpType op, const std::string& a) {
  switch (op) {
  case UnaryOpType::NEGATE:
    return "(-" + a + ")";
  case UnaryOpType::LOGICAL_NOT:
    return "(!" + a + ")";
  case UnaryOpType::BITWISE_NOT:
    return "(~" + a + ")";
  case UnaryOpType::SQUARE:
    return "(" + a + " * " + a + ")";
  case UnaryOpType::RELU:
    return "std::max(" + a + ", decltype(" + a + ")(0))";
  case UnaryOpType::INVERSE:
    return "(1 / " + a + ")";
  case UnaryOpType::RSQRT:
    return "(1 / std::sqrt(" + a + "))";
  case UnaryOpType::SIGMOID:
    return "(1 / (1 + std::exp(-" + a + ")))";
  case UnaryOpType::ABSOLUTE:
    return "std::abs(" + a + ")";
  case UnaryOpType::CEIL:
    return "std::ceil(" + a + ")";
  case UnaryOpType::COS:
    return "std::cos(" + a + ")";
  case UnaryOpType::EXPONENT:
    return "std::exp(" + a + ")";
  case UnaryOpType::FLOOR:
    return "std::floor(" + a + ")";
  case UnaryOpType::LOGARITHM:
    return "std::log(" + a + ")";
  case UnaryOpType::NEARBY_INT:
    return "std::nearbyint(" + a + ")";
  case UnaryOpType::ROUND:
    return "std::round(" + a + ")";
  case UnaryOpType::SIN:
    return "std::sin(" + a + ")";
  case UnaryOpType::SQRT:
    return "std::sqrt(" + a + ")";
  case UnaryOpType::TANH:
    return "std::tanh(" + a + ")";
  case UnaryOpType::TRUNC:
    return "std::trunc(" + a + ")";
  default:
    break;
  }
  // The rest are functions of PopLibs' codelet library, named after the operation.
  std::string name = opName(op);
  for (auto& c : name)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  return "popops::" + name + "(" + a + ")";
}

const char* binarySymbol(BinaryOpType op) {
  switch (op) {
  case BinaryOpType::ADD:
    return "+";
  case BinaryOpType::SUBTRACT:
    return "-";
  case BinaryOpType::MULTIPLY:
    return "*";
  case BinaryOpType::DIVIDE:
    return "/";
  case BinaryOpType::REMAINDER:
    return "%";
  case BinaryOpType::BITWISE_AND:
    return "&";
  case BinaryOpType::BITWISE_OR:
    return "|";
  case BinaryOpType::BITWISE_XOR:
    return "^";
  case BinaryOpType::SHIFT_LEFT:
    return "<<";
  case BinaryOpType::SHIFT_RIGHT:
    return ">>";
  case BinaryOpType::LOGICAL_AND:
    return "&&";
  case BinaryOpType::LOGICAL_OR:
    return "||";
  case BinaryOpType::EQUAL:
    return "==";
  case BinaryOpType::NOT_EQUAL:
    return "!=";
  case BinaryOpType::LESS_THAN:
    return "<";
  case BinaryOpType::LESS_THAN_EQUAL:
    return "<=";
  case BinaryOpType::GREATER_THAN:
    return ">";
  case BinaryOpType::GREATER_THAN_EQUAL:
    return ">=";
  default:
    return nullptr;
  }
}

std::string exprCpp(const Expr& e, const std::vector<poplar::Tensor>& ts) {
  if (const auto* p = e.getAs<PlaceHolder>()) {
    const auto i = p->getIndex();
    const bool scalar = i >= 1 && i <= ts.size() && ts[i - 1].numElements() == 1;
    return "in" + std::to_string(i) + (scalar ? "[0]" : "[i]");
  }
  if (const auto* c = e.getAs<Const>()) return c->printValue();
  if (const auto* c = e.getAs<Cast>())
    return "static_cast<" + cppType(c->getRHSType()) + ">(" + exprCpp(c->getLHS(), ts) + ")";
  if (const auto* u = e.getAs<UnaryOp>()) return unaryCpp(u->getOpType(), exprCpp(u->getArg(), ts));
  if (const auto* b = e.getAs<BinaryOp>()) {
    const std::string l = exprCpp(b->getLHS(), ts), r = exprCpp(b->getRHS(), ts);
    if (const char* sym = binarySymbol(b->getOpType())) return "(" + l + " " + sym + " " + r + ")";
    std::string name = opName(b->getOpType());
    for (auto& ch : name)
      ch = char(std::tolower(static_cast<unsigned char>(ch)));
    return "popops::" + name + "(" + l + ", " + r + ")";
  }
  if (const auto* t = e.getAs<TernaryOp>()) {
    const std::string a = exprCpp(t->getArg0(), ts), b = exprCpp(t->getArg1(), ts),
                      c = exprCpp(t->getArg2(), ts);
    if (t->getOpType() == TernaryOpType::SELECT) return "(" + c + " ? " + a + " : " + b + ")";
    return "std::min(std::max(" + a + ", " + b + "), " + c + ")";
  }
  throw poputil::poplibs_error("popops::outputGeneratedCodelet: unknown kind of expression");
}

} // namespace

void outputGeneratedCodelet(const poplar::Target& target, const expr::Expr& expr,
                            const std::vector<poplar::Tensor>& ts,
                            const poplar::OptionFlags& options, std::ostream& os) {
  (void)target;
  const std::string op = "popops::outputGeneratedCodelet";
  poplibs_support::checkOptions(options, {"enableGenerateCodelet", "enableExpressionOptimizations"},
                                op);
  if (ts.empty()) throw poputil::poplibs_error(op + ": no tensors given (ts is empty)");
  for (std::size_t i = 0; i < ts.size(); ++i)
    poplibs_support::checkValid(ts[i], op, "tensor " + std::to_string(i + 1) + " of ts");
  const mapexpr::Program p = mapexpr::compile(expr, ts, false, op);
  // The vertex's name as a C++ identifier: the last component, other characters as '_'.
  std::string cls =
      p.name.substr(p.name.rfind("::") == std::string::npos ? 0 : p.name.rfind("::") + 2);
  for (auto& c : cls)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  std::ostringstream body;
  body << "// " << p.name << ": generated for the expression\n//   ";
  expr.print(body, 0, false);
  body << "\n#include <poplar/Vertex.hpp>\n#include <cmath>\n\n"
       << "class " << cls << " : public poplar::Vertex {\npublic:\n";
  for (std::size_t i = 0; i < ts.size(); ++i)
    body << "  poplar::Input<poplar::Vector<" << cppType(ts[i].elementType()) << ">> in" << i + 1
         << ";\n";
  body << "  poplar::Output<poplar::Vector<" << cppType(p.outType) << ">> out;\n\n"
       << "  bool compute() {\n    for (unsigned i = 0; i < out.size(); ++i)\n      out[i] = "
       << exprCpp(expr, ts) << ";\n    return true;\n  }\n};\n";
  os << body.str();
}

} // namespace popops

namespace poputil {

template <> poplar::ProfileValue toProfileValue(const popops::expr::UnaryOpType& op) {
  return poplar::ProfileValue(popops::expr::opName(op));
}
template <> poplar::ProfileValue toProfileValue(const popops::expr::BinaryOpType& op) {
  return poplar::ProfileValue(popops::expr::opName(op));
}
template <> poplar::ProfileValue toProfileValue(const popops::expr::TernaryOpType& op) {
  return poplar::ProfileValue(popops::expr::opName(op));
}

} // namespace poputil
