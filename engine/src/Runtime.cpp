#include "Runtime.hpp"
#include "DeviceContext.hpp"

#include "Convert.hpp"
#include "TensorPrinter.hpp"

#include <poplar/exceptions.hpp>

#include <cmath>
#include <cstring>
#include <iostream>

namespace poplar::detail {

void gather(const unsigned char* arena, const std::vector<ByteRun>& runs, unsigned char* dst) {
  for (const auto& r : runs) {
    std::memcpy(dst, arena + r.offset, r.bytes);
    dst += r.bytes;
  }
}

void scatter(unsigned char* arena, const std::vector<ByteRun>& runs, const unsigned char* src) {
  for (const auto& r : runs) {
    std::memcpy(arena + r.offset, src, r.bytes);
    src += r.bytes;
  }
}

/// A vertex edge that is not one contiguous run: the vertex sees a staging buffer, filled
/// before compute and written back after (the exchange that would gather it on the tile).
struct StagedEdge {
  const std::vector<ByteRun>* runs;
  std::vector<unsigned char> buffer;
  bool writesBack;
};

struct Runtime::VertexInstance {
  const CompiledVertex* compiled;
  std::unique_ptr<Vertex> vertex;
  std::vector<StagedEdge> staged;
};

struct Runtime::Replica {
  unsigned index;
  std::vector<FloatingPointControl> fpControl; ///< per tile of the replica (poplar/CSRFunctions.hpp)
  std::unique_ptr<unsigned char[]> arena;
  std::vector<std::vector<VertexInstance>> computeSets;
  std::vector<std::vector<unsigned char>> remoteBuffers;
};

Runtime::Runtime(const CompiledGraph& graph, RuntimeOptions options)
    : g_(graph), options_(options), print_(&std::cerr) {
  connections_.assign(graph.replicationFactor, std::vector<StreamConnection>(graph.streams.size()));
}

Runtime::~Runtime() = default;

void Runtime::load() {
  replicas_.clear();
  for (unsigned rep = 0; rep < g_.replicationFactor; ++rep) {
    auto r = std::make_unique<Replica>();
    r->index = rep;
    r->fpControl.assign(g_.replicaTarget.getNumTiles(), FloatingPointControl());
    r->arena.reset(new unsigned char[g_.arenaBytes ? g_.arenaBytes : 1]());
    for (const auto& v : g_.variables)
      if (!v.initial.empty()) std::memcpy(r->arena.get() + v.arenaOffset, v.initial.data(), v.initial.size());
    for (const auto& cs : g_.computeSets) {
      std::vector<VertexInstance> instances;
      instances.reserve(cs.vertices.size());
      for (const auto& cv : cs.vertices) {
        VertexInstance vi{&cv, cv.type->create(), {}};
        vi.staged.reserve(4);
        for (std::size_t f = 0; f < cv.fields.size(); ++f) {
          const auto& d = cv.type->fields[f];
          const auto& cf = cv.fields[f];
          std::vector<Span> spans;
          if (d.direction == FieldDirection::State) {
            spans.push_back({const_cast<unsigned char*>(cf.state.data()), 1});
          } else {
            for (const auto& e : cf.edges) {
              Span s{nullptr, e.numElements};
              if (e.runs.size() == 1) {
                s.data = r->arena.get() + e.runs[0].offset;
              } else if (e.runs.size() > 1) {
                vi.staged.push_back({&e.runs, std::vector<unsigned char>(e.numElements * d.elementType.size()),
                                     d.direction != FieldDirection::In});
                s.data = vi.staged.back().buffer.data();
              }
              spans.push_back(s);
            }
          }
          d.bind(*vi.vertex, spans.data(), spans.size());
        }
        instances.push_back(std::move(vi));
      }
      r->computeSets.push_back(std::move(instances));
    }
    for (const auto& rb : g_.remoteBuffers)
      r->remoteBuffers.emplace_back(rb.numElements * rb.repeats * rb.type.size());
    replicas_.push_back(std::move(r));
  }
}

void Runtime::run(unsigned entryPoint) {
  for (auto& r : replicas_) exec(*r, g_.entryPoints.at(entryPoint));
}

double Runtime::scalar(const Replica& r, const LoweredProgram& p) const {
  return loadAsDouble(p.scalar.type, r.arena.get() + p.scalar.offset, 0);
}

void Runtime::exec(Replica& r, unsigned node) {
  const auto& p = g_.programs[node];
  using K = LoweredProgram::Kind;
  ExecutionObserver* observer = r.index == 0 ? observer_ : nullptr;
  if (observer) {
    if (p.kind == K::Block) {
      observer->onBlock(node, true);
      for (unsigned c : p.children) exec(r, c);
      observer->onBlock(node, false);
      return;
    }
    observer->onSteps(node);
  }
  switch (p.kind) {
  case K::Sequence:
  case K::Block:
  case K::Call:
    for (unsigned c : p.children) exec(r, c);
    break;
  case K::Execute: execute(r, p.computeSet); break;
  case K::Copy:
    for (const auto& c : p.copies) std::memmove(r.arena.get() + c.dst, r.arena.get() + c.src, c.bytes);
    break;
  case K::StreamToDevice: streamToDevice(r, p); break;
  case K::StreamFromDevice: streamFromDevice(r, p); break;
  case K::RemoteToDevice: remoteCopy(r, p, true); break;
  case K::RemoteFromDevice: remoteCopy(r, p, false); break;
  case K::Repeat:
    for (std::uint64_t i = 0; i < p.count; ++i) exec(r, p.children[0]);
    break;
  case K::RepeatWhileTrue:
  case K::RepeatWhileFalse:
    for (;;) {
      exec(r, p.children[0]);
      const bool pred = scalar(r, p) != 0;
      if (pred != (p.kind == K::RepeatWhileTrue)) break;
      exec(r, p.children[1]);
    }
    break;
  case K::If: exec(r, p.children[scalar(r, p) != 0 ? 0 : 1]); break;
  case K::Switch: {
    const auto value = static_cast<std::int64_t>(scalar(r, p));
    for (std::size_t i = 0; i < p.caseValues.size(); ++i)
      if (p.caseValues[i] == value) return exec(r, p.children[i]);
    if (p.boundsChecked)
      throw application_runtime_error("Switch '" + p.name + "': control value " +
                                      std::to_string(value) + " matches no case");
    exec(r, p.children.back());
    break;
  }
  case K::Sync:
  case K::WriteUndef: break; // no functional effect; they matter to the cycle and liveness models
  case K::PrintTensor: print(r, p); break;
  case K::Abort:
    if (scalar(r, p) != 0)
      throw application_runtime_error("AbortOnCondition" + (p.name.empty() ? "" : " '" + p.name + "'") +
                                      (p.text.empty() ? "" : ": " + p.text));
    break;
  }
}

namespace {
struct NonFinite {
  bool nan = false, infinity = false;
};
NonFinite findNonFinite(Type type, const void* data, std::size_t n) {
  NonFinite found;
  for (std::size_t i = 0; i < n; ++i) {
    const double v = loadAsDouble(type, data, i);
    found.nan = found.nan || std::isnan(v);
    found.infinity = found.infinity || std::isinf(v);
  }
  return found;
}
} // namespace

void Runtime::execute(Replica& r, unsigned computeSet) {
  for (auto& vi : r.computeSets[computeSet]) {
    FloatingPointControl& fp = r.fpControl[vi.compiled->tile];
    activeFloatingPointControl() = &fp;
    for (auto& s : vi.staged) gather(r.arena.get(), *s.runs, s.buffer.data());
    bool ok;
    runningVertexTile() = vi.compiled->tile % g_.replicaTarget.getTilesPerIPU(); // a tile id within its IPU
    try {
      ok = vi.compiled->type->compute(*vi.vertex);
    } catch (const poplar_error&) {
      throw;
    } catch (const std::exception& e) {
      throw application_runtime_error("vertex '" + vi.compiled->type->name + "' on tile " +
                                      std::to_string(vi.compiled->tile) + " in compute set '" +
                                      g_.computeSets[computeSet].name + "' threw: " + e.what());
    }
    if (!ok)
      throw application_runtime_error("vertex '" + vi.compiled->type->name + "' on tile " +
                                      std::to_string(vi.compiled->tile) + " in compute set '" +
                                      g_.computeSets[computeSet].name + "' returned false");
    for (auto& s : vi.staged)
      if (s.writesBack) scatter(r.arena.get(), *s.runs, s.buffer.data());
    const bool stopOnNaN = options_.floatingPointChecks || fp.stopsOnNaN();
    const bool stopOnInfinity = options_.floatingPointChecks || fp.stopsOnInfinity();
    if (stopOnNaN || stopOnInfinity) {
      const auto& fields = vi.compiled->type->fields;
      for (std::size_t f = 0; f < fields.size(); ++f) {
        if (fields[f].direction == FieldDirection::In || fields[f].direction == FieldDirection::State ||
            !fields[f].elementType.isFloatingPoint())
          continue;
        for (const auto& e : vi.compiled->fields[f].edges) {
          std::vector<unsigned char> tmp(e.numElements * fields[f].elementType.size());
          gather(r.arena.get(), e.runs, tmp.data());
          const NonFinite found = findNonFinite(fields[f].elementType, tmp.data(), e.numElements);
          if ((found.nan && stopOnNaN) || (found.infinity && stopOnInfinity))
            throw floating_point_exception(
                "vertex '" + vi.compiled->type->name + "' on tile " + std::to_string(vi.compiled->tile) +
                " in compute set '" + g_.computeSets[computeSet].name + "' wrote " +
                (found.nan && stopOnNaN ? "a NaN" : "an infinity") + " to field '" + fields[f].name + "' (" +
                (options_.floatingPointChecks ? "debug.floatPointOpException"
                                              : found.nan && stopOnNaN ? "setFloatingPointBehaviour: inv"
                                                                       : "setFloatingPointBehaviour: oflo/div0") +
                ")");
        }
      }
    }
  }
}

void Runtime::streamToDevice(Replica& r, const LoweredProgram& p) {
  const auto& s = g_.streams[p.stream];
  auto& c = connections_[r.index][p.stream];
  const std::size_t bytes = s.numElements * s.type.size();
  scratch_.resize(bytes);
  switch (c.kind) {
  case StreamConnection::Kind::None:
    throw stream_connection_error("stream '" + s.handle + "' is copied by the program but not connected: "
                                  "call Engine::connectStream or connectStreamToCallback before run");
  case StreamConnection::Kind::Buffer:
    std::memcpy(scratch_.data(), c.cursor, bytes);
    c.cursor += bytes;
    if (c.cursor == c.end) c.cursor = c.begin;
    break;
  case StreamConnection::Kind::Function: c.function(scratch_.data()); break;
  case StreamConnection::Kind::Callback:
    c.callback->fetch(scratch_.data());
    c.callback->complete();
    break;
  }
  scatter(r.arena.get(), p.transfer.runs, scratch_.data());
}

void Runtime::streamFromDevice(Replica& r, const LoweredProgram& p) {
  const auto& s = g_.streams[p.stream];
  auto& c = connections_[r.index][p.stream];
  const std::size_t bytes = s.numElements * s.type.size();
  scratch_.resize(bytes);
  gather(r.arena.get(), p.transfer.runs, scratch_.data());
  switch (c.kind) {
  case StreamConnection::Kind::None:
    throw stream_connection_error("stream '" + s.handle + "' is copied by the program but not connected: "
                                  "call Engine::connectStream or connectStreamToCallback before run");
  case StreamConnection::Kind::Buffer:
    std::memcpy(c.cursor, scratch_.data(), bytes);
    c.cursor += bytes;
    if (c.cursor == c.end) c.cursor = c.begin;
    break;
  case StreamConnection::Kind::Function: c.function(scratch_.data()); break;
  case StreamConnection::Kind::Callback:
    c.callback->fetch(scratch_.data());
    c.callback->complete();
    break;
  }
}

void Runtime::remoteCopy(Replica& r, const LoweredProgram& p, bool toDevice) {
  const auto& rb = g_.remoteBuffers[p.remoteBuffer];
  std::uint64_t row = 0;
  if (p.hasScalar) {
    const double v = scalar(r, p);
    if (v < 0 || v >= double(rb.repeats))
      throw application_runtime_error("Copy with remote buffer '" + rb.handle + "': row " +
                                      std::to_string(static_cast<long long>(v)) + " is outside the " +
                                      std::to_string(rb.repeats) + " rows of the buffer");
    row = static_cast<std::uint64_t>(v);
  }
  const std::size_t bytes = rb.numElements * rb.type.size();
  unsigned char* remote = r.remoteBuffers[p.remoteBuffer].data() + row * bytes;
  if (toDevice) scatter(r.arena.get(), p.transfer.runs, remote);
  else gather(r.arena.get(), p.transfer.runs, remote);
}

void Runtime::print(Replica& r, const LoweredProgram& p) {
  const auto& t = p.transfer;
  std::vector<unsigned char> data(t.numElements * t.type.size());
  gather(r.arena.get(), t.runs, data.data());
  std::vector<double> values(t.numElements);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = loadAsDouble(t.type, data.data(), i);
  // One write per tensor, flushed: lines from several PrintTensors and the program's own
  // output do not interleave mid-line.
  *print_ << formatTensor(p.text, t.type, values, p.printShape, p.printFormat) << std::flush;
}

const CompiledHostHandle& Runtime::hostHandle(const std::string& handle, bool write) const {
  for (const auto& h : g_.hostHandles)
    if (h.handle == handle) {
      if (h.isWrite != write)
        throw tensor_io_state_error("host handle '" + handle + "' was created with " +
                                    (h.isWrite ? "createHostWrite" : "createHostRead") +
                                    ", so it cannot be " + (write ? "written" : "read"));
      return h;
    }
  throw tensor_io_state_error("no host handle '" + handle + "': create it with Graph::createHost" +
                              (write ? "Write" : "Read"));
}

void Runtime::writeHost(const std::string& handle, const void* data, std::size_t bytes) {
  const auto& h = hostHandle(handle, true);
  const std::size_t expected = h.transfer.numElements * h.transfer.type.size();
  if (bytes != expected)
    throw tensor_io_state_error("writeTensor(\"" + handle + "\"): " + std::to_string(bytes) +
                                " bytes given, the tensor needs " + std::to_string(expected));
  for (auto& r : replicas_) scatter(r->arena.get(), h.transfer.runs, static_cast<const unsigned char*>(data));
}

void Runtime::readHost(const std::string& handle, void* data, std::size_t bytes) {
  const auto& h = hostHandle(handle, false);
  const std::size_t expected = h.transfer.numElements * h.transfer.type.size();
  if (bytes != expected)
    throw tensor_io_state_error("readTensor(\"" + handle + "\"): " + std::to_string(bytes) +
                                " bytes given, the tensor has " + std::to_string(expected));
  gather(replicas_.front()->arena.get(), h.transfer.runs, static_cast<unsigned char*>(data));
}

unsigned Runtime::streamIndex(const std::string& handle) const {
  for (unsigned i = 0; i < g_.streams.size(); ++i)
    if (g_.streams[i].handle == handle) return i;
  throw stream_connection_error("no stream with handle '" + handle + "' in this graph");
}

void Runtime::connect(const std::string& handle, int replica, StreamConnection c) {
  const unsigned s = streamIndex(handle);
  if (c.kind == StreamConnection::Kind::Buffer) {
    const std::size_t bytes = g_.streams[s].numElements * g_.streams[s].type.size();
    const std::size_t size = static_cast<std::size_t>(c.end - c.begin);
    if (!c.begin || c.end < c.begin || size == 0 || size % bytes != 0)
      throw stream_connection_error("connectStream(\"" + handle + "\"): the buffer has " +
                                    std::to_string(size) + " bytes; it must be a non-zero multiple of the stream's " +
                                    std::to_string(bytes) + " bytes");
    c.cursor = c.begin;
  }
  if (replica >= static_cast<int>(g_.replicationFactor))
    throw stream_connection_error("connectStream(\"" + handle + "\"): replica " + std::to_string(replica) +
                                  " of a graph with " + std::to_string(g_.replicationFactor) + " replicas");
  for (unsigned r = 0; r < g_.replicationFactor; ++r)
    if (replica < 0 || unsigned(replica) == r) connections_[r][s] = c;
}

void Runtime::copyRemote(const std::string& handle, std::uint64_t row, unsigned replica, void* host,
                         bool toRemote) {
  for (unsigned i = 0; i < g_.remoteBuffers.size(); ++i) {
    const auto& rb = g_.remoteBuffers[i];
    if (rb.handle != handle) continue;
    if (row >= rb.repeats || replica >= replicas_.size())
      throw stream_connection_error("remote buffer '" + handle + "': row " + std::to_string(row) +
                                    " / replica " + std::to_string(replica) + " out of range (" +
                                    std::to_string(rb.repeats) + " rows, " +
                                    std::to_string(replicas_.size()) + " replicas)");
    const std::size_t bytes = rb.numElements * rb.type.size();
    unsigned char* remote = replicas_[replica]->remoteBuffers[i].data() + row * bytes;
    if (toRemote) std::memcpy(remote, host, bytes);
    else std::memcpy(host, remote, bytes);
    return;
  }
  throw stream_connection_error("no remote buffer with handle '" + handle + "'");
}

} // namespace poplar::detail
