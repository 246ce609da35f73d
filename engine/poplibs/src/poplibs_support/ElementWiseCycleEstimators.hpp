// Cycle estimates of PopLibs' element-wise vertices (UnaryOp1D, BinaryOp1D and their in-place
// forms, which Tessera's popops::Add<float>-style vertices are too) and of ScaledAdd, as
// PopLibs' published estimators compute them (graphcore/poplibs lib/popops/
// popopsCycleEstimators.cpp and popopsCycleEstimators.hpp: the per-operation loop costs and the
// vertex overheads are facts about the vertices' assembly; the code is ours).
//
// PopLibs' 1D vertices are MultiVertexes: each of the 6 workers takes ceil(n / 6) elements and
// the vertex costs 6 × (worker cycles) + a supervisor overhead. Tessera splits a tile's elements
// into one worker vertex per piece itself and the engine charges 6 × each context's cycles, so
// a Tessera vertex's estimate is PopLibs' *worker* cycles for the elements of its piece; the
// supervisor's few cycles (11, or 20 for the unary vertices) are part of the tile's launch cost.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>
#include <string>

namespace poplibs_support {

/// How one operation's inner loop runs (PopLibs' OpPerformanceInfo): with `natural`, each loop
/// handles one vector of the target's width in `cyclesPerLoop` plus a load/store overhead added
/// by the vertex; otherwise `unroll` elements per loop in exactly `cyclesPerLoop` (or, for unary
/// vertices with unroll 0, one element in `cyclesPerLoop` plus the overhead).
struct OpLoopInfo {
  unsigned cyclesPerLoop;
  bool natural;
  unsigned unroll;
};

namespace detail {

struct OpLoopRow {
  const char* op;   ///< popops::expr operator name, as in the vertex name ("ADD")
  const char* type; ///< element type name ("float")
  OpLoopInfo out;   ///< the vertex writing a separate output
  OpLoopInfo inPlace;
};

// The rows for the element types Tessera's element-wise vertices take (float, half, int,
// unsigned int, bool), copied as numbers from PopLibs' tables.
inline const OpLoopRow* unaryRows(std::size_t& count) {
  static const OpLoopRow rows[] = {
      {"ABSOLUTE", "float", {1, false, 0}, {1, true, 0}},
      {"ABSOLUTE", "half", {1, false, 0}, {1, true, 0}},
      {"ABSOLUTE", "int", {2, false, 0}, {2, false, 0}},
      {"ASIN", "float", {102, false, 0}, {102, false, 0}},
      {"ASIN", "half", {102, false, 0}, {102, false, 0}},
      {"BITWISE_NOT", "int", {1, true, 0}, {1, true, 0}},
      {"BITWISE_NOT", "unsigned int", {1, true, 0}, {1, true, 0}},
      {"CBRT", "float", {27, true, 0}, {27, true, 0}},
      {"CBRT", "half", {17, true, 0}, {17, true, 0}},
      {"CEIL", "float", {2, true, 0}, {2, true, 0}},
      {"CEIL", "half", {2, true, 0}, {2, true, 0}},
      {"COS", "float", {2300, false, 0}, {2300, false, 0}},
      {"COS", "half", {26, false, 1}, {26, false, 1}},
      {"INVERSE", "float", {6, false, 2}, {6, false, 2}},
      {"INVERSE", "half", {15, false, 4}, {15, false, 4}},
      {"COUNT_LEADING_ZEROS", "int", {1, false, 0}, {1, false, 0}},
      {"COUNT_LEADING_ZEROS", "unsigned int", {1, false, 0}, {1, false, 0}},
      {"ERF", "float", {18, false, 1}, {18, false, 1}},
      {"ERF", "half", {16, false, 1}, {16, false, 1}},
      {"EXPONENT", "float", {6, false, 2}, {6, false, 2}},
      {"EXPONENT", "half", {4, false, 4}, {4, false, 4}},
      {"EXPONENT_MINUS_ONE", "float", {4, false, 0}, {4, false, 0}},
      {"EXPONENT_MINUS_ONE", "half", {5, true, 0}, {5, true, 0}},
      {"FLOOR", "float", {2, true, 0}, {2, true, 0}},
      {"FLOOR", "half", {2, true, 0}, {2, true, 0}},
      {"IS_FINITE", "float", {5, true, 0}, {5, true, 0}},
      {"IS_FINITE", "half", {5, true, 0}, {5, true, 0}},
      {"IS_INF", "float", {3, true, 0}, {3, true, 0}},
      {"IS_INF", "half", {5, true, 0}, {5, true, 0}},
      {"IS_NAN", "float", {3, true, 0}, {3, true, 0}},
      {"IS_NAN", "half", {3, true, 0}, {3, true, 0}},
      {"LOGARITHM", "float", {12, false, 2}, {14, false, 2}},
      {"LOGARITHM", "half", {4, false, 4}, {6, false, 4}},
      {"LOGARITHM_ONE_PLUS", "float", {180, true, 0}, {180, true, 0}},
      {"LOGARITHM_ONE_PLUS", "half", {180, true, 0}, {180, true, 0}},
      {"LOGICAL_NOT", "bool", {17, false, 0}, {17, true, 0}},
      {"NEARBY_INT", "float", {2, true, 0}, {2, true, 0}},
      {"NEARBY_INT", "half", {2, true, 0}, {2, true, 0}},
      {"NEGATE", "float", {2, false, 2}, {3, false, 2}},
      {"NEGATE", "half", {2, false, 4}, {3, false, 4}},
      {"NEGATE", "int", {2, false, 0}, {2, false, 0}},
      {"POPCOUNT", "int", {1, false, 0}, {1, false, 0}},
      {"POPCOUNT", "unsigned int", {1, false, 0}, {1, false, 0}},
      {"RELU", "float", {3, false, 2}, {2, false, 2}},
      {"RELU", "half", {3, false, 4}, {2, false, 4}},
      {"ROUND", "float", {2, true, 0}, {2, true, 0}},
      {"ROUND", "half", {2, true, 0}, {2, true, 0}},
      {"SIGNUM", "float", {5, true, 0}, {5, true, 0}},
      {"SIGNUM", "half", {5, true, 0}, {5, true, 0}},
      {"SIGNUM", "int", {5, false, 0}, {5, false, 0}},
      {"SIN", "float", {2300, false, 0}, {2300, false, 0}},
      {"SIN", "half", {26, false, 1}, {26, false, 1}},
      {"SQRT", "float", {10, false, 2}, {10, false, 2}},
      {"SQRT", "half", {23, false, 4}, {23, false, 4}},
      {"SQRT", "int", {110, false, 0}, {110, false, 0}},
      {"SQUARE", "float", {2, false, 2}, {2, false, 2}},
      {"SQUARE", "half", {2, false, 4}, {2, false, 4}},
      {"SQUARE", "int", {1, true, 0}, {1, true, 0}},
      {"SQUARE", "unsigned int", {1, true, 0}, {1, true, 0}},
      {"TAN", "float", {5100, false, 1}, {5100, false, 1}},
      {"TAN", "half", {5700, false, 1}, {5700, false, 1}},
      {"TANH", "float", {12, false, 2}, {10, false, 2}},
      {"TANH", "half", {4, false, 4}, {2, false, 4}},
      {"SIGMOID", "float", {12, false, 2}, {10, false, 2}},
      {"SIGMOID", "half", {6, false, 4}, {4, false, 4}},
      {"RSQRT", "float", {8, false, 2}, {8, false, 2}},
      {"RSQRT", "half", {19, false, 4}, {19, false, 4}},
  };
  count = sizeof(rows) / sizeof(rows[0]);
  return rows;
}

inline const OpLoopRow* binaryRows(std::size_t& count) {
  static const OpLoopRow rows[] = {
      {"ADD", "float", {1, true, 0}, {1, true, 0}},
      {"ADD", "half", {1, true, 0}, {1, true, 0}},
      {"ADD", "int", {7, false, 1}, {7, false, 1}},
      {"ADD", "unsigned int", {7, false, 1}, {7, false, 1}},
      {"ATAN2", "float", {272, false, 2}, {272, false, 2}},
      {"ATAN2", "half", {578, false, 4}, {578, false, 4}},
      {"BITWISE_AND", "int", {7, false, 1}, {7, false, 1}},
      {"BITWISE_AND", "unsigned int", {7, false, 1}, {7, false, 1}},
      {"BITWISE_OR", "int", {7, false, 1}, {7, false, 1}},
      {"BITWISE_OR", "unsigned int", {7, false, 1}, {7, false, 1}},
      {"BITWISE_XOR", "int", {7, false, 1}, {7, false, 1}},
      {"BITWISE_XOR", "unsigned int", {7, false, 1}, {7, false, 1}},
      {"BITWISE_XNOR", "int", {7, false, 1}, {7, false, 1}},
      {"BITWISE_XNOR", "unsigned int", {7, false, 1}, {7, false, 1}},
      {"DIVIDE", "float", {10, false, 2}, {10, false, 2}},
      {"DIVIDE", "half", {21, false, 4}, {21, false, 4}},
      {"DIVIDE", "int", {277, false, 1}, {277, false, 1}},
      {"DIVIDE", "unsigned int", {265, false, 1}, {264, false, 1}},
      {"LOGICAL_AND", "bool", {5, false, 4}, {5, false, 4}},
      {"LOGICAL_OR", "bool", {5, false, 4}, {5, false, 4}},
      {"MAXIMUM", "float", {4, false, 2}, {4, false, 2}},
      {"MAXIMUM", "half", {4, false, 4}, {4, false, 4}},
      {"MAXIMUM", "int", {7, false, 1}, {7, false, 1}},
      {"MAXIMUM", "unsigned int", {8, false, 1}, {8, false, 1}},
      {"MINIMUM", "float", {4, false, 2}, {4, false, 2}},
      {"MINIMUM", "half", {4, false, 4}, {4, false, 4}},
      {"MINIMUM", "int", {7, false, 1}, {7, false, 1}},
      {"MINIMUM", "unsigned int", {8, false, 1}, {8, false, 1}},
      {"MULTIPLY", "float", {1, true, 0}, {1, true, 0}},
      {"MULTIPLY", "half", {1, true, 0}, {1, true, 0}},
      {"MULTIPLY", "int", {7, false, 1}, {7, false, 1}},
      {"MULTIPLY", "unsigned int", {7, false, 1}, {7, false, 1}},
      {"POWER", "float", {312, false, 1}, {312, false, 1}},
      {"POWER", "half", {325, false, 1}, {325, false, 1}},
      {"REMAINDER", "float", {133, false, 2}, {133, false, 2}},
      {"REMAINDER", "half", {300, false, 4}, {300, false, 4}},
      {"REMAINDER", "int", {292, false, 1}, {292, false, 1}},
      {"REMAINDER", "unsigned int", {282, false, 1}, {282, false, 1}},
      {"SHIFT_LEFT", "int", {7, false, 1}, {7, false, 1}},
      {"SHIFT_LEFT", "unsigned int", {7, false, 1}, {7, false, 1}},
      {"SHIFT_RIGHT", "int", {7, false, 1}, {7, false, 1}},
      {"SHIFT_RIGHT", "unsigned int", {7, false, 1}, {7, false, 1}},
      {"SHIFT_RIGHT_SIGN_EXTEND", "int", {7, false, 1}, {7, false, 1}},
      {"SUBTRACT", "float", {1, true, 0}, {1, true, 0}},
      {"SUBTRACT", "half", {1, true, 0}, {1, true, 0}},
      {"SUBTRACT", "int", {7, false, 1}, {7, false, 1}},
      {"SUBTRACT", "unsigned int", {7, false, 1}, {7, false, 1}},
      // Comparisons: PopLibs has in-place forms for bool only; {0, false, 0} marks "none".
      {"EQUAL", "float", {14, false, 4}, {0, false, 0}},
      {"EQUAL", "half", {9, false, 4}, {0, false, 0}},
      {"EQUAL", "int", {22, false, 4}, {0, false, 0}},
      {"EQUAL", "unsigned int", {22, false, 4}, {0, false, 0}},
      {"EQUAL", "bool", {6, false, 4}, {6, false, 4}},
      {"GREATER_THAN", "float", {14, false, 4}, {0, false, 0}},
      {"GREATER_THAN", "half", {9, false, 4}, {0, false, 0}},
      {"GREATER_THAN", "int", {22, false, 4}, {0, false, 0}},
      {"GREATER_THAN", "unsigned int", {22, false, 4}, {0, false, 0}},
      {"GREATER_THAN", "bool", {31, false, 4}, {31, false, 4}},
      {"GREATER_THAN_EQUAL", "float", {14, false, 4}, {0, false, 0}},
      {"GREATER_THAN_EQUAL", "half", {9, false, 4}, {0, false, 0}},
      {"GREATER_THAN_EQUAL", "int", {26, false, 4}, {0, false, 0}},
      {"GREATER_THAN_EQUAL", "unsigned int", {26, false, 4}, {0, false, 0}},
      {"GREATER_THAN_EQUAL", "bool", {28, false, 4}, {28, false, 4}},
      {"LESS_THAN", "float", {14, false, 4}, {0, false, 0}},
      {"LESS_THAN", "half", {9, false, 4}, {0, false, 0}},
      {"LESS_THAN", "int", {22, false, 4}, {0, false, 0}},
      {"LESS_THAN", "unsigned int", {22, false, 4}, {0, false, 0}},
      {"LESS_THAN", "bool", {28, false, 4}, {28, false, 4}},
      {"LESS_THAN_EQUAL", "float", {14, false, 4}, {0, false, 0}},
      {"LESS_THAN_EQUAL", "half", {9, false, 4}, {0, false, 0}},
      {"LESS_THAN_EQUAL", "int", {26, false, 4}, {0, false, 0}},
      {"LESS_THAN_EQUAL", "unsigned int", {26, false, 4}, {0, false, 0}},
      {"LESS_THAN_EQUAL", "bool", {28, false, 4}, {28, false, 4}},
      {"NOT_EQUAL", "float", {20, false, 4}, {0, false, 0}},
      {"NOT_EQUAL", "half", {11, false, 4}, {0, false, 0}},
      {"NOT_EQUAL", "int", {22, false, 4}, {0, false, 0}},
      {"NOT_EQUAL", "unsigned int", {22, false, 4}, {0, false, 0}},
      {"NOT_EQUAL", "bool", {5, false, 4}, {5, false, 4}},
  };
  count = sizeof(rows) / sizeof(rows[0]);
  return rows;
}

inline std::optional<OpLoopInfo> lookUp(const OpLoopRow* rows, std::size_t count,
                                        const std::string& op, poplar::Type type, bool inPlace) {
  const std::string typeName = type.toString();
  for (std::size_t i = 0; i < count; ++i)
    if (op == rows[i].op && typeName == rows[i].type) {
      const OpLoopInfo& info = inPlace ? rows[i].inPlace : rows[i].out;
      if (info.cyclesPerLoop == 0) return std::nullopt;
      return info;
    }
  return std::nullopt;
}

inline std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) {
  return (a + b - 1) / b;
}

} // namespace detail

