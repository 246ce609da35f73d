// buildProgramModel(): rewrites the lowered program tree into report programs and plans the
// exchanges and costs of every step. See ProgramModel.hpp.
#include "ProgramModel.hpp"

#include "CycleModel.hpp"
#include "TileAccumulator.hpp"
#include "runtime/Instances.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_set>

namespace poplar::detail::models {
using compiler::CompiledComputeSet;
using compiler::CompiledGraph;
using compiler::CompiledTransfer;
using compiler::CompiledVariable;
using compiler::CompiledVertex;
using compiler::LoweredProgram;
using compiler::TileInterval;
using runtime::CollectiveKind;
using runtime::collectiveKindName;
using runtime::CollectiveOp;
using runtime::CollectiveSpec;
using runtime::globalReplicationFactor;
using runtime::ipuLinkDomainOf;
using runtime::replicaGroups;

bool ProfileProgram::isStepType(ProgramType t) {
  switch (t) {
  case ProgramType::OnTileExecute:
  case ProgramType::DoExchange:
  case ProgramType::GlobalExchange:
  case ProgramType::StreamCopyBegin:
  case ProgramType::StreamCopyMid:
  case ProgramType::StreamCopyEnd:
  case ProgramType::Sync:
    return true;
  default:
    return false;
  }
}

namespace {

using LK = LoweredProgram::Kind;

/// Which tile holds each element of a region: calls f(tile, elements) piece by piece.
template <class F>
void forEachPiece(const CompiledVariable& v, std::size_t begin, std::size_t end, F&& f) {
  auto it = std::upper_bound(v.mapping.begin(), v.mapping.end(), begin,
                             [](std::size_t b, const TileInterval& ti) { return b < ti.begin; });
  if (it != v.mapping.begin()) --it;
  for (; it != v.mapping.end() && it->begin < end; ++it) {
    const std::size_t lo = std::max(begin, it->begin), hi = std::min(end, it->end);
    if (lo < hi) f(it->tile, hi - lo);
  }
}

/// The tiles of a sequence of regions as (tile, elements) segments in element order.
struct Segment {
  unsigned tile;
  std::size_t elements;
};
std::vector<Segment> segmentsOf(const CompiledGraph& g, const std::vector<VarRegion>& regions) {
  std::vector<Segment> out;
  for (const auto& r : regions)
    forEachPiece(g.variables[r.var], r.begin, r.end, [&](unsigned tile, std::size_t n) {
      if (!out.empty() && out.back().tile == tile)
        out.back().elements += n;
      else
        out.push_back({tile, n});
    });
  return out;
}

void addAccess(std::map<unsigned, Access>& m, unsigned var, Access a) {
  auto [it, inserted] = m.emplace(var, a);
  if (!inserted) it->second = Access(std::uint8_t(it->second) | std::uint8_t(a));
}

std::vector<VariableAccess> toVector(const std::map<unsigned, Access>& m) {
  std::vector<VariableAccess> v;
  v.reserve(m.size());
  for (const auto& [var, a] : m)
    v.push_back({var, a});
  return v;
}

/// Data moved by one exchange phase: per tile in/out bytes and messages, per IPU link bytes.
struct ExchangePlan {
  TileAccumulator received, sent, messages;
  TileAccumulator globalTiles;               ///< bytes each tile moves over IPU-Links
  std::map<unsigned, IpuTraffic> ipuTraffic; ///< cross-IPU bytes
  std::map<unsigned, Access> vars, globalVars;
  std::uint64_t localBytes = 0, globalBytes = 0;
  std::unordered_set<std::uint64_t> pairs; ///< (from << 32 | to) tiles that already have a message

