// Writing an executable into its Cap'n Proto message (profiler/schema/executable.capnp): the
// compiled graph field by field, the debug contexts as a table (parents before children, so
// paths and sharing survive), vertex types by name and codelet source, and the codelet objects
// those were loaded from, so the loading process needs neither the sources nor this one's cache.
#include "ExecutableMessage.hpp"
#include "LibraryVertices.hpp"
#include "codelets/CodeletLoader.hpp"

#include <fstream>
#include <iterator>
#include <poplar/exceptions.hpp>
#include <tuple>

namespace poplar::detail::executable {
using codelets::displaySourceName;
using compiler::ByteRun;
using compiler::CompiledComputeSet;
using compiler::CompiledField;
using compiler::CompiledGraph;
using compiler::CompiledTransfer;
using compiler::CompiledVariable;
using compiler::CompiledVertex;
using compiler::LoweredProgram;

namespace {

kj::StringPtr text(const std::string& s) {
  return kj::StringPtr(s.c_str(), s.size()); // std::string keeps its NUL after the last byte
}
capnp::Data::Reader data(const std::vector<unsigned char>& b) {
  return capnp::Data::Reader(b.data(), b.size());
}
capnp::Data::Reader data(const std::string& b) {
  return capnp::Data::Reader(reinterpret_cast<const kj::byte*>(b.data()), b.size());
}
std::uint8_t typeId(Type t) {
  return static_cast<std::uint8_t>(t.id());
}

/// Gives each debug context an index, its parents first; equal contexts share one.
class DebugTable {
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
  void write(capnp::List<exefile::DebugContext>::Builder out) const {
    for (unsigned i = 0; i < order_.size(); ++i) {
      const auto& [parent, name, file, function, line, layer, opType] = order_[i];
      auto d = out[i];
      d.setParent(static_cast<std::uint32_t>(parent + 1));
      d.setName(text(name));
      d.setFile(text(file));
      d.setFunction(text(function));
      d.setLine(line);
      d.setLayer(text(layer));
      d.setOpType(text(opType));
    }
  }
  unsigned size() const { return static_cast<unsigned>(order_.size()); }

private:
  using Key = std::tuple<std::int64_t, std::string, std::string, std::string, unsigned, std::string,
                         std::string>;
  std::map<Key, std::uint32_t> ids_;
  std::vector<Key> order_;
};

// Every member of Target::Params: a new member must be added here, in the schema and in
// ExecutableRead.cpp's readTarget.
void writeTarget(exefile::Target::Builder out, const Target& t) {
  const auto& p = t.params();
  out.setType(static_cast<std::uint8_t>(p.type));
  out.setArch(text(p.arch));
  out.setNumIpus(p.numIPUs);
  out.setTilesPerIpu(p.tilesPerIPU);
  out.setNumWorkerContexts(p.numWorkerContexts);
  out.setBytesPerTile(p.bytesPerTile);
  out.setTileClockFrequency(p.tileClockFrequency);
  out.setExchangeBytesPerCycle(p.exchangeBytesPerCycle);
  out.setMemcpyBytesPerCycle(p.memcpyBytesPerCycle);
  out.setInstructionBytes(p.instructionBytes);
  out.setIpuLinkBytesPerCycle(p.ipuLinkBytesPerCycle);
  out.setHostLinkBytesPerCycle(p.hostLinkBytesPerCycle);
  out.setTilesPerSuperTile(p.tilesPerSuperTile);
  out.setSupportsSuperTileSendReceive(p.supportsSuperTileSendReceive);
  out.setMinIpuSyncDelay(p.minIPUSyncDelay);
  out.setMaxIpuSyncDelay(p.maxIPUSyncDelay);
  out.setGlobalSyncCycles(p.globalSyncCycles);
  out.setInterleavedMemoryElementIndex(p.interleavedMemoryElementIndex);
  auto offsets = out.initMemoryElementOffsets(static_cast<unsigned>(p.memoryElementOffsets.size()));
  for (unsigned i = 0; i < offsets.size(); ++i)
    offsets.set(i, p.memoryElementOffsets[i]);
  out.setDataPathWidth(p.dataPathWidth);
  out.setReplicationFactor(p.replicationFactor);
}

// One element of a list of structs, from the record of the same shape.
template <typename B> void writeStruct(B out, const ByteRun& run) {
  out.setOffset(run.offset);
  out.setBytes(run.bytes);
}
template <typename B> void writeStruct(B out, const VarRegion& region) {
  out.setVariable(region.var);
  out.setBegin(region.begin);
  out.setEnd(region.end);
}
/// A list of structs, already sized to `items`, each element filled from its item (the struct
/// counterpart of writeValues).
template <typename L, typename Items> void writeStructs(L out, const Items& items) {
  for (unsigned i = 0; i < items.size(); ++i)
    writeStruct(out[i], items[i]);
}
template <typename L, typename V> void writeValues(L out, const V& values) {
  for (unsigned i = 0; i < values.size(); ++i)
    out.set(i, values[i]);
}
unsigned count(std::size_t n) {
  return static_cast<unsigned>(n);
}
void writeTransfer(exefile::Transfer::Builder out, const CompiledTransfer& t) {
  out.setType(typeId(t.type));
  out.setNumElements(t.numElements);
  writeStructs(out.initRuns(count(t.runs.size())), t.runs);
  writeStructs(out.initRegions(count(t.regions.size())), t.regions);
}

class GraphWriter {
public:
  GraphWriter(DebugTable& debug, std::map<const VertexTypeDescriptor*, std::uint32_t>& typeIds)
      : debug_(debug), typeIds_(typeIds) {}

