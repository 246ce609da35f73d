// compile(): checks a graph and its programs and lowers them to CompiledGraph.
#include "CompiledGraph.hpp"
#include "codelets/CodeletLoader.hpp"
#include "graph/GraphState.hpp"
#include "graph/ProgramNode.hpp"
#include "runtime/Instances.hpp"

#include <algorithm>
#include <map>
#include <poplar/exceptions.hpp>

namespace poplar::detail::compiler {
using graph::VertexRec;
using runtime::checkCopyMap;
using runtime::CollectiveKind;
using runtime::collectiveKindName;
using runtime::globalReplicationFactor;
using runtime::replicaGroups;

namespace {
using tessera::profiler::schema::CycleRule;

class Introspector final : public VertexIntrospector {
public:
  explicit Introspector(const VertexRec& v) : v_(v) {}
  FieldInfo getFieldInfo(const std::string& name) const override {
    const auto& fields = v_.type->fields;
    for (std::size_t i = 0; i < fields.size(); ++i)
      if (fields[i].name == name) {
        std::vector<std::size_t> sizes;
        for (const auto& t : v_.fields[i].edges)
          sizes.push_back(t.valid() ? t.numElements() : 0);
        return FieldInfo(std::move(sizes), fields[i].isEdgeList);
      }
    throw unknown_field("cycle estimator of '" + v_.type->name + "' asked for unknown field '" +
                        name + "'");
  }
  const std::vector<unsigned char>& getStateBytes(const std::string& name) const override {
    const auto& fields = v_.type->fields;
    for (std::size_t i = 0; i < fields.size(); ++i)
      if (fields[i].name == name) return v_.fields[i].state.bytes();
    throw unknown_field("cycle estimator of '" + v_.type->name + "' asked for unknown state '" +
                        name + "'");
  }
  const std::string& getVertexType() const override { return v_.type->name; }

private:
  const VertexRec& v_;
};

class Compiler {
public:
  Compiler(const GraphState& g, CompiledGraph& out) : g_(g), out_(out) {}

