// The hand-written executable format (format version 2) as it was before the Cap'n Proto
// schema, kept only as bench_executable_file's baseline: the same writer and reader, renamed
// legacyWriteExecutable / legacyReadExecutable. Not part of any library.
//
// The executable file: a header that says what the file is and which Tessera wrote it, then a
// checksummed payload holding the compiled graph as plain data. Vertex types are stored by name
// and codelet source and found again in the loading process; the codelet objects that codelet
// files were compiled into travel inside the payload, so the loading process needs neither the
// sources nor the cache of the process that compiled them.
#include "LegacyExecutableFile.hpp"

#include "codelets/CodeletLoader.hpp"
#include "codelets/Hash.hpp"
#include "executable/ExecutableChecks.hpp"
#include "executable/LibraryVertices.hpp"
#include "runtime/Instances.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <istream>
#include <iterator>
#include <map>
#include <mutex>
#include <ostream>
#include <poplar/exceptions.hpp>
#include <set>
#include <sstream>
#include <tuple>

namespace poplar::detail::executable {
using codelets::displaySourceName;
using compiler::ByteRun;
using compiler::CompiledComputeSet;
using compiler::CompiledEdge;
using compiler::CompiledField;
using compiler::CompiledGraph;
using compiler::CompiledHostHandle;
using compiler::CompiledRemoteBuffer;
using compiler::CompiledStream;
using compiler::CompiledTransfer;
using compiler::CompiledVariable;
using compiler::CompiledVertex;
using compiler::LoweredProgram;
using compiler::PoolView;
using compiler::TileInterval;
using runtime::checkCopyMap;
using runtime::CollectiveKind;
using runtime::CollectiveOp;
using runtime::CollectiveSpec;
using runtime::globalReplicationFactor;
using runtime::GroupType;
using runtime::replicaGroups;

namespace {

constexpr std::uint32_t kLegacyFormatVersion = 2;
// The engine's version macros are private to it: the baseline writes placeholders of the same
// lengths as a release's (its reader is called with checkPackageHash = false).
#define TESSERA_VERSION "0.00.0"
#define TESSERA_CODELET_ABI_HASH "00000000000000000000000000000000"
constexpr char kMagic[8] = {'T', 'S', 'R', 'E', 'X', 'E', '\r', '\n'};
/// Most tiles a target read from an executable may have (a 64-IPU Mk2 system has 94,208).
constexpr std::uint64_t kMaxTiles = std::uint64_t(1) << 20;
/// Most memory per tile a target read from an executable may have (an IPU tile has 624 KiB).
constexpr std::uint64_t kMaxBytesPerTile = std::uint64_t(1) << 30;
/// Longest string the header may hold (versions and hashes are short; a foreign file is not).
constexpr std::size_t kMaxHeaderString = 256;

/// A bad payload: caught by readExecutable and reported as a corrupted executable.
struct FormatError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Writer {
public:
  void u8(std::uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i)
      u8(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i)
      u8(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void i32(std::int32_t v) { u32(static_cast<std::uint32_t>(v)); }
  void f64(double v) {
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    u64(bits);
  }
  void boolean(bool v) { u8(v ? 1 : 0); }
  void str(const std::string& s) {
    u64(s.size());
    out_.append(s);
  }
  void bytes(const std::vector<unsigned char>& b) {
    u64(b.size());
    out_.append(reinterpret_cast<const char*>(b.data()), b.size());
  }
  template <typename C, typename F> void list(const C& v, F each) {
    u64(v.size());
    for (const auto& x : v)
      each(x);
  }
  std::string& data() { return out_; }

private:
  std::string out_;
};

class Reader {
public:
  explicit Reader(const std::string& in) : in_(in) {}
  Reader(std::string&&) = delete; // it keeps a reference: the bytes must outlive it
  std::uint8_t u8() {
    need(1);
    return static_cast<std::uint8_t>(in_[pos_++]);
  }
  std::uint32_t u32() {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
      v |= std::uint32_t(u8()) << (8 * i);
    return v;
  }
  std::uint64_t u64() {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
      v |= std::uint64_t(u8()) << (8 * i);
    return v;
  }
  std::int32_t i32() { return static_cast<std::int32_t>(u32()); }
  double f64() {
    const std::uint64_t bits = u64();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
  bool boolean() {
    const auto v = u8();
    if (v > 1) throw FormatError("a flag has the value " + std::to_string(v));
    return v != 0;
  }
  std::string str() {
    const std::size_t n = count(1);
    std::string s = in_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  std::vector<unsigned char> bytes() {
    const std::size_t n = count(1);
    std::vector<unsigned char> b(in_.begin() + static_cast<std::ptrdiff_t>(pos_),
                                 in_.begin() + static_cast<std::ptrdiff_t>(pos_ + n));
    pos_ += n;
    return b;
  }
  /// A list length, checked against what is left (each element takes at least `minBytes`).
  std::size_t count(std::size_t minBytes) {
    const std::uint64_t n = u64();
    if (minBytes && n > (in_.size() - pos_) / minBytes)
      throw FormatError("a list of " + std::to_string(n) +
                        " entries runs past the end of the payload");
    return static_cast<std::size_t>(n);
  }
  template <typename T, typename F> std::vector<T> list(std::size_t minBytes, F each) {
    std::vector<T> v(count(minBytes));
    for (auto& x : v)
      x = each();
    return v;
  }
  unsigned index(std::size_t limit, const char* what) {
    const std::uint32_t i = u32();
    if (i >= limit)
      throw FormatError(std::string(what) + " " + std::to_string(i) + " is out of range (" +
                        std::to_string(limit) + " exist)");
    return i;
  }
  bool atEnd() const { return pos_ == in_.size(); }

private:
  void need(std::size_t n) const {
    if (in_.size() - pos_ < n) throw FormatError("the payload ends in the middle of a record");
  }
  const std::string& in_;
  std::size_t pos_ = 0;
};

// ---- Debug contexts: a table, parents before children, so paths and sharing survive. ----

/// Gives SourceLocation's `const char*` members storage that lives as long as the process.
const char* internedText(const std::string& s) {
  static std::mutex m;
  static std::set<std::string> texts;
  std::lock_guard<std::mutex> lock(m);
  return texts.insert(s).first->c_str();
}

/// A DebugContext rebuilt from the table, with its layer and op type restored.
class LoadedDebugContext : public DebugContext {
public:
  LoadedDebugContext(const DebugContext* parent, const std::string& name, SourceLocation loc,
                     const std::string& layer, const std::string& opType)
      : DebugContext(parent ? DebugContext(*parent, name, loc) : DebugContext(name, loc)) {
    setOp(layer, opType);
  }
};

class DebugTableWriter {
public:
  std::uint32_t id(const DebugContext& dc) {
    std::int64_t parent = -1;
    if (dc.getParent()) parent = id(*dc.getParent());
    const auto& loc = dc.getLocation();
    Key key{
        parent,        dc.getName(),  loc.getFileName(), loc.getFunctionName(), loc.getLineNumber(),
        dc.getLayer(), dc.getOpType()};
    auto [it, added] = ids_.emplace(key, static_cast<std::uint32_t>(order_.size()));
    if (added) order_.push_back(key);
    return it->second;
  }
  void write(Writer& w) const {
    w.u64(order_.size());
    for (const auto& [parent, name, file, function, line, layer, opType] : order_) {
      w.u64(static_cast<std::uint64_t>(parent + 1));
      w.str(name);
      w.str(file);
      w.str(function);
      w.u32(line);
      w.str(layer);
      w.str(opType);
    }
  }

private:
  using Key = std::tuple<std::int64_t, std::string, std::string, std::string, unsigned, std::string,
                         std::string>;
  std::map<Key, std::uint32_t> ids_;
  std::vector<Key> order_;
};

std::vector<DebugContext> readDebugTable(Reader& r) {
  std::vector<DebugContext> table;
  const std::size_t n = r.count(8 + 8 * 5 + 4);
  table.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t parent = r.u64();
    if (parent > i)
      throw FormatError("debug context " + std::to_string(i) + " names a later parent");
    const std::string name = r.str(), file = r.str(), function = r.str();
    const unsigned line = r.u32();
    const std::string layer = r.str(), opType = r.str();
    // A context saved without a location comes back without one (`isValid()` false).
    const SourceLocation loc =
        file.empty() && function.empty() && line == 0
            ? SourceLocation()
            : SourceLocation(internedText(function), internedText(file), line);
    table.push_back(
        LoadedDebugContext(parent ? &table[parent - 1] : nullptr, name, loc, layer, opType));
  }
  return table;
}

// ---- The compiled graph. ----

void writeType(Writer& w, Type t) {
  w.u8(static_cast<std::uint8_t>(t.id()));
}
Type readType(Reader& r) {
  const auto id = r.u8();
  if (id > static_cast<std::uint8_t>(Type::Id::UnsignedLongLong))
    throw FormatError("unknown element type " + std::to_string(id));
  return Type(static_cast<Type::Id>(id));
}

// Every member of Target::Params, in order: a new member must be added here too.
void writeTarget(Writer& w, const Target& t) {
  const auto& p = t.params();
  w.u8(static_cast<std::uint8_t>(p.type));
  w.str(p.arch);
  w.u32(p.numIPUs);
  w.u32(p.tilesPerIPU);
  w.u32(p.numWorkerContexts);
  w.u64(p.bytesPerTile);
  w.f64(p.tileClockFrequency);
  w.u32(p.exchangeBytesPerCycle);
  w.u32(p.memcpyBytesPerCycle);
  w.u32(p.instructionBytes);
  w.f64(p.ipuLinkBytesPerCycle);
  w.f64(p.hostLinkBytesPerCycle);
  w.u32(p.tilesPerSuperTile);
  w.boolean(p.supportsSuperTileSendReceive);
  w.u32(p.minIPUSyncDelay);
  w.u32(p.maxIPUSyncDelay);
  w.u32(p.globalSyncCycles);
  w.u32(p.interleavedMemoryElementIndex);
  w.list(p.memoryElementOffsets, [&](std::uint64_t o) { w.u64(o); });
  w.u32(p.dataPathWidth);
  w.u32(p.replicationFactor);
}

Target readTarget(Reader& r) {
  Target::Params p;
  const auto type = r.u8();
  if (type > static_cast<std::uint8_t>(TargetType::CPU))
    throw FormatError("unknown target type " + std::to_string(type));
  p.type = static_cast<TargetType>(type);
  p.arch = r.str();
  p.numIPUs = r.u32();
  p.tilesPerIPU = r.u32();
  p.numWorkerContexts = r.u32();
  p.bytesPerTile = r.u64();
  p.tileClockFrequency = r.f64();
  p.exchangeBytesPerCycle = r.u32();
  p.memcpyBytesPerCycle = r.u32();
  p.instructionBytes = r.u32();
  p.ipuLinkBytesPerCycle = r.f64();
  p.hostLinkBytesPerCycle = r.f64();
  p.tilesPerSuperTile = r.u32();
  p.supportsSuperTileSendReceive = r.boolean();
  p.minIPUSyncDelay = r.u32();
  p.maxIPUSyncDelay = r.u32();
  p.globalSyncCycles = r.u32();
  p.interleavedMemoryElementIndex = r.u32();
  p.memoryElementOffsets = r.list<std::uint64_t>(8, [&] { return r.u64(); });
  p.dataPathWidth = r.u32();
  p.replicationFactor = r.u32();
  if (!p.numIPUs || !p.tilesPerIPU) throw FormatError("the target has no tiles");
  if (std::uint64_t(p.numIPUs) * p.tilesPerIPU > kMaxTiles)
    throw FormatError("the target has " + std::to_string(std::uint64_t(p.numIPUs) * p.tilesPerIPU) +
                      " tiles (at most " + std::to_string(kMaxTiles) + " are simulated)");
  if (!p.numWorkerContexts || p.numWorkerContexts > 64 || !p.replicationFactor ||
      !(p.tileClockFrequency > 0))
    throw FormatError("the target's workers, replication or clock are out of range");
  if (!p.bytesPerTile || p.bytesPerTile > kMaxBytesPerTile)
    throw FormatError("the target has " + std::to_string(p.bytesPerTile) +
                      " bytes per tile (at most " + std::to_string(kMaxBytesPerTile) +
                      " are simulated)");
  try {
    return Target(p);
  } catch (const invalid_machine_model& e) {
    throw FormatError(std::string("the target: ") + e.what());
  }
}

void writeRuns(Writer& w, PoolView<const ByteRun> runs) {
  w.list(runs, [&](const ByteRun& b) {
    w.u64(b.offset);
    w.u64(b.bytes);
  });
}
void writeRegions(Writer& w, PoolView<const VarRegion> regions) {
  w.list(regions, [&](const VarRegion& v) {
    w.u32(v.var);
    w.u64(v.begin);
    w.u64(v.end);
  });
}
void writeTransfer(Writer& w, const CompiledTransfer& t) {
  writeType(w, t.type);
  w.u64(t.numElements);
  writeRuns(w, t.runs);
  writeRegions(w, t.regions);
}

/// Reads the graph, checking every arena run and index against what the graph has, so a payload
/// that passes the checksum but is wrong (a foreign writer) cannot make the runtime stray.
class GraphReader {
public:
  GraphReader(Reader& r, const std::vector<DebugContext>& debug,
              const std::vector<const VertexTypeDescriptor*>& types)
      : r_(r), debug_(debug), types_(types) {}