  void write(exefile::Graph::Builder out, const CompiledGraph& g) {
    writeTarget(out.initTarget(), g.target);
    writeTarget(out.initReplicaTarget(), g.replicaTarget);
    out.setReplicationFactor(g.replicationFactor);
    out.setArenaBytes(g.arenaBytes);
    auto variables = out.initVariables(count(g.variables.size()));
    for (unsigned i = 0; i < variables.size(); ++i)
      variable(variables[i], g.variables[i]);
    auto computeSets = out.initComputeSets(count(g.computeSets.size()));
    for (unsigned i = 0; i < computeSets.size(); ++i)
      computeSet(computeSets[i], g.computeSets[i]);
    auto programs = out.initPrograms(count(g.programs.size()));
    for (unsigned i = 0; i < programs.size(); ++i)
      program(programs[i], g.programs[i]);
    writeValues(out.initEntryPoints(count(g.entryPoints.size())), g.entryPoints);
    auto streams = out.initStreams(count(g.streams.size()));
    for (unsigned i = 0; i < streams.size(); ++i) {
      const auto& s = g.streams[i];
      streams[i].setHandle(text(s.handle));
      streams[i].setType(typeId(s.type));
      streams[i].setNumElements(s.numElements);
      streams[i].setHostToDevice(s.hostToDevice);
    }
    auto buffers = out.initRemoteBuffers(count(g.remoteBuffers.size()));
    for (unsigned i = 0; i < buffers.size(); ++i) {
      const auto& b = g.remoteBuffers[i];
      buffers[i].setHandle(text(b.handle));
      buffers[i].setType(typeId(b.type));
      buffers[i].setNumElements(b.numElements);
      buffers[i].setRepeats(b.repeats);
    }
    auto handles = out.initHostHandles(count(g.hostHandles.size()));
    for (unsigned i = 0; i < handles.size(); ++i) {
      const auto& h = g.hostHandles[i];
      handles[i].setHandle(text(h.handle));
      handles[i].setIsWrite(h.isWrite);
      writeTransfer(handles[i].initTransfer(), h.transfer);
    }
  }

private:
  void variable(exefile::Variable::Builder out, const CompiledVariable& v) {
    out.setName(text(v.name));
    out.setType(typeId(v.type));
    writeValues(out.initShape(count(v.shape.size())), v.shape);
    out.setNumElements(v.numElements);
    out.setIsConstant(v.isConstant);
    out.setArenaOffset(v.arenaOffset);
    auto mapping = out.initMapping(count(v.mapping.size()));
    for (unsigned i = 0; i < mapping.size(); ++i) {
      mapping[i].setBegin(v.mapping[i].begin);
      mapping[i].setEnd(v.mapping[i].end);
      mapping[i].setTile(v.mapping[i].tile);
    }
    out.setInitial(data(v.initial));
    out.setDebug(debug_.id(v.debug));
  }

  void computeSet(exefile::ComputeSet::Builder out, const CompiledComputeSet& cs) {
    out.setName(text(cs.name));
    out.setDebug(debug_.id(cs.debug));
    auto vertices = out.initVertices(count(cs.vertices.size()));
    for (unsigned i = 0; i < vertices.size(); ++i) {
      const CompiledVertex& v = cs.vertices[i];
      auto o = vertices[i];
      o.setType(
          typeIds_.emplace(v.type, static_cast<std::uint32_t>(typeIds_.size())).first->second);
      o.setTile(v.tile);
      o.setEstimatedCycles(v.estimatedCycles);
      o.setCycleRule(static_cast<std::uint8_t>(v.cycleRule));
      o.setHasEstimatedFlops(v.estimatedFlops.has_value());
      if (v.estimatedFlops) o.setEstimatedFlops(*v.estimatedFlops);
      // The compute set's pools, written nested per vertex as the file keeps them.
      const auto cfs = cs.fieldsOf(v);
      auto fields = o.initFields(count(cfs.size()));
      for (unsigned f = 0; f < fields.size(); ++f) {
        const auto ces = cs.edgesOf(cfs[f]);
        auto edges = fields[f].initEdges(count(ces.size()));
        for (unsigned e = 0; e < edges.size(); ++e) {
          writeStructs(edges[e].initRuns(ces[e].numRuns), cs.runsOf(ces[e]));
          edges[e].setNumElements(ces[e].numElements);
          writeStructs(edges[e].initRegions(ces[e].numRegions), cs.regionsOf(ces[e]));
        }
        const auto state = cs.stateOf(cfs[f]);
        fields[f].setState(capnp::Data::Reader(state.data(), state.size()));
      }
    }
  }

