// pva::insights: what an out-of-memory user reads first, derived once from the report's memory,
// liveness, vertex and exchange figures (no execution step is read). The `pva insights` command,
// the viewer's Insights page and the Python module all show this value.
//
//   const pva::Insights in = pva::insights(report);
//   if (!in.fits) std::cout << "over by " << in.worstOverBytes << " bytes on tile " <<
//   in.worstTiles[0].tile << "\n"; for (const pva::Suggestion& s : in.suggestions)
//     std::cout << s.title << ": saves about " << s.savingBytes << " bytes (" << s.scope << ")\n";
//
// Every figure names its unit (...Bytes, a count, a fraction in [0, 1]) and every list says what
// it covers. Replicas run the same program, so per-tile figures are those of one replica's tiles.
#pragma once

#include <cstdint>
#include <pva/Analysis.hpp>
#include <pva/Report.hpp>
#include <string>
#include <vector>

namespace pva {

/// Limits on the lists (the work done stays linear in the report's size whatever they are).
struct InsightsOptions {
  unsigned worstTiles = 5;  ///< tiles listed in Insights::worstTiles
  unsigned topItems = 5;    ///< vertex types and exchanges listed
  unsigned suggestions = 8; ///< suggestions kept, largest saving first
};

/// Something with a name and its bytes (a memory category, a variable, a vertex type...).
struct NamedBytes {
  std::string name;
  std::uint64_t bytes = 0;
};

/// Always-live bytes and not-always-live bytes at one liveness step.
struct LivenessSplit {
  bool stepKnown = false; ///< false when the report has no liveness steps
  std::uint64_t step = 0; ///< index in CompilationReport::livenessProgramSteps()
  std::uint64_t alwaysLiveBytes = 0;
  std::uint64_t notAlwaysLiveBytes = 0; ///< at `step`
  std::uint64_t total() const;          ///< saturating sum of the two
};

/// One of the fullest tiles.
struct TileInsight {
  unsigned tile = 0; ///< tile of one replica (the same tile of every other replica holds the same)
  unsigned ipu = 0;
  std::uint64_t includingGapsBytes = 0, excludingGapsBytes = 0;
  std::uint64_t overBytes = 0; ///< includingGapsBytes beyond the tile's memory (0 when it fits)
  std::uint64_t freeBytes = 0; ///< the tile's memory left (0 when it does not fit)
  /// At the model's peak liveness step (MemorySummary::peakLiveness.step).
  LivenessSplit atModelPeak;
  /// At this tile's own worst step: where its not-always-live bytes peak (first such step).
  LivenessSplit atTilePeak;
  std::vector<NamedBytes> categories; ///< its non-empty memory categories, largest first
};

/// One IPU of one replica.
struct IpuInsight {
  unsigned ipu = 0;
  std::uint64_t capacityBytes = 0, includingGapsBytes = 0;
  unsigned tilesOutOfMemory = 0;
  TileBytes fullestTile;     ///< including gaps
  LivenessSplit atModelPeak; ///< at the model's peak step
  LivenessSplit atIpuPeak;   ///< at the step where this IPU's not-always-live bytes peak
};

/// Tiles whose memory (including gaps) is a share of the tile's memory in [fromFraction,
/// toFraction); the last bin holds the tiles over their memory (toFraction is infinity there).
struct UsageBin {
  double fromFraction = 0, toFraction = 0;
  unsigned tiles = 0;
};

/// A vertex type's memory over one replica's tiles.
struct VertexTypeInsight {
  std::string name;
  std::uint64_t instances = 0;      ///< over every compute set
  std::uint64_t stateBytesEach = 0; ///< VertexType::size()
  std::uint64_t stateBytes = 0;     ///< instances * stateBytesEach
  std::uint64_t codeBytesEach = 0;  ///< VertexType::codeBytes(), once per tile holding the type
  std::uint64_t tiles = 0;          ///< tiles holding its code
  std::uint64_t codeBytes = 0;      ///< tiles * codeBytesEach
};

/// An exchange (internal, global or stream copy) and the compute sets it serves.
struct ExchangeInsight {
  std::uint64_t program = 0; ///< program id (CompilationReport::program)
  std::string name;
  std::string type;                   ///< Program::typeName
  std::uint64_t dataBytes = 0;        ///< bytes it moves (one execution)
  std::uint64_t codeBytes = 0;        ///< its exchange code over one replica's tiles
  std::uint64_t maxTileCodeBytes = 0; ///< on its largest tile
  unsigned maxTile = 0;
  /// Compute sets whose programs sit next to it in the program tree and share a variable with
  /// it: the compute set it feeds, or whose results it moves.
  std::vector<std::string> computeSets;
};

/// A change to the program, with the memory it would save (an estimate, from the report's figures).
struct Suggestion {
  enum class Kind {
    FloatToHalf,    ///< FLOAT variables stored as HALF take half the bytes
    SpreadVariable, ///< a variable concentrated on a full tile, mapped over more tiles
    ExchangeCode,   ///< an exchange whose code is large on a full tile
  };
  Kind kind = Kind::FloatToHalf;
  static const std::string&
  kindName(Kind k);   ///< "float-to-half", "spread-variable", "exchange-code"
  std::string title;  ///< one line: what to change
  std::string detail; ///< why, from the figures
  std::string scope;  ///< where the saving applies: "tile 12 (IPU 0) at liveness step 40", "one
                      ///< replica at the peak step"
  std::uint64_t savingBytes = 0; ///< estimated bytes saved within `scope`
  std::string unit = "bytes";    ///< of savingBytes
  /// Whether the saving alone would bring the scope's tile within its memory (tile scopes only).
  bool wouldFit = false;
  /// Whole-model scopes of a report that does not fit: the tiles over their memory, and how many
  /// of them the saving alone would bring within it (0 and 0 otherwise).
  unsigned tilesOver = 0, tilesThatWouldFit = 0;
  std::vector<NamedBytes>
      subjects; ///< the variables or exchanges concerned, with their bytes in scope
};

struct Insights {
  Scope scope; ///< one replica's tiles (replicas are identical); memory totals as MemorySummary's
  MemorySummary memory; ///< as summarize(report).memory
  /// Fits: no tile needs more than its memory and compilation did not run out of memory.
  bool fits = true;
  std::uint64_t bytesPerTile = 0;
  unsigned tilesOutOfMemory = 0;       ///< of one replica
  std::uint64_t worstOverBytes = 0;    ///< the most any tile is over (0 when it fits)
  std::uint64_t totalOverBytes = 0;    ///< Σ each tile's excess, one replica
  std::uint64_t headroomBytes = 0;     ///< memory left on the fullest tile (0 when it does not fit)
  std::vector<TileInsight> worstTiles; ///< fullest first (including gaps), then lower tile
  std::vector<UsageBin> usage;         ///< 10 bins of 10 % of the tile's memory, then "over"
  LivenessSplit model;                 ///< whole replica, at the peak liveness step
  std::string peakProgram;             ///< the peak step's program name ("" when none)
  std::vector<IpuInsight> ipus;        ///< IPUs of one replica
  std::vector<VertexTypeInsight> largestVertexState; ///< by stateBytes
  std::vector<VertexTypeInsight> largestVertexCode;  ///< by codeBytes
  std::vector<ExchangeInsight> largestExchanges;     ///< by codeBytes, then dataBytes
  std::vector<Suggestion> suggestions;               ///< largest saving first
};

/// Reads the tiles' memory columns, the liveness steps (their per-tile and per-IPU bytes), the
/// vertex types, the exchange programs' code and the worst tiles' variables. No execution step
/// is read. Throws only pva::Exception (a damaged report gives InvalidReportError).
Insights insights(const Report& report, const InsightsOptions& options = InsightsOptions());

} // namespace pva