  void move(const Target& t, unsigned from, unsigned to, std::uint64_t bytes) {
    const unsigned fi = t.getIPUForTile(from), ti = t.getIPUForTile(to);
    if (fi == ti) {
      received.add(to, bytes);
      sent.add(from, bytes);
      // One message per source/destination pair: the pieces between two tiles go in one
      // send/receive sequence of the compiled exchange.
      if (pairs.insert(std::uint64_t(from) << 32 | to).second) {
        messages.add(to, 1);
        messages.add(from, 1);
      }
      localBytes += bytes;
    } else {
      globalTiles.add(to, bytes);
      globalTiles.add(from, bytes);
      auto& o = ipuTraffic[fi];
      o.ipu = fi;
      o.out += bytes;
      auto& i = ipuTraffic[ti];
      i.ipu = ti;
      i.in += bytes;
      globalBytes += bytes;
    }
  }
};

class Builder {
public:
  explicit Builder(const CompiledGraph& g) : g_(g), t_(g.replicaTarget), cost_(g.replicaTarget) {
    m_.stepsOfNode.resize(g.programs.size());
    m_.blockOfNode.assign(g.programs.size(), -1);
    m_.computeSetCycles.reserve(g.computeSets.size());
    m_.computeSetBusyCycles.reserve(g.computeSets.size());
    // Each compute set's vertices by tile (in graph order on each tile), in buckets reused from
    // set to set: a map of vectors per set was a large part of modelling a million vertices.
    std::vector<std::vector<const CompiledVertex*>> byTile;
    std::vector<unsigned> tiles;
    for (const CompiledComputeSet& cs : g.computeSets) {
      tiles.clear();
      for (const auto& v : cs.vertices) {
        if (v.tile >= byTile.size()) byTile.resize(v.tile + 1);
        if (byTile[v.tile].empty()) tiles.push_back(v.tile);
        byTile[v.tile].push_back(&v);
      }
      std::sort(tiles.begin(), tiles.end());
      TileValues cycles, busy;
      for (unsigned tile : tiles) {
        auto& vertices = byTile[tile];
        cycles.push_back({tile, cost_.computeCycles(vertices)});
        busy.push_back({tile, cost_.computeCyclesExcludingIdle(vertices)});
        vertices.clear();
      }
      cycles.shrink();
      busy.shrink();
      m_.computeSetCycles.push_back(std::move(cycles));
      m_.computeSetBusyCycles.push_back(std::move(busy));
    }
  }

  ProgramModel build() {
    ProfileProgram root;
    root.type = ProgramType::OnEveryTileSwitch;
    root.name = "programs";
    for (unsigned e : g_.entryPoints) {
      const unsigned id =
          single(lower(e), g_.programs[e].name.empty() ? "program" : g_.programs[e].name,
                 g_.programs[e].debug);
      m_.entryRoots.push_back(id);
      root.children.push_back(id);
    }
    root.controlCode = cost_.allTiles(cost_.kControlSwitch);
    m_.root = add(std::move(root));
    for (unsigned id : m_.entryRoots) {
      const unsigned begin = static_cast<unsigned>(m_.schedule.size());
      schedule(id);
      m_.entryRanges.push_back({begin, static_cast<unsigned>(m_.schedule.size())});
    }
    return std::move(m_);
  }

private:
  unsigned add(ProfileProgram p) {
    // TileValues are ascending by construction (the arrays before them were sorted here).
    m_.programs.push_back(std::move(p));
    return static_cast<unsigned>(m_.programs.size() - 1);
  }

  /// One program standing for `ids`: itself, or a Sequence around them.
  unsigned single(std::vector<unsigned> ids, const std::string& name, const DebugContext& debug) {
    if (ids.size() == 1) return ids[0];
    ProfileProgram seq;
    seq.name = name;
    seq.debug = debug;
    seq.children = std::move(ids);
    return add(std::move(seq));
  }

  std::vector<unsigned> lowerChildren(const LoweredProgram& lp) {
    std::vector<unsigned> ids;
    for (unsigned c : lp.children) {
      auto sub = lower(c);
      ids.insert(ids.end(), sub.begin(), sub.end());
    }
    return ids;
  }

  ProfileProgram control(ProgramType type, const LoweredProgram& lp, std::uint64_t controlBytes) {
    ProfileProgram p;
    p.type = type;
    p.name = lp.name;
    p.debug = lp.debug;
    p.controlCode = cost_.allTiles(controlBytes);
    return p;
  }

