// Element expressions: trees of operators over placeholders (_1 .. _20, the tensors given to
// popops::map) and constants, built with the classes below or with ordinary C++ operators:
//
//   using namespace popops::expr;
//   auto e = Select(_1 * 0.5f, Cast(_2, poplar::FLOAT), _1 > _3);   // c ? a : b is Select(a, b, c)
//   poplar::Tensor r = popops::map(graph, e, {x, y, z}, prog);
//
// popops::map (popops/ElementWise.hpp) evaluates a whole tree in one compute set. Constants take
// the type of the expression they meet (2 * _1 on a HALF tensor multiplies by a HALF 2).
#pragma once

#include <cstdint>
#include <cstring>
#include <iosfwd>
#include <memory>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <poplar/TypeTraits.hpp>
#include <popops/ExprOp.hpp>
#include <string>
#include <type_traits>
#include <vector>

namespace popops {
namespace expr {

/// An expression applied to elements of tensors. Abstract: build one from the classes below.
class Expr {
protected:
  using ExprClassID = void (*)(void);
  ExprClassID classId;
  explicit Expr(ExprClassID id) : classId(id) {}

public:
  virtual ~Expr();

  template <class T> bool isA() const { return classId == T::getClassId(); }
  template <class T> T* getAs() { return isA<T>() ? static_cast<T*>(this) : nullptr; }
  template <class T> const T* getAs() const {
    return isA<T>() ? static_cast<const T*>(this) : nullptr;
  }

  virtual std::unique_ptr<Expr> clone() const = 0;
  /// A name for the expression applied to `inputs` (their types and which are scalars); the
  /// fused vertex evaluating it is named after it.
  virtual std::string name(const std::vector<poplar::Tensor>& inputs) const = 0;
  virtual bool deepEquals(const Expr& other) const = 0;
  virtual void print(std::ostream& os, unsigned indent = 0, bool prettyPrint = true) const = 0;
};

std::ostream& operator<<(std::ostream& os, const Expr& expr);
bool deepEquals(const Expr& a, const Expr& b);

template <class T> class ExprType : public Expr {
  static void loc();
  static ExprClassID getClassId() { return &loc; }

public:
  ExprType() : Expr(getClassId()) {}
  friend class Expr;
};

/// Holds any expression: for building trees whose outermost operator changes at run time.
class Any {
  std::unique_ptr<Expr> expr_;

public:
  Any(const Expr& e) : expr_(e.clone()) {} // NOLINT: implicit, as PopLibs
  Any(const Any& other) : expr_(other.expr_->clone()) {}
  Any(Any&&) = default;
  Any& operator=(const Any& other) {
    expr_ = other.expr_->clone();
    return *this;
  }
  Any& operator=(Any&&) = default;
  operator Expr&() { return *expr_; }             // NOLINT
  operator const Expr&() const { return *expr_; } // NOLINT
  std::string name(const std::vector<poplar::Tensor>& inputs) const { return expr_->name(inputs); }
};

namespace detail {
/// The device type a constant of host type T has (before it adapts to its neighbours).
template <typename T> struct ConstDeviceType;
template <> struct ConstDeviceType<bool> {
  static poplar::Type get() { return poplar::BOOL; }
};
template <> struct ConstDeviceType<char> {
  static poplar::Type get() { return poplar::CHAR; }
};
template <> struct ConstDeviceType<signed char> {
  static poplar::Type get() { return poplar::SIGNED_CHAR; }
};
template <> struct ConstDeviceType<unsigned char> {
  static poplar::Type get() { return poplar::UNSIGNED_CHAR; }
};
template <> struct ConstDeviceType<short> {
  static poplar::Type get() { return poplar::SHORT; }
};
template <> struct ConstDeviceType<unsigned short> {
  static poplar::Type get() { return poplar::UNSIGNED_SHORT; }
};
template <> struct ConstDeviceType<int> {
  static poplar::Type get() { return poplar::INT; }
};
template <> struct ConstDeviceType<unsigned> {
  static poplar::Type get() { return poplar::UNSIGNED_INT; }
};
template <> struct ConstDeviceType<long> {
  static poplar::Type get() { return poplar::INT; }
};
template <> struct ConstDeviceType<unsigned long> {
  static poplar::Type get() { return poplar::UNSIGNED_INT; }
};
template <> struct ConstDeviceType<long long> {
  static poplar::Type get() { return poplar::INT; }
};
template <> struct ConstDeviceType<unsigned long long> {
  static poplar::Type get() { return poplar::UNSIGNED_INT; }
};
template <> struct ConstDeviceType<float> {
  static poplar::Type get() { return poplar::FLOAT; }
};
template <> struct ConstDeviceType<double> {
  static poplar::Type get() { return poplar::FLOAT; }
};

template <typename T> struct IsConstValue {
  static constexpr bool value = std::is_arithmetic<T>::value;
};
} // namespace detail

/// A constant. Its value keeps the host type it was given (getData); its device type is the
/// matching Poplar type (double is FLOAT, ConstHalf is HALF).
class Const : public ExprType<Const> {
  poplar::TypeTraits typeTraits_;
  poplar::Type type_;
  bool isFloat_ = false;
  bool isSigned_ = false;
  std::size_t size_ = 0;
  std::unique_ptr<char[]> data_;

