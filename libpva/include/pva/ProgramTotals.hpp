// The program tree's containers with what they hold (pva::programTotals): the figures of the
// viewer's Program tree for a Sequence, Repeat or Call, and every program's IPUs.
//
//   const auto analysis = pva::analyseExecution(report);
//   const auto totals = pva::programTotals(report, analysis.allRuns);
//   std::cout << totals[entry->_id()].cycles << " cycles on IPUs "
//             << pva::ipusText(totals[entry->_id()].ipuMask) << "\n";
#pragma once

#include <cstdint>
#include <memory>
#include <pva/Analysis.hpp>
#include <pva/Report.hpp>
#include <string>
#include <vector>

namespace pva {

/// A program with everything under it, in a span.
struct ProgramTotals {
  std::uint64_t cycles = 0; ///< Σ the span's cycles of the step programs it holds, each once
  std::uint64_t steps = 0;  ///< executions of those step programs in the span
  /// The IPUs of one replica those step programs work on: bit i for IPU i, from where the
  /// compiled program put them (tiles with a cycle estimate or exchange code); IPUs from 63 on
  /// share bit 63. Programs that ran in the span only.
  std::uint64_t ipuMask = 0;
};

/// Per program id (CompilationReport::programs()): the program with every step program
/// reachable through children() (Calls included), each counted once however many places hold
/// it, since its span figures already sum every place it ran from; so a container's total never
/// exceeds the span's Σ steps' slowest IPU (SpanFigures::cycles), and a Repeat's is all its
/// iterations. Reads the step programs' per-tile estimates and exchange code once each.
std::vector<ProgramTotals> programTotals(const Report& report, const SpanFigures& span);

/// programTotals over all runs (analyseExecution(report).allRuns) as the open report keeps it:
/// derived once per open report however many callers and threads ask (it reads the steps only
/// if analyseExecution has not yet), without a copy; the pointer keeps the report open.
std::shared_ptr<const std::vector<ProgramTotals>> sharedProgramTotals(const Report& report);

/// An IPU mask as text: "0", "0-3", "0, 2"; "" for none ("63+" for the shared last bit).
std::string ipusText(std::uint64_t ipuMask);

} // namespace pva