  std::vector<unsigned> lower(unsigned node) {
    const LoweredProgram& lp = g_.programs[node];
    switch (lp.kind) {
    case LK::Sequence: {
      ProfileProgram p = control(ProgramType::Sequence, lp, 0);
      p.children = lowerChildren(lp);
      return {add(std::move(p))};
    }
    case LK::Block: {
      ProfileProgram p = control(ProgramType::Block, lp, 0);
      p.children = lowerChildren(lp);
      const unsigned id = add(std::move(p));
      m_.blockOfNode[node] = static_cast<int>(id);
      return {id};
    }
    case LK::Repeat: {
      ProfileProgram p = control(ProgramType::Repeat, lp, cost_.kControlLoop);
      p.repeatCount = lp.count;
      p.children = {single(lower(lp.children[0]), lp.name, lp.debug)};
      return {add(std::move(p))};
    }
    case LK::RepeatWhileTrue:
    case LK::RepeatWhileFalse:
    case LK::If:
    case LK::Switch: {
      const ProgramType type = lp.kind == LK::If                ? ProgramType::If
                               : lp.kind == LK::Switch          ? ProgramType::Switch
                               : lp.kind == LK::RepeatWhileTrue ? ProgramType::RepeatWhileTrue
                                                                : ProgramType::RepeatWhileFalse;
      ProfileProgram p = control(type, lp, cost_.kControlBranch + 4 * lp.caseValues.size());
      for (unsigned c : lp.children)
        p.children.push_back(single(lower(c), lp.name, lp.debug));
      if (lp.hasScalar) p.vars = {{lp.scalar.var, Access::Read}};
      return {add(std::move(p))};
    }
    case LK::Call: {
      ProfileProgram p = control(ProgramType::Call, lp, cost_.kControlCall);
      const unsigned body = lp.children[0];
      auto it = functions_.find(body);
      if (it == functions_.end())
        it = functions_.emplace(body, single(lower(body), lp.name, g_.programs[body].debug)).first;
      p.children = {it->second};
      return {add(std::move(p))};
    }
    case LK::WriteUndef: {
      ProfileProgram p = control(ProgramType::WriteUndef, lp, 0);
      return {add(std::move(p))};
    }
    case LK::Abort: {
      ProfileProgram p = control(ProgramType::Abort, lp, cost_.kControlBranch);
      if (lp.hasScalar) p.vars = {{lp.scalar.var, Access::Read}};
      return {add(std::move(p))};
    }
    case LK::Sync:
      return record(node,
                    {sync(lp.syncType, allIpus(), lp.name.empty() ? "Sync" : lp.name, lp.debug)});
    case LK::Execute:
      return record(node, execute(lp));
    case LK::Copy:
      return record(node, copy(lp));
    case LK::StreamToDevice:
    case LK::RemoteToDevice:
      return record(node, streamCopy(lp, true));
    case LK::StreamFromDevice:
    case LK::RemoteFromDevice:
    case LK::PrintTensor:
      return record(node, streamCopy(lp, false));
    case LK::CrossReplica:
      return record(node, crossReplica(lp));
    }
    return {};
  }

  std::vector<unsigned> record(unsigned node, std::vector<unsigned> steps) {
    m_.stepsOfNode[node] = steps;
    return steps;
  }

  std::vector<unsigned> allIpus() const {
    std::vector<unsigned> v(t_.getNumIPUs());
    for (unsigned i = 0; i < v.size(); ++i)
      v[i] = i;
    return v;
  }

  std::vector<unsigned> ipusOf(const TileValues& tiles) const {
    std::vector<unsigned> v;
    for (const auto& r : tiles.runs()) // a run's tiles are consecutive: its IPUs too
      for (unsigned ipu = t_.getIPUForTile(r.first); ipu <= t_.getIPUForTile(r.first + r.count - 1);
           ++ipu)
        v.push_back(ipu);
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
  }

  unsigned sync(SyncType type, std::vector<unsigned> ipus, const std::string& name,
                const DebugContext& debug) {
    ProfileProgram p;
    p.type = ProgramType::Sync;
    p.kind = CycleKind::sync;
    p.name = name;
    p.debug = debug;
    p.syncType = type;
    p.ipus = std::move(ipus);
    if (type == SyncType::INTERNAL) {
      p.cycles = cost_.syncCycles(p.ipus);
    } else { // with the other IPUs and the host: every IPU waits for the slowest, and every
             // tile of them takes part
      p.aligned = true;
      p.ipuCycles = cost_.hostSyncCycles();
      p.cycles = cost_.everyTileOf(p.ipus, p.ipuCycles);
    }
    p.controlCode = cost_.tilesOf(p.ipus, cost_.kControlSync);
    return add(std::move(p));
  }

