// The cost model of the simulated IPU: cycles of compute, exchange, syncs and host transfers,
// and the code and control bytes programs need on tiles. One place for every constant, so the
// model can be read (and documented in docs/engine.md) as a whole.
#pragma once

#include "TileAccumulator.hpp"

#include <vector>

namespace poplar::detail::profile {

class CycleModel {
public:
  explicit CycleModel(const Target& t) : t_(t) {}

  // Control code bytes (per tile that runs the program).
  static constexpr std::uint64_t kControlSwitch = 16;    ///< the switch over engine programs
  static constexpr std::uint64_t kControlLoop = 16;      ///< loop counter, compare, branch
  static constexpr std::uint64_t kControlBranch = 12;    ///< load predicate, branch
  static constexpr std::uint64_t kControlCall = 8;       ///< call and return
  static constexpr std::uint64_t kControlSync = 4;       ///< one sync instruction
  static constexpr std::uint64_t kControlExchange = 8;   ///< call into the exchange code
  static constexpr std::uint64_t kControlExecute = 12;   ///< supervisor: start workers, wait
  static constexpr std::uint64_t kControlPerVertex = 4;  ///< vertex list entry
  // Exchange and copy code.
  static constexpr std::uint64_t kExchangeCodeBase = 8;  ///< per tile taking part
  static constexpr std::uint64_t kExchangeCodePerMessage = 4;
  static constexpr std::uint64_t kCopyDescriptorBytes = 8; ///< per on-tile copy run
  // Cycles.
  static constexpr std::uint64_t kExchangeSetupCycles = 8;    ///< per tile taking part
  static constexpr std::uint64_t kCyclesPerMessage = 2;
  static constexpr std::uint64_t kComputeSetLaunchCycles = 30; ///< supervisor starts the workers
  static constexpr std::uint64_t kStreamCopyEndCycles = 20;

  std::vector<TileValue> allTiles(std::uint64_t bytes) const;
  std::vector<TileValue> tilesOf(const std::vector<unsigned>& ipus, std::uint64_t bytes) const;
  static std::vector<TileValue> perTile(const std::vector<TileValue>& tiles, std::uint64_t bytes);

  /// Compute phase of one tile: worker vertices spread over the worker contexts (each to the
  /// least loaded; barrel-threaded issue makes a context's n thread cycles take n × contexts
  /// tile cycles), supervisor vertices one after another.
  std::uint64_t computeCycles(const std::vector<const CompiledVertex*>& vertices) const;
  /// Internal sync: each tile's round trip to the sync controller, farther tiles slower.
  std::vector<TileValue> syncCycles(const std::vector<unsigned>& ipus) const;
  /// Exchange phase: a tile sends and receives at exchangeBytesPerCycle, plus per-message cost.
  TileAccumulator exchangeCyclesAcc(const TileAccumulator& received, const TileAccumulator& sent,
                                    const TileAccumulator& messages) const;
  std::vector<TileValue> exchangeCycles(const TileAccumulator& received, const TileAccumulator& sent,
                                        const TileAccumulator& messages) const {
    return exchangeCyclesAcc(received, sent, messages).values();
  }
  static std::vector<TileValue> exchangeCode(const TileAccumulator& messages);
  /// Tiles feeding or draining a link: their bytes at the tile's exchange bandwidth.
  std::vector<TileValue> linkTileCycles(const TileAccumulator& bytes) const;
  std::uint64_t ipuLinkCycles(std::uint64_t bytes) const;
  std::uint64_t hostLinkCycles(std::uint64_t bytes) const;
  std::uint64_t memcpyCycles(std::uint64_t bytes) const;

private:
  const Target& t_;
};

} // namespace poplar::detail::profile
