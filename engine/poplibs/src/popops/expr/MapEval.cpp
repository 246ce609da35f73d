// Running a map program: blocks of elements, each instruction one loop over the block (which
// the compiler vectorises), values kept in per-thread scratch blocks that stay in cache.
// Float, int and unsigned inputs are read in place; half and bool inputs are widened into a
// block first. Integer arithmetic wraps; integer division or remainder by zero gives 0, as
// does the smallest int divided by -1 (the IPU traps neither).
#include "popops/expr/MapProgram.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <poplar/HalfFloat.hpp>
#include <type_traits>

namespace popops::mapexpr {
namespace {

using expr::BinaryOpType;
using expr::UnaryOpType;
using poplar::half;

constexpr std::size_t kBlock = 128;

template <typename T> T wrap(std::uint32_t v) {
  return T(v);
}

// ---- unary --------------------------------------------------------------------------------

void unaryFloat(UnaryOpType o, const float* a, void* dst, std::size_t n) {
  float* d = static_cast<float*>(dst);
  std::uint32_t* db = static_cast<std::uint32_t*>(dst);
#define LOOP(expr)                                                                                 \
  for (std::size_t i = 0; i < n; ++i) {                                                            \
    const float x = a[i];                                                                          \
    d[i] = (expr);                                                                                 \
  }                                                                                                \
  return;
#define LOOPB(expr)                                                                                \
  for (std::size_t i = 0; i < n; ++i) {                                                            \
    const float x = a[i];                                                                          \
    db[i] = (expr) ? 1u : 0u;                                                                      \
  }                                                                                                \
  return;
  switch (o) {
  case UnaryOpType::ABSOLUTE:
    LOOP(std::fabs(x))
  case UnaryOpType::ASIN:
    LOOP(std::asin(x))
  case UnaryOpType::CBRT:
    LOOP(std::cbrt(x))
  case UnaryOpType::CEIL:
    LOOP(std::ceil(x))
  case UnaryOpType::COS:
    LOOP(std::cos(x))
  case UnaryOpType::ERF:
    LOOP(std::erf(x))
  case UnaryOpType::EXPONENT:
    LOOP(std::exp(x))
  case UnaryOpType::EXPONENT_MINUS_ONE:
    LOOP(std::expm1(x))
  case UnaryOpType::EXPONENT2:
    LOOP(std::exp2(x))
  case UnaryOpType::FLOOR:
    LOOP(std::floor(x))
  case UnaryOpType::GELU_ERF:
    LOOP(0.5f * x * (1.0f + std::erf(x * 0.70710678f)))
  case UnaryOpType::INVERSE:
    LOOP(1.0f / x)
  case UnaryOpType::IS_FINITE:
    LOOPB(std::isfinite(x))
  case UnaryOpType::IS_INF:
    LOOPB(std::isinf(x))
  case UnaryOpType::IS_NAN:
    LOOPB(std::isnan(x))
  case UnaryOpType::LOGARITHM:
    LOOP(std::log(x))
  case UnaryOpType::LOGARITHM_ONE_PLUS:
    LOOP(std::log1p(x))
  case UnaryOpType::NEGATE:
    LOOP(-x)
  case UnaryOpType::SIGNUM:
    LOOP(x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : 0.0f))
  case UnaryOpType::SIN:
    LOOP(std::sin(x))
  case UnaryOpType::TAN:
    LOOP(std::tan(x))
  case UnaryOpType::TANH:
    LOOP(std::tanh(x))
  case UnaryOpType::ROUND:
    LOOP(std::round(x))
  case UnaryOpType::TRUNC:
    LOOP(std::trunc(x))
  case UnaryOpType::SQRT:
    LOOP(std::sqrt(x))
  case UnaryOpType::SQUARE:
    LOOP(x * x)
  case UnaryOpType::SIGMOID:
    LOOP(1.0f / (1.0f + std::exp(-x)))
  case UnaryOpType::RSQRT:
    LOOP(1.0f / std::sqrt(x))
  case UnaryOpType::NEARBY_INT:
    LOOP(std::nearbyint(x))
  case UnaryOpType::RELU:
    LOOP(x > 0.0f ? x : 0.0f)
  default:
    return; // rejected by the compiler
  }
#undef LOOP
#undef LOOPB
}

template <typename T> void unaryInt(UnaryOpType o, const T* a, void* dst, std::size_t n) {
  using U = std::make_unsigned_t<T>;
  T* d = static_cast<T*>(dst);
#define LOOP(expr)                                                                                 \
  for (std::size_t i = 0; i < n; ++i) {                                                            \
    const T x = a[i];                                                                              \
    d[i] = T(expr);                                                                                \
  }                                                                                                \
  return;
  switch (o) {
  case UnaryOpType::ABSOLUTE:
    LOOP(x < 0 ? T(U(0) - U(x)) : x)
  case UnaryOpType::NEGATE:
    LOOP(U(0) - U(x))
  case UnaryOpType::SIGNUM:
    LOOP(x > 0 ? 1 : (x < 0 ? -1 : 0))
  case UnaryOpType::SQUARE:
    LOOP(U(x) * U(x))
  case UnaryOpType::BITWISE_NOT:
    LOOP(~U(x))
  case UnaryOpType::COUNT_LEADING_ZEROS:
    LOOP(x == 0 ? 32 : __builtin_clz(std::uint32_t(x)))
  case UnaryOpType::POPCOUNT:
    LOOP(__builtin_popcount(std::uint32_t(x)))
  default:
    return;
  }
#undef LOOP
}

void unaryBool(UnaryOpType o, const std::uint32_t* a, void* dst, std::size_t n) {
  std::uint32_t* d = static_cast<std::uint32_t*>(dst);
  if (o == UnaryOpType::LOGICAL_NOT)
    for (std::size_t i = 0; i < n; ++i)
      d[i] = a[i] ^ 1u;
}

// ---- binary -------------------------------------------------------------------------------

/// Comparisons: any kind, a 0/1 result.
template <typename T>
bool compare(BinaryOpType o, const T* a, const T* b, void* dst, std::size_t n) {
  std::uint32_t* d = static_cast<std::uint32_t*>(dst);
#define CMP(op)                                                                                    \
  for (std::size_t i = 0; i < n; ++i)                                                              \
    d[i] = a[i] op b[i] ? 1u : 0u;                                                                 \
  return true;
  switch (o) {
  case BinaryOpType::EQUAL:
    CMP(==)
  case BinaryOpType::NOT_EQUAL:
    CMP(!=)
  case BinaryOpType::LESS_THAN:
    CMP(<)
  case BinaryOpType::LESS_THAN_EQUAL:
    CMP(<=)
  case BinaryOpType::GREATER_THAN:
    CMP(>)
  case BinaryOpType::GREATER_THAN_EQUAL:
    CMP(>=)
  default:
    return false;
  }
#undef CMP
}

void binaryFloat(BinaryOpType o, const float* a, const float* b, void* dst, std::size_t n) {
  if (compare(o, a, b, dst, n)) return;
  float* d = static_cast<float*>(dst);
#define LOOP(expr)                                                                                 \
  for (std::size_t i = 0; i < n; ++i) {                                                            \
    const float x = a[i], y = b[i];                                                                \
    d[i] = (expr);                                                                                 \
  }                                                                                                \
  return;
  switch (o) {
  case BinaryOpType::ADD:
    LOOP(x + y)
  case BinaryOpType::SUBTRACT:
    LOOP(x - y)
  case BinaryOpType::MULTIPLY:
    LOOP(x * y)
  case BinaryOpType::DIVIDE:
    LOOP(x / y)
  case BinaryOpType::REMAINDER:
    LOOP(std::fmod(x, y))
  case BinaryOpType::MAXIMUM:
    LOOP(x < y ? y : x)
  case BinaryOpType::MINIMUM:
    LOOP(y < x ? y : x)
  case BinaryOpType::POWER:
    LOOP(std::pow(x, y))
  case BinaryOpType::ATAN2:
    LOOP(std::atan2(x, y))
  case BinaryOpType::INV_STD_DEV_TO_VARIANCE:
    LOOP(1.0f / (x * x) - y)
  case BinaryOpType::VARIANCE_TO_INV_STD_DEV:
    LOOP(1.0f / std::sqrt(x + y))
  default:
    return;
  }
#undef LOOP
}

template <typename T>
void binaryInt(BinaryOpType o, const T* a, const T* b, void* dst, std::size_t n) {
  if (compare(o, a, b, dst, n)) return;
  using U = std::make_unsigned_t<T>;
  T* d = static_cast<T*>(dst);
  constexpr bool isSigned = std::is_signed<T>::value;
  const auto badDivide = [](T x, T y) {
    return y == 0 || (isSigned && x == std::numeric_limits<T>::min() && y == T(-1));
  };
#define LOOP(expr)                                                                                 \
  for (std::size_t i = 0; i < n; ++i) {                                                            \
    const T x = a[i], y = b[i];                                                                    \
    d[i] = T(expr);                                                                                \
  }                                                                                                \
  return;
  switch (o) {
  case BinaryOpType::ADD:
    LOOP(U(x) + U(y))
  case BinaryOpType::SUBTRACT:
    LOOP(U(x) - U(y))
  case BinaryOpType::MULTIPLY:
    LOOP(U(x) * U(y))
  case BinaryOpType::DIVIDE:
    LOOP(badDivide(x, y) ? T(0) : T(x / y))
  case BinaryOpType::REMAINDER:
    LOOP(badDivide(x, y) ? T(0) : T(x % y))
  case BinaryOpType::MAXIMUM:
    LOOP(x < y ? y : x)
  case BinaryOpType::MINIMUM:
    LOOP(y < x ? y : x)
  case BinaryOpType::BITWISE_AND:
    LOOP(U(x) & U(y))
  case BinaryOpType::BITWISE_OR:
    LOOP(U(x) | U(y))
  case BinaryOpType::BITWISE_XOR:
    LOOP(U(x) ^ U(y))
  case BinaryOpType::BITWISE_XNOR:
    LOOP(~(U(x) ^ U(y)))
  case BinaryOpType::SHIFT_LEFT:
    LOOP(U(x) << (U(y) & 31u))
  case BinaryOpType::SHIFT_RIGHT:
    LOOP(std::uint32_t(x) >> (U(y) & 31u))
  case BinaryOpType::SHIFT_RIGHT_SIGN_EXTEND:
    LOOP(std::int32_t(x) >> (U(y) & 31u))
  default:
    return;
  }
#undef LOOP
}

void binaryBool(BinaryOpType o, const std::uint32_t* a, const std::uint32_t* b, void* dst,
                std::size_t n) {
  if (compare(o, a, b, dst, n)) return;
  std::uint32_t* d = static_cast<std::uint32_t*>(dst);
  if (o == BinaryOpType::LOGICAL_AND)
    for (std::size_t i = 0; i < n; ++i)
      d[i] = a[i] & b[i];
  else if (o == BinaryOpType::LOGICAL_OR)
    for (std::size_t i = 0; i < n; ++i)
      d[i] = a[i] | b[i];
}

// ---- conversions --------------------------------------------------------------------------

template <typename From, typename To> void convertLoop(const void* src, void* dst, std::size_t n) {
  const From* s = static_cast<const From*>(src);
  To* d = static_cast<To*>(dst);
  for (std::size_t i = 0; i < n; ++i)
    d[i] = To(s[i]);
}

/// Float to an integer: truncation toward zero, saturating, NaN to 0 (as popops::cast).
template <typename To> void floatToInt(const float* s, To* d, std::size_t n) {
  constexpr double lo = double(std::numeric_limits<To>::lowest());
  constexpr double hi = double(std::numeric_limits<To>::max());
  for (std::size_t i = 0; i < n; ++i) {
    const double v = s[i];
    d[i] = std::isnan(v) ? To(0)
           : v <= lo     ? std::numeric_limits<To>::lowest()
           : v >= hi     ? std::numeric_limits<To>::max()
                         : To(v);
  }
}

/// A value of kind `from` converted to kind `to` (the Cast instruction).
void castKind(Kind from, Kind to, const void* src, void* dst, std::size_t n) {
  if (from == to) {
    std::memcpy(dst, src, n * 4);
    return;
  }
  if (to == Kind::Bool) {
    std::uint32_t* d = static_cast<std::uint32_t*>(dst);
    if (from == Kind::F32) {
      const float* s = static_cast<const float*>(src);
      for (std::size_t i = 0; i < n; ++i)
        d[i] = s[i] != 0.0f ? 1u : 0u;
    } else {
      const std::uint32_t* s = static_cast<const std::uint32_t*>(src);
      for (std::size_t i = 0; i < n; ++i)
        d[i] = s[i] != 0 ? 1u : 0u;
    }
    return;
  }
  if (from == Kind::F32) {
    if (to == Kind::I32)
      floatToInt(static_cast<const float*>(src), static_cast<std::int32_t*>(dst), n);
    else
      floatToInt(static_cast<const float*>(src), static_cast<std::uint32_t*>(dst), n);
    return;
  }
  // From an integer or bool (held as 0/1).
  if (to == Kind::F32) {
    if (from == Kind::I32)
      convertLoop<std::int32_t, float>(src, dst, n);
    else
      convertLoop<std::uint32_t, float>(src, dst, n);
    return;
  }
  std::memcpy(dst, src, n * 4); // int <-> unsigned: the same bits, as C++ converts them
}

void roundToHalf(float* d, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    d[i] = float(half(d[i]));
}

/// Loads `n` elements of an input of `type` into a block of its kind.
void loadWidened(const poplar::Type& type, const void* src, void* dst, std::size_t n) {
  if (type == poplar::HALF) {
    convertLoop<half, float>(src, dst, n);
  } else if (type == poplar::BOOL) {
    const bool* s = static_cast<const bool*>(src);
    std::uint32_t* d = static_cast<std::uint32_t*>(dst);
    for (std::size_t i = 0; i < n; ++i)
      d[i] = s[i] ? 1u : 0u;
  } else {
    std::memcpy(dst, src, n * 4);
  }
}

/// Stores a block of values of kind-of(type) as `type`.
void store(const poplar::Type& type, const void* src, void* dst, std::size_t n) {
  if (type == poplar::HALF) {
    convertLoop<float, half>(src, dst, n);
  } else if (type == poplar::BOOL) {
    const std::uint32_t* s = static_cast<const std::uint32_t*>(src);
    bool* d = static_cast<bool*>(dst);
    for (std::size_t i = 0; i < n; ++i)
      d[i] = s[i] != 0;
  } else {
    std::memcpy(dst, src, n * 4);
  }
}

void fill(void* dst, std::uint32_t bits, std::size_t n) {
  std::uint32_t* d = static_cast<std::uint32_t*>(dst);
  for (std::size_t i = 0; i < n; ++i)
    d[i] = bits;
}

/// Per-thread scratch: kBlock words per value of the program.
void* scratch(std::size_t values) {
  thread_local std::unique_ptr<std::uint32_t[]> buffer;
  thread_local std::size_t capacity = 0;
  const std::size_t words = values * kBlock;
  if (words > capacity) {
    buffer.reset(new std::uint32_t[words]);
    capacity = words;
  }
  return buffer.get();
}

} // namespace

