// Element-wise operations, and popops::map, which evaluates an element expression
// (popops/Expr.hpp) over tensors in one compute set.
//
// Shapes: operands broadcast as numpy does (each operand's shape, aligned to the trailing
// dimensions, has 1 or the result's size in each dimension; a one-element tensor is read for
// every element). Results are new tensors mapped like the largest operand; the InPlace forms
// write into the first operand and the WithOutput forms into `out`, which must have the
// result's shape and type and no aliased elements.
//
// add, sub, mul, div, max, min, neg, exp, log, sqrt, square, abs, tanh and sigmoid (on tensors
// of one type) run PopLibs' one-operation vertices (popops::Add<float>, ...); every other form
// runs the fused expression vertex popops::map::<expression name>. Types: float, half, int,
// unsigned int and bool as each operator allows (comparisons and logical operators give bool;
// see docs/compatibility.md). A plain number as an operand takes the other operand's type: a
// floating-point number needs a float or half tensor, an integer an int, unsigned or bool one.
//
// Options: map accepts "enableGenerateCodelet" and "enableExpressionOptimizations" (Tessera
// always fuses); the other operations accept none. Any other option is an error.
#pragma once

#include <iosfwd>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popops/Expr.hpp>
#include <popops/ScaledAdd.hpp> // scaledAddTo and scaledSubtractFrom were declared here first
#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>
#include <type_traits>
#include <vector>

namespace poputil {
/// An operation type in a debug context's arguments: its name ("ADD").
template <> poplar::ProfileValue toProfileValue(const popops::expr::UnaryOpType& op);
template <> poplar::ProfileValue toProfileValue(const popops::expr::BinaryOpType& op);
template <> poplar::ProfileValue toProfileValue(const popops::expr::TernaryOpType& op);
} // namespace poputil