/// The supervisor's part of PopLibs' 1D element-wise MultiVertexes: 11 cycles, 2 more to unpack
/// operand pointers stored as ScaledPtr64 (part of a tile's launch cost in Tessera's profile).
inline std::uint64_t basicOpSupervisorOverhead(bool isScaledPtr64Type = false) {
  return 11 + (isScaledPtr64Type ? 2 : 0);
}

/// `cyclesPerVector` per vector of `vectorSize` elements over n elements, rounded as PopLibs
/// rounds it (cycles × (n + size − 1) / size).
inline std::uint64_t basicOpLoopCycles(std::uint64_t n, std::uint64_t vectorSize,
                                       std::uint64_t cyclesPerVector) {
  return cyclesPerVector * (n + vectorSize - 1) / vectorSize;
}

/// A loop handling `elemsPerLoop` elements an iteration in `cyclesPerLoop`, over n elements.
inline std::uint64_t innerLoopCycles(std::uint64_t n, std::uint64_t elemsPerLoop,
                                     std::uint64_t cyclesPerLoop) {
  return detail::ceilDiv(n, elemsPerLoop ? elemsPerLoop : 1) * cyclesPerLoop;
}

/// Whether PopLibs has a hand-written assembly loop for a binary operation: ADD, SUBTRACT and
/// MULTIPLY on float and half (cheaper per-vector overheads).
inline bool hasAssemblyLoop(const std::string& op, poplar::Type type) {
  return (type == poplar::FLOAT || type == poplar::HALF) &&
         (op == "ADD" || op == "SUBTRACT" || op == "MULTIPLY");
}

