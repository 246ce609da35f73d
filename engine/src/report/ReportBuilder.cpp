#include "ReportBuilder.hpp"

#include "models/FlopModel.hpp"
#include "runtime/Instances.hpp"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <map>
#include <optional>
#include <poplar/exceptions.hpp>
#include <profiler/Blob.hpp>
#include <random>
#include <set>

#ifndef TESSERA_VERSION
#define TESSERA_VERSION "0.0.0"
#endif

namespace poplar::detail::report {
using compiler::CompiledGraph;
using runtime::globalReplicaOffset;
using runtime::globalReplicationFactor;
using runtime::instanceContext;

namespace schema = tessera::profiler::schema;
using models::ProfileProgram;
using models::ProgramType;
using models::TileValue;
using tessera::profiler::blob;
using tessera::profiler::encodeTileValues;
using tessera::profiler::ReportWriter;

namespace {

std::string newReportId() {
  std::random_device rd;
  std::mt19937_64 gen((std::uint64_t(rd()) << 32) ^ rd() ^
                      std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()));
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(gen()),
                static_cast<unsigned long long>(gen()));
  return buf;
}

// Poplar's public enums mirror the stored ones value by value, so a value is written by
// converting it: its name is spelled once, in <profiler/SchemaEnums.hpp>.
static_assert(int(TargetType::IPU) == int(schema::TargetType::IPU) &&
                  int(TargetType::IPU_MODEL) == int(schema::TargetType::IPU_MODEL) &&
                  int(TargetType::CPU) == int(schema::TargetType::CPU) &&
                  schema::enumSize<schema::TargetType>() == 3,
              "poplar::TargetType mirrors schema::TargetType");
static_assert(int(SyncType::INTERNAL) == int(schema::SyncType::INTERNAL) &&
                  int(SyncType::EXTERNAL) == int(schema::SyncType::EXTERNAL) &&
                  int(SyncType::GLOBAL) == int(schema::SyncType::GLOBAL) &&
                  schema::enumSize<schema::SyncType>() == 3,
              "poplar::SyncType mirrors schema::SyncType");

std::string_view targetTypeName(TargetType t) {
  return schema::name(static_cast<schema::TargetType>(t));
}
bool isStreamCopy(ProgramType t) {
  return t == ProgramType::StreamCopyBegin || t == ProgramType::StreamCopyMid ||
         t == ProgramType::StreamCopyEnd;
}
std::string_view syncTypeName(SyncType s) {
  return schema::name(static_cast<schema::SyncType>(s));
}

/// The engine's access is a bit set (read 1, write 2); the report stores one of three names.
std::string_view accessName(models::Access a) {
  switch (a) {
  case models::Access::Read:
    return schema::name(schema::VariableAccess::read);
  case models::Access::Write:
    return schema::name(schema::VariableAccess::write);
  case models::Access::ReadWrite:
    break;
  }
  return schema::name(schema::VariableAccess::readWrite);
}