namespace popops {

/// Writes to `os` the codelet that map() would run for `expr` over `ts` (checked as map checks
/// them): C++ source of a vertex evaluating the expression element by element. Tessera runs the
/// same expression in its fused map vertex; the text is for reading, not for compiling into
/// Tessera. Options as map's.
void outputGeneratedCodelet(const poplar::Target& target, const expr::Expr& expr,
                            const std::vector<poplar::Tensor>& ts,
                            const poplar::OptionFlags& options, std::ostream& os);

// ---- map ----------------------------------------------------------------------------------

/// A new tensor holding `expr` evaluated for every element; placeholder _i reads ts[i-1].
poplar::Tensor map(poplar::Graph& graph, const expr::Expr& expr,
                   const std::vector<poplar::Tensor>& ts, poplar::program::Sequence& prog,
                   const poplar::DebugContext& debugContext = {},
                   const poplar::OptionFlags& options = {});

inline poplar::Tensor map(poplar::Graph& graph, expr::UnaryOpType op, const poplar::Tensor& t,
                          poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = {},
                          const poplar::OptionFlags& options = {}) {
  return map(graph, expr::UnaryOp(op, expr::_1), {t}, prog, debugContext, options);
}
inline poplar::Tensor map(poplar::Graph& graph, expr::BinaryOpType op, const poplar::Tensor& a,
                          const poplar::Tensor& b, poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = {},
                          const poplar::OptionFlags& options = {}) {
  return map(graph, expr::BinaryOp(op, expr::_1, expr::_2), {a, b}, prog, debugContext, options);
}
inline poplar::Tensor map(poplar::Graph& graph, expr::TernaryOpType op, const poplar::Tensor& a,
                          const poplar::Tensor& b, const poplar::Tensor& c,
                          poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = {},
                          const poplar::OptionFlags& options = {}) {
  return map(graph, expr::TernaryOp(op, expr::_1, expr::_2, expr::_3), {a, b, c}, prog,
             debugContext, options);
}

/// One new tensor per expression of `exprs`, each evaluated over `ts` as map() above does (one
/// map after another, in order).
std::vector<poplar::Tensor> map(poplar::Graph& graph, const std::vector<expr::Any>& exprs,
                                const std::vector<poplar::Tensor>& ts,
                                poplar::program::Sequence& prog,
                                const poplar::DebugContext& debugContext = {},
                                const poplar::OptionFlags& options = {});

/// Evaluates `expr` and writes the result into ts[0] (which must have the result's shape and
/// type).
void mapInPlace(poplar::Graph& graph, const expr::Expr& expr, const std::vector<poplar::Tensor>& ts,
                poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {},
                const poplar::OptionFlags& options = {});

inline void mapInPlace(poplar::Graph& graph, expr::UnaryOpType op, const poplar::Tensor& t,
                       poplar::program::Sequence& prog,
                       const poplar::DebugContext& debugContext = {},
                       const poplar::OptionFlags& options = {}) {
  mapInPlace(graph, expr::UnaryOp(op, expr::_1), {t}, prog, debugContext, options);
}
inline void mapInPlace(poplar::Graph& graph, expr::BinaryOpType op, const poplar::Tensor& a,
                       const poplar::Tensor& b, poplar::program::Sequence& prog,
                       const poplar::DebugContext& debugContext = {},
                       const poplar::OptionFlags& options = {}) {
  mapInPlace(graph, expr::BinaryOp(op, expr::_1, expr::_2), {a, b}, prog, debugContext, options);
}
inline void mapInPlace(poplar::Graph& graph, expr::TernaryOpType op, const poplar::Tensor& a,
                       const poplar::Tensor& b, const poplar::Tensor& c,
                       poplar::program::Sequence& prog,
                       const poplar::DebugContext& debugContext = {},
                       const poplar::OptionFlags& options = {}) {
  mapInPlace(graph, expr::TernaryOp(op, expr::_1, expr::_2, expr::_3), {a, b, c}, prog,
             debugContext, options);
}

/// Evaluates every expression of `exprs` over the values `ts` hold before the call, then
/// writes the result of exprs[i] into ts[i] (so no expression sees another's result). There
/// must be no more expressions than tensors.
void mapInPlace(poplar::Graph& graph, const std::vector<expr::Any>& exprs,
                const std::vector<poplar::Tensor>& ts, poplar::program::Sequence& prog,
                const poplar::DebugContext& debugContext = {},
                const poplar::OptionFlags& options = {});

/// Evaluates `expr` into the existing tensor `out`.
void mapWithOutput(poplar::Graph& graph, const expr::Expr& expr,
                   const std::vector<poplar::Tensor>& ts, const poplar::Tensor& out,
                   poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {},
                   const poplar::OptionFlags& options = {});

inline void mapWithOutput(poplar::Graph& graph, expr::UnaryOpType op, const poplar::Tensor& in,
                          const poplar::Tensor& out, poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = {},
                          const poplar::OptionFlags& options = {}) {
  mapWithOutput(graph, expr::UnaryOp(op, expr::_1), {in}, out, prog, debugContext, options);
}
inline void mapWithOutput(poplar::Graph& graph, expr::BinaryOpType op, const poplar::Tensor& a,
                          const poplar::Tensor& b, const poplar::Tensor& out,
                          poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = {},
                          const poplar::OptionFlags& options = {}) {
  mapWithOutput(graph, expr::BinaryOp(op, expr::_1, expr::_2), {a, b}, out, prog, debugContext,
                options);
}
inline void mapWithOutput(poplar::Graph& graph, expr::TernaryOpType op, const poplar::Tensor& a,
                          const poplar::Tensor& b, const poplar::Tensor& c,
                          const poplar::Tensor& out, poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = {},
                          const poplar::OptionFlags& options = {}) {
  mapWithOutput(graph, expr::TernaryOp(op, expr::_1, expr::_2, expr::_3), {a, b, c}, out, prog,
                debugContext, options);
}

/// Evaluates exprs[i] into outs[i], one after another in order (an expression reads the
/// outputs written before it when they alias its inputs). outs and exprs have one size.
void mapWithOutput(poplar::Graph& graph, const std::vector<expr::Any>& exprs,
                   const std::vector<poplar::Tensor>& ts, const std::vector<poplar::Tensor>& outs,
                   poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {},
                   const poplar::OptionFlags& options = {});

namespace detail {
/// The named element-wise operations: `api` ("eq") names the operation in errors and its
/// debug context. Each evaluates `e` over `ts` like map / mapInPlace / mapWithOutput.
poplar::Tensor namedMap(poplar::Graph& graph, const char* api, const expr::Expr& e,
                        const std::vector<poplar::Tensor>& ts, poplar::program::Sequence& prog,
                        const poplar::DebugContext& debugContext,
                        const poplar::OptionFlags& options);
void namedMapInPlace(poplar::Graph& graph, const char* api, const expr::Expr& e,
                     const std::vector<poplar::Tensor>& ts, poplar::program::Sequence& prog,
                     const poplar::DebugContext& debugContext, const poplar::OptionFlags& options);
void namedMapWithOutput(poplar::Graph& graph, const char* api, const expr::Expr& e,
                        const std::vector<poplar::Tensor>& ts, const poplar::Tensor& out,
                        poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
                        const poplar::OptionFlags& options);
/// Throws poputil::poplibs_error naming `api` and `operand` unless a constant of `constType`
/// may meet a tensor of `tensorType` (floating-point numbers: float or half tensors; integers:
/// int, unsigned int or bool tensors of the same signedness).
void checkConstantType(const poplar::Type& tensorType, const poplar::Type& constType,
                       bool isFloatingPointConst, const char* api, const char* operand);

template <typename T> struct IsScalarOperand {
  static constexpr bool value = std::is_arithmetic<T>::value;
};
template <typename T>
void checkConstant(const poplar::Tensor& t, const T&, const char* api, const char* operand) {
  checkConstantType(t.elementType(), expr::detail::ConstDeviceType<T>::get(),
                    std::is_floating_point<T>::value, api, operand);
}
} // namespace detail

// ---- unary operations ---------------------------------------------------------------------

#define POPOPS_UNARY_OUT_OF_LINE(fn)                                                               \
  poplar::Tensor fn(                                                                               \
      poplar::Graph& graph, const poplar::Tensor& A, poplar::program::Sequence& prog,              \
      const poplar::DebugContext& debugContext = {}, const poplar::OptionFlags& options = {});     \
  void fn##InPlace(poplar::Graph& graph, const poplar::Tensor& A, poplar::program::Sequence& prog, \
                   const poplar::DebugContext& debugContext = {},                                  \
                   const poplar::OptionFlags& options = {});
