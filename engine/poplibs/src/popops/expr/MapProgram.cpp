// Compiling an expression tree into a map program: type inference as PopLibs does it
// (placeholders have their tensor's type, constants take the type of the operand they meet,
// comparisons and logical operators give BOOL, Cast gives its type, Select the type of its
// values) and the checks that each operator accepts its operand types.
#include "popops/expr/MapProgram.hpp"

#include "popops/expr/ExprNames.hpp"

#include <cmath>
#include <cstring>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <poplar/HalfFloat.hpp>
#include <poputil/exceptions.hpp>

namespace popops::mapexpr {

using expr::BinaryOpType;
using expr::TernaryOpType;
using expr::UnaryOpType;
using poplar::Type;

Kind kindOf(const Type& t, const std::string& op, const std::string& what) {
  if (t == poplar::FLOAT || t == poplar::HALF) return Kind::F32;
  if (t == poplar::INT) return Kind::I32;
  if (t == poplar::UNSIGNED_INT) return Kind::U32;
  if (t == poplar::BOOL) return Kind::Bool;
  throw poputil::poplibs_error(op + ": " + what + " is " + t.toString() +
                               "; expressions accept float, half, int, unsigned int and bool");
}

namespace {

bool isComparison(BinaryOpType o) {
  switch (o) {
  case BinaryOpType::EQUAL:
  case BinaryOpType::NOT_EQUAL:
  case BinaryOpType::LESS_THAN:
  case BinaryOpType::LESS_THAN_EQUAL:
  case BinaryOpType::GREATER_THAN:
  case BinaryOpType::GREATER_THAN_EQUAL:
    return true;
  default:
    return false;
  }
}

/// Which operand kinds an operator accepts.
struct Accepts {
  bool f = false, i = false, u = false, b = false;
  bool operator()(Kind k) const {
    return k == Kind::F32 ? f : k == Kind::I32 ? i : k == Kind::U32 ? u : b;
  }
};
constexpr Accepts kFloat{true, false, false, false};
constexpr Accepts kNumeric{true, true, true, false};
constexpr Accepts kSignedNumeric{true, true, false, false};
constexpr Accepts kInteger{false, true, true, false};
constexpr Accepts kBool{false, false, false, true};
constexpr Accepts kAny{true, true, true, true};

Accepts accepts(UnaryOpType o) {
  switch (o) {
  case UnaryOpType::ABSOLUTE:
  case UnaryOpType::NEGATE:
  case UnaryOpType::SIGNUM:
    return kSignedNumeric;
  case UnaryOpType::SQUARE:
    return kNumeric;
  case UnaryOpType::BITWISE_NOT:
  case UnaryOpType::COUNT_LEADING_ZEROS:
  case UnaryOpType::POPCOUNT:
    return kInteger;
  case UnaryOpType::LOGICAL_NOT:
    return kBool;
  default:
    return kFloat;
  }
}

Accepts accepts(BinaryOpType o) {
  switch (o) {
  case BinaryOpType::ADD:
  case BinaryOpType::SUBTRACT:
  case BinaryOpType::MULTIPLY:
  case BinaryOpType::DIVIDE:
  case BinaryOpType::REMAINDER:
  case BinaryOpType::MAXIMUM:
  case BinaryOpType::MINIMUM:
    return kNumeric;
  case BinaryOpType::BITWISE_AND:
  case BinaryOpType::BITWISE_OR:
  case BinaryOpType::BITWISE_XOR:
  case BinaryOpType::BITWISE_XNOR:
  case BinaryOpType::SHIFT_LEFT:
  case BinaryOpType::SHIFT_RIGHT:
    return kInteger;
  case BinaryOpType::SHIFT_RIGHT_SIGN_EXTEND:
    return Accepts{false, true, false, false};
  case BinaryOpType::LOGICAL_AND:
  case BinaryOpType::LOGICAL_OR:
    return kBool;
  case BinaryOpType::EQUAL:
  case BinaryOpType::NOT_EQUAL:
  case BinaryOpType::LESS_THAN:
  case BinaryOpType::LESS_THAN_EQUAL:
  case BinaryOpType::GREATER_THAN:
  case BinaryOpType::GREATER_THAN_EQUAL:
    return kAny;
  default: // ATAN2, POWER, INV_STD_DEV_TO_VARIANCE, VARIANCE_TO_INV_STD_DEV
    return kFloat;
  }
}

/// Cycles per vector for the estimate: 1 for simple arithmetic, more for division and
/// functions (the cost classes of PopLibs' element-wise estimators).
unsigned costOf(UnaryOpType o) {
  switch (o) {
  case UnaryOpType::ABSOLUTE:
  case UnaryOpType::NEGATE:
  case UnaryOpType::SQUARE:
  case UnaryOpType::SIGNUM:
  case UnaryOpType::BITWISE_NOT:
  case UnaryOpType::LOGICAL_NOT:
  case UnaryOpType::IS_FINITE:
  case UnaryOpType::IS_INF:
  case UnaryOpType::IS_NAN:
    return 1;
  case UnaryOpType::CEIL:
  case UnaryOpType::FLOOR:
  case UnaryOpType::ROUND:
  case UnaryOpType::NEARBY_INT:
  case UnaryOpType::RELU:
  case UnaryOpType::TRUNC:
  case UnaryOpType::POPCOUNT:
  case UnaryOpType::COUNT_LEADING_ZEROS:
    return 2;
  case UnaryOpType::INVERSE:
  case UnaryOpType::SQRT:
  case UnaryOpType::RSQRT:
  case UnaryOpType::EXPONENT:
  case UnaryOpType::EXPONENT2:
  case UnaryOpType::LOGARITHM:
    return 4;
  default:
    return 6; // trigonometric, tanh, sigmoid, erf, gelu, cbrt, expm1, log1p
  }
}
unsigned costOf(BinaryOpType o) {
  switch (o) {
  case BinaryOpType::DIVIDE:
  case BinaryOpType::REMAINDER:
  case BinaryOpType::VARIANCE_TO_INV_STD_DEV:
  case BinaryOpType::INV_STD_DEV_TO_VARIANCE:
    return 4;
  case BinaryOpType::POWER:
  case BinaryOpType::ATAN2:
    return 8;
  default:
    return 1;
  }
}

/// Normalises a constant's own type to one expressions compute in.
Type constType(const Type& t) {
  if (t == poplar::FLOAT || t == poplar::HALF || t == poplar::INT || t == poplar::UNSIGNED_INT ||
      t == poplar::BOOL)
    return t;
  if (t == poplar::UNSIGNED_SHORT || t == poplar::UNSIGNED_CHAR) return poplar::UNSIGNED_INT;
  return poplar::INT; // char, signed char, short
}

/// The bits of `c` converted to `t` (as the vertex holds a value of t's kind).
std::uint32_t constBits(const expr::Const& c, const Type& t) {
  const double d = c.getDataAsDouble();
  std::uint32_t bits = 0;
  if (t == poplar::FLOAT || t == poplar::HALF) {
    float f = float(d);
    if (t == poplar::HALF) f = float(poplar::half(f));
    std::memcpy(&bits, &f, sizeof f);
  } else if (t == poplar::BOOL) {
    bits = d != 0 ? 1 : 0;
  } else if (c.getType().isFloatingPoint()) {
    const std::int64_t v = std::int64_t(d);
    bits = std::uint32_t(v);
  } else {
    bits = std::uint32_t(c.getDataForUnsignedIntegral());
  }
  return bits;
}

class Compiler {
public:
  Compiler(const std::vector<poplar::Tensor>& ts, bool inPlace, const std::string& op)
      : ts_(ts), inPlace_(inPlace), op_(op) {}

