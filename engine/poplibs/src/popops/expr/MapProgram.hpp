// A compiled element expression: what the fused map vertex runs. popops::map compiles an Expr
// (types inferred from the tensors given, constants adapted to their neighbours) into a short
// list of instructions over values; the vertex evaluates them block by block, each instruction a
// tight loop over a block of elements, so a whole expression costs one pass over memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <popops/Expr.hpp>
#include <string>
#include <vector>

namespace popops::mapexpr {

/// How values are held while computing: HALF computes in F32 (rounded to half after each
/// operation), BOOL as 0/1 words.
enum class Kind : std::uint8_t { F32, I32, U32, Bool };

struct Instr {
  enum class Code : std::uint8_t { Input, Constant, Unary, Binary, Select, Clamp, Cast };
  Code code = Code::Input;
  std::uint8_t op = 0;               ///< the Unary/BinaryOpType
  Kind inKind = Kind::F32;           ///< kind of the operands (Select: of a and b)
  Kind outKind = Kind::F32;          ///< kind of the result
  bool roundToHalf = false;          ///< the result is a HALF value: round it
  std::uint16_t a = 0, b = 0, c = 0; ///< operand values (indices of earlier instructions)
  std::uint32_t imm = 0;             ///< Input: the slot; Constant: the value's bits in outKind
};

/// One tensor the expression reads.
struct InputSlot {
  poplar::Type type;
  unsigned placeholder = 0; ///< 1-based
  bool scalar = false;      ///< one element, read for every output element
  bool isOutput = false;    ///< mapInPlace's first tensor: read from the output field
};

struct Program {
  std::string name; ///< the vertex name, "popops::map::..."
  std::vector<Instr> code;
  std::vector<InputSlot> inputs;
  poplar::Type outType;
  bool inPlace = false;
  unsigned result = 0;
  /// For the cycle estimate: operations per vector of elements (loads, arithmetic, store).
  unsigned cyclesPerVector = 0;
  bool floatingPoint = false; ///< vectorised like float data (else one element per cycle)
  /// For the FLOP estimate: floating-point operations per output element (each unary or binary
  /// operation on float/half operands one, a clamp two; casts and selects none).
  unsigned flopsPerElement = 0;
};

/// Compiles `expr` over `ts`; throws poputil::poplibs_error naming `op` and the offending
/// placeholder, operator or type.
Program compile(const expr::Expr& expr, const std::vector<poplar::Tensor>& ts, bool inPlace,
                const std::string& op);

/// The process-wide id of a program (the same name always gets the same id).
unsigned intern(Program p);
const Program& program(unsigned id);

/// Evaluates `p` over `n` elements: inputs[slot] points at slot's data (n elements, or one for
/// a scalar slot), `out` at n elements of p.outType.
void run(const Program& p, const void* const* inputs, void* out, std::size_t n);

/// Kind of a tensor element type (throws for unsupported types).
Kind kindOf(const poplar::Type& t, const std::string& op, const std::string& what);

} // namespace popops::mapexpr
