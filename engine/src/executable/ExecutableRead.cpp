// Reading the compiled graph back from an executable's Cap'n Proto message. Cap'n Proto checks
// that the message is well formed (every pointer inside it, texts terminated, within the limits
// ExecutableFile.cpp sets); this file checks what it cannot: every enum value against its range,
// and every arena run and index against what the graph has, so a message that passes the
// checksum but is wrong (a foreign writer) cannot make the runtime stray. What needs the whole
// graph or the host is ExecutableChecks.cpp's, after this.
#include "ExecutableMessage.hpp"
#include "codelets/CodeletLoader.hpp"
#include "runtime/Instances.hpp"

#include <algorithm>
#include <mutex>
#include <poplar/Quarter.hpp>
#include <poplar/exceptions.hpp>
#include <set>

namespace poplar::detail::executable {
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
using compiler::TileInterval;
using runtime::checkCopyMap;
using runtime::CollectiveKind;
using runtime::CollectiveOp;
using runtime::CollectiveSpec;
using runtime::globalReplicationFactor;
using runtime::GroupType;
using runtime::replicaGroups;

namespace {

/// Most tiles a target read from an executable may have (a 64-IPU Mk2 system has 94,208).
constexpr std::uint64_t kMaxTiles = std::uint64_t(1) << 20;
/// Most memory per tile a target read from an executable may have (an IPU tile has 624 KiB).
constexpr std::uint64_t kMaxBytesPerTile = std::uint64_t(1) << 30;

std::string str(capnp::Text::Reader t) {
  return std::string(t.cStr(), t.size());
}
std::vector<unsigned char> bytes(capnp::Data::Reader d) {
  return std::vector<unsigned char>(d.begin(), d.end());
}

Type readType(std::uint8_t id) {
  if (id > static_cast<std::uint8_t>(QUARTER_METADATA.id())) // QUARTER's two ids come last
    throw FormatError("unknown element type " + std::to_string(id));
  return Type(static_cast<Type::Id>(id));
}

unsigned index(std::uint32_t i, std::size_t limit, const char* what) {
  if (i >= limit)
    throw FormatError(std::string(what) + " " + std::to_string(i) + " is out of range (" +
                      std::to_string(limit) + " exist)");
  return i;
}

// ---- Debug contexts: rebuilt from the table, parents before children. ----

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

std::vector<DebugContext> readDebugTable(capnp::List<exefile::DebugContext>::Reader in) {
  std::vector<DebugContext> table;
  table.reserve(in.size());
  for (unsigned i = 0; i < in.size(); ++i) {
    const auto d = in[i];
    const std::uint32_t parent = d.getParent();
    if (parent > i)
      throw FormatError("debug context " + std::to_string(i) + " names a later parent");
    const std::string name = str(d.getName()), file = str(d.getFile()),
                      function = str(d.getFunction());
    const unsigned line = d.getLine();
    // A context saved without a location comes back without one (`isValid()` false).
    const SourceLocation loc =
        file.empty() && function.empty() && line == 0
            ? SourceLocation()
            : SourceLocation(internedText(function), internedText(file), line);
    table.push_back(LoadedDebugContext(parent ? &table[parent - 1] : nullptr, name, loc,
                                       str(d.getLayer()), str(d.getOpType())));
  }
  return table;
}

Target readTarget(exefile::Target::Reader in) {
  Target::Params p;
  const auto type = in.getType();
  if (type > static_cast<std::uint8_t>(TargetType::CPU))
    throw FormatError("unknown target type " + std::to_string(type));
  p.type = static_cast<TargetType>(type);
  p.arch = str(in.getArch());
  p.numIPUs = in.getNumIpus();
  p.tilesPerIPU = in.getTilesPerIpu();
  p.numWorkerContexts = in.getNumWorkerContexts();
  p.bytesPerTile = in.getBytesPerTile();
  p.tileClockFrequency = in.getTileClockFrequency();
  p.exchangeBytesPerCycle = in.getExchangeBytesPerCycle();
  p.memcpyBytesPerCycle = in.getMemcpyBytesPerCycle();
  p.instructionBytes = in.getInstructionBytes();
  p.ipuLinkBytesPerCycle = in.getIpuLinkBytesPerCycle();
  p.hostLinkBytesPerCycle = in.getHostLinkBytesPerCycle();
  p.tilesPerSuperTile = in.getTilesPerSuperTile();
  p.supportsSuperTileSendReceive = in.getSupportsSuperTileSendReceive();
  p.minIPUSyncDelay = in.getMinIpuSyncDelay();
  p.maxIPUSyncDelay = in.getMaxIpuSyncDelay();
  p.globalSyncCycles = in.getGlobalSyncCycles();
  p.interleavedMemoryElementIndex = in.getInterleavedMemoryElementIndex();
  for (std::uint64_t o : in.getMemoryElementOffsets())
    p.memoryElementOffsets.push_back(o);
  p.dataPathWidth = in.getDataPathWidth();
  p.replicationFactor = in.getReplicationFactor();
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

class GraphReader {
public:
  GraphReader(const std::vector<DebugContext>& debug,
              const std::vector<const VertexTypeDescriptor*>& types)
      : debug_(debug), types_(types) {}

  CompiledGraph read(exefile::Graph::Reader in) {
    CompiledGraph g;
    g.target = readTarget(in.getTarget());
    g.replicaTarget = readTarget(in.getReplicaTarget());
    g.replicationFactor = in.getReplicationFactor();
    if (!g.replicationFactor ||
        std::uint64_t(g.replicaTarget.getNumTiles()) * g.replicationFactor !=
            g.target.getNumTiles() ||
        g.replicaTarget.getTilesPerIPU() != g.target.getTilesPerIPU() ||
        !(g.target.createVirtualTarget(g.replicaTarget.getNumIPUs(),
                                       g.replicaTarget.getTilesPerIPU()) == g.replicaTarget))
      throw FormatError("the replica target and the replication factor do not make up the target");
    g.arenaBytes = in.getArenaBytes();
    arena_ = g.arenaBytes;
    const auto variables = in.getVariables();
    g.variables.reserve(variables.size());
    for (auto v : variables)
      g.variables.push_back(variable(g, v));
    // The compiler lays the variables out one after another (each on a cache line, 8 bytes
    // apart in older executables): the arena is no bigger than they are, so a message cannot
    // ask for more memory than its graph needs.
    std::size_t laidOut = 0;
    for (const auto& v : g.variables)
      laidOut += (v.numElements * v.type.size() + compiler::kArenaAlignment - 1) /
                 compiler::kArenaAlignment * compiler::kArenaAlignment;
    if (g.arenaBytes > laidOut)
      throw FormatError("the arena has " + std::to_string(g.arenaBytes) + " bytes for " +
                        std::to_string(laidOut) + " bytes of variables");
    const auto computeSets = in.getComputeSets();
    g.computeSets.reserve(computeSets.size());
    for (auto cs : computeSets)
      g.computeSets.push_back(computeSet(g, cs));
    const auto programs = in.getPrograms();
    g.programs.reserve(programs.size());
    for (auto p : programs)
      g.programs.push_back(program(g, p));
    // The compiler lowers children before their parents: an index at or after the parent's would
    // be a loop in the program tree, which the runtime would follow forever.
    for (std::size_t i = 0; i < g.programs.size(); ++i)
      for (unsigned c : g.programs[i].children)
        if (c >= i)
          throw FormatError("program " + std::to_string(i) + " refers to program " +
                            std::to_string(c));
    for (std::uint32_t e : in.getEntryPoints())
      g.entryPoints.push_back(index(e, g.programs.size(), "entry program"));
    for (auto s : in.getStreams()) {
      CompiledStream c;
      c.handle = str(s.getHandle());
      c.type = readType(s.getType());
      c.numElements = s.getNumElements();
      c.hostToDevice = s.getHostToDevice();
      g.streams.push_back(std::move(c));
    }
    for (auto in_b : in.getRemoteBuffers()) {
      CompiledRemoteBuffer b;
      b.handle = str(in_b.getHandle());
      b.type = readType(in_b.getType());
      b.numElements = in_b.getNumElements();
      b.repeats = in_b.getRepeats();
      // As Graph::addRemoteBuffer requires: a buffer with no element or no row has no storage
      // for any copy to read or write.
      if (b.numElements == 0 || b.repeats == 0)
        throw FormatError("remote buffer '" + b.handle + "' has " + std::to_string(b.numElements) +
                          " elements and " + std::to_string(b.repeats) + " rows");
      g.remoteBuffers.push_back(std::move(b));
    }
    for (auto h : in.getHostHandles()) {
      CompiledHostHandle c;
      c.handle = str(h.getHandle());
      c.isWrite = h.getIsWrite();
      c.transfer = transfer(g, h.getTransfer());
      g.hostHandles.push_back(std::move(c));
    }
    for (const auto& p : g.programs)
      checkReferences(g, p);
    return g;
  }

private:
  /// What a program refers to by index exists, and the copies of streams and remote buffers
  /// move as many bytes as these hold.
  static void checkReferences(const CompiledGraph& g, const LoweredProgram& p) {
    using Kind = LoweredProgram::Kind;
    if (p.hasScalar && p.scalar.var >= g.variables.size())
      throw FormatError("a control scalar belongs to variable " + std::to_string(p.scalar.var));
    const std::size_t transferBytes = p.transfer.numElements * p.transfer.type.size();
    const bool streamKind = p.kind == Kind::StreamToDevice || p.kind == Kind::StreamFromDevice;
    const bool remoteKind = p.kind == Kind::RemoteToDevice || p.kind == Kind::RemoteFromDevice;
    if (streamKind && p.stream < g.streams.size() &&
        transferBytes != g.streams[p.stream].numElements * g.streams[p.stream].type.size())
      throw FormatError("a copy of stream '" + g.streams[p.stream].handle +
                        "' does not match its size");
    if (remoteKind && p.remoteBuffer < g.remoteBuffers.size() &&
        transferBytes != g.remoteBuffers[p.remoteBuffer].numElements *
                             g.remoteBuffers[p.remoteBuffer].type.size())
      throw FormatError("a copy of remote buffer '" + g.remoteBuffers[p.remoteBuffer].handle +
                        "' does not match its size");
    if (p.kind == Kind::Execute && p.computeSet >= g.computeSets.size())
      throw FormatError("a program executes compute set " + std::to_string(p.computeSet));
    if (streamKind && p.stream >= g.streams.size())
      throw FormatError("a program copies stream " + std::to_string(p.stream));
    if (remoteKind && p.remoteBuffer >= g.remoteBuffers.size())
      throw FormatError("a program copies remote buffer " + std::to_string(p.remoteBuffer));
    if (p.kind == Kind::CrossReplica) checkCollective(g, p);
  }

  const DebugContext& debug(std::uint32_t i) {
    return debug_[index(i, debug_.size(), "debug context")];
  }

  ByteRun run(exefile::ByteRun::Reader in) const {
    ByteRun b{static_cast<std::size_t>(in.getOffset()), static_cast<std::size_t>(in.getBytes())};
    if (b.offset > arena_ || b.bytes > arena_ - b.offset)
      throw FormatError("a byte run [" + std::to_string(b.offset) + ", +" +
                        std::to_string(b.bytes) + ") lies outside the " + std::to_string(arena_) +
                        "-byte arena");
    return b;
  }
  std::vector<ByteRun> runs(capnp::List<exefile::ByteRun>::Reader in) const {
    std::vector<ByteRun> out;
    out.reserve(in.size());
    for (auto b : in)
      out.push_back(run(b));
    return out;
  }
  static std::vector<VarRegion> regions(const CompiledGraph& g,
                                        capnp::List<exefile::VarRegion>::Reader in) {
    std::vector<VarRegion> out;
    out.reserve(in.size());
    for (auto r : in) {
      VarRegion v{};
      v.var = index(r.getVariable(), g.variables.size(), "variable");
      v.begin = r.getBegin();
      v.end = r.getEnd();
      if (v.begin > v.end || v.end > g.variables[v.var].numElements)
        throw FormatError("a region of variable '" + g.variables[v.var].name + "' is out of range");
      out.push_back(v);
    }
    return out;
  }
  CompiledTransfer transfer(const CompiledGraph& g, exefile::Transfer::Reader in) const {
    CompiledTransfer t;
    t.type = readType(in.getType());
    t.numElements = in.getNumElements();
    t.runs = runs(in.getRuns());
    t.regions = regions(g, in.getRegions());
    std::size_t total = 0;
    for (const auto& b : t.runs)
      total += b.bytes;
    if (!t.runs.empty() && total != t.numElements * t.type.size())
      throw FormatError("a transfer's runs hold " + std::to_string(total) + " bytes for " +
                        std::to_string(t.numElements) + " elements");
    return t;
  }

  CompiledVariable variable(const CompiledGraph& g, exefile::Variable::Reader in) {
    CompiledVariable v;
    v.name = str(in.getName());
    v.type = readType(in.getType());
    for (std::uint64_t d : in.getShape())
      v.shape.push_back(static_cast<std::size_t>(d));
    v.numElements = in.getNumElements();
    if (v.type.size() == 0 || v.numElements > arena_ / v.type.size())
      throw FormatError("variable '" + v.name + "' is larger than the arena");
    v.isConstant = in.getIsConstant();
    v.arenaOffset = in.getArenaOffset();
    std::size_t mapped = 0;
    for (auto m : in.getMapping()) {
      TileInterval t{};
      t.begin = m.getBegin();
      t.end = m.getEnd();
      t.tile = index(m.getTile(), g.replicaTarget.getNumTiles(), "tile");
      if (t.begin != mapped || t.end <= t.begin)
        throw FormatError("a variable's tile mapping has a gap or overlap");
      mapped = t.end;
      v.mapping.push_back(t);
    }
    if (mapped != v.numElements) throw FormatError("variable '" + v.name + "' is not mapped whole");
    v.initial = bytes(in.getInitial());
    v.debug = debug(in.getDebug());
    const std::size_t size = v.numElements * v.type.size();
    if (v.arenaOffset > arena_ || size > arena_ - v.arenaOffset ||
        (!v.initial.empty() && v.initial.size() != size &&
         v.initial.size() != size * g.replicationFactor))
      throw FormatError("variable '" + v.name + "' does not fit its arena place");
    return v;
  }

  CompiledComputeSet computeSet(const CompiledGraph& g, exefile::ComputeSet::Reader in) {
    CompiledComputeSet cs;
    cs.name = str(in.getName());
    cs.debug = debug(in.getDebug());
    const auto vertices = in.getVertices();
    cs.vertices.reserve(vertices.size());
    for (auto v : vertices)
      cs.vertices.push_back(vertex(g, v, cs));
    cs.fields.shrink_to_fit();
    cs.edges.shrink_to_fit();
    cs.runs.shrink_to_fit();
    cs.regions.shrink_to_fit();
    cs.state.shrink_to_fit();
    return cs;
  }

  /// A pool offset of a compute set (the compiled graph keeps them in 32 bits).
  static std::uint32_t offset32(std::size_t n) {
    if (n > 0xffffffffu)
      throw FormatError("a compute set has more than 2^32 fields, edges, runs or regions");
    return static_cast<std::uint32_t>(n);
  }

  /// Reads a vertex, its fields, edges, runs, regions and state into `cs`'s pools (the file
  /// keeps them nested, per vertex; the compiled graph flat, per compute set).
  CompiledVertex vertex(const CompiledGraph& g, exefile::Vertex::Reader in,
                        CompiledComputeSet& cs) {
    namespace schema = tessera::profiler::schema;
    CompiledVertex v;
    v.type = types_[index(in.getType(), types_.size(), "vertex type")];
    v.tile = index(in.getTile(), g.replicaTarget.getNumTiles(), "tile");
    v.estimatedCycles = in.getEstimatedCycles();
    const std::uint8_t rule = in.getCycleRule();
    if (rule >= schema::enumSize<schema::CycleRule>())
      throw FormatError("a vertex's cycle rule is " + std::to_string(rule) + ", not a known rule");
    v.cycleRule = static_cast<schema::CycleRule>(rule);
    if (v.type && v.cycleRule == schema::CycleRule::executed) {
      // The counter of the .gp the executable carries (loaded with its vertex types).
      v.executedInstructions =
          poplar::detail::codelets::executedInstructionsCounter(v.type->codeletSource);
      if (!v.executedInstructions) v.cycleRule = schema::CycleRule::fieldSizes;
    }
    if (in.getHasEstimatedFlops()) v.estimatedFlops = in.getEstimatedFlops();
    const auto fields = in.getFields();
    v.firstField = offset32(cs.fields.size());
    v.numFields = fields.size();
    for (auto f : fields) {
      CompiledField field;
      const auto edges = f.getEdges();
      field.firstEdge = offset32(cs.edges.size());
      field.numEdges = edges.size();
      for (auto e : edges) {
        CompiledEdge edge;
        const auto runs = e.getRuns();
        edge.firstRun = offset32(cs.runs.size());
        edge.numRuns = runs.size();
        for (auto b : runs)
          cs.runs.push_back(run(b));
        edge.numElements = e.getNumElements();
        const auto regions = e.getRegions();
        edge.firstRegion = offset32(cs.regions.size());
        edge.numRegions = regions.size();
        for (const VarRegion& r : this->regions(g, regions))
          cs.regions.push_back(r);
        cs.edges.push_back(edge);
      }
      const auto state = f.getState();
      field.firstState = offset32(cs.state.size());
      field.stateBytes = offset32(state.size());
      cs.state.insert(cs.state.end(), state.begin(), state.end());
      offset32(cs.state.size());
      cs.fields.push_back(field);
    }
    offset32(cs.runs.size());
    offset32(cs.regions.size());
    if (!v.type) return v; // a first reading, before the types are loaded: see readExecutable
    if (v.numFields != v.type->fields.size())
      throw FormatError("a '" + v.type->name + "' vertex has " + std::to_string(v.numFields) +
                        " fields");
    const auto cfs = cs.fieldsOf(v);
    for (std::size_t i = 0; i < cfs.size(); ++i) {
      const auto& d = v.type->fields[i];
      if (d.direction == FieldDirection::State ? cfs[i].stateBytes < d.stateSize
                                               : !d.isEdgeList && cfs[i].numEdges != 1)
        throw FormatError("field '" + d.name + "' of a '" + v.type->name +
                          "' vertex is incomplete");
      for (const auto& e : cs.edgesOf(cfs[i])) {
        std::size_t total = 0;
        for (const auto& b : cs.runsOf(e))
          total += b.bytes;
        if (e.numRuns != 0 && total != e.numElements * d.elementType.size())
          throw FormatError("field '" + d.name + "' of a '" + v.type->name +
                            "' vertex does not match its type");
      }
    }
    return v;
  }

  LoweredProgram program(const CompiledGraph& g, exefile::Program::Reader in) {
    using Kind = LoweredProgram::Kind;
    LoweredProgram p;
    const auto kind = in.getKind();
    if (kind > static_cast<std::uint8_t>(Kind::CrossReplica))
      throw FormatError("unknown program kind " + std::to_string(kind));
    p.kind = static_cast<Kind>(kind);
    p.name = str(in.getName());
    p.debug = debug(in.getDebug());
    for (std::uint32_t c : in.getChildren())
      p.children.push_back(c);
    p.computeSet = in.getComputeSet();
    for (auto c : in.getCopies()) {
      LoweredProgram::CopyRun r{c.getSrc(), c.getDst(), c.getBytes()};
      if (r.src > arena_ || r.dst > arena_ || r.bytes > arena_ - r.src || r.bytes > arena_ - r.dst)
        throw FormatError("a copy lies outside the arena");
      p.copies.push_back(r);
    }
    p.srcRegions = regions(g, in.getSrcRegions());
    p.dstRegions = regions(g, in.getDstRegions());
    p.transfer = transfer(g, in.getTransfer());
    p.result = transfer(g, in.getResult());
    p.collective = collective(in.getCollective());
    p.stream = in.getStream();
    p.remoteBuffer = in.getRemoteBuffer();
    p.scalar.type = readType(in.getScalarType());
    p.scalar.offset = in.getScalarOffset();
    p.scalar.var = in.getScalarVariable();
    p.hasScalar = in.getHasScalar();
    if (p.hasScalar &&
        (p.scalar.offset > arena_ || p.scalar.type.size() > arena_ - p.scalar.offset))
      throw FormatError("a control scalar lies outside the arena");
    p.count = in.getCount();
    for (std::int32_t c : in.getCaseValues())
      p.caseValues.push_back(c);
    p.boundsChecked = in.getBoundsChecked();
    const auto sync = in.getSyncType();
    if (sync > static_cast<std::uint8_t>(SyncType::GLOBAL)) throw FormatError("unknown sync type");
    p.syncType = static_cast<SyncType>(sync);
    p.text = str(in.getText());
    for (std::uint64_t d : in.getPrintShape())
      p.printShape.push_back(static_cast<std::size_t>(d));
    const auto fmt = in.getPrintFormat();
    auto& f = p.printFormat;
    f.summariseThreshold = fmt.getSummariseThreshold();
    f.edgeItems = fmt.getEdgeItems();
    f.maxLineWidth = fmt.getMaxLineWidth();
    f.digits = fmt.getDigits();
    if (fmt.getFloatFormat() > static_cast<std::uint8_t>(PrintTensorFmt::FloatFormat::None))
      throw FormatError("unknown float format");
    f.floatFormat = static_cast<PrintTensorFmt::FloatFormat>(fmt.getFloatFormat());
    f.separator = static_cast<char>(fmt.getSeparator());
    f.openBracket = static_cast<char>(fmt.getOpenBracket());
    f.closeBracket = static_cast<char>(fmt.getCloseBracket());
    if ((p.kind == Kind::If || p.kind == Kind::RepeatWhileTrue ||
         p.kind == Kind::RepeatWhileFalse) &&
        p.children.size() < 2)
      throw FormatError("a conditional program has " + std::to_string(p.children.size()) +
                        " bodies");
    if (p.kind == Kind::Repeat && p.children.empty())
      throw FormatError("a Repeat program has no body");
    if (p.kind == Kind::Switch && p.children.size() != p.caseValues.size() + 1)
      throw FormatError("a Switch program's cases do not match its bodies");
    return p;
  }

  static CollectiveSpec collective(exefile::Collective::Reader in) {
    CollectiveSpec c;
    const auto kind = in.getKind(), op = in.getOp(), group = in.getGroupType();
    if (kind > static_cast<std::uint8_t>(CollectiveKind::Copy) ||
        op > static_cast<std::uint8_t>(CollectiveOp::Local) ||
        group > static_cast<std::uint8_t>(GroupType::Orthogonal))
      throw FormatError("unknown collective");
    c.kind = static_cast<CollectiveKind>(kind);
    c.op = static_cast<CollectiveOp>(op);
    c.groupType = static_cast<GroupType>(group);
    c.groupSize = in.getGroupSize();
    c.opName = str(in.getOpName());
    // Members of one kind only: read for that kind, so every other kind reads as the compiler
    // makes it (and what is read is written back the same).
    if (c.kind == CollectiveKind::Broadcast) c.root = in.getRoot();
    if (c.kind == CollectiveKind::Copy)
      for (std::uint32_t r : in.getCopyTo())
        c.copyTo.push_back(r);
    return c;
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

  const std::vector<DebugContext>& debug_;
  const std::vector<const VertexTypeDescriptor*>& types_;
  std::size_t arena_ = 0;
};

} // namespace

MessageHead readMessageHead(exefile::Executable::Reader in) {
  MessageHead head;
  head.name = str(in.getName());
  for (auto o : in.getOptions())
    head.options.emplace_back(str(o.getName()), str(o.getValue()));
  for (auto t : in.getVertexTypes())
    head.typeNames.emplace_back(str(t.getName()), str(t.getCodeletSource()));
  for (auto o : in.getCodeletObjects()) {
    const auto b = o.getBytes();
    head.objects[str(o.getSource())] =
        std::string(reinterpret_cast<const char*>(b.begin()), b.size());
  }
  return head;
}

CompiledGraph readCompiledGraph(exefile::Executable::Reader in,
                                const std::vector<const VertexTypeDescriptor*>& types) {
  const std::vector<DebugContext> debug = readDebugTable(in.getDebugContexts());
  return GraphReader(debug, types).read(in.getGraph());
}

} // namespace poplar::detail::executable