void run(const Program& p, const void* const* inputs, void* out, std::size_t n) {
  const std::size_t numValues = p.code.size();
  auto* regs = static_cast<std::uint32_t*>(scratch(numValues));
  thread_local std::vector<const void*> val;
  val.resize(numValues);
  const std::size_t outSize = p.outType.size();
  // The last operation writes straight into a 4-byte output (its root is the last instruction;
  // every read of a block happens before it), saving a copy of every block.
  const Instr& root = p.code[p.result];
  const bool direct = outSize == 4 && p.result + 1 == numValues &&
                      root.code != Instr::Code::Input && root.code != Instr::Code::Constant;
  for (std::size_t start = 0; start < n; start += kBlock) {
    const std::size_t len = std::min(kBlock, n - start);
    for (std::size_t v = 0; v < numValues; ++v) {
      const Instr& ins = p.code[v];
      std::uint32_t* dst =
          direct && v == p.result
              ? reinterpret_cast<std::uint32_t*>(static_cast<unsigned char*>(out) + start * 4)
              : regs + v * kBlock;
      switch (ins.code) {
      case Instr::Code::Input: {
        const InputSlot& s = p.inputs[ins.imm];
        const auto* base = static_cast<const unsigned char*>(s.isOutput ? out : inputs[ins.imm]);
        const std::size_t size = s.type.size();
        if (s.scalar) {
          if (start == 0) { // constant over the vertex: widen once into a full block
            std::uint32_t w;
            loadWidened(s.type, base, &w, 1);
            fill(dst, w, kBlock);
          }
          val[v] = dst;
        } else if (size == 4) {
          val[v] = base + start * 4; // float, int, unsigned: read in place
        } else {
          loadWidened(s.type, base + start * size, dst, len);
          val[v] = dst;
        }
        continue;
      }
      case Instr::Code::Constant:
        if (start == 0) fill(dst, ins.imm, kBlock);
        break;
      case Instr::Code::Unary: {
        const auto o = UnaryOpType(ins.op);
        if (ins.inKind == Kind::F32)
          unaryFloat(o, static_cast<const float*>(val[ins.a]), dst, len);
        else if (ins.inKind == Kind::I32)
          unaryInt(o, static_cast<const std::int32_t*>(val[ins.a]), dst, len);
        else if (ins.inKind == Kind::U32)
          unaryInt(o, static_cast<const std::uint32_t*>(val[ins.a]), dst, len);
        else
          unaryBool(o, static_cast<const std::uint32_t*>(val[ins.a]), dst, len);
        break;
      }
      case Instr::Code::Binary: {
        const auto o = BinaryOpType(ins.op);
        if (ins.inKind == Kind::F32)
          binaryFloat(o, static_cast<const float*>(val[ins.a]),
                      static_cast<const float*>(val[ins.b]), dst, len);
        else if (ins.inKind == Kind::I32)
          binaryInt(o, static_cast<const std::int32_t*>(val[ins.a]),
                    static_cast<const std::int32_t*>(val[ins.b]), dst, len);
        else if (ins.inKind == Kind::U32)
          binaryInt(o, static_cast<const std::uint32_t*>(val[ins.a]),
                    static_cast<const std::uint32_t*>(val[ins.b]), dst, len);
        else
          binaryBool(o, static_cast<const std::uint32_t*>(val[ins.a]),
                     static_cast<const std::uint32_t*>(val[ins.b]), dst, len);
        break;
      }
      case Instr::Code::Select: {
        const auto* a = static_cast<const std::uint32_t*>(val[ins.a]);
        const auto* b = static_cast<const std::uint32_t*>(val[ins.b]);
        const auto* c = static_cast<const std::uint32_t*>(val[ins.c]);
        for (std::size_t i = 0; i < len; ++i)
          dst[i] = c[i] ? a[i] : b[i];
        break;
      }
      case Instr::Code::Clamp: {
        if (ins.inKind == Kind::F32) {
          const auto* a = static_cast<const float*>(val[ins.a]);
          const auto* lo = static_cast<const float*>(val[ins.b]);
          const auto* hi = static_cast<const float*>(val[ins.c]);
          float* d = reinterpret_cast<float*>(dst);
          for (std::size_t i = 0; i < len; ++i)
            d[i] = std::max(lo[i], std::min(a[i], hi[i]));
        } else if (ins.inKind == Kind::I32) {
          const auto* a = static_cast<const std::int32_t*>(val[ins.a]);
          const auto* lo = static_cast<const std::int32_t*>(val[ins.b]);
          const auto* hi = static_cast<const std::int32_t*>(val[ins.c]);
          auto* d = reinterpret_cast<std::int32_t*>(dst);
          for (std::size_t i = 0; i < len; ++i)
            d[i] = std::max(lo[i], std::min(a[i], hi[i]));
        } else {
          const auto* a = static_cast<const std::uint32_t*>(val[ins.a]);
          const auto* lo = static_cast<const std::uint32_t*>(val[ins.b]);
          const auto* hi = static_cast<const std::uint32_t*>(val[ins.c]);
          for (std::size_t i = 0; i < len; ++i)
            dst[i] = std::max(lo[i], std::min(a[i], hi[i]));
        }
        break;
      }
      case Instr::Code::Cast:
        castKind(ins.inKind, ins.outKind, val[ins.a], dst, len);
        break;
      }
      if (ins.roundToHalf) roundToHalf(reinterpret_cast<float*>(dst), len);
      val[v] = dst;
    }
    if (!direct)
      store(p.outType, val[p.result], static_cast<unsigned char*>(out) + start * outSize, len);
  }
}

} // namespace popops::mapexpr