  CompiledGraph read() {
    CompiledGraph g;
    g.target = readTarget(r_);
    g.replicaTarget = readTarget(r_);
    g.replicationFactor = r_.u32();
    if (!g.replicationFactor ||
        std::uint64_t(g.replicaTarget.getNumTiles()) * g.replicationFactor !=
            g.target.getNumTiles() ||
        g.replicaTarget.getTilesPerIPU() != g.target.getTilesPerIPU() ||
        !(g.target.createVirtualTarget(g.replicaTarget.getNumIPUs(),
                                       g.replicaTarget.getTilesPerIPU()) == g.replicaTarget))
      throw FormatError("the replica target and the replication factor do not make up the target");
    g.arenaBytes = r_.u64();
    arena_ = g.arenaBytes;
    g.variables = r_.list<CompiledVariable>(40, [&] { return variable(g); });
    // The compiler lays the variables out one after another (each on a cache line): the arena
    // is no bigger than they are, so a payload cannot ask for more memory than its graph needs.
    std::size_t laidOut = 0;
    for (const auto& v : g.variables)
      laidOut += (v.numElements * v.type.size() + compiler::kArenaAlignment - 1) /
                 compiler::kArenaAlignment * compiler::kArenaAlignment;
    if (g.arenaBytes > laidOut)
      throw FormatError("the arena has " + std::to_string(g.arenaBytes) + " bytes for " +
                        std::to_string(laidOut) + " bytes of variables");
    g.computeSets = r_.list<CompiledComputeSet>(12, [&] { return computeSet(g); });
    g.programs = r_.list<LoweredProgram>(40, [&] { return program(g); });
    // The compiler lowers children before their parents: an index at or after the parent's would
    // be a loop in the program tree, which the runtime would follow forever.
    for (std::size_t i = 0; i < g.programs.size(); ++i)
      for (unsigned c : g.programs[i].children)
        if (c >= i)
          throw FormatError("program " + std::to_string(i) + " refers to program " +
                            std::to_string(c));
    g.entryPoints =
        r_.list<unsigned>(4, [&] { return r_.index(g.programs.size(), "entry program"); });
    g.streams = r_.list<CompiledStream>(18, [&] {
      CompiledStream s;
      s.handle = r_.str();
      s.type = readType(r_);
      s.numElements = r_.u64();
      s.hostToDevice = r_.boolean();
      return s;
    });
    g.remoteBuffers = r_.list<CompiledRemoteBuffer>(25, [&] {
      CompiledRemoteBuffer b;
      b.handle = r_.str();
      b.type = readType(r_);
      b.numElements = r_.u64();
      b.repeats = r_.u64();
      // As Graph::addRemoteBuffer requires: a buffer with no element or no row has no storage
      // for any copy to read or write.
      if (b.numElements == 0 || b.repeats == 0)
        throw FormatError("remote buffer '" + b.handle + "' has " + std::to_string(b.numElements) +
                          " elements and " + std::to_string(b.repeats) + " rows");
      return b;
    });
    g.hostHandles = r_.list<CompiledHostHandle>(26, [&] {
      CompiledHostHandle h;
      h.handle = r_.str();
      h.isWrite = r_.boolean();
      h.transfer = transfer(g);
      return h;
    });
    for (const auto& p : g.programs) {
      if (p.hasScalar && p.scalar.var >= g.variables.size())
        throw FormatError("a control scalar belongs to variable " + std::to_string(p.scalar.var));
      const std::size_t transferBytes = p.transfer.numElements * p.transfer.type.size();
      if ((p.kind == LoweredProgram::Kind::StreamToDevice ||
           p.kind == LoweredProgram::Kind::StreamFromDevice) &&
          p.stream < g.streams.size() &&
          transferBytes != g.streams[p.stream].numElements * g.streams[p.stream].type.size())
        throw FormatError("a copy of stream '" + g.streams[p.stream].handle +
                          "' does not match its size");
      if ((p.kind == LoweredProgram::Kind::RemoteToDevice ||
           p.kind == LoweredProgram::Kind::RemoteFromDevice) &&
          p.remoteBuffer < g.remoteBuffers.size() &&
          transferBytes != g.remoteBuffers[p.remoteBuffer].numElements *
                               g.remoteBuffers[p.remoteBuffer].type.size())
        throw FormatError("a copy of remote buffer '" + g.remoteBuffers[p.remoteBuffer].handle +
                          "' does not match its size");
      if ((p.kind == LoweredProgram::Kind::Execute) && p.computeSet >= g.computeSets.size())
        throw FormatError("a program executes compute set " + std::to_string(p.computeSet));
      const bool streamKind = p.kind == LoweredProgram::Kind::StreamToDevice ||
                              p.kind == LoweredProgram::Kind::StreamFromDevice;
      const bool remoteKind = p.kind == LoweredProgram::Kind::RemoteToDevice ||
                              p.kind == LoweredProgram::Kind::RemoteFromDevice;
      if (streamKind && p.stream >= g.streams.size())
        throw FormatError("a program copies stream " + std::to_string(p.stream));
      if (remoteKind && p.remoteBuffer >= g.remoteBuffers.size())
        throw FormatError("a program copies remote buffer " + std::to_string(p.remoteBuffer));
      if (p.kind == LoweredProgram::Kind::CrossReplica) checkCollective(g, p);
    }
    return g;
  }

private:
  const DebugContext& debug() { return debug_[r_.index(debug_.size(), "debug context")]; }
  ByteRun run() {
    ByteRun b{static_cast<std::size_t>(r_.u64()), static_cast<std::size_t>(r_.u64())};
    if (b.offset > arena_ || b.bytes > arena_ - b.offset)
      throw FormatError("a byte run [" + std::to_string(b.offset) + ", +" +
                        std::to_string(b.bytes) + ") lies outside the " + std::to_string(arena_) +
                        "-byte arena");
    return b;
  }
  std::vector<ByteRun> runs() {
    return r_.list<ByteRun>(16, [&] { return run(); });
  }
  std::vector<VarRegion> regions(const CompiledGraph& g) {
    return r_.list<VarRegion>(20, [&] {
      VarRegion v{};
      v.var = r_.index(g.variables.size(), "variable");
      v.begin = r_.u64();
      v.end = r_.u64();
      if (v.begin > v.end || v.end > g.variables[v.var].numElements)
        throw FormatError("a region of variable '" + g.variables[v.var].name + "' is out of range");
      return v;
    });
  }
  CompiledTransfer transfer(const CompiledGraph& g) {
    CompiledTransfer t;
    t.type = readType(r_);
    t.numElements = r_.u64();
    t.runs = runs();
    t.regions = regions(g);
    std::size_t bytes = 0;
    for (const auto& b : t.runs)
      bytes += b.bytes;
    if (!t.runs.empty() && bytes != t.numElements * t.type.size())
      throw FormatError("a transfer's runs hold " + std::to_string(bytes) + " bytes for " +
                        std::to_string(t.numElements) + " elements");
    return t;
  }
  CompiledVariable variable(const CompiledGraph& g) {
    CompiledVariable v;
    v.name = r_.str();
    v.type = readType(r_);
    v.shape = r_.list<std::size_t>(8, [&] { return static_cast<std::size_t>(r_.u64()); });
    v.numElements = r_.u64();
    if (v.type.size() == 0 || v.numElements > arena_ / v.type.size())
      throw FormatError("variable '" + v.name + "' is larger than the arena");
    v.isConstant = r_.boolean();
    v.arenaOffset = r_.u64();
    std::size_t mapped = 0;
    v.mapping = r_.list<TileInterval>(20, [&] {
      TileInterval t{};
      t.begin = r_.u64();
      t.end = r_.u64();
      t.tile = r_.index(g.replicaTarget.getNumTiles(), "tile");
      if (t.begin != mapped || t.end <= t.begin)
        throw FormatError("a variable's tile mapping has a gap or overlap");
      mapped = t.end;
      return t;
    });
    if (mapped != v.numElements) throw FormatError("variable '" + v.name + "' is not mapped whole");
    v.initial = r_.bytes();
    v.debug = debug();
    const std::size_t bytes = v.numElements * v.type.size();
    if (v.arenaOffset > arena_ || bytes > arena_ - v.arenaOffset ||
        (!v.initial.empty() && v.initial.size() != bytes &&
         v.initial.size() != bytes * g.replicationFactor))
      throw FormatError("variable '" + v.name + "' does not fit its arena place");
    return v;
  }
  CompiledComputeSet computeSet(const CompiledGraph& g) {
    CompiledComputeSet cs;
    cs.name = r_.str();
    cs.debug = debug();
    cs.vertices = r_.list<CompiledVertex>(22, [&] {
      CompiledVertex v;
      v.type = types_[r_.index(types_.size(), "vertex type")];
      v.tile = r_.index(g.replicaTarget.getNumTiles(), "tile");
      v.estimatedCycles = r_.u64();
      const std::uint8_t rule = r_.u8();
      if (rule >= tessera::profiler::schema::enumSize<tessera::profiler::schema::CycleRule>())
        throw FormatError("a vertex's cycle rule is " + std::to_string(rule) +
                          ", not a known rule");
      v.cycleRule = static_cast<tessera::profiler::schema::CycleRule>(rule);
      if (v.type && v.cycleRule == tessera::profiler::schema::CycleRule::executed) {
        // The counter of the .gp the executable carries (loaded with its vertex types).
        v.executedInstructions =
            poplar::detail::codelets::executedInstructionsCounter(v.type->codeletSource);
        if (!v.executedInstructions) v.cycleRule = tessera::profiler::schema::CycleRule::fieldSizes;
      }
      if (r_.boolean()) v.estimatedFlops = r_.u64();
      // Read nested as the file keeps them, kept in the compute set's pools (issue 38).
      const auto fields = r_.list<CompiledField>(16, [&] {
        CompiledField f;
        f.firstEdge = static_cast<std::uint32_t>(cs.edges.size());
        const auto edges = r_.list<CompiledEdge>(24, [&] {
          CompiledEdge e;
          const auto rs = runs();
          e.firstRun = static_cast<std::uint32_t>(cs.runs.size());
          e.numRuns = static_cast<std::uint32_t>(rs.size());
          cs.runs.insert(cs.runs.end(), rs.begin(), rs.end());
          e.numElements = r_.u64();
          const auto regs = regions(g);
          e.firstRegion = static_cast<std::uint32_t>(cs.regions.size());
          e.numRegions = static_cast<std::uint32_t>(regs.size());
          cs.regions.insert(cs.regions.end(), regs.begin(), regs.end());
          return e;
        });
        f.numEdges = static_cast<std::uint32_t>(edges.size());
        cs.edges.insert(cs.edges.end(), edges.begin(), edges.end());
        const auto state = r_.bytes();
        f.firstState = static_cast<std::uint32_t>(cs.state.size());
        f.stateBytes = static_cast<std::uint32_t>(state.size());
        cs.state.insert(cs.state.end(), state.begin(), state.end());
        return f;
      });
      v.firstField = static_cast<std::uint32_t>(cs.fields.size());
      v.numFields = static_cast<std::uint32_t>(fields.size());
      cs.fields.insert(cs.fields.end(), fields.begin(), fields.end());
      if (!v.type) return v; // a first reading, before the types are loaded: see readExecutable
      if (v.numFields != v.type->fields.size())
        throw FormatError("a '" + v.type->name + "' vertex has " + std::to_string(v.numFields) +
                          " fields");
      for (std::size_t i = 0; i < fields.size(); ++i) {
        const auto& d = v.type->fields[i];
        if (d.direction == FieldDirection::State ? fields[i].stateBytes < d.stateSize
                                                 : !d.isEdgeList && fields[i].numEdges != 1)
          throw FormatError("field '" + d.name + "' of a '" + v.type->name +
                            "' vertex is incomplete");
        for (const auto& e : cs.edgesOf(fields[i])) {
          std::size_t bytes = 0;
          for (const auto& b : cs.runsOf(e))
            bytes += b.bytes;
          if (e.numRuns != 0 && bytes != e.numElements * d.elementType.size())
            throw FormatError("field '" + d.name + "' of a '" + v.type->name +
                              "' vertex does not match its type");
        }
      }
      return v;
    });
    return cs;
  }
  LoweredProgram program(const CompiledGraph& g) {
    LoweredProgram p;
    const auto kind = r_.u8();
    if (kind > static_cast<std::uint8_t>(LoweredProgram::Kind::CrossReplica))
      throw FormatError("unknown program kind " + std::to_string(kind));
    p.kind = static_cast<LoweredProgram::Kind>(kind);
    p.name = r_.str();
    p.debug = debug();
    p.children = r_.list<unsigned>(4, [&] { return r_.u32(); });
    p.computeSet = r_.u32();
    p.copies = r_.list<LoweredProgram::CopyRun>(24, [&] {
      LoweredProgram::CopyRun c{};
      c.src = r_.u64();
      c.dst = r_.u64();
      c.bytes = r_.u64();
      if (c.src > arena_ || c.dst > arena_ || c.bytes > arena_ - c.src || c.bytes > arena_ - c.dst)
        throw FormatError("a copy lies outside the arena");
      return c;
    });
    p.srcRegions = regions(g);
    p.dstRegions = regions(g);
    p.transfer = transfer(g);
    p.result = transfer(g);
    p.collective = collective();
    p.stream = r_.u32();
    p.remoteBuffer = r_.u32();
    p.scalar.type = readType(r_);
    p.scalar.offset = r_.u64();
    p.scalar.var = r_.u32();
    p.hasScalar = r_.boolean();
    if (p.hasScalar &&
        (p.scalar.offset > arena_ || p.scalar.type.size() > arena_ - p.scalar.offset))
      throw FormatError("a control scalar lies outside the arena");
    p.count = r_.u64();
    p.caseValues = r_.list<std::int32_t>(4, [&] { return r_.i32(); });
    p.boundsChecked = r_.boolean();
    const auto sync = r_.u8();
    if (sync > static_cast<std::uint8_t>(SyncType::GLOBAL)) throw FormatError("unknown sync type");
    p.syncType = static_cast<SyncType>(sync);
    p.text = r_.str();
    p.printShape = r_.list<std::size_t>(8, [&] { return static_cast<std::size_t>(r_.u64()); });
    auto& f = p.printFormat;
    f.summariseThreshold = r_.u32();
    f.edgeItems = r_.u32();
    f.maxLineWidth = r_.u32();
    f.digits = r_.u32();
    const auto ff = r_.u8();
    if (ff > static_cast<std::uint8_t>(PrintTensorFmt::FloatFormat::None))
      throw FormatError("unknown float format");
    f.floatFormat = static_cast<PrintTensorFmt::FloatFormat>(ff);
    f.separator = static_cast<char>(r_.u8());
    f.openBracket = static_cast<char>(r_.u8());
    f.closeBracket = static_cast<char>(r_.u8());
    if ((p.kind == LoweredProgram::Kind::If || p.kind == LoweredProgram::Kind::RepeatWhileTrue ||
         p.kind == LoweredProgram::Kind::RepeatWhileFalse) &&
        p.children.size() < 2)
      throw FormatError("a conditional program has " + std::to_string(p.children.size()) +
                        " bodies");
    if ((p.kind == LoweredProgram::Kind::Repeat) && p.children.empty())
      throw FormatError("a Repeat program has no body");
    if (p.kind == LoweredProgram::Kind::Switch && p.children.size() != p.caseValues.size() + 1)
      throw FormatError("a Switch program's cases do not match its bodies");
    return p;
  }