  void init(const void* p, std::size_t n) {
    size_ = n;
    data_.reset(new char[n]);
    std::memcpy(data_.get(), p, n);
  }

protected:
  template <typename T> Const(T x, bool isHalfType) {
    type_ = isHalfType ? poplar::HALF : detail::ConstDeviceType<T>::get();
    isFloat_ = std::is_floating_point<T>::value;
    isSigned_ = std::is_signed<T>::value;
    typeTraits_ = poplar::TypeTraits::make<T>();
    init(&x, sizeof(T));
  }

public:
  template <typename T, typename = typename std::enable_if<detail::IsConstValue<T>::value, T>::type>
  Const(T x) : Const(x, false) {} // NOLINT: implicit, as PopLibs

  /// A constant of `type` from the bytes of a host value described by `traits` (as PopLibs:
  /// `data` holds traits.size bytes).
  Const(poplar::TypeTraits traits, poplar::Type type, const char* data)
      : typeTraits_(traits), type_(type), isFloat_(traits.isFloat), isSigned_(traits.isSigned) {
    init(data, traits.size);
  }
  Const(const Const& other)
      : ExprType<Const>(), typeTraits_(other.typeTraits_), type_(other.type_),
        isFloat_(other.isFloat_), isSigned_(other.isSigned_) {
    init(other.data_.get(), other.size_);
  }
  Const(Const&&) = default;
  Const& operator=(const Const& other) {
    Const tmp(other);
    std::swap(*this, tmp);
    return *this;
  }
  Const& operator=(Const&&) = default;

  char* getData() const { return data_.get(); }
  /// The size, alignment and kind of the host value the constant was made from.
  const poplar::TypeTraits& getTypeTraits() const { return typeTraits_; }
  const poplar::Type& getType() const { return type_; }
  /// The value as a double (integers beyond 2^53 lose precision: see getDataForUnsignedIntegral).
  double getDataAsDouble() const;
  /// The bits of an integral value, sign-extended to 64 bits.
  std::uint64_t getDataForUnsignedIntegral() const;
  std::string printValue() const;