#define POPOPS_UNARY_WITH_OUTPUT(fn, OP)                                                           \
  inline void fn##WithOutput(poplar::Graph& graph, const poplar::Tensor& A,                        \
                             const poplar::Tensor& out, poplar::program::Sequence& prog,           \
                             const poplar::DebugContext& debugContext = {},                        \
                             const poplar::OptionFlags& options = {}) {                            \
    detail::namedMapWithOutput(graph, #fn, expr::UnaryOp(expr::UnaryOpType::OP, expr::_1), {A},    \
                               out, prog, debugContext, options);                                  \
  }
#define POPOPS_UNARY(fn, OP)                                                                       \
  inline poplar::Tensor fn(                                                                        \
      poplar::Graph& graph, const poplar::Tensor& A, poplar::program::Sequence& prog,              \
      const poplar::DebugContext& debugContext = {}, const poplar::OptionFlags& options = {}) {    \
    return detail::namedMap(graph, #fn, expr::UnaryOp(expr::UnaryOpType::OP, expr::_1), {A}, prog, \
                            debugContext, options);                                                \
  }                                                                                                \
  inline void fn##InPlace(                                                                         \
      poplar::Graph& graph, const poplar::Tensor& A, poplar::program::Sequence& prog,              \
      const poplar::DebugContext& debugContext = {}, const poplar::OptionFlags& options = {}) {    \
    detail::namedMapInPlace(graph, #fn, expr::UnaryOp(expr::UnaryOpType::OP, expr::_1), {A}, prog, \
                            debugContext, options);                                                \
  }                                                                                                \
  POPOPS_UNARY_WITH_OUTPUT(fn, OP)