  /// The runtime sizes a collective's buffers from its source and destination: they must agree
  /// with its kind and replica groups, as the compiler made them.
  static void checkCollective(const CompiledGraph& g, const LoweredProgram& p) {
    if (p.transfer.type != p.result.type)
      throw FormatError("a collective's source and destination differ in type");
    std::size_t k = 1;
    try {
      const auto groups =
          replicaGroups(p.collective, globalReplicationFactor(std::max(1u, g.replicationFactor)));
      if (!groups.empty()) k = groups.front().size();
    } catch (const poplar_error&) {
      throw FormatError("a collective's replica groups do not divide the replicas");
    }
    const std::size_t n = p.transfer.numElements, m = p.result.numElements;
    const CollectiveKind kind = p.collective.kind;
    if (kind == CollectiveKind::Copy) {
      try {
        checkCopyMap(p.collective, globalReplicationFactor(std::max(1u, g.replicationFactor)),
                     "CrossReplicaCopy");
      } catch (const poplar_error& e) {
        throw FormatError(std::string("a cross-replica copy's map is not valid: ") + e.what());
      }
    }
    if (kind == CollectiveKind::Broadcast && p.collective.root >= k)
      throw FormatError("a broadcast's root is not a member of its groups");
    if (kind == CollectiveKind::AllToAll && n % k != 0)
      throw FormatError("an all-to-all's source cannot be cut into its group's slices");
    const bool same = kind == CollectiveKind::AllReduce || kind == CollectiveKind::Broadcast ||
                      kind == CollectiveKind::AllToAll || kind == CollectiveKind::Copy;
    const bool fits = same ? m == n
                      : p.collective.kind == CollectiveKind::AllGather
                          ? n != 0 && m / n == k && m % n == 0
                          : m == (n + k - 1) / k;
    if (!fits) throw FormatError("a collective's destination does not match its source");
  }

