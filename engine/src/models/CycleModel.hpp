// The cost model of the simulated IPU: cycles of compute, exchange, syncs and host transfers,
// and the code and control bytes programs need on tiles. One place for every constant, so the
// model can be read (and documented in docs/profiling.md, compared in docs/fidelity.md) as a whole.
//
// How a step occupies the tiles follows Poplar's IPU Model (bulk-synchronous: IPU Programmer's
// Guide, "Programming model"; tutorial 6's published Mk2 profile summary, docs/fidelity.md):
// - compute: each tile its own vertices (worker contexts in a barrel, see computeCycles);
// - internal exchange: each tile taking part, by what it sends or receives at the Target's
//   exchangeBytesPerCycle, plus a cost per tile it talks to (one message per source/destination
//   pair: the exchange code issues one send/receive sequence per pair);
// - sync and host transfers: EVERY tile of every IPU taking part. A stream copy is a BSP step of
//   the whole IPU (StreamCopyBegin is the sync with the host, Mid the transfer over the host
//   link at the Target's hostLinkBytesPerCycle, End the release), so every tile counts the whole
//   transfer, as Poplar's "Tile average host exchange cycles" does.
// The Target's figures these use, and their sources, are set in engine/src/device/Target.cpp
// (paramsForArch) and listed in docs/fidelity.md.
#pragma once

#include "TileAccumulator.hpp"

#include <vector>

namespace poplar::detail::models {

class CycleModel {
public:
  explicit CycleModel(const Target& t) : t_(t) {}

  // Control code bytes (per tile that runs the program).
  static constexpr std::uint64_t kControlSwitch = 16;   ///< the switch over engine programs
  static constexpr std::uint64_t kControlLoop = 16;     ///< loop counter, compare, branch
  static constexpr std::uint64_t kControlBranch = 12;   ///< load predicate, branch
  static constexpr std::uint64_t kControlCall = 8;      ///< call and return
  static constexpr std::uint64_t kControlSync = 4;      ///< one sync instruction
  static constexpr std::uint64_t kControlExchange = 8;  ///< call into the exchange code
  static constexpr std::uint64_t kControlExecute = 12;  ///< supervisor: start workers, wait
  static constexpr std::uint64_t kControlPerVertex = 4; ///< vertex list entry
  // Exchange and copy code.
  static constexpr std::uint64_t kExchangeCodeBase = 8; ///< per tile taking part
  static constexpr std::uint64_t kExchangeCodePerMessage = 4;
  static constexpr std::uint64_t kCopyDescriptorBytes = 8; ///< per on-tile copy run
  // Cycles.
  static constexpr std::uint64_t kExchangeSetupCycles = 8; ///< per tile taking part
  /// One instruction per source/destination pair: the exchange code selects the partner
  /// (tutorial 6: docs/fidelity.md).
  static constexpr std::uint64_t kCyclesPerMessage = 1;
  static constexpr std::uint64_t kComputeSetLaunchCycles = 30; ///< supervisor starts the workers
  static constexpr std::uint64_t kStreamCopyEndCycles = 20;    ///< the host releases the IPU
  /// The message of a run's control stream copy (lightweight profiling's ControlStreamCopy): the
  /// index of the program to run, one 32-bit word.
  static constexpr std::uint64_t kControlCopyBytes = 4;
  /// Execution-based estimates (docs/profiling.md, "Execution-based estimates"): a vertex of a
  /// counted .gp costs the instructions its compute() executed, one issue slot of its context
  /// each. Every context of a tile, the supervisor included, shares the tile's pipeline in a
  /// barrel and issues one instruction every getNumWorkerContexts() (6) tile cycles (IPU
  /// Programmer's Guide, "Tile architecture"; Jia et al., "Dissecting the Graphcore IPU
  /// architecture via microbenchmarking", 2019), so one instruction is one thread cycle of a
  /// worker (computeCycles turns it into 6 tile cycles) and 6 tile cycles of the supervisor
  /// (whose estimates, as PopLibs' supervisor estimates, are tile cycles). The instructions are
  /// popc's count of the IPU-issued instructions in the basic blocks compute() ran (LLVM IR
  /// instructions, without those the IPU's code has no instruction for: ExecutionCounting.hpp);
  /// the optimised IR stands in for the IPU's machine code, which Tessera does not generate.
  /// The calibration against published hardware figures is in docs/fidelity.md.
  static constexpr std::uint64_t kThreadCyclesPerInstruction = 1;
  /// The cycles one execution of a counted vertex that executed `instructions` adds, in the unit
  /// computeCycles reads for its kind: thread cycles for a worker; for a MultiVertex, whose
  /// count covers its numWorkers() compute(workerId) calls, each worker's equal share (rounded
  /// up) as its per-worker estimate; tile cycles (instructions x `contexts`) for a supervisor.
  static std::uint64_t executedCycles(std::uint64_t instructions, bool multiVertex, bool supervisor,
                                      unsigned contexts);
  /// Host transfers: every tile of a taking-part IPU spends the whole step (see above).
  TileValues everyTileOf(const std::vector<unsigned>& ipus, std::uint64_t cycles) const {
    return tilesOf(ipus, cycles);
  }
  /// One host sync (StreamCopyBegin, external Sync): the Target's global sync cycles.
  std::uint64_t hostSyncCycles() const { return t_.getGlobalSyncCycles(); }