  std::unique_ptr<Expr> clone() const override { return std::unique_ptr<Expr>(new Const(*this)); }
  std::string name(const std::vector<poplar::Tensor>&) const override;
  bool deepEquals(const Expr& other) const override;
  void print(std::ostream& os, unsigned indent = 0, bool prettyPrint = true) const override;
};

/// A constant of type HALF.
class ConstHalf : public Const {
public:
  ConstHalf(float x) : Const(x, true) {} // NOLINT: implicit, as PopLibs
  ConstHalf(const ConstHalf& other) = default;
  ConstHalf(ConstHalf&&) = default;
  ConstHalf& operator=(const ConstHalf& other) = default;
  ConstHalf& operator=(ConstHalf&&) = default;
};

inline ConstHalf operator"" _half(long double x) {
  return ConstHalf(static_cast<float>(x));
}

/// The value of `a` converted to `bType` (rounding to HALF, truncating toward zero to integers,
/// non-zero to true for BOOL).
class Cast : public ExprType<Cast> {
  std::unique_ptr<Expr> a_;
  poplar::Type bType_;

public:
  Cast(const Expr& x, const poplar::Type t) : a_(x.clone()), bType_(t) {}
  Cast(const Cast& other) : ExprType<Cast>(), a_(other.a_->clone()), bType_(other.bType_) {}
  Cast(Cast&&) = default;
  Cast& operator=(const Cast& other) {
    a_ = other.a_->clone();
    bType_ = other.bType_;
    return *this;
  }
  Cast& operator=(Cast&&) = default;
  /// Assigns, despite its name: PopLibs declares Cast's copy assignment under this name, so code
  /// written against it may call it. Prefer operator=.
  Cast& operator==(const Cast& other) { return *this = other; }

  const Expr& getLHS() const { return *a_; }
  const poplar::Type& getRHSType() const { return bType_; }

  std::unique_ptr<Expr> clone() const override { return std::unique_ptr<Expr>(new Cast(*this)); }
  std::string name(const std::vector<poplar::Tensor>& inputs) const override;
  bool deepEquals(const Expr& other) const override;
  void print(std::ostream& os, unsigned indent = 0, bool prettyPrint = true) const override;
};

/// The element of the index-th tensor given to map (counted from 1).
class PlaceHolder : public ExprType<PlaceHolder> {
  unsigned index_;

public:
  PlaceHolder(unsigned i) : index_(i) {} // NOLINT: implicit, as PopLibs
  PlaceHolder(const PlaceHolder&) = default;
  PlaceHolder(PlaceHolder&&) = default;
  PlaceHolder& operator=(const PlaceHolder&) = default;
  PlaceHolder& operator=(PlaceHolder&&) = default;
  unsigned getIndex() const { return index_; }

  std::unique_ptr<Expr> clone() const override {
    return std::unique_ptr<Expr>(new PlaceHolder(index_));
  }
  std::string name(const std::vector<poplar::Tensor>& inputs) const override;
  bool deepEquals(const Expr& other) const override;
  void print(std::ostream& os, unsigned indent = 0, bool prettyPrint = true) const override;
};

const PlaceHolder _1(1);
const PlaceHolder _2(2);
const PlaceHolder _3(3);
const PlaceHolder _4(4);
const PlaceHolder _5(5);
const PlaceHolder _6(6);
const PlaceHolder _7(7);
const PlaceHolder _8(8);
const PlaceHolder _9(9);
const PlaceHolder _10(10);
const PlaceHolder _11(11);
const PlaceHolder _12(12);
const PlaceHolder _13(13);
const PlaceHolder _14(14);
const PlaceHolder _15(15);
const PlaceHolder _16(16);
const PlaceHolder _17(17);
const PlaceHolder _18(18);
const PlaceHolder _19(19);
const PlaceHolder _20(20);

class UnaryOp : public ExprType<UnaryOp> {
  UnaryOpType type_;
  std::unique_ptr<Expr> a_;

public:
  UnaryOp(UnaryOpType t, const Expr& x) : type_(t), a_(x.clone()) {}
  UnaryOp(const UnaryOp& other) : ExprType<UnaryOp>(), type_(other.type_), a_(other.a_->clone()) {}
  UnaryOp(UnaryOp&&) = default;
  UnaryOp& operator=(const UnaryOp& other) {
    type_ = other.type_;
    a_ = other.a_->clone();
    return *this;
  }
  UnaryOp& operator=(UnaryOp&&) = default;

  UnaryOpType getOpType() const { return type_; }
  const Expr& getArg() const { return *a_; }

