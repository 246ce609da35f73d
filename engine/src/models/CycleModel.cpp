#include "CycleModel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace poplar::detail::models {
using compiler::CompiledVertex;

namespace {
std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) {
  return b ? (a + b - 1) / b : a;
}
/// Bytes over a rate in cycles, saturating: a tiny rate (a target's, possibly from a file) would
/// make a figure no 64-bit count holds, and converting that is undefined.
std::uint64_t ceilDiv(std::uint64_t a, double b) {
  const double q = std::ceil(double(a) / b);
  return q < 18446744073709551616.0 ? static_cast<std::uint64_t>(q) : UINT64_MAX;
}
} // namespace

TileValues CycleModel::allTiles(std::uint64_t bytes) const {
  std::vector<unsigned> ipus(t_.getNumIPUs());
  for (unsigned i = 0; i < ipus.size(); ++i)
    ipus[i] = i;
  return tilesOf(ipus, bytes);
}

TileValues CycleModel::tilesOf(const std::vector<unsigned>& ipus, std::uint64_t bytes) const {
  TileValues v;
  if (!bytes) return v;
  const unsigned n = t_.getTilesPerIPU();
  for (unsigned ipu : ipus)
    v.appendRun(ipu * n, n, bytes);
  v.shrink();
  return v;
}

TileValues CycleModel::perTile(const TileValues& tiles, std::uint64_t bytes) {
  TileValues v;
  for (const auto& r : tiles.runs())
    v.appendRun(r.first, r.count, bytes);
  v.shrink();
  return v;
}

std::uint64_t CycleModel::executedCycles(std::uint64_t instructions, bool multiVertex,
                                         bool supervisor, unsigned contexts) {
  const std::uint64_t cycles = instructions * kThreadCyclesPerInstruction;
  if (supervisor) return cycles * contexts;
  return multiVertex ? ceilDiv(cycles, std::uint64_t(MultiVertex::numWorkers())) : cycles;
}

std::uint64_t CycleModel::computeCycles(const std::vector<const CompiledVertex*>& vertices,
                                        const std::vector<std::uint64_t>* cycles) const {
  const unsigned contexts = t_.getNumWorkerContexts();
  std::vector<std::uint64_t> load(contexts, 0);
  std::uint64_t supervisor = 0;
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    const CompiledVertex* v = vertices[i];
    const std::uint64_t c = cycles ? (*cycles)[i] : v->estimatedCycles;
    if (v->type->isSupervisor) {
      supervisor += c;
    } else if (v->type->isMultiVertex) { // runs on every worker: its estimate is per worker
      for (auto& l : load)
        l += c;
    } else {
      auto least = std::min_element(load.begin(), load.end());
      *least += c;
    }
  }
  const std::uint64_t workers = *std::max_element(load.begin(), load.end()) * contexts;
  return kComputeSetLaunchCycles + workers + supervisor;
}

std::uint64_t
CycleModel::computeCyclesExcludingIdle(const std::vector<const CompiledVertex*>& vertices,
                                       const std::vector<std::uint64_t>* cycles) const {
  const unsigned contexts = t_.getNumWorkerContexts();
  std::uint64_t busy = 0;
  for (std::size_t i = 0; i < vertices.size(); ++i)
    busy += vertexBusyCycles(*vertices[i], cycles ? (*cycles)[i] : vertices[i]->estimatedCycles,
                             contexts);
  return kComputeSetLaunchCycles + busy;
}

std::uint64_t CycleModel::vertexBusyCycles(const CompiledVertex& v, std::uint64_t cycles,
                                           unsigned contexts) {
  // A context's n thread cycles take n x contexts tile cycles, shared by the contexts: busy
  // thread cycles over all contexts equal tile cycles one for one. A supervisor's estimate is
  // in tile cycles already.
  if (v.type->isSupervisor) return cycles;
  return v.type->isMultiVertex ? cycles * contexts : cycles;
}