  /// The DoExchange and GlobalExchange steps of one exchange phase (none when nothing moves).
  void exchangeSteps(ExchangePlan& x, const std::string& name, const DebugContext& debug,
                     std::vector<unsigned>& steps) {
    if (x.localBytes) {
      ProfileProgram p;
      p.type = ProgramType::DoExchange;
      p.kind = CycleKind::internalExchange;
      p.name = name + "/Exchange";
      p.debug = debug;
      p.cycles = cost_.exchangeCycles(x.received, x.sent, x.messages);
      p.ipus = ipusOf(p.cycles);
      p.dataBytes = x.localBytes;
      p.vars = toVector(x.vars);
      p.exchangeCode = cost_.exchangeCode(x.messages);
      p.controlCode = cost_.perTile(p.cycles, cost_.kControlExchange);
      steps.push_back(sync(SyncType::INTERNAL, p.ipus, name + "/Sync", debug));
      steps.push_back(add(std::move(p)));
    }
    if (x.globalBytes) {
      ProfileProgram p;
      p.type = ProgramType::GlobalExchange;
      p.kind = CycleKind::globalExchange;
      p.syncType = SyncType::EXTERNAL;
      p.aligned = true;
      p.name = name + "/Global";
      p.debug = debug;
      p.cycles = cost_.linkTileCycles(x.globalTiles);
      for (const auto& [ipu, tr] : x.ipuTraffic) {
        p.ipus.push_back(ipu);
        p.traffic.push_back(tr);
        p.ipuCycles = std::max(p.ipuCycles, cost_.ipuLinkCycles(std::max(tr.in, tr.out)));
      }
      p.ipuCycles += t_.getGlobalSyncCycles();
      p.dataBytes = x.globalBytes;
      p.vars = toVector(x.globalVars);
      p.exchangeCode = cost_.exchangeCode(x.globalTiles.mapped([](std::uint64_t) { return 1; }));
      p.controlCode = cost_.perTile(p.cycles, cost_.kControlExchange);
      steps.push_back(add(std::move(p)));
    }
  }

  std::vector<unsigned> execute(const LoweredProgram& lp) {
    const CompiledComputeSet& cs = g_.computeSets[lp.computeSet];
    const std::string& name = lp.name.empty() ? cs.name : lp.name;
    // An Execute made without a name stands for its compute set: report the set's context.
    const DebugContext& debug = lp.debug.getPathName().empty() ? cs.debug : lp.debug;
    ExchangePlan pre, post;
    std::map<unsigned, Access> vars;
    TileAccumulator messageBytes;
    const unsigned message = static_cast<unsigned>(g_.variables.size() + m_.messages.size());
    TileAccumulator verticesByTile;
    for (const auto& v : cs.vertices) {
      verticesByTile.add(v.tile, 1);
      const auto fields = cs.fieldsOf(v);
      for (std::size_t f = 0; f < fields.size(); ++f) {
        const auto& d = v.type->fields[f];
        if (d.direction == FieldDirection::State) continue;
        const bool reads = d.direction != FieldDirection::Out,
                   writes = d.direction != FieldDirection::In;
        const std::size_t size = d.elementType.size();
        for (const auto& e : cs.edgesOf(fields[f]))
          for (const auto& r : cs.regionsOf(e)) {
            addAccess(vars, r.var,
                      reads && writes ? Access::ReadWrite
                      : reads         ? Access::Read
                                      : Access::Write);
            forEachPiece(g_.variables[r.var], r.begin, r.end, [&](unsigned tile, std::size_t n) {
              if (tile == v.tile) return;
              const std::uint64_t bytes = n * size;
              messageBytes.add(v.tile, bytes);
              if (reads) {
                pre.move(t_, tile, v.tile, bytes);
                addAccess(t_.getIPUForTile(tile) == t_.getIPUForTile(v.tile) ? pre.vars
                                                                             : pre.globalVars,
                          r.var, Access::Read);
              }
              if (writes) {
                post.move(t_, v.tile, tile, bytes);
                addAccess(t_.getIPUForTile(tile) == t_.getIPUForTile(v.tile) ? post.vars
                                                                             : post.globalVars,
                          r.var, Access::Write);
              }
            });
          }
      }
    }
    const bool hasMessage = !messageBytes.empty();
    if (hasMessage) {
      m_.messages.push_back({name + "/message", debug, messageBytes.tileValues()});
      if (pre.localBytes) addAccess(pre.vars, message, Access::Write);
      if (pre.globalBytes) addAccess(pre.globalVars, message, Access::Write);
      if (post.localBytes) addAccess(post.vars, message, Access::Read);
      if (post.globalBytes) addAccess(post.globalVars, message, Access::Read);
      addAccess(vars, message,
                pre.localBytes + pre.globalBytes
                    ? (post.localBytes + post.globalBytes ? Access::ReadWrite : Access::Read)
                    : Access::Write);
    }

    std::vector<unsigned> steps;
    exchangeSteps(pre, name, debug, steps);

    ProfileProgram p;
    p.type = ProgramType::OnTileExecute;
    p.kind = CycleKind::compute;
    p.name = name;
    p.debug = debug;
    p.computeSet = static_cast<int>(lp.computeSet);
    p.cycles = m_.computeSetCycles[lp.computeSet];
    p.busyCycles = m_.computeSetBusyCycles[lp.computeSet];
    for (const auto& [tile, vertices] : verticesByTile.sums())
      p.controlCode.push_back({tile, cost_.kControlExecute + cost_.kControlPerVertex * vertices});
    p.controlCode.shrink();
    p.ipus = ipusOf(p.cycles);
    if (p.ipus.empty()) p.ipus = {0};
    p.vars = toVector(vars);
    const std::vector<unsigned> computeIpus = p.ipus;
    if (steps.empty())
      steps.push_back(sync(SyncType::INTERNAL, computeIpus, name + "/Sync", debug));
    steps.push_back(add(std::move(p)));

    exchangeSteps(post, name + "/Post", debug, steps);
    return steps;
  }