  std::unique_ptr<Expr> clone() const override { return std::unique_ptr<Expr>(new UnaryOp(*this)); }
  std::string name(const std::vector<poplar::Tensor>& inputs) const override;
  std::string exprName(const std::vector<poplar::Tensor>& inputs) const { return a_->name(inputs); }
  bool deepEquals(const Expr& other) const override;
  void print(std::ostream& os, unsigned indent = 0, bool prettyPrint = true) const override;
};

#define POPLIBS_DEFINE_EXPR_UNARY_OP(Name, Op)                                                     \
  class Name : public UnaryOp {                                                                    \
  public:                                                                                          \
    Name(const Expr& a) : UnaryOp(UnaryOpType::Op, a) {}                                           \
  };
#define POPLIBS_DEFINE_EXPR_UNARY_OP_AND_SYMBOL(Name, Op, Sym)                                     \
  POPLIBS_DEFINE_EXPR_UNARY_OP(Name, Op)                                                           \
  inline Name operator Sym(const Expr& a) {                                                        \
    return Name(a);                                                                                \
  }

POPLIBS_DEFINE_EXPR_UNARY_OP(Abs, ABSOLUTE)
POPLIBS_DEFINE_EXPR_UNARY_OP(Asin, ASIN)
POPLIBS_DEFINE_EXPR_UNARY_OP_AND_SYMBOL(BitwiseNot, BITWISE_NOT, ~)
POPLIBS_DEFINE_EXPR_UNARY_OP(Cbrt, CBRT)
POPLIBS_DEFINE_EXPR_UNARY_OP(Erf, ERF)
POPLIBS_DEFINE_EXPR_UNARY_OP(Ceil, CEIL)
POPLIBS_DEFINE_EXPR_UNARY_OP(Cos, COS)
POPLIBS_DEFINE_EXPR_UNARY_OP(Exp, EXPONENT)
POPLIBS_DEFINE_EXPR_UNARY_OP(Expm1, EXPONENT_MINUS_ONE)
POPLIBS_DEFINE_EXPR_UNARY_OP(Exp2, EXPONENT2)
POPLIBS_DEFINE_EXPR_UNARY_OP(Floor, FLOOR)
POPLIBS_DEFINE_EXPR_UNARY_OP(GeluErf, GELU_ERF)
POPLIBS_DEFINE_EXPR_UNARY_OP(Inv, INVERSE)
POPLIBS_DEFINE_EXPR_UNARY_OP(IsFinite, IS_FINITE)
POPLIBS_DEFINE_EXPR_UNARY_OP(IsInf, IS_INF)
POPLIBS_DEFINE_EXPR_UNARY_OP(IsNaN, IS_NAN)
POPLIBS_DEFINE_EXPR_UNARY_OP(Log, LOGARITHM)
POPLIBS_DEFINE_EXPR_UNARY_OP(Log1p, LOGARITHM_ONE_PLUS)
POPLIBS_DEFINE_EXPR_UNARY_OP_AND_SYMBOL(Not, LOGICAL_NOT, !)
POPLIBS_DEFINE_EXPR_UNARY_OP_AND_SYMBOL(Neg, NEGATE, -)
POPLIBS_DEFINE_EXPR_UNARY_OP(NearbyInt, NEARBY_INT)
POPLIBS_DEFINE_EXPR_UNARY_OP(Signum, SIGNUM)
POPLIBS_DEFINE_EXPR_UNARY_OP(Sin, SIN)
POPLIBS_DEFINE_EXPR_UNARY_OP(Tan, TAN)
POPLIBS_DEFINE_EXPR_UNARY_OP(Tanh, TANH)
POPLIBS_DEFINE_EXPR_UNARY_OP(Round, ROUND)
POPLIBS_DEFINE_EXPR_UNARY_OP(Trunc, TRUNC)
POPLIBS_DEFINE_EXPR_UNARY_OP(Sqrt, SQRT)
POPLIBS_DEFINE_EXPR_UNARY_OP(Square, SQUARE)
POPLIBS_DEFINE_EXPR_UNARY_OP(Sigmoid, SIGMOID)
POPLIBS_DEFINE_EXPR_UNARY_OP(Rsqrt, RSQRT)

class BinaryOp : public ExprType<BinaryOp> {
  BinaryOpType type_;
  std::unique_ptr<Expr> a_, b_;

public:
  BinaryOp(BinaryOpType t, const Expr& x, const Expr& y) : type_(t), a_(x.clone()), b_(y.clone()) {}
  BinaryOp(const BinaryOp& other)
      : ExprType<BinaryOp>(), type_(other.type_), a_(other.a_->clone()), b_(other.b_->clone()) {}
  BinaryOp(BinaryOp&&) = default;
  BinaryOp& operator=(const BinaryOp& other) {
    type_ = other.type_;
    a_ = other.a_->clone();
    b_ = other.b_->clone();
    return *this;
  }
  BinaryOp& operator=(BinaryOp&&) = default;

