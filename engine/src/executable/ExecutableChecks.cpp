#include "ExecutableChecks.hpp"

#include "runtime/HostMemory.hpp"
#include "session/EngineOptions.hpp"

#include <poplar/exceptions.hpp>
#include <string>

namespace poplar::detail::executable {
using compiler::ByteRun;
using compiler::CompiledGraph;
using compiler::CompiledTransfer;
using compiler::LoweredProgram;
using compiler::PoolView;
using runtime::requireHostMemory;
using runtime::saturatingProduct;
using runtime::saturatingSum;
using session::checkOptions;
using session::engineOptionSpecs;

namespace {

using Kind = LoweredProgram::Kind;

[[noreturn]] void fail(const std::string& what) {
  throw ExecutableFieldError(what);
}

std::string quoted(const std::string& s) {
  return "'" + s + "'";
}

std::uint64_t runBytes(PoolView<const ByteRun> runs) {
  std::uint64_t bytes = 0;
  for (const auto& r : runs)
    if (__builtin_add_overflow(bytes, std::uint64_t(r.bytes), &bytes)) return UINT64_MAX;
  return bytes;
}

std::uint64_t regionElements(PoolView<const VarRegion> regions) {
  std::uint64_t n = 0;
  for (const auto& r : regions)
    if (__builtin_add_overflow(n, std::uint64_t(r.end - r.begin), &n)) return UINT64_MAX;
  return n;
}

/// A transfer's runs hold exactly its elements: the runtime gathers or scatters that many
/// bytes between them and a buffer of the elements' size.
void checkTransfer(const CompiledTransfer& t, const std::string& what) {
  const std::uint64_t bytes = saturatingProduct(t.numElements, t.type.size());
  if (runBytes(t.runs) != bytes)
    fail(what + ": its runs hold " + std::to_string(runBytes(t.runs)) + " bytes for " +
         std::to_string(t.numElements) + " elements of " + t.type.toString());
}

std::string programName(const CompiledGraph& g, std::size_t i) {
  const auto& p = g.programs[i];
  return "program " + std::to_string(i) + (p.name.empty() ? "" : " (" + quoted(p.name) + ")");
}

void checkVariables(const CompiledGraph& g) {
  for (const auto& v : g.variables) {
    std::uint64_t n = 1;
    for (std::size_t d : v.shape)
      n = saturatingProduct(n, d);
    if (n != v.numElements)
      fail("variable " + quoted(v.name) + " has " + std::to_string(v.numElements) +
           " elements but its shape holds " + std::to_string(n));
  }
}

void checkVertices(const CompiledGraph& g) {
  for (const auto& cs : g.computeSets)
    for (std::size_t vi = 0; vi < cs.vertices.size(); ++vi) {
      const auto& v = cs.vertices[vi];
      // The pools are the compute set's own: every range a vertex names lies inside them.
      if (std::uint64_t(v.firstField) + v.numFields > cs.fields.size() ||
          v.numFields != v.type->fields.size())
        fail("compute set " + quoted(cs.name) + ", vertex " + std::to_string(vi) +
             ": its fields are outside the compute set's pool");
      const auto fields = cs.fieldsOf(v);
      for (std::size_t f = 0; f < fields.size(); ++f) {
        const auto& d = v.type->fields[f];
        if (std::uint64_t(fields[f].firstEdge) + fields[f].numEdges > cs.edges.size() ||
            std::uint64_t(fields[f].firstState) + fields[f].stateBytes > cs.state.size())
          fail("compute set " + quoted(cs.name) + ", vertex " + std::to_string(vi) + ", field " +
               quoted(d.name) + ": its edges or state are outside the compute set's pools");
        if (d.direction == FieldDirection::State) continue;
        const auto edges = cs.edgesOf(fields[f]);
        for (std::size_t e = 0; e < edges.size(); ++e) {
          const auto& edge = edges[e];
          // Named only on failure: a graph has millions of edges.
          auto where = [&] {
            return "compute set " + quoted(cs.name) + ", vertex " + std::to_string(vi) + " (" +
                   quoted(v.type->name) + " on tile " + std::to_string(v.tile) + "), field " +
                   quoted(d.name) + (d.isEdgeList ? ", edge " + std::to_string(e) : "");
          };
          // The vertex reads and writes exactly these bytes: a field bound to fewer (or to
          // none) would have compute() read past them.
          if (std::uint64_t(edge.firstRun) + edge.numRuns > cs.runs.size() ||
              std::uint64_t(edge.firstRegion) + edge.numRegions > cs.regions.size())
            fail(where() + ": its runs or regions are outside the compute set's pools");
          const auto runs = cs.runsOf(edge);
          const auto regions = cs.regionsOf(edge);
          const std::uint64_t bytes = saturatingProduct(edge.numElements, d.elementType.size());
          if (runBytes(runs) != bytes)
            fail(where() + ": its runs hold " + std::to_string(runBytes(runs)) + " bytes for " +
                 std::to_string(edge.numElements) + " elements of " + d.elementType.toString());
          // compute() reads a field through a pointer to its type: each run starts on an
          // element boundary of the tile's memory, as Poplar allocates every tensor.
          const std::size_t align = d.elementType.size();
          for (const auto& r : runs)
            if (align > 1 && r.offset % align != 0)
              fail(where() + ": a run at byte " + std::to_string(r.offset) +
                   " is not aligned for " + d.elementType.toString());
          if (regionElements(regions) != edge.numElements)
            fail(where() + ": its regions hold " + std::to_string(regionElements(regions)) +
                 " elements, not " + std::to_string(edge.numElements));
          if (!d.isVector && edge.numElements != 1)
            fail(where() + ": a scalar field connected to " + std::to_string(edge.numElements) +
                 " elements");
        }
      }
    }
}

/// A control scalar (If, RepeatWhile*, Switch, Abort) is one element of its variable.
void checkScalar(const CompiledGraph& g, std::size_t i) {
  const auto& p = g.programs[i];
  if (!p.hasScalar) fail(programName(g, i) + " has no condition or control value");
  const auto& v = g.variables[p.scalar.var];
  const std::uint64_t begin = v.arenaOffset;
  const std::uint64_t end = begin + saturatingProduct(v.numElements, v.type.size());
  if (p.scalar.type != v.type || p.scalar.offset < begin || p.scalar.offset >= end ||
      end - p.scalar.offset < p.scalar.type.size())
    fail(programName(g, i) + ": its control value is not an element of variable " + quoted(v.name) +
         " (" + std::to_string(v.numElements) + " elements of " + v.type.toString() + ")");
}

void checkPrograms(const CompiledGraph& g) {
  for (std::size_t i = 0; i < g.programs.size(); ++i) {
    const auto& p = g.programs[i];
    const std::string name = programName(g, i);
    checkTransfer(p.transfer, name + "'s transfer");
    checkTransfer(p.result, name + "'s result");
    switch (p.kind) {
    case Kind::If:
    case Kind::RepeatWhileTrue:
    case Kind::RepeatWhileFalse:
    case Kind::Switch:
    case Kind::Abort:
      checkScalar(g, i);
      // The runtime turns a Switch's control into a whole number: a float could hold none.
      if (p.kind == Kind::Switch && p.scalar.type.isFloatingPoint())
        fail(name + ": its control value is " + p.scalar.type.toString() + ", not a whole number");
      break;
    case Kind::RemoteToDevice:
    case Kind::RemoteFromDevice:
      // A row offset, when the copy has one, is a whole number inside its variable.
      if (p.hasScalar) {
        checkScalar(g, i);
        if (p.scalar.type.isFloatingPoint())
          fail(name + ": its row offset is " + p.scalar.type.toString() + ", not a whole number");
      }
      break;
    case Kind::PrintTensor: {
      // The printer walks the shape over the elements gathered: they must be as many.
      std::uint64_t n = 1;
      for (std::size_t d : p.printShape)
        n = saturatingProduct(n, d);
      if (n != p.transfer.numElements)
        fail(name + ": the shape printed holds " + std::to_string(n) + " elements, the tensor " +
             std::to_string(p.transfer.numElements));
      break;
    }
    default:
      break;
    }
  }
}

void checkHostMemory(const CompiledGraph& g) {
  const std::string where = "Executable::deserialize";
  // What the runtime allocates on the host: at load one arena and every remote buffer per
  // replica (Runtime::load checks the same), at run a stream's staging buffer.
  std::uint64_t perReplica = g.arenaBytes;
  for (const auto& b : g.remoteBuffers) {
    const std::uint64_t bytes = saturatingProduct(b.numElements, b.repeats, b.type.size());
    requireHostMemory(where,
                      "remote buffer " + quoted(b.handle) + " (" + std::to_string(b.repeats) +
                          " rows of " + std::to_string(b.numElements) + " " + b.type.toString() +
                          ")",
                      bytes);
    perReplica = saturatingSum(perReplica, bytes);
  }
  requireHostMemory(where,
                    std::to_string(g.replicationFactor) +
                        " replica(s) of device memory and remote buffers",
                    saturatingProduct(perReplica, g.replicationFactor));
  for (const auto& s : g.streams)
    requireHostMemory(where,
                      "stream " + quoted(s.handle) + " (" + std::to_string(s.numElements) + " " +
                          s.type.toString() + ")",
                      saturatingProduct(s.numElements, s.type.size()));
}

} // namespace

void checkLoadedGraph(const CompiledGraph& g) {
  checkVariables(g);
  checkVertices(g);
  checkPrograms(g);
  for (const auto& h : g.hostHandles)
    checkTransfer(h.transfer, "host handle " + quoted(h.handle));
  checkHostMemory(g); // a poplar_error of its own: the file may be right, the host too small
}

void checkStoredOptions(const OptionFlags& options) {
  try {
    checkOptions(options, engineOptionSpecs(), "stored engine option");
  } catch (const poplar_error& e) {
    fail(e.what());
  }
}

} // namespace poplar::detail::executable