/// PopLibs' loop cost of a unary operation on `op` ("EXPONENT") and `type`, or none when PopLibs
/// has no vertex for that pair.
inline std::optional<OpLoopInfo> unaryOpLoopInfo(const std::string& op, poplar::Type type,
                                                 bool inPlace) {
  std::size_t n = 0;
  const detail::OpLoopRow* rows = detail::unaryRows(n);
  return detail::lookUp(rows, n, op, type, inPlace);
}

/// The same for a binary operation ("ADD").
inline std::optional<OpLoopInfo> binaryOpLoopInfo(const std::string& op, poplar::Type type,
                                                  bool inPlace) {
  std::size_t n = 0;
  const detail::OpLoopRow* rows = detail::binaryRows(n);
  return detail::lookUp(rows, n, op, type, inPlace);
}

/// The inner loop of a unary vertex over n elements: unrolled loops cost exactly their cycles;
/// otherwise each vector (or element) costs cyclesPerLoop + 4 (load, store, loop decision),
/// rounded as PopLibs rounds it (cycles × (n + width − 1) / width).
inline std::uint64_t unaryOpLoopCycles(const poplar::Target& target, poplar::Type type,
                                       const OpLoopInfo& info, std::uint64_t n) {
  if (!info.natural && info.unroll > 0) return innerLoopCycles(n, info.unroll, info.cyclesPerLoop);
  const std::uint64_t width = info.natural ? target.getVectorWidth(type) : 1;
  return basicOpLoopCycles(n, width, info.cyclesPerLoop + 4);
}