  void program(exefile::Program::Builder out, const LoweredProgram& p) {
    out.setKind(static_cast<std::uint8_t>(p.kind));
    out.setName(text(p.name));
    out.setDebug(debug_.id(p.debug));
    writeValues(out.initChildren(count(p.children.size())), p.children);
    out.setComputeSet(p.computeSet);
    auto copies = out.initCopies(count(p.copies.size()));
    for (unsigned i = 0; i < copies.size(); ++i) {
      copies[i].setSrc(p.copies[i].src);
      copies[i].setDst(p.copies[i].dst);
      copies[i].setBytes(p.copies[i].bytes);
    }
    writeStructs(out.initSrcRegions(count(p.srcRegions.size())), p.srcRegions);
    writeStructs(out.initDstRegions(count(p.dstRegions.size())), p.dstRegions);
    writeTransfer(out.initTransfer(), p.transfer);
    writeTransfer(out.initResult(), p.result);
    auto c = out.initCollective();
    c.setKind(static_cast<std::uint8_t>(p.collective.kind));
    c.setOp(static_cast<std::uint8_t>(p.collective.op));
    c.setGroupType(static_cast<std::uint8_t>(p.collective.groupType));
    c.setGroupSize(p.collective.groupSize);
    c.setOpName(text(p.collective.opName));
    c.setRoot(p.collective.root);
    writeValues(c.initCopyTo(count(p.collective.copyTo.size())), p.collective.copyTo);
    out.setStream(p.stream);
    out.setRemoteBuffer(p.remoteBuffer);
    out.setScalarType(typeId(p.scalar.type));
    out.setScalarOffset(p.scalar.offset);
    out.setScalarVariable(p.scalar.var);
    out.setHasScalar(p.hasScalar);
    out.setCount(p.count);
    writeValues(out.initCaseValues(count(p.caseValues.size())), p.caseValues);
    out.setBoundsChecked(p.boundsChecked);
    out.setSyncType(static_cast<std::uint8_t>(p.syncType));
    out.setText(text(p.text));
    writeValues(out.initPrintShape(count(p.printShape.size())), p.printShape);
    auto f = out.initPrintFormat();
    f.setSummariseThreshold(p.printFormat.summariseThreshold);
    f.setEdgeItems(p.printFormat.edgeItems);
    f.setMaxLineWidth(p.printFormat.maxLineWidth);
    f.setDigits(p.printFormat.digits);
    f.setFloatFormat(static_cast<std::uint8_t>(p.printFormat.floatFormat));
    f.setSeparator(static_cast<std::uint8_t>(p.printFormat.separator));
    f.setOpenBracket(static_cast<std::uint8_t>(p.printFormat.openBracket));
    f.setCloseBracket(static_cast<std::uint8_t>(p.printFormat.closeBracket));
  }

  DebugTable& debug_;
  std::map<const VertexTypeDescriptor*, std::uint32_t>& typeIds_;
};

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

} // namespace

void buildExecutableMessage(const core::Executable& exe, exefile::Executable::Builder out) {
  DebugTable debug;
  std::map<const VertexTypeDescriptor*, std::uint32_t> typeIds;
  GraphWriter(debug, typeIds).write(out.initGraph(), exe.compiled);

  out.setName(text(exe.name));
  std::vector<std::pair<std::string, std::string>> options(exe.options.begin(), exe.options.end());
  auto opts = out.initOptions(count(options.size()));
  for (unsigned i = 0; i < opts.size(); ++i) {
    opts[i].setName(text(options[i].first));
    opts[i].setValue(text(options[i].second));
  }
  std::vector<const VertexTypeDescriptor*> types(typeIds.size());
  for (const auto& [t, id] : typeIds)
    types[id] = t;
  std::map<std::string, std::string> objects; // codelet source key -> .gp bytes
  auto typeList = out.initVertexTypes(count(types.size()));
  for (unsigned i = 0; i < types.size(); ++i) {
    const auto* t = types[i];
    typeList[i].setName(text(t->name));
    typeList[i].setCodeletSource(text(t->codeletSource));
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
  auto objectList = out.initCodeletObjects(count(objects.size()));
  unsigned i = 0;
  for (const auto& [key, bytes] : objects) {
    objectList[i].setSource(text(key));
    objectList[i].setBytes(data(bytes));
    ++i;
  }
  debug.write(out.initDebugContexts(debug.size()));
}

} // namespace poplar::detail::executable