/// -A, e^A, ln A, sqrt A, A^2, |A|, tanh A and 1 / (1 + e^-A) (PopLibs' own vertices).
POPOPS_UNARY_OUT_OF_LINE(neg)
POPOPS_UNARY_OUT_OF_LINE(exp)
POPOPS_UNARY_OUT_OF_LINE(log)
POPOPS_UNARY_OUT_OF_LINE(sqrt)
POPOPS_UNARY_OUT_OF_LINE(square)
POPOPS_UNARY_OUT_OF_LINE(abs)
POPOPS_UNARY_OUT_OF_LINE(tanh)
POPOPS_UNARY_OUT_OF_LINE(sigmoid)
POPOPS_UNARY_WITH_OUTPUT(neg, NEGATE)
POPOPS_UNARY_WITH_OUTPUT(exp, EXPONENT)
POPOPS_UNARY_WITH_OUTPUT(log, LOGARITHM)
POPOPS_UNARY_WITH_OUTPUT(sqrt, SQRT)
POPOPS_UNARY_WITH_OUTPUT(square, SQUARE)
POPOPS_UNARY_WITH_OUTPUT(abs, ABSOLUTE)
POPOPS_UNARY_WITH_OUTPUT(tanh, TANH)
POPOPS_UNARY_WITH_OUTPUT(sigmoid, SIGMOID)

POPOPS_UNARY(asin, ASIN)
POPOPS_UNARY(bitwiseNot, BITWISE_NOT)
POPOPS_UNARY(cbrt, CBRT)
POPOPS_UNARY(ceil, CEIL)
POPOPS_UNARY(cos, COS)
POPOPS_UNARY(countLeadingZeros, COUNT_LEADING_ZEROS)
POPOPS_UNARY(erf, ERF)
POPOPS_UNARY(expm1, EXPONENT_MINUS_ONE)
POPOPS_UNARY(exp2, EXPONENT2)
POPOPS_UNARY(floor, FLOOR)
POPOPS_UNARY(geluErf, GELU_ERF)
POPOPS_UNARY(inv, INVERSE)
POPOPS_UNARY(log1p, LOGARITHM_ONE_PLUS)
POPOPS_UNARY(logicalNot, LOGICAL_NOT)
POPOPS_UNARY(popcount, POPCOUNT)
POPOPS_UNARY(signum, SIGNUM)
POPOPS_UNARY(sin, SIN)
POPOPS_UNARY(tan, TAN)
POPOPS_UNARY(round, ROUND)
/// std::nearbyint: to the nearest integer, ties to even (float and half).
POPOPS_UNARY(nearbyint, NEARBY_INT)
POPOPS_UNARY(trunc, TRUNC)
POPOPS_UNARY(rsqrt, RSQRT)