/// The inner loop of a binary vertex over n elements. With the natural vector width, ADD,
/// SUBTRACT and MULTIPLY on float/half (hand-written assembly) add 2 cycles of overhead per
/// vector, the other operations 5; unrolled loops cost exactly their cycles.
inline std::uint64_t binaryOpLoopCycles(const poplar::Target& target, const std::string& op,
                                        poplar::Type type, const OpLoopInfo& info,
                                        std::uint64_t n) {
  std::uint64_t perLoop = info.cyclesPerLoop, elems = info.unroll;
  if (info.natural) {
    elems = target.getVectorWidth(type);
    perLoop += hasAssemblyLoop(op, type) ? 2 : 5;
  }
  return innerLoopCycles(n, elems, perLoop);
}

/// One worker of popops::UnaryOp1D<op,type> over n elements: 17 cycles of set-up (33 for
/// EXPONENT) and the loop; the in-place form, UnaryOp1DInPlace, 55 and its own loop table.
inline std::uint64_t unaryOp1DWorkerCycles(const poplar::Target& target, const std::string& op,
                                           poplar::Type type, bool inPlace, std::uint64_t n,
                                           const OpLoopInfo& info) {
  const std::uint64_t setUp = inPlace ? 55 : op == "EXPONENT" ? 33 : 17;
  return setUp + unaryOpLoopCycles(target, type, info, n);
}