  Program compile(const expr::Expr& e) {
    const auto r = emit(e, Type());
    p_.result = r.value;
    p_.outType = r.type;
    p_.inPlace = inPlace_;
    p_.cyclesPerVector = cost_ + 1; // + the store
    p_.flopsPerElement = flops_;
    p_.floatingPoint = r.type.isFloatingPoint();
    for (const auto& in : p_.inputs)
      if (in.type.isFloatingPoint()) p_.floatingPoint = true;
    return std::move(p_);
  }

private:
  struct Value {
    unsigned value;
    Type type;
  };

  [[noreturn]] void fail(const std::string& what) const {
    throw poputil::poplibs_error(op_ + ": " + what);
  }

  Value add(Instr i, const Type& type) {
    if (p_.code.size() >= std::numeric_limits<std::uint16_t>::max())
      fail("the expression has too many operations");
    i.roundToHalf = type == poplar::HALF && i.code != Instr::Code::Input &&
                    i.code != Instr::Code::Constant && i.code != Instr::Code::Select;
    p_.code.push_back(i);
    return {unsigned(p_.code.size() - 1), type};
  }

  static bool isConst(const expr::Expr& e) { return e.isA<expr::Const>(); }

  Value emit(const expr::Expr& e, const Type& hint) {
    if (const auto* c = e.getAs<expr::Const>()) {
      const Type t = hint != Type() ? hint : constType(c->getType());
      if (t.isFloatingPoint() && !std::isfinite(c->getDataAsDouble()))
        fail("constant " + c->printValue() + " is not finite");
      Instr i;
      i.code = Instr::Code::Constant;
      i.outKind = i.inKind = kindOf(t, op_, "a constant");
      i.imm = constBits(*c, t);
      return add(i, t);
    }
    if (const auto* ph = e.getAs<expr::PlaceHolder>()) return placeholder(ph->getIndex());
    if (const auto* c = e.getAs<expr::Cast>()) {
      const Value a = emit(c->getLHS(), Type());
      const Type to = c->getRHSType();
      Instr i;
      i.code = Instr::Code::Cast;
      i.inKind = kindOf(a.type, op_, "the operand of Cast");
      i.outKind = kindOf(to, op_, "Cast's destination type");
      i.a = std::uint16_t(a.value);
      cost_ += 1;
      return add(i, to);
    }
    if (const auto* u = e.getAs<expr::UnaryOp>()) {
      const auto o = u->getOpType();
      const bool toBool =
          o == UnaryOpType::IS_FINITE || o == UnaryOpType::IS_INF || o == UnaryOpType::IS_NAN;
      const Value a = emit(u->getArg(), toBool ? Type() : hint);
      const Kind k = kindOf(a.type, op_, "the operand of " + std::string(expr::opName(o)));
      if (!accepts(o)(k))
        fail(std::string(expr::opName(o)) + " does not accept " + a.type.toString() + " operands");
      Instr i;
      i.code = Instr::Code::Unary;
      i.op = std::uint8_t(o);
      i.inKind = k;
      i.outKind = toBool ? Kind::Bool : k;
      i.a = std::uint16_t(a.value);
      cost_ += costOf(o);
      if (k == Kind::F32) flops_ += 1;
      return add(i, toBool ? poplar::BOOL : a.type);
    }
    if (const auto* b = e.getAs<expr::BinaryOp>()) {
      const auto o = b->getOpType();
      const bool logical = o == BinaryOpType::LOGICAL_AND || o == BinaryOpType::LOGICAL_OR;
      const bool toBool = isComparison(o) || logical;
      const Type operandHint = logical ? poplar::BOOL : (toBool ? Type() : hint);
      Value l{}, r{};
      if (isConst(b->getLHS()) && !isConst(b->getRHS())) {
        r = emit(b->getRHS(), operandHint);
        l = emit(b->getLHS(), r.type);
      } else {
        l = emit(b->getLHS(), operandHint);
        r = emit(b->getRHS(), l.type);
      }
      const std::string name = expr::opName(o);
      if (l.type != r.type)
        fail("the operands of " + name + " have different types (" + l.type.toString() + " and " +
             r.type.toString() + "); Cast one of them");
      const Kind k = kindOf(l.type, op_, "an operand of " + name);
      if (!accepts(o)(k)) fail(name + " does not accept " + l.type.toString() + " operands");
      Instr i;
      i.code = Instr::Code::Binary;
      i.op = std::uint8_t(o);
      i.inKind = k;
      i.outKind = toBool ? Kind::Bool : k;
      i.a = std::uint16_t(l.value);
      i.b = std::uint16_t(r.value);
      cost_ += costOf(o);
      if (k == Kind::F32) flops_ += 1;
      return add(i, toBool ? poplar::BOOL : l.type);
    }
    const auto* t = e.getAs<expr::TernaryOp>();
    if (!t) fail("unknown kind of expression");
    if (t->getOpType() == TernaryOpType::SELECT) {
      // Select(a, b, c) = c ? a : b.
      Value a{}, b{};
      if (isConst(t->getArg0()) && !isConst(t->getArg1())) {
        b = emit(t->getArg1(), hint);
        a = emit(t->getArg0(), b.type);
      } else {
        a = emit(t->getArg0(), hint);
        b = emit(t->getArg1(), a.type);
      }
      const Value c = emit(t->getArg2(), poplar::BOOL);
      if (a.type != b.type)
        fail("the values of SELECT have different types (" + a.type.toString() + " and " +
             b.type.toString() + ")");
      if (c.type != poplar::BOOL)
        fail("the condition of SELECT (its third operand) is " + c.type.toString() + ", not bool");
      Instr i;
      i.code = Instr::Code::Select;
      i.inKind = i.outKind = kindOf(a.type, op_, "a value of SELECT");
      i.a = std::uint16_t(a.value);
      i.b = std::uint16_t(b.value);
      i.c = std::uint16_t(c.value);
      cost_ += 1;
      return add(i, a.type);
    }
    // Clamp(a, low, high).
    const Value a = emit(t->getArg0(), hint);
    const Value lo = emit(t->getArg1(), a.type);
    const Value hi = emit(t->getArg2(), a.type);
    if (lo.type != a.type || hi.type != a.type)
      fail("the operands of CLAMP have different types (" + a.type.toString() + ", " +
           lo.type.toString() + ", " + hi.type.toString() + ")");
    const Kind k = kindOf(a.type, op_, "the operand of CLAMP");
    if (!kNumeric(k)) fail("CLAMP does not accept " + a.type.toString() + " operands");
    Instr i;
    i.code = Instr::Code::Clamp;
    i.inKind = i.outKind = k;
    i.a = std::uint16_t(a.value);
    i.b = std::uint16_t(lo.value);
    i.c = std::uint16_t(hi.value);
    cost_ += 2;
    if (k == Kind::F32) flops_ += 2; // two compares
    return add(i, a.type);
  }