  BinaryOpType getOpType() const { return type_; }
  const Expr& getLHS() const { return *a_; }
  const Expr& getRHS() const { return *b_; }

  std::unique_ptr<Expr> clone() const override {
    return std::unique_ptr<Expr>(new BinaryOp(*this));
  }
  std::string name(const std::vector<poplar::Tensor>& inputs) const override;
  std::string exprName(const std::vector<poplar::Tensor>& inputs) const {
    return a_->name(inputs) + "_" + b_->name(inputs);
  }
  bool deepEquals(const Expr& other) const override;
  void print(std::ostream& os, unsigned indent = 0, bool prettyPrint = true) const override;
};

#define POPLIBS_DEFINE_EXPR_BINARY_OP(Name, Op)                                                    \
  class Name : public BinaryOp {                                                                   \
  public:                                                                                          \
    Name(const Expr& a, const Expr& b) : BinaryOp(BinaryOpType::Op, a, b) {}                       \
  };
// A plain number on either side becomes a Const.
#define POPLIBS_DEFINE_EXPR_BINARY_OP_AND_SYMBOL(Name, Op, Sym)                                    \
  POPLIBS_DEFINE_EXPR_BINARY_OP(Name, Op)                                                          \
  template <typename T>                                                                            \
  inline                                                                                           \
      typename std::enable_if<!std::is_base_of<Expr, T>::value && detail::IsConstValue<T>::value,  \
                              Name>::type                                                          \
      operator Sym(const T& a, const Expr& b) {                                                    \
    return Name(Const(a), b);                                                                      \
  }                                                                                                \
  template <typename T>                                                                            \
  inline                                                                                           \
      typename std::enable_if<!std::is_base_of<Expr, T>::value && detail::IsConstValue<T>::value,  \
                              Name>::type                                                          \
      operator Sym(const Expr& a, const T& b) {                                                    \
    return Name(a, Const(b));                                                                      \
  }                                                                                                \
  inline Name operator Sym(const Expr& a, const Expr& b) {                                         \
    return Name(a, b);                                                                             \
  }

POPLIBS_DEFINE_EXPR_BINARY_OP_AND_SYMBOL(Add, ADD, +)
POPLIBS_DEFINE_EXPR_BINARY_OP(Atan2, ATAN2)
POPLIBS_DEFINE_EXPR_BINARY_OP_AND_SYMBOL(BitwiseAnd, BITWISE_AND, &)
POPLIBS_DEFINE_EXPR_BINARY_OP_AND_SYMBOL(BitwiseOr, BITWISE_OR, |)
POPLIBS_DEFINE_EXPR_BINARY_OP_AND_SYMBOL(BitwiseXor, BITWISE_XOR, ^)
POPLIBS_DEFINE_EXPR_BINARY_OP(BitwiseXnor, BITWISE_XNOR)
POPLIBS_DEFINE_EXPR_BINARY_OP_AND_SYMBOL(Divide, DIVIDE, /)
POPLIBS_DEFINE_EXPR_BINARY_OP_AND_SYMBOL(Equal, EQUAL, ==)
POPLIBS_DEFINE_EXPR_BINARY_OP_AND_SYMBOL(Gte, GREATER_THAN_EQUAL, >=)
POPLIBS_DEFINE_EXPR_BINARY_OP_AND_SYMBOL(Gt, GREATER_THAN, >)
POPLIBS_DEFINE_EXPR_BINARY_OP_AND_SYMBOL(Lte, LESS_THAN_EQUAL, <=)
POPLIBS_DEFINE_EXPR_BINARY_OP_AND_SYMBOL(And, LOGICAL_AND, &&)
POPLIBS_DEFINE_EXPR_BINARY_OP_AND_SYMBOL(Or, LOGICAL_OR, ||)
POPLIBS_DEFINE_EXPR_BINARY_OP_AND_SYMBOL(Lt, LESS_THAN, <)
POPLIBS_DEFINE_EXPR_BINARY_OP(InvStdDevToVariance, INV_STD_DEV_TO_VARIANCE)
POPLIBS_DEFINE_EXPR_BINARY_OP(Max, MAXIMUM)
POPLIBS_DEFINE_EXPR_BINARY_OP(Min, MINIMUM)
POPLIBS_DEFINE_EXPR_BINARY_OP_AND_SYMBOL(Mul, MULTIPLY, *)
POPLIBS_DEFINE_EXPR_BINARY_OP_AND_SYMBOL(NotEqual, NOT_EQUAL, !=)
POPLIBS_DEFINE_EXPR_BINARY_OP(Pow, POWER)
POPLIBS_DEFINE_EXPR_BINARY_OP_AND_SYMBOL(Rem, REMAINDER, %)
POPLIBS_DEFINE_EXPR_BINARY_OP_AND_SYMBOL(Shl, SHIFT_LEFT, <<)
POPLIBS_DEFINE_EXPR_BINARY_OP_AND_SYMBOL(Shr, SHIFT_RIGHT, >>)
POPLIBS_DEFINE_EXPR_BINARY_OP(ShrSE, SHIFT_RIGHT_SIGN_EXTEND)
POPLIBS_DEFINE_EXPR_BINARY_OP_AND_SYMBOL(Sub, SUBTRACT, -)
POPLIBS_DEFINE_EXPR_BINARY_OP(VarianceToInvStdDev, VARIANCE_TO_INV_STD_DEV)

class TernaryOp : public ExprType<TernaryOp> {
  TernaryOpType type_;
  std::unique_ptr<Expr> a_, b_, c_;

public:
  TernaryOp(TernaryOpType t, const Expr& x, const Expr& y, const Expr& z)
      : type_(t), a_(x.clone()), b_(y.clone()), c_(z.clone()) {}
  TernaryOp(const TernaryOp& other)
      : ExprType<TernaryOp>(), type_(other.type_), a_(other.a_->clone()), b_(other.b_->clone()),
        c_(other.c_->clone()) {}
  TernaryOp(TernaryOp&&) = default;
  TernaryOp& operator=(const TernaryOp& other) {
    type_ = other.type_;
    a_ = other.a_->clone();
    b_ = other.b_->clone();
    c_ = other.c_->clone();
    return *this;
  }
  TernaryOp& operator=(TernaryOp&&) = default;