  std::vector<unsigned> copy(const LoweredProgram& lp) {
    const std::string name = lp.name.empty() ? "Copy" : lp.name;
    ExchangePlan x;
    TileAccumulator onTileCycles, descriptors;
    std::uint64_t onTileBytes = 0;
    const auto src = segmentsOf(g_, lp.srcRegions), dst = segmentsOf(g_, lp.dstRegions);
    const std::size_t elementSize =
        lp.srcRegions.empty() ? 0 : g_.variables[lp.srcRegions[0].var].type.size();
    std::size_t i = 0, j = 0, si = 0, dj = 0;
    while (i < src.size() && j < dst.size()) {
      const std::size_t n = std::min(src[i].elements - si, dst[j].elements - dj);
      const std::uint64_t bytes = n * elementSize;
      if (src[i].tile == dst[j].tile) {
        onTileCycles.add(dst[j].tile, cost_.memcpyCycles(bytes));
        descriptors.add(dst[j].tile, cost_.kCopyDescriptorBytes);
        onTileBytes += bytes;
      } else {
        x.move(t_, src[i].tile, dst[j].tile, bytes);
      }
      si += n;
      dj += n;
      if (si == src[i].elements) {
        ++i;
        si = 0;
      }
      if (dj == dst[j].elements) {
        ++j;
        dj = 0;
      }
    }
    for (const auto& r : lp.srcRegions)
      addAccess(x.vars, r.var, Access::Read);
    for (const auto& r : lp.dstRegions)
      addAccess(x.vars, r.var, Access::Write);
    if (x.globalBytes) x.globalVars = x.vars;

    std::vector<unsigned> steps;
    if (x.localBytes || onTileBytes || !x.globalBytes) {
      // On-tile copies run in the same phase as the internal exchange.
      ProfileProgram p;
      p.type = ProgramType::DoExchange;
      p.kind = CycleKind::internalExchange;
      p.name = name;
      p.debug = lp.debug;
      TileAccumulator cycles = cost_.exchangeCyclesAcc(x.received, x.sent, x.messages);
      cycles.addAll(onTileCycles);
      p.cycles = cycles.tileValues();
      p.ipus = ipusOf(p.cycles);
      if (p.ipus.empty()) p.ipus = {0};
      p.dataBytes = x.localBytes + onTileBytes;
      p.vars = toVector(x.vars);
      p.exchangeCode = cost_.exchangeCode(x.messages);
      p.copyDescriptors = descriptors.tileValues();
      p.controlCode = cost_.perTile(p.cycles, cost_.kControlExchange);
      steps.push_back(sync(SyncType::INTERNAL, p.ipus, name + "/Sync", lp.debug));
      steps.push_back(add(std::move(p)));
    }
    if (x.globalBytes) {
      x.localBytes = 0; // already planned above
      exchangeSteps(x, name, lp.debug, steps);
    }
    return steps;
  }