TileValues CycleModel::syncCycles(const std::vector<unsigned>& ipus) const {
  const unsigned n = t_.getTilesPerIPU();
  const std::uint64_t lo = t_.getMinIPUSyncDelay(),
                      hi = std::max(lo, std::uint64_t(t_.getMaxIPUSyncDelay()));
  TileValues v;
  for (unsigned ipu : ipus)
    for (unsigned t = 0; t < n; ++t)
      v.push_back({ipu * n + t, lo + (n > 1 ? (hi - lo) * t / (n - 1) : 0)});
  v.shrink();
  return v;
}

TileAccumulator CycleModel::exchangeCyclesAcc(const TileAccumulator& received,
                                              const TileAccumulator& sent,
                                              const TileAccumulator& messages) const {
  const std::uint64_t bw = t_.getExchangeBytesPerCycle();
  TileAccumulator c;
  for (const auto& [tile, m] : messages.sums()) {
    const std::uint64_t bytes = std::max(received.at(tile), sent.at(tile));
    c.add(tile, kExchangeSetupCycles + ceilDiv(bytes, bw) + kCyclesPerMessage * m);
  }
  return c;
}

TileValues CycleModel::exchangeCode(const TileAccumulator& messages) {
  TileValues v;
  for (const auto& [tile, m] : messages.sums())
    v.push_back({tile, kExchangeCodeBase + kExchangeCodePerMessage * m});
  v.shrink();
  return v;
}

TileValues CycleModel::linkTileCycles(const TileAccumulator& bytes) const {
  TileValues v;
  for (const auto& [tile, b] : bytes.sums())
    v.push_back(
        {tile, kExchangeSetupCycles + ceilDiv(b, std::uint64_t(t_.getExchangeBytesPerCycle()))});
  v.shrink();
  return v;
}

std::uint64_t CycleModel::ipuLinkCycles(std::uint64_t bytes) const {
  return ceilDiv(bytes, t_.getIpuLinkBytesPerCycle());
}
std::uint64_t CycleModel::ringCycles(std::uint64_t steps, std::uint64_t bytes,
                                     double linkBytesPerCycle) const {
  const double transfer = linkBytesPerCycle > 0 ? double(bytes) / linkBytesPerCycle : 0.0;
  return std::max<std::uint64_t>(steps, 1) * t_.getGlobalSyncCycles() +
         static_cast<std::uint64_t>(std::ceil(transfer));
}
std::uint64_t CycleModel::hostLinkCycles(std::uint64_t bytes) const {
  return ceilDiv(bytes, t_.getHostLinkBytesPerCycle());
}
std::uint64_t CycleModel::hostTransferCycles(std::uint64_t bytes) const {
  return std::max(hostLinkCycles(bytes),
                  kExchangeSetupCycles +
                      ceilDiv(bytes, std::uint64_t(t_.getExchangeBytesPerCycle())));
}
bool CycleModel::isHardware() const {
  return t_.getTargetType() == TargetType::IPU;
}
std::uint64_t CycleModel::streamBeginTileCycles() const {
  return isHardware() ? kHwHostSyncCycles : hostSyncCycles();
}
std::uint64_t CycleModel::streamBeginCycles(std::uint64_t bytes) const {
  if (!isHardware()) return hostSyncCycles();
  return kHwHostSyncCycles + kHwStreamPrepCycles +
         static_cast<std::uint64_t>(std::ceil(double(bytes) / kHwStreamPrepBytesPerCycle));
}
std::uint64_t CycleModel::streamMidCycles(std::uint64_t bytes) const {
  if (!isHardware()) return hostLinkCycles(bytes);
  return kHwStreamMidCycles +
         static_cast<std::uint64_t>(std::ceil(double(bytes) / kHwHostLinkBytesPerCycle));
}
std::uint64_t CycleModel::streamEndCycles() const {
  return isHardware() ? kHwStreamEndCycles : kStreamCopyEndCycles;
}
std::uint64_t CycleModel::memcpyCycles(std::uint64_t bytes) const {
  return ceilDiv(bytes, std::uint64_t(t_.getMemcpyBytesPerCycle()));
}

} // namespace poplar::detail::models
