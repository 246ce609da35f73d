// Expr's names, comparison and printing. Names feed the fused map vertex's name, so they spell
// every operator, placeholder type, scalar-ness and constant value: two expressions share a
// vertex only when they compute the same thing on the same types.
#include "popops/expr/ExprNames.hpp"

#include <cinttypes>
#include <cstdio>
#include <ostream>
#include <popops/Expr.hpp>
#include <sstream>

namespace popops::expr {

Expr::~Expr() = default;

template <> void ExprType<Const>::loc() {}
template <> void ExprType<Cast>::loc() {}
template <> void ExprType<PlaceHolder>::loc() {}
template <> void ExprType<UnaryOp>::loc() {}
template <> void ExprType<BinaryOp>::loc() {}
template <> void ExprType<TernaryOp>::loc() {}

const char* opName(UnaryOpType op) {
  // Cases several to a line, as a table:
  // clang-format off
  switch (op) {
#define C(x) case UnaryOpType::x: return #x;
    C(ABSOLUTE) C(ASIN) C(BITWISE_NOT) C(CBRT) C(CEIL) C(COS) C(COUNT_LEADING_ZEROS) C(ERF)
    C(EXPONENT) C(EXPONENT_MINUS_ONE) C(EXPONENT2) C(FLOOR) C(GELU_ERF) C(INVERSE) C(IS_FINITE)
    C(IS_INF) C(IS_NAN) C(LOGARITHM) C(LOGARITHM_ONE_PLUS) C(LOGICAL_NOT) C(NEGATE) C(POPCOUNT)
    C(SIGNUM) C(SIN) C(TAN) C(TANH) C(ROUND) C(TRUNC) C(SQRT) C(SQUARE) C(SIGMOID) C(RSQRT)
    C(NEARBY_INT) C(RELU)
#undef C
    // clang-format on
  }
  return "?";
}

const char* opName(BinaryOpType op) {
  // Cases several to a line, as a table:
  // clang-format off
  switch (op) {
#define C(x) case BinaryOpType::x: return #x;
    C(ADD) C(ATAN2) C(BITWISE_AND) C(BITWISE_OR) C(BITWISE_XOR) C(BITWISE_XNOR) C(DIVIDE) C(EQUAL)
    C(GREATER_THAN_EQUAL) C(GREATER_THAN) C(INV_STD_DEV_TO_VARIANCE) C(LESS_THAN_EQUAL)
    C(LOGICAL_AND) C(LOGICAL_OR) C(LESS_THAN) C(MAXIMUM) C(MINIMUM) C(MULTIPLY) C(NOT_EQUAL)
    C(POWER) C(REMAINDER) C(SHIFT_LEFT) C(SHIFT_RIGHT) C(SHIFT_RIGHT_SIGN_EXTEND) C(SUBTRACT)
    C(VARIANCE_TO_INV_STD_DEV)
#undef C
    // clang-format on
  }
  return "?";
}

const char* opName(TernaryOpType op) {
  return op == TernaryOpType::SELECT ? "SELECT" : "CLAMP";
}

namespace {
/// "float", "unsigned_int": type names usable inside a vertex name.
std::string typeToken(const poplar::Type& t) {
  std::string s = t.toString();
  for (char& c : s)
    if (c == ' ') c = '_';
  return s;
}
void indentBy(std::ostream& os, unsigned indent, bool pretty) {
  if (pretty) os << '\n' << std::string(indent * 2, ' ');
}
} // namespace

std::ostream& operator<<(std::ostream& os, const Expr& expr) {
  expr.print(os, 0, false);
  return os;
}

bool deepEquals(const Expr& a, const Expr& b) {
  return a.deepEquals(b);
}

// ---- Const --------------------------------------------------------------------------------

double Const::getDataAsDouble() const {
  if (isFloat_) {
    if (size_ == sizeof(float)) {
      float f;
      std::memcpy(&f, data_.get(), sizeof f);
      return f;
    }
    double d;
    std::memcpy(&d, data_.get(), sizeof d);
    return d;
  }
  if (type_ == poplar::BOOL) return data_[0] != 0 ? 1.0 : 0.0;
  const auto bits = getDataForUnsignedIntegral();
  return isSigned_ ? double(std::int64_t(bits)) : double(bits);
}

std::uint64_t Const::getDataForUnsignedIntegral() const {
  std::uint64_t u = 0;
  std::memcpy(&u, data_.get(), size_ < sizeof u ? size_ : sizeof u); // little-endian host
  if (isSigned_ && size_ < sizeof u && (u >> (size_ * 8 - 1)) & 1)
    u |= ~std::uint64_t(0) << (size_ * 8);
  if (isFloat_) return std::uint64_t(std::int64_t(getDataAsDouble()));
  return u;
}

std::string Const::printValue() const {
  std::ostringstream s;
  if (isFloat_ || type_ == poplar::HALF) {
    s.precision(9);
    s << getDataAsDouble();
  } else if (type_ == poplar::BOOL) {
    s << (data_[0] ? "true" : "false");
  } else if (isSigned_) {
    s << std::int64_t(getDataForUnsignedIntegral());
  } else {
    s << getDataForUnsignedIntegral();
  }
  return s.str();
}

std::string Const::name(const std::vector<poplar::Tensor>&) const {
  std::string v = printValue();
  for (char& c : v)
    if (c == '.')
      c = 'p';
    else if (c == '-')
      c = 'm';
    else if (c == '+')
      c = 'P';
  return "Const_" + typeToken(type_) + "_" + v;
}

bool Const::deepEquals(const Expr& other) const {
  const auto* c = other.getAs<Const>();
  return c && c->type_ == type_ && c->size_ == size_ && c->isFloat_ == isFloat_ &&
         std::memcmp(c->data_.get(), data_.get(), size_) == 0;
}

void Const::print(std::ostream& os, unsigned, bool) const {
  os << printValue();
  if (type_ == poplar::HALF) os << "_half";
}

// ---- Cast ---------------------------------------------------------------------------------

std::string Cast::name(const std::vector<poplar::Tensor>& inputs) const {
  return "Cast_" + a_->name(inputs) + "_" + typeToken(bType_);
}

bool Cast::deepEquals(const Expr& other) const {
  const auto* c = other.getAs<Cast>();
  return c && c->bType_ == bType_ && a_->deepEquals(*c->a_);
}

void Cast::print(std::ostream& os, unsigned indent, bool pretty) const {
  os << "Cast(";
  indentBy(os, indent + 1, pretty);
  a_->print(os, indent + 1, pretty);
  os << ", " << bType_.toString() << ")";
}

// ---- PlaceHolder --------------------------------------------------------------------------

std::string PlaceHolder::name(const std::vector<poplar::Tensor>& inputs) const {
  std::string s = "_" + std::to_string(index_);
  if (index_ >= 1 && index_ <= inputs.size() && inputs[index_ - 1].valid()) {
    s += "_" + typeToken(inputs[index_ - 1].elementType());
    if (inputs[index_ - 1].numElements() == 1) s += "_scalar";
  }
  return s;
}

bool PlaceHolder::deepEquals(const Expr& other) const {
  const auto* p = other.getAs<PlaceHolder>();
  return p && p->index_ == index_;
}

void PlaceHolder::print(std::ostream& os, unsigned, bool) const {
  os << "_" << index_;
}

// ---- operators ----------------------------------------------------------------------------

std::string UnaryOp::name(const std::vector<poplar::Tensor>& inputs) const {
  return std::string(opName(type_)) + "_" + exprName(inputs);
}
bool UnaryOp::deepEquals(const Expr& other) const {
  const auto* u = other.getAs<UnaryOp>();
  return u && u->type_ == type_ && a_->deepEquals(*u->a_);
}
void UnaryOp::print(std::ostream& os, unsigned indent, bool pretty) const {
  os << opName(type_) << "(";
  indentBy(os, indent + 1, pretty);
  a_->print(os, indent + 1, pretty);
  os << ")";
}

std::string BinaryOp::name(const std::vector<poplar::Tensor>& inputs) const {
  return std::string(opName(type_)) + "_" + exprName(inputs);
}
bool BinaryOp::deepEquals(const Expr& other) const {
  const auto* o = other.getAs<BinaryOp>();
  return o && o->type_ == type_ && a_->deepEquals(*o->a_) && b_->deepEquals(*o->b_);
}
void BinaryOp::print(std::ostream& os, unsigned indent, bool pretty) const {
  os << opName(type_) << "(";
  indentBy(os, indent + 1, pretty);
  a_->print(os, indent + 1, pretty);
  os << ", ";
  indentBy(os, indent + 1, pretty);
  b_->print(os, indent + 1, pretty);
  os << ")";
}

std::string TernaryOp::name(const std::vector<poplar::Tensor>& inputs) const {
  return std::string(opName(type_)) + "_" + exprName(inputs);
}
bool TernaryOp::deepEquals(const Expr& other) const {
  const auto* o = other.getAs<TernaryOp>();
  return o && o->type_ == type_ && a_->deepEquals(*o->a_) && b_->deepEquals(*o->b_) &&
         c_->deepEquals(*o->c_);
}
void TernaryOp::print(std::ostream& os, unsigned indent, bool pretty) const {
  os << opName(type_) << "(";
  for (const Expr* e : {a_.get(), b_.get(), c_.get()}) {
    indentBy(os, indent + 1, pretty);
    e->print(os, indent + 1, pretty);
    if (e != c_.get()) os << ", ";
  }
  os << ")";
}

} // namespace popops::expr