  /// A cross-replica collective: one GlobalExchange step on every IPU of the replica holding the
  /// data, as Poplar's gcl builds it over the IPU-Links: a ring over the k replicas of a group.
  /// All-reduce is a reduce-scatter then an all-gather, 2(k-1) ring steps each moving 1/k of the
  /// data, so each replica sends and receives 2(k-1)/k of it; reduce-scatter and all-gather take
  /// k-1 steps and move (k-1)/k of the larger side; broadcast (forwarded along the ring) and
  /// all-to-all take k-1 steps, a CrossReplicaCopy one hop. Each step is a superstep that starts
  /// with an external sync; the bytes go over the ring's slowest hop (a GW-Link when a group spans
  /// IPU-Link domains, else an IPU-Link: CycleModel::ringCycles). Tiles feed the links at their
  /// exchange bandwidth and add what they receive (k-1 vector adds per element slice). The
  /// global exchange is a BSP step of the whole IPU, so every tile of a taking-part IPU spends
  /// it, as it spends a stream copy (docs/fidelity.md, "Collectives").
  std::vector<unsigned> crossReplica(const LoweredProgram& lp) {
    const CollectiveSpec& spec = lp.collective;
    const unsigned replicas = globalReplicationFactor(g_.replicationFactor);
    const auto groups = replicaGroups(spec, replicas);
    const std::uint64_t k = groups[0].size();
    const std::size_t size = lp.transfer.type.size();
    // Bytes each tile sends for each byte of source it holds, and receives per byte of result.
    double sendFactor = 0, receiveFactor = 0;
    std::uint64_t steps = 0;
    bool reduces = false;
    if (k > 1 && spec.op != CollectiveOp::Local) {
      switch (spec.kind) {
      case CollectiveKind::AllReduce:
        sendFactor = receiveFactor = 2.0 * double(k - 1) / double(k);
        steps = 2 * (k - 1);
        reduces = true;
        break;
      case CollectiveKind::ReduceScatter:
        sendFactor = double(k - 1) / double(k);
        receiveFactor = double(k - 1);
        steps = k - 1;
        reduces = true;
        break;
      case CollectiveKind::AllGather:
        sendFactor = double(k - 1);
        receiveFactor = double(k - 1) / double(k);
        steps = k - 1;
        break;
      case CollectiveKind::Broadcast: // pipelined along the ring: each forwards what it gets
        sendFactor = receiveFactor = 1.0;
        steps = k - 1;
        break;
      case CollectiveKind::AllToAll: // each keeps 1/k, the rest travels the ring
        sendFactor = receiveFactor = double(k - 1) / double(k);
        steps = k - 1;
        break;
      case CollectiveKind::Copy: // one hop: each sends its data and receives another's
        sendFactor = receiveFactor = 1.0;
        steps = 1;
        break;
      }
    }
    // The ring's slowest hop: a GW-Link when any group spans two IPU-Link domains.
    bool gateway = false;
    for (const auto& group : groups)
      for (unsigned m : group)
        gateway = gateway || ipuLinkDomainOf(m, replicas) != ipuLinkDomainOf(group[0], replicas);
    const double linkBytesPerCycle =
        gateway ? std::min(cost_.gwLinkBytesPerCycle(), t_.getIpuLinkBytesPerCycle())
                : t_.getIpuLinkBytesPerCycle();
    TileAccumulator linkBytes, addCycles;
    std::map<unsigned, IpuTraffic> traffic;
    std::map<unsigned, Access> vars;
    const std::uint64_t vector = std::max(1u, t_.getVectorWidth(lp.transfer.type));
    auto account = [&](const CompiledTransfer& tr, double factor, bool in) {
      for (const auto& r : tr.regions)
        forEachPiece(g_.variables[r.var], r.begin, r.end, [&](unsigned tile, std::size_t n) {
          const auto bytes = static_cast<std::uint64_t>(double(n * size) * factor + 0.5);
          linkBytes.add(tile, bytes);
          auto& t = traffic[t_.getIPUForTile(tile)];
          t.ipu = t_.getIPUForTile(tile);
          (in ? t.in : t.out) += bytes;
          if (in && reduces) addCycles.add(tile, (k - 1) * ((n / k + vector - 1) / vector + 1));
        });
    };
    account(lp.transfer, sendFactor, false);
    account(lp.result, receiveFactor, true);
    for (const auto& r : lp.srcRegions)
      addAccess(vars, r.var, Access::Read);
    for (const auto& r : lp.dstRegions)
      addAccess(vars, r.var, Access::Write);

    ProfileProgram p;
    p.type = ProgramType::GlobalExchange;
    p.kind = CycleKind::globalExchange;
    p.syncType = SyncType::EXTERNAL;
    p.aligned = true;
    p.name = lp.name.empty() ? std::string(collectiveKindName(spec.kind)) : lp.name;
    p.debug = lp.debug;
    // The busiest tile: feeding its link bytes and adding what it receives.
    TileAccumulator tileWork;
    for (const auto& tv : cost_.linkTileCycles(linkBytes))
      tileWork.add(tv.tile, tv.value);
    tileWork.addAll(addCycles);
    std::uint64_t busy = 0;
    for (const auto& tv : tileWork.values())
      busy = std::max(busy, tv.value);
    for (const auto& [ipu, tr] : traffic) {
      p.ipus.push_back(ipu);
      p.traffic.push_back(tr);
      busy = std::max(busy, cost_.ringCycles(steps, std::max(tr.in, tr.out), linkBytesPerCycle));
      p.dataBytes += tr.in;
    }
    if (p.ipus.empty()) p.ipus = {0};
    busy = std::max(busy, cost_.ringCycles(steps, 0, linkBytesPerCycle)); // the syncs at least
    p.ipuCycles = busy;
    p.cycles = cost_.everyTileOf(p.ipus, busy);
    p.vars = toVector(vars);
    p.exchangeCode = cost_.exchangeCode(linkBytes.mapped([](std::uint64_t) { return 1; }));
    p.controlCode = cost_.perTile(linkBytes.tileValues(), cost_.kControlExchange);
    return {add(std::move(p))};
  }