std::string shapeText(const std::vector<std::size_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

/// Writes the rows of one report; each method fills one group of tables.
class Writer {
public:
  Writer(ReportWriter& w, const CompiledGraph& g, const CompilationProfile& p, DebugContexts& debug)
      : w_(w), g_(g), p_(p), debug_(debug), numTiles_(g.replicaTarget.getNumTiles()) {}

  void meta(const ReportFiles& files, const profile::ProfilerOptions& o) {
    const auto now = std::chrono::system_clock::now();
    const std::time_t t = std::chrono::system_clock::to_time_t(now);
    std::tm utc{};
    gmtime_r(&t, &utc);
    char iso[32];
    std::strftime(iso, sizeof iso, "%Y-%m-%dT%H:%M:%SZ", &utc);
    w_.setMeta(schema::meta::tool, "Tessera");
    w_.setMeta(schema::meta::toolVersion, TESSERA_VERSION);
    w_.setMeta(schema::meta::packageHash, "tessera-" TESSERA_VERSION);
    w_.setMeta(schema::meta::reportId, files.reportId);
    w_.setMeta(schema::meta::createdAt, iso);
    w_.setMeta(
        schema::meta::createdAtUnixUs,
        std::to_string(
            std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count()));
    w_.setMeta(schema::meta::computeInstrumentation,
               schema::name(o.computeInstrumentation ? schema::ComputeInstrumentation::Tile
                                                     : schema::ComputeInstrumentation::Off));
    w_.setMeta(schema::meta::externalExchangeInstrumentation,
               schema::name(o.externalExchangeInstrumentation
                                ? schema::ExternalExchangeInstrumentation::Tile
                                : schema::ExternalExchangeInstrumentation::Off));
    w_.setMeta(schema::meta::outOfMemory, p_.memory.outOfMemory() ? "true" : "false");
    w_.setMeta(schema::meta::executionProfile, o.executionProfile ? "true" : "false");
    w_.setMeta(schema::meta::flopEstimates, o.flopEstimates ? "true" : "false");
    // This report's slice of a poprun job (one instance holding every replica outside poprun).
    const unsigned local = g_.replicationFactor;
    const bool slice = globalReplicationFactor(local) != local;
    const auto& job = instanceContext();
    w_.setMeta(schema::meta::instanceIndex, std::to_string(slice ? job.index : 0));
    w_.setMeta(schema::meta::numInstances, std::to_string(slice ? job.count : 1));
    w_.setMeta(schema::meta::replicaOffset, std::to_string(globalReplicaOffset(local)));
    w_.setMeta(schema::meta::totalReplicas, std::to_string(globalReplicationFactor(local)));
  }

  void target() {
    const Target& t = g_.target;
    const auto& offsets = t.getMemoryElementOffsets();
    const unsigned il = t.getInterleavedMemoryElementIndex();
    const std::uint64_t interleavedStart = il < offsets.size() ? offsets[il] : t.getBytesPerTile();
    w_.inserter<schema::TargetTable>().row(
        targetTypeName(t.getTargetType()), t.getTargetArchString(), t.getNumIPUs(),
        t.getTilesPerIPU(), t.getBytesPerTile(), t.getTileClockFrequency(), g_.replicationFactor,
        t.getNumWorkerContexts(), t.getExchangeBytesPerCycle(), t.getMemcpyBytesPerCycle(),
        t.getIpuLinkBytesPerCycle(), t.getHostLinkBytesPerCycle(), t.getMinIPUSyncDelay(),
        t.getMaxIPUSyncDelay(), t.getGlobalSyncCycles(), interleavedStart, blob(encode(offsets)));
  }

  void engineOptions(const OptionFlags& options) {
    auto ins = w_.inserter<schema::EngineOptions>();
    for (const auto& [k, v] : options)
      ins.row(k, v);
  }

  void graph() {
    std::uint64_t vertices = 0, edges = 0;
    for (const auto& cs : g_.computeSets)
      for (const auto& v : cs.vertices) {
        ++vertices;
        for (const auto& f : cs.fieldsOf(v))
          edges += f.numEdges;
      }
    w_.inserter<schema::GraphTable>().row(vertices, g_.computeSets.size(),
                                          g_.variables.size() + p_.model.messages.size(), edges);
  }

  void programs() {
    auto programs = w_.inserter<schema::Programs>();
    auto children = w_.inserter<schema::ProgramChildren>();
    auto vars = w_.inserter<schema::ProgramVariables>();
    std::vector<bool> written(p_.model.programs.size(), false);
    std::map<unsigned, std::vector<std::uint64_t>>
        shared; // control code of programs with several parents
    std::vector<unsigned> parents(p_.model.programs.size(), 0);
    for (const auto& p : p_.model.programs)
      for (unsigned c : p.children)
        ++parents[c];
    std::string control, code, cycles;
    // Depth-first, so that a parent's control code can include its children's.
    std::function<std::vector<std::uint64_t>(unsigned)> visit = [&](unsigned id) {
      std::vector<std::uint64_t> total(numTiles_, 0);
      const ProfileProgram& p = p_.model.programs[id];
      for (const auto& tv : p.controlCode)
        total[tv.tile] += tv.value;
      for (unsigned c : p.children) {
        std::vector<std::uint64_t> sub;
        if (parents[c] > 1) {
          auto it = shared.find(c);
          if (it == shared.end()) it = shared.emplace(c, visit(c)).first;
          sub = it->second;
        } else {
          sub = visit(c);
        }
        for (unsigned t = 0; t < numTiles_; ++t)
          total[t] += sub[t];
      }
      if (!written[id]) {
        written[id] = true;
        encodeTileValues(total.data(), total.size(), control);
        const bool hasCode = !p.exchangeCode.empty();
        if (hasCode) code = encodeSparse(p.exchangeCode);
        if (p.isStep()) cycles = encodeSparse(p.cycles);
        programs.row(id, schema::name(p.type), p.name, debug_.intern(p.debug),
                     p.computeSet >= 0 ? std::optional<int>(p.computeSet) : std::nullopt,
                     p.type == ProgramType::Sync || p.type == ProgramType::GlobalExchange ||
                             (p.isStep() && p.aligned)
                         ? std::optional<std::string_view>(syncTypeName(p.syncType))
                         : std::nullopt,
                     p.type == ProgramType::Repeat ? std::optional<std::uint64_t>(p.repeatCount)
                                                   : std::nullopt,
                     p.dataBytes, blob(control),
                     hasCode ? std::optional<tessera::profiler::BlobRef>(blob(code)) : std::nullopt,
                     p.isStep() ? std::optional<tessera::profiler::BlobRef>(blob(cycles))
                                : std::nullopt,
                     isStreamCopy(p.type)
                         ? std::optional<std::string_view>(schema::name(p.streamDestination))
                         : std::nullopt);
        for (std::size_t i = 0; i < p.children.size(); ++i)
          children.row(id, i, p.children[i]);
        for (const auto& a : p.vars)
          vars.row(id, a.var, accessName(a.access));
      }
      return total;
    };
    visit(p_.model.root);
    // Programs outside the tree (lightweight profiling's flush and control copies, which only
    // blocks name) are written too, so that every id a block names is a program.
    for (unsigned id = 0; id < p_.model.programs.size(); ++id)
      if (!written[id]) visit(id);
    auto entries = w_.inserter<schema::EntryPoints>();
    for (std::size_t i = 0; i < p_.model.entryRoots.size(); ++i)
      entries.row(i, p_.model.entryRoots[i]);
  }

  void computeSets(bool flopEstimates) {
    std::map<const VertexTypeDescriptor*, unsigned> typeIds;
    std::vector<const VertexTypeDescriptor*> types;
    std::map<std::pair<unsigned, unsigned>, std::uint64_t> perTileType; // (tile, type) -> count
    auto sets = w_.inserter<schema::ComputeSets>();
    auto csv = w_.inserter<schema::ComputeSetVertices>();
    auto rules = w_.inserter<schema::VertexCycleRules>();
    std::string encoded, counts, flopsEncoded;
    for (std::size_t c = 0; c < g_.computeSets.size(); ++c) {
      const auto& cs = g_.computeSets[c];
      std::map<unsigned, std::vector<std::uint64_t>> countByType;
      std::map<std::pair<unsigned, schema::CycleRule>, std::uint64_t> countByRule;
      for (const auto& v : cs.vertices) {
        auto [it, added] = typeIds.emplace(v.type, static_cast<unsigned>(types.size()));
        if (added) types.push_back(v.type);
        auto& cnt = countByType[it->second];
        if (cnt.empty()) cnt.assign(numTiles_, 0);
        ++cnt[v.tile];
        ++perTileType[{v.tile, it->second}];
        ++countByRule[{it->second, v.cycleRule}];
      }
      std::vector<std::uint64_t> estimate(numTiles_, 0);
      for (const models::TileValue& tc : p_.model.computeSetCycles[c])
        estimate[tc.tile] = tc.value;
      encodeTileValues(estimate.data(), estimate.size(), encoded);
      std::optional<std::uint64_t> flops, withoutEstimate;
      std::optional<tessera::profiler::BlobRef> flopsByTile;
      if (flopEstimates) {
        const models::ComputeSetFlops f = models::computeSetFlops(cs, numTiles_);
        flops = f.flops;
        withoutEstimate = f.verticesWithoutEstimate;
        encodeTileValues(f.flopsByTile.data(), f.flopsByTile.size(), flopsEncoded);
        flopsByTile = blob(flopsEncoded);
      }
      sets.row(c, cs.name, debug_.intern(cs.debug), cs.vertices.size(), blob(encoded), flops,
               withoutEstimate, flopsByTile);
      for (const auto& [type, cnt] : countByType) {
        std::uint64_t total = 0;
        for (auto n : cnt)
          total += n;
        encodeTileValues(cnt.data(), cnt.size(), counts);
        csv.row(c, type, total, blob(counts));
      }
      for (const auto& [key, count] : countByRule)
        rules.row(c, key.first, schema::name(key.second), count);
    }
    auto vt = w_.inserter<schema::VertexTypes>();
    for (std::size_t i = 0; i < types.size(); ++i) {
      std::uint64_t state = 0;
      for (const auto& f : types[i]->fields)
        state += f.direction == FieldDirection::State ? f.stateSize : 4;
      vt.row(i, types[i]->name, types[i]->codeBytes, state, types[i]->isSupervisor);
    }
    auto tvt = w_.inserter<schema::TileVertexTypes>();
    for (const auto& [key, count] : perTileType)
      tvt.row(key.first, key.second, count);
  }

  void variables() {
    auto vars = w_.inserter<schema::Variables>();
    const auto& live = p_.liveness;
    auto row = [&](std::size_t id, const std::string& name, const DebugContext& dc,
                   std::string_view category, const std::string& type, const std::string& shape,
                   std::uint64_t elements, std::uint64_t bytes) {
      const auto& l = live[id];
      const bool hasRange = !l.alwaysLive && l.from < l.to;
      vars.row(id, name, debug_.intern(dc), category, type, shape, elements, bytes, l.alwaysLive,
               hasRange ? std::optional<unsigned>(l.from) : std::nullopt,
               hasRange ? std::optional<unsigned>(l.to) : std::nullopt);
    };
    for (std::size_t i = 0; i < g_.variables.size(); ++i) {
      const auto& v = g_.variables[i];
      row(i, v.name, v.debug,
          schema::name(v.isConstant ? schema::MemoryCategory::constant
                                    : schema::MemoryCategory::variable),
          v.type.toString(), shapeText(v.shape), v.numElements, v.numElements * v.type.size());
    }
    for (std::size_t i = 0; i < p_.model.messages.size(); ++i) {
      const auto& m = p_.model.messages[i];
      std::uint64_t bytes = 0;
      for (const auto& tv : m.bytes)
        bytes += tv.value;
      row(g_.variables.size() + i, m.name, m.debug, schema::name(schema::MemoryCategory::message),
          "char", shapeText({bytes}), bytes, bytes);
    }
  }

  /// lowered_variables: the model's allocations, or, while the model is still being built, its
  /// tiles as the feed hands them over (the same rows in the same order).
  void loweredVariables(AllocationFeed* feed) {
    auto lowered = w_.inserter<schema::LoweredVariables>();
    std::size_t id = 0;
    auto row = [&](const models::Allocation& a) {
      const std::string_view category = schema::name(a.category);
      lowered.row(id++, a.tile, a.var >= 0 ? std::optional<int>(a.var) : std::nullopt,
                  a.var >= 0 ? std::optional<std::string_view>()
                             : std::optional<std::string_view>(category),
                  category, a.bytes, a.offset, a.alignment, a.alwaysLive);
    };
    if (feed)
      feed->consume(row);
    else
      for (const auto& a : p_.memory.allocations)
        row(a);
  }

  void memory() {
    const auto& mem = p_.memory;
    auto tiles = w_.inserter<schema::TileMemory>();
    auto cats = w_.inserter<schema::TileMemoryCategories>();
    const std::uint64_t capacity = mem.bytesPerTile;
    auto over = [&](std::uint64_t b) { return b > capacity ? b - capacity : 0; };
    for (unsigned t = 0; t < numTiles_; ++t) {
      const auto& tm = mem.tiles[t];
      tiles.row(t, tm.includingGaps, tm.excludingGaps, tm.alwaysLive, tm.notAlwaysLivePeak,
                over(tm.includingGaps), over(tm.excludingGaps));
      for (std::size_t c = 0; c < mem.categories[t].size(); ++c) {
        const auto& b = mem.categories[t][c].byRegion;
        if (mem.categories[t][c].total())
          cats.row(t, schema::name(static_cast<schema::MemoryCategory>(c)), b[0][0], b[0][1],
                   b[1][0], b[1][1], b[2][0], b[2][1]);
      }
    }
  }

  void liveness() {
    auto steps = w_.inserter<schema::LivenessSteps>();
    const Target& t = g_.replicaTarget;
    std::vector<std::uint64_t> byIpu(t.getNumIPUs());
    std::string tilesBlob, ipuBlob;
    p_.memory.forEachLivenessStep(p_.liveness, p_.model.schedule.size(),
                                  [&](unsigned s, const std::vector<std::uint64_t>& bytes) {
                                    std::fill(byIpu.begin(), byIpu.end(), 0);
                                    std::uint64_t total = 0;
                                    for (unsigned tile = 0; tile < bytes.size(); ++tile) {
                                      byIpu[t.getIPUForTile(tile)] += bytes[tile];
                                      total += bytes[tile];
                                    }
                                    encodeTileValues(bytes.data(), bytes.size(), tilesBlob);
                                    encodeTileValues(byIpu.data(), byIpu.size(), ipuBlob);
                                    steps.row(s, p_.model.schedule[s], total, blob(ipuBlob),
                                              blob(tilesBlob));
                                  });
  }

private:
  std::string encode(const std::vector<std::uint64_t>& v) {
    std::string s;
    encodeTileValues(v.data(), v.size(), s);
    return s;
  }
  std::string encodeSparse(const models::TileValues& values) {
    std::vector<std::uint64_t> dense(numTiles_, 0);
    for (const auto& tv : values)
      dense[tv.tile] = tv.value;
    return encode(dense);
  }

  ReportWriter& w_;
  const CompiledGraph& g_;
  const CompilationProfile& p_;
  DebugContexts& debug_;
  unsigned numTiles_;
};

} // namespace