  CollectiveSpec collective() {
    CollectiveSpec c;
    const auto kind = r_.u8(), op = r_.u8(), group = r_.u8();
    if (kind > static_cast<std::uint8_t>(CollectiveKind::Copy) ||
        op > static_cast<std::uint8_t>(CollectiveOp::Local) ||
        group > static_cast<std::uint8_t>(GroupType::Orthogonal))
      throw FormatError("unknown collective");
    c.kind = static_cast<CollectiveKind>(kind);
    c.op = static_cast<CollectiveOp>(op);
    c.groupType = static_cast<GroupType>(group);
    c.groupSize = r_.u32();
    c.opName = r_.str();
    // Fields of the kinds added later, written only for them: executables of the first kinds
    // read as before.
    if (c.kind == CollectiveKind::Broadcast) c.root = r_.u32();
    if (c.kind == CollectiveKind::Copy) c.copyTo = r_.list<unsigned>(4, [&] { return r_.u32(); });
    return c;
  }

  Reader& r_;
  const std::vector<DebugContext>& debug_;
  const std::vector<const VertexTypeDescriptor*>& types_;
  std::size_t arena_ = 0;
};

void writeGraph(Writer& w, const CompiledGraph& g, DebugTableWriter& debug,
                std::map<const VertexTypeDescriptor*, std::uint32_t>& typeIds) {
  auto typeId = [&](const VertexTypeDescriptor* t) {
    return typeIds.emplace(t, static_cast<std::uint32_t>(typeIds.size())).first->second;
  };
  writeTarget(w, g.target);
  writeTarget(w, g.replicaTarget);
  w.u32(g.replicationFactor);
  w.u64(g.arenaBytes);
  w.list(g.variables, [&](const CompiledVariable& v) {
    w.str(v.name);
    writeType(w, v.type);
    w.list(v.shape, [&](std::size_t d) { w.u64(d); });
    w.u64(v.numElements);
    w.boolean(v.isConstant);
    w.u64(v.arenaOffset);
    w.list(v.mapping, [&](const TileInterval& t) {
      w.u64(t.begin);
      w.u64(t.end);
      w.u32(t.tile);
    });
    w.bytes(v.initial);
    w.u32(debug.id(v.debug));
  });
  w.list(g.computeSets, [&](const CompiledComputeSet& cs) {
    w.str(cs.name);
    w.u32(debug.id(cs.debug));
    w.list(cs.vertices, [&](const CompiledVertex& v) {
      w.u32(typeId(v.type));
      w.u32(v.tile);
      w.u64(v.estimatedCycles);
      w.u8(static_cast<std::uint8_t>(v.cycleRule));
      w.boolean(v.estimatedFlops.has_value());
      if (v.estimatedFlops) w.u64(*v.estimatedFlops);
      w.list(cs.fieldsOf(v), [&](const CompiledField& f) {
        w.list(cs.edgesOf(f), [&](const CompiledEdge& e) {
          writeRuns(w, cs.runsOf(e));
          w.u64(e.numElements);
          writeRegions(w, cs.regionsOf(e));
        });
        const auto state = cs.stateOf(f);
        w.bytes(std::vector<unsigned char>(state.begin(), state.end()));
      });
    });
  });
  w.list(g.programs, [&](const LoweredProgram& p) {
    w.u8(static_cast<std::uint8_t>(p.kind));
    w.str(p.name);
    w.u32(debug.id(p.debug));
    w.list(p.children, [&](unsigned c) { w.u32(c); });
    w.u32(p.computeSet);
    w.list(p.copies, [&](const LoweredProgram::CopyRun& c) {
      w.u64(c.src);
      w.u64(c.dst);
      w.u64(c.bytes);
    });
    writeRegions(w, p.srcRegions);
    writeRegions(w, p.dstRegions);
    writeTransfer(w, p.transfer);
    writeTransfer(w, p.result);
    w.u8(static_cast<std::uint8_t>(p.collective.kind));
    w.u8(static_cast<std::uint8_t>(p.collective.op));
    w.u8(static_cast<std::uint8_t>(p.collective.groupType));
    w.u32(p.collective.groupSize);
    w.str(p.collective.opName);
    if (p.collective.kind == CollectiveKind::Broadcast) w.u32(p.collective.root);
    if (p.collective.kind == CollectiveKind::Copy)
      w.list(p.collective.copyTo, [&](unsigned r) { w.u32(r); });
    w.u32(p.stream);
    w.u32(p.remoteBuffer);
    writeType(w, p.scalar.type);
    w.u64(p.scalar.offset);
    w.u32(p.scalar.var);
    w.boolean(p.hasScalar);
    w.u64(p.count);
    w.list(p.caseValues, [&](std::int32_t v) { w.i32(v); });
    w.boolean(p.boundsChecked);
    w.u8(static_cast<std::uint8_t>(p.syncType));
    w.str(p.text);
    w.list(p.printShape, [&](std::size_t d) { w.u64(d); });
    const auto& f = p.printFormat;
    w.u32(f.summariseThreshold);
    w.u32(f.edgeItems);
    w.u32(f.maxLineWidth);
    w.u32(f.digits);
    w.u8(static_cast<std::uint8_t>(f.floatFormat));
    w.u8(static_cast<std::uint8_t>(f.separator));
    w.u8(static_cast<std::uint8_t>(f.openBracket));
    w.u8(static_cast<std::uint8_t>(f.closeBracket));
  });
  w.list(g.entryPoints, [&](unsigned e) { w.u32(e); });
  w.list(g.streams, [&](const CompiledStream& s) {
    w.str(s.handle);
    writeType(w, s.type);
    w.u64(s.numElements);
    w.boolean(s.hostToDevice);
  });
  w.list(g.remoteBuffers, [&](const CompiledRemoteBuffer& b) {
    w.str(b.handle);
    writeType(w, b.type);
    w.u64(b.numElements);
    w.u64(b.repeats);
  });
  w.list(g.hostHandles, [&](const CompiledHostHandle& h) {
    w.str(h.handle);
    w.boolean(h.isWrite);
    writeTransfer(w, h.transfer);
  });
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// The vertex type `name` of codelet source `source` in this process, loading the embedded
/// codelet object when the source came from a codelet file.
const VertexTypeDescriptor* findType(const std::string& name, const std::string& source,
                                     const std::map<std::string, std::string>& objects) {
  auto lookup = [&]() -> const VertexTypeDescriptor* {
    for (const auto* t : findVertexTypes(name))
      if (t->codeletSource == source) return t;
    return nullptr;
  };
  if (const auto* t = lookup()) return t;
  if (auto it = objects.find(source); it != objects.end()) {
    poplar::detail::codelets::loadEmbeddedCodeletObject(it->second, source);
    if (const auto* t = lookup()) return t;
  }
  // PopLibs' vertices: their library, loaded when the program does not link it.
  if (loadVertexLibrary(source))
    if (const auto* t = lookup()) return t;
  throw poplar_error(
      "Executable::deserialize: the executable runs vertex '" + name + "' from codelet source '" +
      displaySourceName(source) +
      "', which this process does not provide: link the library that defines it (for "
      "PopLibs' vertices -lpopops, -lpoplin, ...; for TESSERA_VERTEX lines, the file that has "
      "them)");
}

} // namespace

void legacyWriteExecutable(const core::Executable& exe, std::ostream& out) {
  Writer payload;
  DebugTableWriter debug;
  std::map<const VertexTypeDescriptor*, std::uint32_t> typeIds;
  Writer graph;
  writeGraph(graph, exe.compiled, debug, typeIds);

  payload.str(exe.name);
  payload.u64(exe.options.size());
  for (const auto& [k, v] : exe.options) {
    payload.str(k);
    payload.str(v);
  }
  // Vertex types, by id.
  std::vector<const VertexTypeDescriptor*> types(typeIds.size());
  for (const auto& [t, id] : typeIds)
    types[id] = t;
  std::map<std::string, std::string> objects; // codelet source key -> .gp bytes
  payload.u64(types.size());
  for (const auto* t : types) {
    payload.str(t->name);
    payload.str(t->codeletSource);
    if (objects.count(t->codeletSource)) continue;
    if (auto path = poplar::detail::codelets::codeletObjectPath(t->codeletSource)) {
      std::string bytes = readFile(*path);
      if (bytes.empty())
        throw poplar_error("Executable::serialize: cannot read the codelet object '" + *path +
                           "' that the vertices of '" + displaySourceName(t->codeletSource) +
                           "' were loaded from");
      objects.emplace(t->codeletSource, std::move(bytes));
    }
  }
  payload.u64(objects.size());
  for (const auto& [key, bytes] : objects) {
    payload.str(key);
    payload.str(bytes);
  }
  debug.write(payload);
  payload.data() += graph.data();

  poplar::detail::codelets::Hasher h;
  h.add(payload.data());
  Writer header;
  header.data().append(kMagic, sizeof kMagic);
  header.u32(kLegacyFormatVersion);
  header.str(TESSERA_VERSION);
  header.str(TESSERA_CODELET_ABI_HASH);
  header.u64(payload.data().size());
  header.data() += h.hex();
  out.write(header.data().data(), static_cast<std::streamsize>(header.data().size()));
  out.write(payload.data().data(), static_cast<std::streamsize>(payload.data().size()));
  out.flush();
  if (!out) throw poplar_error("Executable::serialize: the stream cannot be written");
}

std::unique_ptr<core::Executable> legacyReadExecutable(std::istream& in, bool checkPackageHash,
                                                       bool checkGraph) {
  const std::string where = "Executable::deserialize: ";
  if (!in) throw poplar_error(where + "the stream is not readable (was the file opened?)");
  auto readExactly = [&](std::size_t n, const char* what) {
    std::string s(n, '\0');
    in.read(s.data(), static_cast<std::streamsize>(n));
    if (static_cast<std::size_t>(in.gcount()) != n)
      throw poplar_error(where + "the executable is truncated: it ends in its " + what + " (" +
                         std::to_string(in.gcount()) + " of " + std::to_string(n) + " bytes)");
    return s;
  };
  // The Reader keeps a reference to its bytes: they must outlive it (a temporary would not).
  auto readU32 = [&](const char* what) {
    const std::string b = readExactly(4, what);
    Reader r(b);
    return r.u32();
  };
  auto readU64 = [&](const char* what) {
    const std::string b = readExactly(8, what);
    Reader r(b);
    return r.u64();
  };
  auto readHeaderString = [&](const char* what) {
    const std::uint64_t n = readU64(what);
    if (n > kMaxHeaderString)
      throw poplar_error(where + "the executable's header is corrupted (its " + what + " is " +
                         std::to_string(n) + " bytes long)");
    return readExactly(static_cast<std::size_t>(n), what);
  };

  std::string magic(sizeof kMagic, '\0');
  in.read(magic.data(), sizeof kMagic);
  if (in.gcount() == 0) throw poplar_error(where + "the stream is empty: it holds no executable");
  magic.resize(static_cast<std::size_t>(in.gcount()));
  if (magic != std::string(kMagic, sizeof kMagic)) {
    if (magic.size() < sizeof kMagic && std::string(kMagic, magic.size()) == magic)
      throw poplar_error(where + "the executable is truncated: it ends in its header");
    throw poplar_error(
        where + "this is not a Tessera executable (it does not start with Tessera's executable "
                "header; executables from the Poplar SDK cannot be loaded)");
  }
  const std::uint32_t format = readU32("format version");
  if (format != kLegacyFormatVersion)
    throw poplar_error(where + "the executable has format version " + std::to_string(format) +
                       "; this Tessera (" + TESSERA_VERSION + ") reads format version " +
                       std::to_string(kLegacyFormatVersion) + ": compile the program again");
  const std::string version = readHeaderString("Tessera version");
  const std::string abiHash = readHeaderString("codelet ABI hash");
  if (checkPackageHash && (version != TESSERA_VERSION || abiHash != TESSERA_CODELET_ABI_HASH))
    throw poplar_error(
        where + "the executable was made by Tessera " + version + " (build " + abiHash +
        "); this is Tessera " + TESSERA_VERSION + " (build " + TESSERA_CODELET_ABI_HASH +
        "): compile the program again, or pass checkPackageHash = false to try it anyway");
  const std::uint64_t size = readU64("payload size");
  const std::string checksum = readExactly(32, "checksum");
  std::string payload;
  {
    constexpr std::size_t kChunk = 1 << 20;
    while (payload.size() < size && in) {
      const std::size_t n =
          static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, size - payload.size()));
      const std::size_t old = payload.size();
      payload.resize(old + n);
      in.read(payload.data() + old, static_cast<std::streamsize>(n));
      payload.resize(old + static_cast<std::size_t>(in.gcount()));
    }
  }
  if (payload.size() != size)
    throw poplar_error(where + "the executable is truncated: its payload has " +
                       std::to_string(payload.size()) + " of " + std::to_string(size) + " bytes");
  poplar::detail::codelets::Hasher h;
  h.add(payload);
  if (h.hex() != checksum)
    throw poplar_error(where +
                       "the executable is corrupted: its payload does not match its checksum (" +
                       checksum + ", the bytes hash to " + h.hex() + ")");

