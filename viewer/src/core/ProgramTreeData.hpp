// The compiled control program as the Program Tree page shows it: every program once (figures
// per program), and the tree of places where programs appear (a program called from two places
// appears twice). Loaded off the GUI thread in two stages: the structure first, then the cycles
// each program took in the execution (which reads every executed step once).
#pragma once

#include "core/Background.hpp"
#include "core/Document.hpp"

#include <QString>
#include <cstdint>
#include <limits>
#include <memory>
#include <pva/Compare.hpp>
#include <pva/ProgramTotals.hpp>
#include <vector>

namespace tessera::viewer {

struct ProgramInfo {
  QString name, type;
  QString computeSet;            ///< OnTileExecute only
  QString syncType;              ///< syncs, global exchanges, stream copies
  QString debugPath;             ///< the debug context's path, when debug information is present
  std::int64_t repeatCount = -1; ///< Repeat only
  std::uint64_t dataBytes = 0;
  std::uint64_t controlCodeBytes = 0;       ///< over all tiles of one replica, children included
  std::uint64_t exchangeCodeBytes = 0;      ///< exchanges and stream copies
  std::uint64_t estimatedCyclesMaxTile = 0; ///< steps: the slowest tile's compile-time estimate
  std::uint64_t numVars = 0;
  bool isStep = false;
};

struct ProgramTreeData {
  static constexpr std::uint32_t noParent = std::numeric_limits<std::uint32_t>::max();
  /// One place in the tree: which program, under which node, at which row.
  struct Node {
    std::uint32_t program = 0;
    std::uint32_t parent = noParent;
    std::uint32_t row = 0;
    std::vector<std::uint32_t> children;
  };
  std::vector<ProgramInfo> programs; ///< by program id
  std::vector<Node> nodes;
  std::vector<std::uint32_t> roots; ///< nodes of the entry points, in order
  bool truncated = false;           ///< more places than maxNodes: deeper repeats left out
  static constexpr std::size_t maxNodes = 2'000'000;
};

/// Per program id: cycles of the slowest IPU summed over the steps that ran it, and how many
/// times it ran (0 for programs that are not steps or never ran).
struct ProgramCycles {
  std::vector<std::uint64_t> cycles, executions;
  /// Per program id: it with everything under it (pva::programTotals over all runs), for the
  /// Sequence, Repeat and Call rows' totals and every row's IPUs.
  std::vector<pva::ProgramTotals> totals;
  /// Comparing (doc.base()): by program id, its name's executed cycles in each report
  /// (pva::compareProgramCycles: step programs by name, all runs; programs sharing a name add up).
  struct Change {
    std::uint64_t base = 0, current = 0;
    bool inBase = false, inCurrent = false; ///< the name ran in that report
    /// Present on one side only, or its cycles changed as `basis` compares them (per run when
    /// the reports ran different numbers of runs).
    bool changed(const pva::RunBasis& basis) const {
      return inBase != inCurrent || basis.delta({base, current}) != 0;
    }
  };
  bool compared = false;
  pva::RunBasis basis;         ///< comparing: pva::runBasis of the two reports
  std::vector<Change> changes; ///< by program id when compared
};

/// The document's program tree: its session's, derived once (Session::programs).
std::shared_ptr<const ProgramTreeData> loadProgramTree(const Document& doc, Progress& progress);
/// What Session::programs runs once per report.
ProgramTreeData deriveProgramTree(const pva::Report& report, Progress& progress);
/// Comparing (doc.base()), the changes too.
ProgramCycles loadProgramCycles(const Document& doc, Progress& progress);

} // namespace tessera::viewer