  TernaryOpType getOpType() const { return type_; }
  const Expr& getArg0() const { return *a_; }
  const Expr& getArg1() const { return *b_; }
  const Expr& getArg2() const { return *c_; }

  std::unique_ptr<Expr> clone() const override {
    return std::unique_ptr<Expr>(new TernaryOp(*this));
  }
  std::string name(const std::vector<poplar::Tensor>& inputs) const override;
  std::string exprName(const std::vector<poplar::Tensor>& inputs) const {
    return a_->name(inputs) + "_" + b_->name(inputs) + "_" + c_->name(inputs);
  }
  bool deepEquals(const Expr& other) const override;
  void print(std::ostream& os, unsigned indent = 0, bool prettyPrint = true) const override;
};

// The macros that define the named expression classes stay defined, as in PopLibs, so user code
// can define its own names for an operation.
#define POPLIBS_DEFINE_EXPR_TERNARY_OP(Name, Op)                                                   \
  class Name : public TernaryOp {                                                                  \
  public:                                                                                          \
    Name(const Expr& a, const Expr& b, const Expr& c) : TernaryOp(TernaryOpType::Op, a, b, c) {}   \
  };

/// Select(a, b, c) is c ? a : b (c is BOOL).
POPLIBS_DEFINE_EXPR_TERNARY_OP(Select, SELECT)
/// Clamp(a, b, c) is a limited to [b, c].
POPLIBS_DEFINE_EXPR_TERNARY_OP(Clamp, CLAMP)

} // namespace expr
} // namespace popops