  auto exe = std::make_unique<core::Executable>();
  try {
    Reader r(payload);
    exe->name = r.str();
    const std::size_t numOptions = r.count(16);
    for (std::size_t i = 0; i < numOptions; ++i) {
      std::string k = r.str();
      exe->options.set(k, r.str());
    }
    const std::size_t numTypes = r.count(16);
    std::vector<std::pair<std::string, std::string>> typeNames;
    for (std::size_t i = 0; i < numTypes; ++i) {
      std::string name = r.str();
      typeNames.emplace_back(std::move(name), r.str());
    }
    std::map<std::string, std::string> objects;
    const std::size_t numObjects = r.count(16);
    for (std::size_t i = 0; i < numObjects; ++i) {
      std::string key = r.str();
      objects[key] = r.str();
    }
    checkStoredOptions(exe->options);
    {
      // Read the graph once before any codelet object it carries is loaded: loading one writes
      // it to the user's codelet cache and runs its initialisers, which a file refused for
      // its graph must never do.
      Reader first = r;
      const std::vector<DebugContext> debug = readDebugTable(first);
      const std::vector<const VertexTypeDescriptor*> unknown(typeNames.size(), nullptr);
      GraphReader(first, debug, unknown).read();
      if (!first.atEnd()) throw FormatError("bytes follow the compiled graph");
    }
    std::vector<const VertexTypeDescriptor*> types;
    for (const auto& [name, source] : typeNames)
      types.push_back(findType(name, source, objects));
    const std::vector<DebugContext> debug = readDebugTable(r);
    exe->compiled = GraphReader(r, debug, types).read();
    if (!r.atEnd()) throw FormatError("bytes follow the compiled graph");
    if (checkGraph) checkLoadedGraph(exe->compiled);
  } catch (const FormatError& e) {
    throw poplar_error(where + "the executable is corrupted: " + e.what());
  } catch (const ExecutableFieldError& e) {
    throw poplar_error(where + "the executable is corrupted: " + e.what());
  }
  exe->fromFile = true;
  return exe;
}

} // namespace poplar::detail::executable