  TileValues allTiles(std::uint64_t bytes) const;
  TileValues tilesOf(const std::vector<unsigned>& ipus, std::uint64_t bytes) const;
  /// `bytes` on each tile of `tiles`.
  static TileValues perTile(const TileValues& tiles, std::uint64_t bytes);

  /// Compute phase of one tile: worker vertices spread over the worker contexts (each to the
  /// least loaded; barrel-threaded issue makes a context's n thread cycles take n × contexts
  /// tile cycles), supervisor vertices one after another.
  /// `cycles`, when given, replaces each vertex's estimatedCycles (parallel to `vertices`: the
  /// cycles one execution measured, for execution-based estimates).
  std::uint64_t computeCycles(const std::vector<const compiler::CompiledVertex*>& vertices,
                              const std::vector<std::uint64_t>* cycles = nullptr) const;
  /// The same phase "excluding idle threads" (Poplar's printProfileSummary line): the worker
  /// contexts' busy thread cycles shared over the contexts (sum of worker estimates, a
  /// MultiVertex's estimate on each context) instead of the most loaded context times contexts.
  std::uint64_t
  computeCyclesExcludingIdle(const std::vector<const compiler::CompiledVertex*>& vertices,
                             const std::vector<std::uint64_t>* cycles = nullptr) const;
  /// One vertex execution's part of computeCyclesExcludingIdle: the cycles it keeps its contexts
  /// busy (a worker's thread cycles, a MultiVertex's on each of `contexts`, a supervisor's tile
  /// cycles). The run's vertex cycles by cycle rule add these up (run_vertex_cycle_rules).
  static std::uint64_t vertexBusyCycles(const compiler::CompiledVertex& v, std::uint64_t cycles,
                                        unsigned contexts);
  /// Internal sync: each tile's round trip to the sync controller, farther tiles slower.
  TileValues syncCycles(const std::vector<unsigned>& ipus) const;
  /// Exchange phase: a tile sends and receives at exchangeBytesPerCycle, plus per-message cost.
  TileAccumulator exchangeCyclesAcc(const TileAccumulator& received, const TileAccumulator& sent,
                                    const TileAccumulator& messages) const;
  TileValues exchangeCycles(const TileAccumulator& received, const TileAccumulator& sent,
                            const TileAccumulator& messages) const {
    return exchangeCyclesAcc(received, sent, messages).tileValues();
  }
  static TileValues exchangeCode(const TileAccumulator& messages);
  /// Tiles feeding or draining a link: their bytes at the tile's exchange bandwidth.
  TileValues linkTileCycles(const TileAccumulator& bytes) const;
  std::uint64_t ipuLinkCycles(std::uint64_t bytes) const;
  /// A GW-Link, the gateway link between IPU-Link domains (IPU-PODs): 100 Gbit/s (IPU-M2000 and
  /// Bow-2000 datasheets: 2 x 100 Gbps GW-Links per IPU-Machine). A ring that leaves its domain
  /// crosses it on one link, so that link is the ring's slowest hop.
  static constexpr double kGwLinkBytesPerSecond = 100e9 / 8;
  double gwLinkBytesPerCycle() const { return kGwLinkBytesPerSecond / t_.getTileClockFrequency(); }
  /// A ring collective of `steps` supersteps: each starts with an external sync (the Target's
  /// globalSyncCycles, the latency every step pays), and all of them together move `bytes` out
  /// of (and into) each IPU over the ring's slowest link, at `linkBytesPerCycle`.
  std::uint64_t ringCycles(std::uint64_t steps, std::uint64_t bytes,
                           double linkBytesPerCycle) const;
  std::uint64_t hostLinkCycles(std::uint64_t bytes) const;
  /// One tile's host transfer of `bytes` (a StreamCopyMid from one tile): the host link's time,
  /// or the tile's exchange setup and receive if longer, as streamCopy costs each IPU.
  std::uint64_t hostTransferCycles(std::uint64_t bytes) const;
  std::uint64_t memcpyCycles(std::uint64_t bytes) const;