/// BOOL tensors: whether each element is finite, infinite, NaN.
inline poplar::Tensor isFinite(poplar::Graph& graph, const poplar::Tensor& A,
                               poplar::program::Sequence& prog,
                               const poplar::DebugContext& debugContext = {},
                               const poplar::OptionFlags& options = {}) {
  return detail::namedMap(graph, "isFinite", expr::IsFinite(expr::_1), {A}, prog, debugContext,
                          options);
}
inline void isFiniteWithOutput(poplar::Graph& graph, const poplar::Tensor& A,
                               const poplar::Tensor& out, poplar::program::Sequence& prog,
                               const poplar::DebugContext& debugContext = {},
                               const poplar::OptionFlags& options = {}) {
  detail::namedMapWithOutput(graph, "isFiniteWithOutput", expr::IsFinite(expr::_1), {A}, out, prog,
                             debugContext, options);
}
inline poplar::Tensor isInf(poplar::Graph& graph, const poplar::Tensor& A,
                            poplar::program::Sequence& prog,
                            const poplar::DebugContext& debugContext = {},
                            const poplar::OptionFlags& options = {}) {
  return detail::namedMap(graph, "isInf", expr::IsInf(expr::_1), {A}, prog, debugContext, options);
}
inline poplar::Tensor isNaN(poplar::Graph& graph, const poplar::Tensor& A,
                            poplar::program::Sequence& prog,
                            const poplar::DebugContext& debugContext = {},
                            const poplar::OptionFlags& options = {}) {
  return detail::namedMap(graph, "isNaN", expr::IsNaN(expr::_1), {A}, prog, debugContext, options);
}

/// Throws poputil::poplibs_error unless the host type constType is the device type elementType
/// (float and double constants also go with half tensors), as PopLibs checks a constant operand.
template <typename constType> inline void checkTypes(poplar::Type elementType, constType) {
  if (elementType != poplar::equivalent_device_type<constType>().value)
    throw poputil::poplibs_error("Type mismatch between Binary op Tensor (" +
                                 elementType.toString() + ") and constant");
}
template <> inline void checkTypes<float>(poplar::Type elementType, float) {
  if (elementType != poplar::FLOAT && elementType != poplar::HALF)
    throw poputil::poplibs_error("Type mismatch between Binary op Tensor (" +
                                 elementType.toString() + ") and constant (float)");
}
template <> inline void checkTypes<double>(poplar::Type elementType, double) {
  if (elementType != poplar::FLOAT && elementType != poplar::HALF)
    throw poputil::poplibs_error("Type mismatch between Binary op Tensor (" +
                                 elementType.toString() + ") and constant (double)");
}

// ---- binary operations --------------------------------------------------------------------