/// One worker of popops::BinaryOp1D<op,type> over n elements: 29 cycles of set-up for float,
/// 26 for the other types, and the loop; BinaryOp1DInPlace 58.
inline std::uint64_t binaryOp1DWorkerCycles(const poplar::Target& target, const std::string& op,
                                            poplar::Type type, bool inPlace, std::uint64_t n,
                                            const OpLoopInfo& info) {
  const std::uint64_t setUp = inPlace ? 58 : type == poplar::FLOAT ? 29 : 26;
  return setUp + binaryOpLoopCycles(target, op, type, info, n);
}

/// PopLibs' BinaryOp1D / BinaryOp1DInPlace MultiVertex over n elements: each worker context
/// runs binaryOp1DWorkerCycles over ceil(n / contexts) elements, plus the supervisor overhead.
inline std::uint64_t binaryOp1DMultiVertexCycles(const poplar::Target& target,
                                                 const std::string& op, poplar::Type type,
                                                 bool inPlace, std::uint64_t n,
                                                 const OpLoopInfo& info) {
  const std::uint64_t contexts = target.getNumWorkerContexts();
  return contexts *
             binaryOp1DWorkerCycles(target, op, type, inPlace, detail::ceilDiv(n, contexts), info) +
         basicOpSupervisorOverhead();
}

