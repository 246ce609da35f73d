// The Liveness page's snapshots: not-always-live bytes at every liveness program step (for the
// whole replica, one IPU or one tile), the always-live floor and always-live variables of that
// scope; and, on demand, what the selected steps hold: the variables live there, the vertices of
// a step's compute set and the steps' cycle estimates.
//
// Threads: the load functions run off the GUI thread with their own pva::Report; results are
// immutable. Cost: the whole-replica curve reads one row per step; an IPU curve one pass over
// all lowered variables (0.2 s on the MLP sample); a tile curve the tile's lowered variables once
// per step (~15 ms on the samples). Long loads report progress and stop when cancelled.
#pragma once

#include "core/Background.hpp"
#include "core/Document.hpp"
#include "core/TileDetailsData.hpp"

#include <QString>
#include <QStringList>
#include <cstdint>
#include <vector>

namespace tessera::viewer {

/// Which memory the curve counts: the whole replica, one IPU, or one tile.
struct LivenessScope {
  int ipu = -1;  ///< >= 0: that IPU
  int tile = -1; ///< >= 0: that tile (takes precedence over ipu)
  bool operator==(const LivenessScope& o) const { return ipu == o.ipu && tile == o.tile; }
  QString describe() const;
};

struct AlwaysLiveRow {
  QString name, category;
  std::uint64_t bytes = 0;
};

struct LivenessData {
  LivenessScope scope;
  unsigned numIpus = 0, numTiles = 0;
  /// Per step: not-always-live bytes in the scope, and the step's program.
  std::vector<std::uint64_t> notAlwaysLive;
  std::vector<std::uint32_t> stepProgram;
  /// Per program id: name and type (pva::Program::Type).
  QStringList programNames;
  std::vector<std::uint8_t> programTypes;
  std::uint64_t alwaysLive = 0; ///< the scope's always-live bytes (the floor)
  std::vector<AlwaysLiveRow> alwaysLiveVariables;

  std::size_t steps() const { return notAlwaysLive.size(); }
  /// The step with the most not-always-live bytes (the first of equals); 0 without steps.
  std::size_t peakStep() const;
  QString programName(std::size_t step) const;
  QString programType(std::size_t step) const;
};

LivenessData loadLiveness(const Document& doc, LivenessScope scope, Progress& progress);

struct LiveVariableRow {
  QString name, category;
  std::vector<std::uint64_t> bytes; ///< per selected step; 0 where it is not live
};

struct StepCyclesRow {
  std::size_t step = 0;
  QString program, type;
  std::uint64_t maxCycles = 0, totalCycles = 0;
  double meanCycles = 0;    ///< over the scope's tiles
  unsigned activeTiles = 0; ///< tiles with cycles > 0
  bool hasEstimate = false; ///< control programs take no cycles
};

struct StepDetailsData {
  std::vector<std::size_t> steps;
  QStringList stepLabels; ///< "Step 88" per selected step
  std::vector<LiveVariableRow> liveVariables;
  /// Vertices of the compute set run by steps.front() (empty unless it is an OnTileExecute).
  QString computeSet;
  std::vector<TileVertexRow> vertices;
  std::vector<StepCyclesRow> cycles;
};

/// Reads what the selected steps hold in the scope. Throws pva::Exception, or Cancelled.
StepDetailsData loadStepDetails(const Document& doc, LivenessScope scope,
                                std::vector<std::size_t> steps, Progress& progress);

} // namespace tessera::viewer