  /// What simulated hardware (TargetType::IPU; never an IPU Model) adds to a host stream copy:
  /// the host's work around it, while the IPU waits, fitted to Graphcore's published hardware
  /// profiles (docs/fidelity.md, "What hardware adds"):
  /// - StreamCopyBegin: the sync with the host over the real link (tutorial 6's 135,849.6
  ///   tile-average sync cycles over its three copies), then the host preparing the copy: a
  ///   fixed part (the lightweight-profiling tutorial's 4-byte copies' Begin blocks, 80,577 on
  ///   average, less the sync) and the bytes at the host's preparation rate (what is left of
  ///   tutorial 6's 25,444,984 total cycles);
  /// - StreamCopyMid: the link's latency (those copies' Mid blocks, 1,550 on average) and the
  ///   bytes at the hardware's host-link rate (tutorial 6's 2,641,488.4 host exchange cycles for
  ///   its 40,044,000 bytes);
  /// - StreamCopyEnd: the host releasing the IPU (those copies' End blocks, 82,677 on average).
  /// Only the sync and the transfer are tile cycles of the summary's categories; the host's
  /// preparation and release lengthen the run but no category, as in Poplar's hardware summary.
  bool isHardware() const;
  static constexpr std::uint64_t kHwHostSyncCycles = 45283;
  static constexpr std::uint64_t kHwStreamPrepCycles = 35294;
  static constexpr double kHwStreamPrepBytesPerCycle = 1.8;
  static constexpr std::uint64_t kHwStreamMidCycles = 1550;
  static constexpr double kHwHostLinkBytesPerCycle = 15.19;
  static constexpr std::uint64_t kHwStreamEndCycles = 82677;
  /// StreamCopyBegin of a host copy of `bytes`: its tile cycles (the sync) and its length.
  std::uint64_t streamBeginTileCycles() const;
  std::uint64_t streamBeginCycles(std::uint64_t bytes) const;
  /// StreamCopyMid's transfer of one IPU's `bytes` over the host link.
  std::uint64_t streamMidCycles(std::uint64_t bytes) const;
  /// StreamCopyEnd's length (its tile cycles are kStreamCopyEndCycles).
  std::uint64_t streamEndCycles() const;

private:
  const Target& t_;
};

} // namespace poplar::detail::models
