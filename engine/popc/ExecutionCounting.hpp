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

/// C++ put in each generated registration source: the per-thread counter's declaration and the
/// counting function the IR calls.
std::string countingSupportSource();
/// C++ put in the .gp's entry source: the counter's definition and the exported accessor the
/// engine reads it through (kExecutedInstructionsSymbol, GpFile.hpp). One per .gp, so that
/// parts compiled separately (popc linking .gp files) share one counter.
std::string countingEntrySource();

/// Whether an IR instruction stands for an instruction the IPU issues: every one but phis
/// (register moves the IPU's code folds into its predecessors), debug, lifetime and assume
/// intrinsics (no code), address arithmetic (getelementptr: part of the IPU's loads and stores)
/// and integer width and pointer casts (the IPU's registers and pointers are 32 bits).
bool countsAsInstruction(const std::string& instructionLine);

/// The instructions one execution of a basic block issues (its lines, label without '%'): those
/// countsAsInstruction keeps, except that a block looping on itself counts its loop control
/// (the compare deciding the back branch and the constant steps feeding it) as the branch alone,
/// as the IPU's `brnzdec` or `rpt` loops run it. Calibrated against published hardware figures
/// (docs/fidelity.md).
std::uint64_t countBlock(const std::vector<std::string>& blockLines, const std::string& label);

/// Adds the counting call to every basic block of every function in `ir` (except the counting
/// support itself) and returns the new IR; `blocks` receives each block and its count.
std::string instrumentIr(const std::string& ir, std::vector<CountedBlock>& blocks);

} // namespace popc