// The forms with a plain number as either operand, and the WithOutput forms.
#define POPOPS_BINARY_SCALAR_FORMS(fn, OP)                                                         \
  template <typename constType,                                                                    \
            typename = typename std::enable_if<detail::IsScalarOperand<constType>::value>::type>   \
  poplar::Tensor fn(poplar::Graph& graph, const poplar::Tensor& A, const constType B,              \
                    poplar::program::Sequence& prog,                                               \
                    const poplar::DebugContext& debugContext = {},                                 \
                    const poplar::OptionFlags& options = {}) {                                     \
    detail::checkConstant(A, B, #fn, "B");                                                         \
    return detail::namedMap(graph, #fn,                                                            \
                            expr::BinaryOp(expr::BinaryOpType::OP, expr::_1, expr::Const(B)), {A}, \
                            prog, debugContext, options);                                          \
  }                                                                                                \
  template <typename constType,                                                                    \
            typename = typename std::enable_if<detail::IsScalarOperand<constType>::value>::type>   \
  poplar::Tensor fn(poplar::Graph& graph, const constType A, const poplar::Tensor& B,              \
                    poplar::program::Sequence& prog,                                               \
                    const poplar::DebugContext& debugContext = {},                                 \
                    const poplar::OptionFlags& options = {}) {                                     \
    detail::checkConstant(B, A, #fn, "A");                                                         \
    return detail::namedMap(graph, #fn,                                                            \
                            expr::BinaryOp(expr::BinaryOpType::OP, expr::Const(A), expr::_1), {B}, \
                            prog, debugContext, options);                                          \
  }                                                                                                \
  template <typename constType,                                                                    \
            typename = typename std::enable_if<detail::IsScalarOperand<constType>::value>::type>   \
  void fn##InPlace(poplar::Graph& graph, const poplar::Tensor& A, const constType B,               \
                   poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {}, \
                   const poplar::OptionFlags& options = {}) {                                      \
    detail::checkConstant(A, B, #fn "InPlace", "B");                                               \
    detail::namedMapInPlace(graph, #fn "InPlace",                                                  \
                            expr::BinaryOp(expr::BinaryOpType::OP, expr::_1, expr::Const(B)), {A}, \
                            prog, debugContext, options);                                          \
  }                                                                                                \
  inline void fn##WithOutput(                                                                      \
      poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,                      \
      const poplar::Tensor& out, poplar::program::Sequence& prog,                                  \
      const poplar::DebugContext& debugContext = {}, const poplar::OptionFlags& options = {}) {    \
    detail::namedMapWithOutput(graph, #fn "WithOutput",                                            \
                               expr::BinaryOp(expr::BinaryOpType::OP, expr::_1, expr::_2), {A, B}, \
                               out, prog, debugContext, options);                                  \
  }                                                                                                \
  template <typename constType,                                                                    \
            typename = typename std::enable_if<detail::IsScalarOperand<constType>::value>::type>   \
  void fn##WithOutput(poplar::Graph& graph, const poplar::Tensor& A, const constType B,            \
                      const poplar::Tensor& out, poplar::program::Sequence& prog,                  \
                      const poplar::DebugContext& debugContext = {},                               \
                      const poplar::OptionFlags& options = {}) {                                   \
    detail::checkConstant(A, B, #fn "WithOutput", "B");                                            \
    detail::namedMapWithOutput(graph, #fn "WithOutput",                                            \
                               expr::BinaryOp(expr::BinaryOpType::OP, expr::_1, expr::Const(B)),   \
                               {A}, out, prog, debugContext, options);                             \
  }                                                                                                \
  template <typename constType,                                                                    \
            typename = typename std::enable_if<detail::IsScalarOperand<constType>::value>::type>   \
  void fn##WithOutput(poplar::Graph& graph, const constType A, const poplar::Tensor& B,            \
                      const poplar::Tensor& out, poplar::program::Sequence& prog,                  \
                      const poplar::DebugContext& debugContext = {},                               \
                      const poplar::OptionFlags& options = {}) {                                   \
    detail::checkConstant(B, A, #fn "WithOutput", "A");                                            \
    detail::namedMapWithOutput(graph, #fn "WithOutput",                                            \
                               expr::BinaryOp(expr::BinaryOpType::OP, expr::Const(A), expr::_1),   \
                               {B}, out, prog, debugContext, options);                             \
  }

#define POPOPS_BINARY_OUT_OF_LINE(fn, OP)                                                          \
  poplar::Tensor fn(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,        \
                    poplar::program::Sequence& prog,                                               \
                    const poplar::DebugContext& debugContext = {},                                 \
                    const poplar::OptionFlags& options = {});                                      \
  void fn##InPlace(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,         \
                   poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {}, \
                   const poplar::OptionFlags& options = {});                                       \
  POPOPS_BINARY_SCALAR_FORMS(fn, OP)

#define POPOPS_BINARY(fn, OP)                                                                      \
  inline poplar::Tensor fn(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B, \
                           poplar::program::Sequence& prog,                                        \
                           const poplar::DebugContext& debugContext = {},                          \
                           const poplar::OptionFlags& options = {}) {                              \
    return detail::namedMap(graph, #fn,                                                            \
                            expr::BinaryOp(expr::BinaryOpType::OP, expr::_1, expr::_2), {A, B},    \
                            prog, debugContext, options);                                          \
  }                                                                                                \
  inline void fn##InPlace(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,  \
                          poplar::program::Sequence& prog,                                         \
                          const poplar::DebugContext& debugContext = {},                           \
                          const poplar::OptionFlags& options = {}) {                               \
    detail::namedMapInPlace(graph, #fn "InPlace",                                                  \
                            expr::BinaryOp(expr::BinaryOpType::OP, expr::_1, expr::_2), {A, B},    \
                            prog, debugContext, options);                                          \
  }                                                                                                \
  POPOPS_BINARY_SCALAR_FORMS(fn, OP)