  void layoutVariables() {
    std::vector<std::string> unmapped;
    std::size_t unmappedCount = 0;
    std::size_t offset = 0;
    for (const auto& v : g_.variables) {
      CompiledVariable cv;
      cv.name = v.name;
      cv.type = v.type;
      cv.shape = v.shape;
      cv.numElements = v.numElements;
      cv.isConstant = v.isConstant;
      cv.initial = v.initial;
      cv.debug = v.debug;
      for (const auto& [begin, seg] : v.mapping.segments())
        cv.mapping.push_back({begin, seg.end, seg.tile});
      const std::size_t mapped = v.mapping.mappedElements();
      if (mapped != v.numElements) {
        ++unmappedCount;
        if (unmapped.size() < 5)
          unmapped.push_back("'" + v.name + "' (" + std::to_string(v.numElements - mapped) +
                             " of " + std::to_string(v.numElements) + " elements)");
      }
      cv.arenaOffset = offset;
      offset +=
          (v.numElements * v.type.size() + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment;
      out_.variables.push_back(std::move(cv));
    }
    out_.arenaBytes = offset;
    if (unmappedCount) {
      std::string list;
      for (const auto& s : unmapped)
        list += (list.empty() ? "" : ", ") + s;
      if (unmappedCount > unmapped.size())
        list += " and " + std::to_string(unmappedCount - unmapped.size()) + " more";
      throw invalid_tile_mapping(
          std::to_string(unmappedCount) + " tensor(s) have elements not mapped to any tile: " +
          list + ". Map them with Graph::setTileMapping or poputil::mapTensorLinearly");
    }
  }

  /// Appends the arena runs of `regions` to `runs`, merging runs that meet.
  template <class Regions>
  void appendRuns(const Regions& regions, std::vector<ByteRun>& runs) const {
    const std::size_t first = runs.size();
    for (const auto& r : regions) {
      const auto& v = out_.variables[r.var];
      const std::size_t size = v.type.size();
      const std::size_t off = v.arenaOffset + r.begin * size, bytes = r.size() * size;
      if (runs.size() > first && runs.back().offset + runs.back().bytes == off)
        runs.back().bytes += bytes;
      else
        runs.push_back({off, bytes});
    }
  }

  std::vector<ByteRun> runsOf(const std::vector<VarRegion>& regions) const {
    std::vector<ByteRun> runs;
    runs.reserve(regions.size() == 1 ? 1 : 0);
    appendRuns(regions, runs);
    return runs;
  }

  CompiledTransfer transferOf(const Tensor& t) const {
    CompiledTransfer tr;
    tr.type = t.elementType();
    tr.numElements = t.numElements();
    tr.regions = t.getVarRegions();
    tr.runs = runsOf(tr.regions);
    return tr;
  }

  void compileVertices() {
    for (const auto& cs : g_.computeSets) {
      CompiledComputeSet ccs;
      ccs.name = cs.name;
      ccs.debug = cs.debug;
      ccs.vertices.reserve(cs.vertices.size());
      std::size_t fields = 0;
      for (unsigned vid : cs.vertices)
        fields += g_.vertices[vid].type->fields.size();
      ccs.fields.reserve(fields);
      for (unsigned vid : cs.vertices)
        ccs.vertices.push_back(compileVertex(g_.vertices[vid], vid, cs.name, ccs));
      // The pools grew by doubling: give back what a million-vertex graph would keep spare.
      ccs.edges.shrink_to_fit();
      ccs.runs.shrink_to_fit();
      ccs.regions.shrink_to_fit();
      ccs.state.shrink_to_fit();
      out_.computeSets.push_back(std::move(ccs));
    }
  }

  /// A pool offset or count as the compiled graph keeps it (32 bits).
  static std::uint32_t index32(std::size_t n, const std::string& csName, const char* what) {
    if (n > 0xffffffffu)
      throw graph_program_compilation_error("compute set '" + csName + "' has more than 2^32 " +
                                            what + "; split it into several compute sets");
    return static_cast<std::uint32_t>(n);
  }

  CompiledVertex compileVertex(const VertexRec& v, unsigned id, const std::string& csName,
                               CompiledComputeSet& ccs) {
    // Named only in errors: built on the way to a throw, not for each of a million vertices.
    auto where = [&] {
      return "vertex " + std::to_string(id) + " ('" + v.type->name + "') in compute set '" +
             csName + "'";
    };
    if (!v.hasTile())
      throw invalid_tile_mapping(
          where() + " is not mapped to a tile: call Graph::setTileMapping(vertex, tile)");
    CompiledVertex cv;
    cv.type = v.type;
    cv.tile = v.tile;
    cv.firstField = index32(ccs.fields.size(), csName, "vertex fields");
    cv.numFields = static_cast<std::uint32_t>(v.type->fields.size());
    for (std::size_t i = 0; i < v.type->fields.size(); ++i) {
      const auto& d = v.type->fields[i];
      const auto& conn = v.fields[i];
      CompiledField cf;
      cf.firstEdge = index32(ccs.edges.size(), csName, "edges");
      cf.firstState = index32(ccs.state.size(), csName, "bytes of vertex state");
      if (d.direction == FieldDirection::State) {
        // A state field the graph never sets is accepted, as Poplar accepts it (public programs
        // leave unused parameters unset); Tessera gives it zero bytes (docs/compatibility.md).
        if (conn.state.empty())
          ccs.state.insert(ccs.state.end(), d.stateSize, 0);
        else
          ccs.state.insert(ccs.state.end(), conn.state.begin(), conn.state.end());
        cf.stateBytes = index32(ccs.state.size() - cf.firstState, csName, "bytes of vertex state");
      } else {
        if (d.isEdgeList && !conn.edges.sized)
          throw no_size_specified(where() + ": field '" + d.name + "' has no size (setFieldSize)");
        if (!d.isEdgeList && conn.edges.empty())
          throw graph_connection_error(where() + ": field '" + d.name + "' is not connected");
        for (std::size_t e = 0; e < conn.edges.size(); ++e) {
          if (!conn.edges[e].valid())
            throw graph_connection_error(where() + ": edge " + std::to_string(e) + " of field '" +
                                         d.name + "' is not connected");
          CompiledEdge ce;
          ce.firstRegion = index32(ccs.regions.size(), csName, "edge regions");
          ccs.regions.insert(ccs.regions.end(), conn.edges[e].begin(), conn.edges[e].end());
          ce.numRegions = static_cast<std::uint32_t>(ccs.regions.size() - ce.firstRegion);
          ce.firstRun = index32(ccs.runs.size(), csName, "edge runs");
          appendRuns(conn.edges[e], ccs.runs);
          ce.numRuns = static_cast<std::uint32_t>(ccs.runs.size() - ce.firstRun);
          ce.numElements = conn.edges[e].numElements();
          ccs.edges.push_back(ce);
        }
        cf.numEdges = index32(conn.edges.size(), csName, "edges");
        index32(ccs.runs.size(), csName, "edge runs");
        index32(ccs.regions.size(), csName, "edge regions");
      }
      ccs.fields.push_back(cf);
    }
    cv.estimatedCycles = estimate(v, id, where, cv.cycleRule, cv.executedInstructions);
    const auto perf = g_.perfEstimates.find(id);
    if (perf != g_.perfEstimates.end() && perf->second.flops)
      cv.estimatedFlops = perf->second.flops;
    return cv;
  }

  /// The vertex's cycles and the rule that gives them (docs/profiling.md, "Where a vertex's
  /// cycles come from"). An IPU Model takes the declared estimate first, as Poplar's does.
  /// Simulated hardware (TargetType::IPU) runs the code, as hardware does: a vertex of a counted
  /// codelet file is measured by execution whatever it declares; the declared estimate only
  /// stands in for the compile-time figures, before anything has run.
  template <class Where>
  std::uint64_t estimate(const VertexRec& v, unsigned id, const Where& where, CycleRule& rule,
                         std::uint64_t* (*&counter)()) const {
    const std::uint64_t cycles = declaredEstimate(v, id, where, rule, counter);
    if (g_.replicaTarget.getTargetType() == TargetType::IPU && v.type->fromCodeletFile &&
        rule != CycleRule::executed) {
      counter = poplar::detail::codelets::executedInstructionsCounter(v.type->codeletSource);
      if (counter) rule = CycleRule::executed;
    }
    return cycles;
  }

  /// The estimate in the IPU Model's order of precedence.
  template <class Where>
  std::uint64_t declaredEstimate(const VertexRec& v, unsigned id, const Where& where,
                                 CycleRule& rule, std::uint64_t* (*&counter)()) const {
    const auto perf = g_.perfEstimates.find(id);
    if (perf != g_.perfEstimates.end()) {
      rule = CycleRule::setPerfEstimate;
      return perf->second.cycles;
    }
    auto it = g_.perfEstimators.find(v.type->name);
    Introspector vi(v);
    if (it != g_.perfEstimators.end()) {
      rule = CycleRule::registerPerfEstimator;
      return it->second(vi, g_.replicaTarget);
    }
    if (v.type->cycleEstimate) {
      rule = CycleRule::getCycleEstimate;
      return v.type->cycleEstimate(vi, g_.replicaTarget);
    }
    if (v.type->fromCodeletFile) {
      // Counted by its .gp: each run costs what compute() executed; until then (and in the
      // compile-time figures) the field-size default stands in.
      counter = poplar::detail::codelets::executedInstructionsCounter(v.type->codeletSource);
      rule = counter ? CycleRule::executed : CycleRule::fieldSizes;
      return defaultEstimate(v);
    }
    throw missing_perf_estimate(where() + " has no cycle estimate: give the vertex class a static "
                                          "getCycleEstimate(), or call Graph::setPerfEstimate or "
                                          "Graph::registerPerfEstimator");
  }

  /// The documented default for codelet-file vertices without an estimator (docs/profiling.md):
  /// 20 cycles to enter and leave the vertex, and for every connected edge 4 cycles to set up
  /// its pointer plus one per 32-bit word of its data. A MultiVertex's workers share the data.
  static std::uint64_t defaultEstimate(const VertexRec& v) {
    std::uint64_t data = 0;
    for (std::size_t i = 0; i < v.type->fields.size(); ++i) {
      const auto& d = v.type->fields[i];
      if (d.direction == FieldDirection::State) continue;
      for (const auto& t : v.fields[i].edges) {
        const std::uint64_t bytes = t.valid() ? t.numElements() * d.elementType.size() : 0;
        data += 4 + (bytes + 3) / 4;
      }
    }
    if (v.type->isMultiVertex)
      data = (data + MultiVertex::numWorkers() - 1) / MultiVertex::numWorkers();
    return 20 + data;
  }

  void compileHandles() {
    for (const auto& s : g_.streams)
      out_.streams.push_back({s.handle, s.type, s.numElements, s.hostToDevice});
    for (const auto& rb : g_.remoteBuffers)
      out_.remoteBuffers.push_back({rb.handle, rb.type, rb.numElements, rb.repeats});
    for (const auto& [handle, h] : g_.hostHandles)
      out_.hostHandles.push_back({handle, h.isWrite, transferOf(h.tensor)});
  }

  unsigned lower(const program::Program& p) {
    const auto node = p.node();
    LoweredProgram lp;
    if (!node) return add(std::move(lp)); // empty program: an empty Sequence
    const auto& n = *node;
    lp.name = n.debug.getPathName();
    lp.debug = n.debug;
    using K = ProgramNode::Kind;
    using LK = LoweredProgram::Kind;
    switch (n.kind) {
    case K::Sequence:
      lp.kind = LK::Sequence;
      break;
    case K::Execute:
      lp.kind = LK::Execute;
      if (n.computeSet.graphState() != &g_ || n.computeSet.getId() >= g_.computeSets.size())
        throw graph_program_compilation_error(what(n, "Execute") +
                                              ": the compute set belongs to another graph");
      lp.computeSet = n.computeSet.getId();
      if (lp.name.empty()) lp.name = g_.computeSets[lp.computeSet].name;
      break;
    case K::Copy:
      lowerCopy(n, lp);
      break;
    case K::StreamToDevice:
    case K::StreamFromDevice:
      lowerStreamCopy(n, lp);
      break;
    case K::RemoteToDevice:
    case K::RemoteFromDevice:
      lowerRemoteCopy(n, lp);
      break;
    case K::Repeat:
      lp.kind = LK::Repeat;
      lp.count = n.count;
      break;
    case K::RepeatWhileTrue:
    case K::RepeatWhileFalse:
      lp.kind = n.kind == K::RepeatWhileTrue ? LK::RepeatWhileTrue : LK::RepeatWhileFalse;
      setScalar(n, lp, "RepeatWhile predicate", false);
      break;
    case K::If:
      lp.kind = LK::If;
      setScalar(n, lp, "If predicate", false);
      break;
    case K::Switch:
      lp.kind = LK::Switch;
      setScalar(n, lp, "Switch control", true);
      lp.caseValues = n.caseValues;
      lp.boundsChecked = n.boundsChecked;
      for (std::size_t i = 0; i < n.caseValues.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
          if (n.caseValues[i] == n.caseValues[j])
            throw graph_program_compilation_error(
                what(n, "Switch") + ": case " + std::to_string(n.caseValues[i]) + " appears twice");
      break;
    case K::Call:
      lowerCall(n, lp);
      break;
    case K::Sync:
      lp.kind = LK::Sync;
      lp.syncType = n.syncType;
      break;
    case K::WriteUndef:
      lp.kind = LK::WriteUndef;
      checkTensor(n.dst, what(n, "WriteUndef"));
      lp.dstRegions = n.dst.getVarRegions();
      break;
    case K::Block:
      lp.kind = LK::Block;
      break;
    case K::PrintTensor:
      lp.kind = LK::PrintTensor;
      checkTensor(n.src, what(n, "PrintTensor"));
      lp.transfer = transferOf(n.src);
      lp.printShape = n.src.shape();
      lp.printFormat = n.printFormat;
      lp.text = n.text;
      break;
    case K::Abort:
      lp.kind = LK::Abort;
      lp.text = n.text;
      setScalar(n, lp, "AbortOnCondition predicate", false);
      break;
    case K::CrossReplica:
      lowerCrossReplica(n, lp);
      break;
    }
    if (n.kind != K::Call)
      for (const auto& c : n.children)
        lp.children.push_back(lower(c));
    return add(std::move(lp));
  }

  const std::vector<LoweredProgram>& programs() const { return out_.programs; }

private:
  unsigned add(LoweredProgram lp) {
    out_.programs.push_back(std::move(lp));
    return static_cast<unsigned>(out_.programs.size() - 1);
  }

  static std::string what(const ProgramNode& n, const char* kind) {
    auto name = n.debug.getPathName();
    return name.empty() ? std::string(kind) : std::string(kind) + " '" + name + "'";
  }

  void checkTensor(const Tensor& t, const std::string& where) const {
    if (!t.valid())
      throw graph_program_compilation_error(where + ": invalid (default-constructed) tensor");
    if (t.graphId() != &g_)
      throw graph_program_compilation_error(where + ": the tensor belongs to another graph");
  }

  void setScalar(const ProgramNode& n, LoweredProgram& lp, const char* role, bool integral) {
    const std::string where = what(n, role);
    checkTensor(n.scalar, where);
    if (n.scalar.numElements() != 1)
      throw index_error(where + ": needs a single element, the tensor has shape " +
                        n.scalar.shapeToString());
    if (integral && n.scalar.elementType().isFloatingPoint())
      throw type_error(where + ": needs an integer tensor, not " +
                       n.scalar.elementType().toString());
    const auto& r = n.scalar.getVarRegions()[0];
    lp.scalar = {n.scalar.elementType(),
                 out_.variables[r.var].arenaOffset + r.begin * n.scalar.elementType().size(),
                 r.var};
    lp.hasScalar = true;
  }

  void lowerCopy(const ProgramNode& n, LoweredProgram& lp) {
    lp.kind = LoweredProgram::Kind::Copy;
    const std::string where = what(n, "Copy");
    checkTensor(n.src, where);
    checkTensor(n.dst, where);
    if (n.src.elementType() != n.dst.elementType())
      throw type_error(where + ": source is " + n.src.elementType().toString() +
                       ", destination is " + n.dst.elementType().toString());
    if (n.src.numElements() != n.dst.numElements())
      throw index_error(where + ": source shape " + n.src.shapeToString() +
                        " and destination shape " + n.dst.shapeToString() +
                        " have different numbers of elements");
    if (n.dst.containsAliases())
      throw graph_program_compilation_error(where + ": the destination contains aliased elements");
    lp.srcRegions = n.src.getVarRegions();
    lp.dstRegions = n.dst.getVarRegions();
    const auto src = runsOf(lp.srcRegions), dst = runsOf(lp.dstRegions);
    std::size_t i = 0, j = 0, si = 0, dj = 0; // run index and bytes consumed within it
    while (i < src.size() && j < dst.size()) {
      const std::size_t n1 = std::min(src[i].bytes - si, dst[j].bytes - dj);
      const std::size_t s = src[i].offset + si, d = dst[j].offset + dj;
      if (s != d) { // copying an element onto itself is a no-op
        auto& c = lp.copies;
        if (!c.empty() && c.back().src + c.back().bytes == s && c.back().dst + c.back().bytes == d)
          c.back().bytes += n1;
        else
          c.push_back({s, d, n1});
      }
      si += n1;
      dj += n1;
      if (si == src[i].bytes) {
        ++i;
        si = 0;
      }
      if (dj == dst[j].bytes) {
        ++j;
        dj = 0;
      }
    }
  }

  /// A collective: source and destination of one type, the destination's size following the
  /// kind over the replica groups (libgcl checks the same before building the node).
  void lowerCrossReplica(const ProgramNode& n, LoweredProgram& lp) {
    lp.kind = LoweredProgram::Kind::CrossReplica;
    const std::string where = what(n, n.collective.opName.c_str());
    checkTensor(n.src, where);
    checkTensor(n.dst, where);
    if (n.src.elementType() != n.dst.elementType())
      throw type_error(where + ": source is " + n.src.elementType().toString() +
                       ", destination is " + n.dst.elementType().toString());
    if (n.dst.containsAliases())
      throw graph_program_compilation_error(where + ": the destination contains aliased elements");
    const unsigned replicas = globalReplicationFactor(g_.replicationFactor);
    if (n.collective.kind == CollectiveKind::Copy) checkCopyMap(n.collective, replicas, where);
    const auto groups = replicaGroups(n.collective, replicas);
    const std::size_t k = groups[0].size(), elements = n.src.numElements();
    if (n.collective.kind == CollectiveKind::Broadcast && n.collective.root >= k)
      throw index_error(where + ": the root replica " + std::to_string(n.collective.root) +
                        " is not a member of groups of " + std::to_string(k));
    if (n.collective.kind == CollectiveKind::AllToAll && elements % k != 0)
      throw index_error(where + ": " + std::to_string(elements) +
                        " elements cannot be cut into one slice for each of the " +
                        std::to_string(k) + " members of a group");
    std::size_t expected = elements;
    if (n.collective.kind == CollectiveKind::ReduceScatter) expected = (elements + k - 1) / k;
    if (n.collective.kind == CollectiveKind::AllGather) expected = elements * k;
    if (n.dst.numElements() != expected)
      throw index_error(where + ": the destination has " + std::to_string(n.dst.numElements()) +
                        " elements, " + collectiveKindName(n.collective.kind) + " of " +
                        std::to_string(elements) + " over groups of " + std::to_string(k) +
                        " needs " + std::to_string(expected));
    lp.collective = n.collective;
    lp.transfer = transferOf(n.src);
    lp.result = transferOf(n.dst);
    lp.srcRegions = lp.transfer.regions;
    lp.dstRegions = lp.result.regions;
  }

  void lowerStreamCopy(const ProgramNode& n, LoweredProgram& lp) {
    const bool toDevice = n.kind == ProgramNode::Kind::StreamToDevice;
    lp.kind =
        toDevice ? LoweredProgram::Kind::StreamToDevice : LoweredProgram::Kind::StreamFromDevice;
    const auto& s = n.stream;
    const std::string where = what(n, "Copy") + " with stream '" + s.handle() + "'";
    if (s.graphState() != &g_ || s.getId() >= g_.streams.size())
      throw graph_program_compilation_error(where + ": the stream belongs to another graph");
    const Tensor& t = toDevice ? n.dst : n.src;
    checkTensor(t, where);
    if (s.isHostToDevice() != toDevice)
      throw stream_connection_error(
          where + ": a " + (toDevice ? "device-to-host" : "host-to-device") +
          " stream cannot be copied " + (toDevice ? "to" : "from") + " the device");
    if (t.elementType() != s.elementType())
      throw type_error(where + ": the stream holds " + s.elementType().toString() +
                       ", the tensor is " + t.elementType().toString());
    if (t.numElements() != s.numElements())
      throw index_error(where + ": the stream has " + std::to_string(s.numElements()) +
                        " elements, the tensor " + std::to_string(t.numElements()));
    if (toDevice && t.containsAliases())
      throw graph_program_compilation_error(where + ": the destination contains aliased elements");
    lp.stream = s.getId();
    lp.transfer = transferOf(t);
    if (lp.name.empty()) lp.name = s.handle();
  }

  void lowerRemoteCopy(const ProgramNode& n, LoweredProgram& lp) {
    const bool toDevice = n.kind == ProgramNode::Kind::RemoteToDevice;
    lp.kind =
        toDevice ? LoweredProgram::Kind::RemoteToDevice : LoweredProgram::Kind::RemoteFromDevice;
    const auto& rb = n.remoteBuffer;
    const std::string where = what(n, "Copy") + " with remote buffer '" + rb.handle() + "'";
    if (rb.graphState() != &g_ || rb.getId() >= g_.remoteBuffers.size())
      throw graph_program_compilation_error(where + ": the remote buffer belongs to another graph");
    const Tensor& t = toDevice ? n.dst : n.src;
    checkTensor(t, where);
    if (t.elementType() != rb.elementType())
      throw type_error(where + ": the buffer holds " + rb.elementType().toString() +
                       ", the tensor is " + t.elementType().toString());
    if (t.numElements() != rb.numElements())
      throw index_error(where + ": a buffer row has " + std::to_string(rb.numElements()) +
                        " elements, the tensor " + std::to_string(t.numElements()));
    lp.remoteBuffer = rb.getId();
    lp.transfer = transferOf(t);
    if (n.scalar.valid()) setScalar(n, lp, "remote buffer offset", true);
  }

  void lowerCall(const ProgramNode& n, LoweredProgram& lp) {
    lp.kind = LoweredProgram::Kind::Call;
    const auto& f = n.function;
    if (f.graphState() != &g_ || f.getId() >= g_.functions.size())
      throw graph_program_compilation_error(what(n, "Call") +
                                            ": the function belongs to another graph");
    auto it = functions_.find(f.getId());
    if (it == functions_.end()) {
      functions_[f.getId()] = kInProgress;
      const unsigned root = lower(g_.functions[f.getId()]);
      it = functions_.insert_or_assign(f.getId(), root).first;
    } else if (it->second == kInProgress) {
      throw graph_program_compilation_error(what(n, "Call") + ": function " +
                                            std::to_string(f.getId()) +
                                            " calls itself; recursion is not supported");
    }
    lp.children = {it->second};
    if (lp.name.empty()) lp.name = "function" + std::to_string(f.getId());
  }

  static constexpr unsigned kInProgress = ~0u;
  const GraphState& g_;
  CompiledGraph& out_;
  std::map<unsigned, unsigned> functions_; // function id -> lowered root
};

} // namespace

CompiledGraph compile(const GraphState& graph, const std::vector<program::Program>& programs,
                      const std::function<void(int, int)>& progress) {
  CompiledGraph out;
  out.target = graph.target;
  out.replicaTarget = graph.replicaTarget;
  out.replicationFactor = graph.replicationFactor;
  Compiler c(graph, out);
  const int phases = 4;
  auto step = [&](int i) {
    if (progress) progress(i, phases);
  };
  step(0);
  c.layoutVariables();
  step(1);
  c.compileVertices();
  step(2);
  c.compileHandles();
  step(3);
  for (const auto& p : programs)
    out.entryPoints.push_back(c.lower(p));
  step(4);
  return out;
}

} // namespace poplar::detail::compiler