/// The worker estimate of the PopLibs element-wise vertex `vertexName`
/// ("popops::BinaryOp1D<popops::expr::BinaryOpType::ADD,float>", "...UnaryOp1DInPlace<...>")
/// over n elements, or none when the name is not one of those or PopLibs has no entry for its
/// operation and type.
inline std::optional<std::uint64_t> elementWise1DWorkerCycles(const poplar::Target& target,
                                                              const std::string& vertexName,
                                                              std::uint64_t n) {
  const bool unary = vertexName.rfind("popops::UnaryOp1D", 0) == 0;
  const bool binary = vertexName.rfind("popops::BinaryOp1D", 0) == 0;
  if (!unary && !binary) return std::nullopt;
  const bool inPlace = vertexName.find("1DInPlace<") != std::string::npos;
  const auto open = vertexName.find('<'), comma = vertexName.rfind(','),
             close = vertexName.rfind('>');
  if (open == std::string::npos || comma == std::string::npos || close == std::string::npos ||
      comma < open || close < comma)
    return std::nullopt;
  const std::string opPart = vertexName.substr(open + 1, comma - open - 1);
  const auto colons = opPart.rfind("::");
  const std::string op = colons == std::string::npos ? opPart : opPart.substr(colons + 2);
  const std::string typeName = vertexName.substr(comma + 1, close - comma - 1);
  poplar::Type type;
  if (typeName == "float")
    type = poplar::FLOAT;
  else if (typeName == "half")
    type = poplar::HALF;
  else if (typeName == "int")
    type = poplar::INT;
  else if (typeName == "unsigned int")
    type = poplar::UNSIGNED_INT;
  else if (typeName == "bool")
    type = poplar::BOOL;
  else
    return std::nullopt;
  if (unary) {
    const auto info = unaryOpLoopInfo(op, type, inPlace);
    if (!info) return std::nullopt;
    return unaryOp1DWorkerCycles(target, op, type, inPlace, n, *info);
  }
  const auto info = binaryOpLoopInfo(op, type, inPlace);
  if (!info) return std::nullopt;
  return binaryOp1DWorkerCycles(target, op, type, inPlace, n, *info);
}

/// popops::ScaledAdd2D<T> over one region of n elements (a worker vertex; Tessera's
/// popops::ScaledAdd<T> is one region with a constant scale): 9 cycles of prologue and
/// epilogue (+1 when the scale is a tensor), 15 per region, then for float/half 5 to enter the
/// inner loop when there is a whole grain (2 floats or 4 halves), 3 per grain (2 when
/// memory-constrained, the operands in different memory elements), and the rest: for float 7
/// for a last element; for half 4 to enter, 6 for a pair, 7 for a last one. Integer types: 8,
/// 7 per region and 5 per element (+1 when the scale is a tensor).
inline std::uint64_t scaledAdd2DCycles(poplar::Type type, std::uint64_t n,
                                       bool constantScale = true, bool memConstrained = false) {
  if (type == poplar::INT || type == poplar::UNSIGNED_INT)
    return 8 + 7 + 5 * n + (constantScale ? 0 : 1);
  const std::uint64_t grain = type == poplar::HALF ? 4 : 2;
  std::uint64_t cycles = 9 + (constantScale ? 0 : 1) + 15;
  const std::uint64_t grains = n / grain, rest = n % grain;
  cycles += (grains ? 5 : 0) + grains * (memConstrained ? 2 : 3);
  if (type == poplar::FLOAT)
    cycles += rest ? 7 : 0;
  else
    cycles += (rest ? 4 : 0) + (rest >= 2 ? 6 : 0) + (rest % 2 == 1 ? 7 : 0);
  return cycles;
}

} // namespace poplibs_support