/// A + B, A - B, A * B, A / B, max and min (PopLibs' own vertices for two tensors).
POPOPS_BINARY_OUT_OF_LINE(add, ADD)
POPOPS_BINARY_OUT_OF_LINE(sub, SUBTRACT)
POPOPS_BINARY_OUT_OF_LINE(mul, MULTIPLY)
POPOPS_BINARY_OUT_OF_LINE(div, DIVIDE)
POPOPS_BINARY_OUT_OF_LINE(max, MAXIMUM)
POPOPS_BINARY_OUT_OF_LINE(min, MINIMUM)

POPOPS_BINARY(atan2, ATAN2)
POPOPS_BINARY(bitwiseAnd, BITWISE_AND)
POPOPS_BINARY(bitwiseOr, BITWISE_OR)
POPOPS_BINARY(bitwiseXor, BITWISE_XOR)
POPOPS_BINARY(bitwiseXnor, BITWISE_XNOR)
POPOPS_BINARY(eq, EQUAL)
POPOPS_BINARY(gteq, GREATER_THAN_EQUAL)
POPOPS_BINARY(gt, GREATER_THAN)
POPOPS_BINARY(invStdDevToVariance, INV_STD_DEV_TO_VARIANCE)
POPOPS_BINARY(lteq, LESS_THAN_EQUAL)
POPOPS_BINARY(logicalAnd, LOGICAL_AND)
POPOPS_BINARY(logicalOr, LOGICAL_OR)
POPOPS_BINARY(lt, LESS_THAN)
POPOPS_BINARY(neq, NOT_EQUAL)
POPOPS_BINARY(pow, POWER)
POPOPS_BINARY(rem, REMAINDER)
POPOPS_BINARY(shiftLeft, SHIFT_LEFT)
POPOPS_BINARY(shiftRight, SHIFT_RIGHT)
POPOPS_BINARY(shiftRightSignExtend, SHIFT_RIGHT_SIGN_EXTEND)
POPOPS_BINARY(varianceToInvStdDev, VARIANCE_TO_INV_STD_DEV)

namespace detail {
/// invStdDevToVariance / varianceToInvStdDev with a result type (ElementWise's dstType forms).
poplar::Tensor convertVariance(poplar::Graph& graph, const poplar::Tensor& src,
                               const poplar::Tensor& epsilon, poplar::program::Sequence& prog,
                               poplar::Type dstType, expr::BinaryOpType op,
                               const poplar::DebugContext& debugContext);
poplar::Tensor convertVariance(poplar::Graph& graph, const poplar::Tensor& src, float epsilon,
                               poplar::program::Sequence& prog, poplar::Type dstType,
                               expr::BinaryOpType op, const poplar::DebugContext& debugContext);
} // namespace detail