  /// Host transfers (streams, remote buffers, PrintTensor): StreamCopyBegin/Mid/End.
  std::vector<unsigned> streamCopy(const LoweredProgram& lp, bool toDevice) {
    const std::string name =
        lp.name.empty() ? (lp.kind == LK::PrintTensor ? "PrintTensor" : "StreamCopy") : lp.name;
    TileAccumulator tileBytes;
    std::map<unsigned, Access> vars;
    const std::size_t size = lp.transfer.type.size();
    for (const auto& r : lp.transfer.regions) {
      addAccess(vars, r.var, toDevice ? Access::Write : Access::Read);
      forEachPiece(g_.variables[r.var], r.begin, r.end,
                   [&](unsigned tile, std::size_t n) { tileBytes.add(tile, n * size); });
    }
    const TileValues tiles = tileBytes.tileValues();
    std::vector<unsigned> ipus = ipusOf(tiles);
    if (ipus.empty()) ipus = {0};

    auto part = [&](ProgramType type) {
      ProfileProgram p;
      p.type = type;
      p.kind = CycleKind::streamCopy;
      p.syncType = SyncType::EXTERNAL;
      p.aligned = true;
      p.name = name;
      p.debug = lp.debug;
      p.ipus = ipus;
      // One lowered copy has one destination; a stream copy made of several would be "mixed".
      p.streamDestination = lp.kind == LK::RemoteToDevice || lp.kind == LK::RemoteFromDevice
                                ? StreamDestination::remoteBuffer
                                : StreamDestination::host;
      p.controlCode = cost_.perTile(tiles, cost_.kControlExchange);
      for (const auto& tv : tiles)
        p.ioTiles.push_back(tv.tile);
      return p;
    };
    // Every tile of the IPUs taking part spends each of the three steps (a BSP step of the
    // whole IPU), so each counts for every tile, as in Poplar's IPU Model.
    // A host copy on simulated hardware also waits for the host (CycleModel::streamBeginCycles
    // and streamEndCycles): the step lasts longer than its tiles' sync and release cycles.
    // Remote buffers keep the IPU Model's figures (no hardware figure is published for them).
    const bool host = lp.kind != LK::RemoteToDevice && lp.kind != LK::RemoteFromDevice;
    std::uint64_t bytes = 0;
    for (const auto& tv : tiles)
      bytes += tv.value;
    ProfileProgram begin = part(ProgramType::StreamCopyBegin);
    begin.kind = CycleKind::sync; // host and IPUs agree that the copy starts: a host sync
    const std::uint64_t beginTiles = host ? cost_.streamBeginTileCycles() : cost_.hostSyncCycles();
    begin.ipuCycles = host ? cost_.streamBeginCycles(bytes) : cost_.hostSyncCycles();
    begin.cycles = cost_.everyTileOf(ipus, beginTiles);

    ProfileProgram mid = part(ProgramType::StreamCopyMid);
    std::map<unsigned, IpuTraffic> traffic;
    for (const auto& tv : tiles) {
      auto& tr = traffic[t_.getIPUForTile(tv.tile)];
      tr.ipu = t_.getIPUForTile(tv.tile);
      (toDevice ? tr.in : tr.out) += tv.value;
      mid.dataBytes += tv.value;
    }
    for (const auto& [ipu, tr] : traffic) {
      mid.traffic.push_back(tr);
      mid.ipuCycles = std::max(mid.ipuCycles, host ? cost_.streamMidCycles(tr.in + tr.out)
                                                   : cost_.hostLinkCycles(tr.in + tr.out));
    }
    // The transfer lasts as long as the host link needs for the IPU's bytes, or the slowest
    // tile's receive at its exchange bandwidth if that is longer.
    for (const auto& tv : cost_.linkTileCycles(tileBytes))
      mid.ipuCycles = std::max(mid.ipuCycles, tv.value);
    mid.cycles = cost_.everyTileOf(ipus, mid.ipuCycles);
    mid.vars = toVector(vars);
    mid.exchangeCode = cost_.exchangeCode(tileBytes.mapped([](std::uint64_t) { return 1; }));

    ProfileProgram end = part(ProgramType::StreamCopyEnd);
    end.ipuCycles = host ? cost_.streamEndCycles() : cost_.kStreamCopyEndCycles;
    end.cycles = cost_.everyTileOf(ipus, cost_.kStreamCopyEndCycles);
    return {add(std::move(begin)), add(std::move(mid)), add(std::move(end))};
  }