  Value placeholder(unsigned index) {
    if (index == 0 || index > ts_.size())
      fail("the expression uses placeholder _" + std::to_string(index) + " but " +
           std::to_string(ts_.size()) + " tensor(s) were given");
    auto it = loaded_.find(index);
    if (it != loaded_.end()) return it->second;
    const poplar::Tensor& t = ts_[index - 1];
    InputSlot s;
    s.type = t.elementType();
    s.placeholder = index;
    s.isOutput = inPlace_ && index == 1;
    s.scalar = !s.isOutput && t.numElements() == 1;
    Instr i;
    i.code = Instr::Code::Input;
    i.inKind = i.outKind = kindOf(s.type, op_, "tensor " + std::to_string(index));
    i.imm = std::uint32_t(p_.inputs.size());
    p_.inputs.push_back(s);
    cost_ += 1; // its load
    const Value v = add(i, s.type);
    loaded_.emplace(index, v);
    return v;
  }

  const std::vector<poplar::Tensor>& ts_;
  bool inPlace_;
  std::string op_;
  Program p_;
  unsigned cost_ = 0;
  unsigned flops_ = 0;
  std::map<unsigned, Value> loaded_;
};

/// Vertex names use letters, digits, '_' and ':' only.
std::string vertexName(const expr::Expr& e, const std::vector<poplar::Tensor>& ts, bool inPlace) {
  std::string n = e.name(ts);
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  if (inPlace) n += "_inPlace";
  // Very large expressions keep a readable start and a hash of the whole.
  if (n.size() > 160) n = n.substr(0, 120) + "_" + std::to_string(std::hash<std::string>()(n));
  return "popops::map::" + n;
}

struct Registry {
  std::mutex mutex;
  std::deque<Program> programs; // stable addresses: vertices keep references while they run
  std::map<std::string, unsigned> byName;
};
Registry& registry() {
  static Registry r;
  return r;
}

} // namespace

Program compile(const expr::Expr& expr, const std::vector<poplar::Tensor>& ts, bool inPlace,
                const std::string& op) {
  Program p = Compiler(ts, inPlace, op).compile(expr);
  p.name = vertexName(expr, ts, inPlace);
  return p;
}

unsigned intern(Program p) {
  auto& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  const auto it = r.byName.find(p.name);
  if (it != r.byName.end()) return it->second;
  const unsigned id = unsigned(r.programs.size());
  r.byName.emplace(p.name, id);
  r.programs.push_back(std::move(p));
  return id;
}

const Program& program(unsigned id) {
  auto& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (id >= r.programs.size())
    throw poputil::poplibs_error("popops::map: vertex state names unknown expression program " +
                                 std::to_string(id));
  return r.programs[id];
}

} // namespace popops::mapexpr