// PopLibs' forms with a result type: 1 / sqrt(variance + epsilon) stored as `dstType` (src's
// type or HALF), and 1 / invStdDev^2 - epsilon stored as `dstType` (src's type or FLOAT);
// `epsilon` has one element. The forms with a tensor epsilon are templates so that a call
// without dstType keeps choosing the forms above (in PopLibs both are plain functions and such
// a call is ambiguous); a call with a float epsilon and no dstType chooses the float form here,
// as in PopLibs (a plain function beats the scalar template), so its result is HALF
// (varianceToInvStdDev) or FLOAT (invStdDevToVariance).
template <typename = void>
poplar::Tensor varianceToInvStdDev(poplar::Graph& graph, const poplar::Tensor& src,
                                   const poplar::Tensor& epsilon, poplar::program::Sequence& prog,
                                   const poplar::Type dstType = poplar::HALF,
                                   const poplar::DebugContext& debugContext = {}) {
  return detail::convertVariance(graph, src, epsilon, prog, dstType,
                                 expr::BinaryOpType::VARIANCE_TO_INV_STD_DEV, debugContext);
}
inline poplar::Tensor varianceToInvStdDev(poplar::Graph& graph, const poplar::Tensor& src,
                                          const float epsilon, poplar::program::Sequence& prog,
                                          const poplar::Type dstType = poplar::HALF,
                                          const poplar::DebugContext& debugContext = {}) {
  return detail::convertVariance(graph, src, epsilon, prog, dstType,
                                 expr::BinaryOpType::VARIANCE_TO_INV_STD_DEV, debugContext);
}
template <typename = void>
poplar::Tensor invStdDevToVariance(poplar::Graph& graph, const poplar::Tensor& src,
                                   const poplar::Tensor& epsilon, poplar::program::Sequence& prog,
                                   const poplar::Type dstType = poplar::FLOAT,
                                   const poplar::DebugContext& debugContext = {}) {
  return detail::convertVariance(graph, src, epsilon, prog, dstType,
                                 expr::BinaryOpType::INV_STD_DEV_TO_VARIANCE, debugContext);
}
inline poplar::Tensor invStdDevToVariance(poplar::Graph& graph, const poplar::Tensor& src,
                                          const float epsilon, poplar::program::Sequence& prog,
                                          const poplar::Type dstType = poplar::FLOAT,
                                          const poplar::DebugContext& debugContext = {}) {
  return detail::convertVariance(graph, src, epsilon, prog, dstType,
                                 expr::BinaryOpType::INV_STD_DEV_TO_VARIANCE, debugContext);
}

// ---- ternary operations -------------------------------------------------------------------

#define POPOPS_TERNARY(fn, OP)                                                                     \
  inline poplar::Tensor fn(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B, \
                           const poplar::Tensor& C, poplar::program::Sequence& prog,               \
                           const poplar::DebugContext& debugContext = {},                          \
                           const poplar::OptionFlags& options = {}) {                              \
    return detail::namedMap(                                                                       \
        graph, #fn, expr::TernaryOp(expr::TernaryOpType::OP, expr::_1, expr::_2, expr::_3),        \
        {A, B, C}, prog, debugContext, options);                                                   \
  }                                                                                                \
  inline void fn##InPlace(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,  \
                          const poplar::Tensor& C, poplar::program::Sequence& prog,                \
                          const poplar::DebugContext& debugContext = {},                           \
                          const poplar::OptionFlags& options = {}) {                               \
    detail::namedMapInPlace(                                                                       \
        graph, #fn "InPlace",                                                                      \
        expr::TernaryOp(expr::TernaryOpType::OP, expr::_1, expr::_2, expr::_3), {A, B, C}, prog,   \
        debugContext, options);                                                                    \
  }                                                                                                \
  inline void fn##WithOutput(                                                                      \
      poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,                      \
      const poplar::Tensor& C, const poplar::Tensor& out, poplar::program::Sequence& prog,         \
      const poplar::DebugContext& debugContext = {}, const poplar::OptionFlags& options = {}) {    \
    detail::namedMapWithOutput(                                                                    \
        graph, #fn "WithOutput",                                                                   \
        expr::TernaryOp(expr::TernaryOpType::OP, expr::_1, expr::_2, expr::_3), {A, B, C}, out,    \
        prog, debugContext, options);                                                              \
  }

/// select(A, B, C): C ? A : B, with C a BOOL tensor. clamp(A, B, C): A limited to [B, C].
POPOPS_TERNARY(select, SELECT)
POPOPS_TERNARY(clamp, CLAMP)

#undef POPOPS_UNARY_OUT_OF_LINE
#undef POPOPS_UNARY_WITH_OUTPUT
#undef POPOPS_UNARY
#undef POPOPS_BINARY_SCALAR_FORMS
#undef POPOPS_BINARY_OUT_OF_LINE
#undef POPOPS_BINARY
#undef POPOPS_TERNARY

} // namespace popops