std::string makePrivateReportDirectory() {
  std::error_code error;
  const auto base = std::filesystem::temp_directory_path(error);
  std::string pattern =
      ((error ? std::filesystem::path("/tmp") : base) / "tessera-profile-XXXXXX").string();
  if (!::mkdtemp(pattern.data()))
    throw profiling_error("cannot make a temporary directory for the profile (" + pattern +
                          "): " + std::strerror(errno));
  return pattern;
}

ReportFiles reportFiles(const profile::ProfilerOptions& options) {
  ReportFiles f;
  f.directory = options.reportDirectory();
  f.profile = f.directory + "/" + std::string(schema::kProfileFileName);
  f.debug = f.directory + "/" + std::string(schema::kDebugFileName);
  f.reportId = newReportId();
  return f;
}

std::unique_ptr<ReportWriter>
writeCompilationReport(const ReportFiles& files, const CompiledGraph& g,
                       const CompilationProfile& p, const OptionFlags& engineOptions,
                       const profile::ProfilerOptions& options, AllocationFeed* feed) {
  auto w = std::make_unique<ReportWriter>(files.profile);
  DebugContexts debug;
  Writer rows(*w, g, p, debug);
  w->begin();
  // What needs only the graph, the program model and liveness first; then the memory model's
  // allocations (from the feed, while it is being built); the rest of it once it is complete.
  rows.target();
  rows.engineOptions(engineOptions);
  rows.graph();
  rows.programs();
  rows.computeSets(options.flopEstimates);
  rows.variables();
  rows.loweredVariables(feed);
  rows.memory();
  rows.liveness();
  rows.meta(files, options);
  w->commit();
  w->publish();
  if (options.debugInfo)
    tessera::profiler::writeDebugInfo(files.debug, files.reportId, debug.records());
  return w;
}

} // namespace poplar::detail::report
