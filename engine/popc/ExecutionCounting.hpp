// popc's execution counting (docs/profiling.md, "Execution-based estimates"): a vertex without
// a cycle estimate of its own is costed by what its compute() executed. popc compiles the
// codelet to optimised LLVM IR, adds to every basic block a call that adds the block's
// instruction count to a per-thread counter, and compiles that IR into the .gp. No compiler
// plugin: the IR is text, and the insertion is the only change made to it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace popc {

/// One basic block of the instrumented IR and the instructions it counts.
struct CountedBlock {
  std::string function; ///< IR name (mangled), without the '@'
  std::string block;    ///< IR label ("entry", "for.body", ...)
  std::uint64_t instructions = 0;
};

/// Clang flags for the IR a counted .gp is built from: the optimiser keeps the scalar loops the
/// source describes (no host vectorisation or unrolling, which the IPU would not share), and
/// value names stay so that the listing names blocks as the source does.
std::vector<std::string> countingIrFlags();

/// C++ put in each generated registration source: the per-thread counter (defined in part 0,
/// declared in the others), the counting function the IR calls, and in part 0 the exported
/// accessor the engine reads the counter through (kExecutedInstructionsSymbol, GpFile.hpp).
std::string countingSupportSource(unsigned part);

/// The number of instructions a block counts: every IR instruction but phis (register moves the
/// IPU's code folds into its predecessors), debug, lifetime and assume intrinsics (no code).
bool countsAsInstruction(const std::string& instructionLine);

/// Adds the counting call to every basic block of every function in `ir` (except the counting
/// support itself) and returns the new IR; `blocks` receives each block and its count.
std::string instrumentIr(const std::string& ir, std::vector<CountedBlock>& blocks);

} // namespace popc