  void schedule(unsigned id) {
    const ProfileProgram& p = m_.programs[id];
    if (p.isStep()) {
      m_.schedule.push_back(id);
      return;
    }
    const bool loop = p.type == ProgramType::Repeat || p.type == ProgramType::RepeatWhileTrue ||
                      p.type == ProgramType::RepeatWhileFalse;
    const unsigned begin = static_cast<unsigned>(m_.schedule.size());
    for (unsigned c : std::vector<unsigned>(p.children))
      schedule(c);
    if (loop && m_.schedule.size() > begin)
      m_.loops.push_back({begin, static_cast<unsigned>(m_.schedule.size())});
  }

  const CompiledGraph& g_;
  const Target& t_;
  CycleModel cost_;
  ProgramModel m_;
  std::map<unsigned, unsigned> functions_; // lowered function body -> its program
};

} // namespace

ProgramModel buildProgramModel(const CompiledGraph& g) {
  return Builder(g).build();
}

void addLightweightCopies(ProgramModel& m, const Target& t) {
  const CycleModel cost(t);
  std::vector<unsigned> ipus;
  for (unsigned ipu = 0; ipu < t.getNumIPUs(); ++ipu)
    ipus.push_back(ipu);
  auto add = [&](const char* name, int(&ids)[3]) {
    const ProgramType types[3] = {ProgramType::StreamCopyBegin, ProgramType::StreamCopyMid,
                                  ProgramType::StreamCopyEnd};
    for (int k = 0; k < 3; ++k) {
      ProfileProgram p;
      p.type = types[k];
      p.name = name;
      p.kind = k == 0 ? CycleKind::sync : CycleKind::streamCopy;
      p.syncType = SyncType::EXTERNAL;
      p.aligned = true;
      p.ipus = ipus;
      // Static figures as a stream copy's (the flush's transfer depends on the records it
      // carries: ExecutionRecorder computes it); no code is modelled for them.
      p.ipuCycles = k == 0   ? cost.hostSyncCycles()
                    : k == 1 ? cost.hostTransferCycles(CycleModel::kControlCopyBytes)
                             : CycleModel::kStreamCopyEndCycles;
      ids[k] = static_cast<int>(m.programs.size());
      m.programs.push_back(std::move(p));
    }
  };
  add("BlockFlush", m.blockFlush);
  add("ControlStreamCopy", m.controlCopy);
}

} // namespace poplar::detail::models
