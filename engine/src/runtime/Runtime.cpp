#include "Runtime.hpp"

#include "DeviceContext.hpp"
#include "HostMemory.hpp"
#include "Instances.hpp"
#include "ParallelCopy.hpp"
#include "TensorPrinter.hpp"
#include "ThreadPool.hpp"
#include "codelets/CodeletLoader.hpp"
#include "graph/Convert.hpp"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <mutex>
#include <new>
#include <poplar/exceptions.hpp>
#include <thread>
#include <unordered_map>

namespace poplar::detail::runtime {
using compiler::ByteRun;
using compiler::CompiledComputeSet;
using compiler::CompiledGraph;
using compiler::CompiledHostHandle;
using compiler::CompiledVertex;
using compiler::kNoInstructionCount;
using compiler::LoweredProgram;
using compiler::PoolView;
using graph::loadAsDouble;
using graph::storeFromDouble;

void gather(const unsigned char* arena, PoolView<const ByteRun> runs, unsigned char* dst) {
  for (const auto& r : runs) {
    moveBytes(dst, arena + r.offset, r.bytes);
    dst += r.bytes;
  }
}

void scatter(unsigned char* arena, PoolView<const ByteRun> runs, const unsigned char* src) {
  for (const auto& r : runs) {
    moveBytes(arena + r.offset, src, r.bytes);
    src += r.bytes;
  }
}

/// A vertex edge that is not one contiguous run: the vertex sees a staging buffer, filled
/// before compute and written back after (the exchange that would gather it on the tile).
struct StagedEdge {
  PoolView<const ByteRun> runs; ///< in the compute set's pool
  std::vector<unsigned char> buffer;
  bool writesBack;
};

struct Runtime::VertexInstance {
  const CompiledVertex* compiled;
  poplar::detail::VertexPtr vertex;
  std::vector<StagedEdge> staged;
};

namespace {
// The arena starts on a cache line (compiler::kArenaAlignment: so does every variable in it).
// Heap memory rather than mmap so that AddressSanitizer still sees accesses past its end.
constexpr std::align_val_t kArenaAlign{compiler::kArenaAlignment};
struct ArenaDeleter {
  void operator()(unsigned char* p) const { ::operator delete[](p, kArenaAlign); }
};
std::unique_ptr<unsigned char[], ArenaDeleter> allocateArena(std::size_t bytes) {
  const std::size_t size = bytes ? bytes : 1;
  auto* p = static_cast<unsigned char*>(::operator new[](size, kArenaAlign));
  std::memset(p, 0, size); // zero-initialised, as device memory starts
  return std::unique_ptr<unsigned char[], ArenaDeleter>(p);
}
} // namespace

struct Runtime::Replica {
  unsigned index;
  std::vector<FloatingPointControl>
      fpControl; ///< per tile of the replica (poplar/CSRFunctions.hpp)
  std::unique_ptr<unsigned char[], ArenaDeleter> arena;
  std::vector<std::vector<VertexInstance>> computeSets;
  std::vector<std::vector<unsigned char>> remoteBuffers;
  std::size_t counterCursor =
      0; ///< the next entry of counterLog_ this replica reads (not replica 0)
};

namespace {
thread_local std::uint64_t tlsCycleCounter = 0;
} // namespace

std::uint64_t currentCycleCounter() {
  return tlsCycleCounter;
}

namespace {
/// True when the codelet object a vertex type was loaded from may write to the console (it
/// imports printf, puts, fwrite, std::cout...; print.h's printf is the C library's): its compute
/// sets run on one thread so that the vertices' lines never interleave. Vertex types compiled
/// into the program or a library are assumed not to print (PopLibs' vertices do not).
bool mayWriteToConsole(const VertexTypeDescriptor& type) {
  if (!type.fromCodeletFile) return false;
  static std::mutex mutex;
  static std::map<std::string, bool> known; // by codelet source key
  std::lock_guard<std::mutex> lock(mutex);
  const auto found = known.find(type.codeletSource);
  if (found != known.end()) return found->second;
  bool writes = true; // an object that cannot be read is assumed to print
  if (const auto path = poplar::detail::codelets::codeletObjectPath(type.codeletSource)) {
    std::ifstream in(*path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.good() || in.eof()) {
      // Imported names are NUL-terminated in the object's dynamic string table.
      static const char* const names[] = {"printf",        "__printf_chk",     "vprintf",
                                          "__vprintf_chk", "fprintf",          "__fprintf_chk",
                                          "vfprintf",      "__vfprintf_chk",   "puts",
                                          "fputs",         "putchar",          "putc",
                                          "fputc",         "putchar_unlocked", "fputc_unlocked",
                                          "fwrite",        "fwrite_unlocked",  "write",
                                          "writev",        "dprintf",          "__dprintf_chk",
                                          "perror",        "putwchar",         "wprintf",
                                          "putc_unlocked"};
      writes = false;
      for (const char* n : names)
        if (bytes.find(std::string(1, '\0') + n + std::string(1, '\0')) != std::string::npos)
          writes = true;
      // Any C++ stream (std::cout, std::cerr, std::clog or an ostream inserter).
      for (const char* n : {"_ZSt4cout", "_ZSt4cerr", "_ZSt4clog", "_ZSt5wcout", "_ZSt5wcerr",
                            "basic_ostream", "_ZSo"})
        if (bytes.find(n) != std::string::npos) writes = true;
    }
  }
  known.emplace(type.codeletSource, writes);
  return writes;
}

/// The scatter (toArena) or gather of a transfer's runs between the arena and a contiguous
/// buffer, as copies for the pool.
std::unique_ptr<CopyPlan> transferPlan(const std::vector<ByteRun>& runs, bool toArena) {
  std::vector<CopyPiece> pieces;
  pieces.reserve(runs.size());
  std::size_t at = 0;
  for (const auto& r : runs) {
    pieces.push_back(toArena ? CopyPiece{at, r.offset, r.bytes} : CopyPiece{r.offset, at, r.bytes});
    at += r.bytes;
  }
  return planCopies(std::move(pieces), false);
}

std::size_t vertexWork(const CompiledComputeSet& cs, const CompiledVertex& v) {
  std::size_t work = 8; // binding, staging and the call itself
  for (const auto& f : cs.fieldsOf(v))
    for (const auto& e : cs.edgesOf(f))
      work += e.numElements;
  return work;
}
} // namespace

Runtime::Runtime(const CompiledGraph& graph, RuntimeOptions options)
    : g_(graph), options_(options), print_(&std::cerr) {
  connections_.assign(graph.replicationFactor, std::vector<StreamConnection>(graph.streams.size()));
  for (const auto& cs : graph.computeSets)
    readsCounter_.push_back(
        std::any_of(cs.vertices.begin(), cs.vertices.end(),
                    [](const CompiledVertex& v) { return readsCycleCounter(*v.type); }));
  for (const auto& cs : graph.computeSets) {
    const bool measured =
        std::any_of(cs.vertices.begin(), cs.vertices.end(),
                    [](const CompiledVertex& v) { return v.executedInstructions != nullptr; });
    measured_.push_back(measured);
    vertexInstructions_.emplace_back();
    if (measured) vertexInstructions_.back().assign(cs.vertices.size(), kNoInstructionCount);
  }
  for (const auto& p : graph.programs)
    hasCollectives_ = hasCollectives_ || p.kind == LoweredProgram::Kind::CrossReplica;
  const unsigned threads = std::max(1u, options_.threads);
  plans_.resize(graph.computeSets.size());
  if (threads == 1) return;
  bool anyParallel = false;
  for (std::size_t c = 0; c < graph.computeSets.size(); ++c) {
    const auto& cs = graph.computeSets[c];
    const auto& vertices = cs.vertices;
    auto& plan = plans_[c];
    std::size_t work = 0;
    bool console = false;
    std::unordered_map<unsigned, unsigned> groupOfTile;
    std::vector<std::vector<unsigned>> groups;
    for (unsigned v = 0; v < vertices.size(); ++v) {
      work += vertexWork(cs, vertices[v]);
      console = console || mayWriteToConsole(*vertices[v].type);
      const auto [it, added] =
          groupOfTile.emplace(vertices[v].tile, static_cast<unsigned>(groups.size()));
      if (added) groups.emplace_back();
      groups[it->second].push_back(v);
    }
    if (groups.size() < 2 || work < kMinParallelWork || console) continue;
    plan.parallel = anyParallel = true;
    plan.order.reserve(vertices.size());
    for (const auto& g : groups) {
      plan.groupStart.push_back(static_cast<unsigned>(plan.order.size()));
      plan.order.insert(plan.order.end(), g.begin(), g.end());
    }
    plan.groupStart.push_back(static_cast<unsigned>(plan.order.size()));
  }
  // The exchange's copies and the transfers' scatters and gathers: within one program the
  // destinations are disjoint, so they split by destination whenever no copy reads what
  // another writes.
  using K = LoweredProgram::Kind;
  copyPlans_.resize(graph.programs.size());
  for (std::size_t i = 0; i < graph.programs.size(); ++i) {
    const auto& p = graph.programs[i];
    if (p.kind == K::Copy) {
      std::vector<CopyPiece> pieces;
      pieces.reserve(p.copies.size());
      for (const auto& c : p.copies)
        pieces.push_back({c.src, c.dst, c.bytes});
      copyPlans_[i] = planCopies(std::move(pieces), true);
    } else if (p.kind == K::StreamToDevice || p.kind == K::RemoteToDevice) {
      copyPlans_[i] = transferPlan(p.transfer.runs, true);
    } else if (p.kind == K::StreamFromDevice || p.kind == K::RemoteFromDevice) {
      copyPlans_[i] = transferPlan(p.transfer.runs, false);
    }
    anyParallel = anyParallel || copyPlans_[i];
  }
  for (const auto& h : graph.hostHandles) {
    hostPlans_.push_back(transferPlan(h.transfer.runs, h.isWrite));
    anyParallel = anyParallel || hostPlans_.back();
  }
  if (anyParallel) pool_ = std::make_unique<ThreadPool>(threads);
}

const CopyPlan* Runtime::copyPlan(const LoweredProgram& p) const {
  return pool_ && !copyPlans_.empty()
             ? copyPlans_[static_cast<std::size_t>(&p - g_.programs.data())].get()
             : nullptr;
}

const CopyPlan* Runtime::hostPlan(const CompiledHostHandle& h) const {
  return pool_ && !hostPlans_.empty()
             ? hostPlans_[static_cast<std::size_t>(&h - g_.hostHandles.data())].get()
             : nullptr;
}

void Runtime::scatterRuns(const CopyPlan* plan, unsigned char* arena,
                          const std::vector<ByteRun>& runs, const unsigned char* src) {
  if (pool_ && plan)
    runCopies(*pool_, *plan, arena, src);
  else
    scatter(arena, runs, src);
}

void Runtime::gatherRuns(const CopyPlan* plan, const unsigned char* arena,
                         const std::vector<ByteRun>& runs, unsigned char* dst) {
  if (pool_ && plan)
    runCopies(*pool_, *plan, dst, arena);
  else
    gather(arena, runs, dst);
}

Runtime::~Runtime() = default;

void Runtime::load() {
  replicas_.clear();
  // The device lives in this process: refuse a graph the host cannot hold before allocating it
  // (a graph built with debug.allowOutOfMemory, or an executable's remote buffers), naming what
  // is too large, rather than thrash the machine or let std::bad_alloc escape.
  std::uint64_t perReplica = g_.arenaBytes;
  for (const auto& rb : g_.remoteBuffers) {
    const std::uint64_t bytes = saturatingProduct(rb.numElements, rb.repeats, rb.type.size());
    requireHostMemory("Engine::load", "remote buffer '" + rb.handle + "'", bytes);
    perReplica = saturatingSum(perReplica, bytes);
  }
  requireHostMemory("Engine::load",
                    std::to_string(g_.replicationFactor) +
                        " replica(s) of device memory and remote buffers",
                    saturatingProduct(perReplica, g_.replicationFactor));
  try {
    allocateReplicas();
  } catch (const std::bad_alloc&) {
    replicas_.clear();
    throw poplar_error("Engine::load: the host has no memory left for the device (" +
                       std::to_string(g_.replicationFactor) + " replica(s) of " +
                       std::to_string(perReplica) + " bytes)");
  }
}

void Runtime::allocateReplicas() {
  for (unsigned rep = 0; rep < g_.replicationFactor; ++rep) {
    auto r = std::make_unique<Replica>();
    r->index = rep;
    r->fpControl.assign(g_.replicaTarget.getNumTiles(), FloatingPointControl());
    r->arena = allocateArena(g_.arenaBytes);
    for (const auto& v : g_.variables) {
      if (v.initial.empty()) continue;
      // A value per replica (Graph::addReplicationIndexConstant), or one for all.
      const std::size_t bytes = v.numElements * v.type.size();
      const std::size_t from = v.initial.size() == bytes * g_.replicationFactor ? rep * bytes : 0;
      std::memcpy(r->arena.get() + v.arenaOffset, v.initial.data() + from,
                  std::min(bytes, v.initial.size()));
    }
    for (const auto& cs : g_.computeSets) {
      std::vector<VertexInstance> instances;
      instances.reserve(cs.vertices.size());
      for (const auto& cv : cs.vertices) {
        // No reserve for staged edges: most vertices have none, and a buffer's data stays put
        // when the vector of them grows (issue 38: 160 bytes a vertex at 10 M vertices).
        VertexInstance vi{&cv, cv.type->create(), {}};
        const auto fields = cs.fieldsOf(cv);
        for (std::size_t f = 0; f < fields.size(); ++f) {
          const auto& d = cv.type->fields[f];
          const auto& cf = fields[f];
          std::vector<Span> spans;
          if (d.direction == FieldDirection::State) {
            spans.push_back({const_cast<unsigned char*>(cs.stateOf(cf).data()), 1});
          } else {
            for (const auto& e : cs.edgesOf(cf)) {
              Span s{nullptr, e.numElements};
              const auto runs = cs.runsOf(e);
              if (runs.size() == 1) {
                s.data = r->arena.get() + runs[0].offset;
              } else if (runs.size() > 1) {
                vi.staged.push_back(
                    {runs, std::vector<unsigned char>(e.numElements * d.elementType.size()),
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
  counterLog_.clear();
  for (auto& r : replicas_)
    r->counterCursor = 0;
  try {
    if (hasCollectives_ && replicas_.size() > 1) {
      runLockstep(entryPoint);
    } else {
      // Without collectives the replicas never meet: each runs its whole program in turn.
      for (auto& r : replicas_)
        exec(*r, g_.entryPoints.at(entryPoint));
    }
  } catch (...) {
    invalidatePrefetched();
    throw;
  }
  invalidatePrefetched();
}

void Runtime::invalidatePrefetched() {
  for (auto& replica : connections_)
    for (auto& c : replica)
      if (c.prefetched) {
        c.prefetched = false;
        c.callback->invalidatePrefetched();
      }
}

double Runtime::scalar(const Replica& r, const LoweredProgram& p) const {
  return loadAsDouble(p.scalar.type, r.arena.get() + p.scalar.offset, 0);
}

void Runtime::exec(Replica& r, unsigned node, bool wrapped) {
  const auto& p = g_.programs[node];
  using K = LoweredProgram::Kind;
  ExecutionObserver* observer = r.index == 0 ? observer_ : nullptr;
  if (observer && !wrapped && observer->isImplicitBlock(node)) {
    observer->onBlock(node, true);
    exec(r, node, true);
    observer->onBlock(node, false);
    return;
  }
  const bool counters = p.kind == K::Execute && readsCounter_[p.computeSet];
  if (counters &&
      observer) { // the counters as the compute step starts, before it is laid on the clock
    std::vector<std::uint64_t> now(g_.replicaTarget.getNumIPUs());
    for (unsigned ipu = 0; ipu < now.size(); ++ipu)
      now[ipu] = observer->ipuCycleCounter(ipu);
    if (g_.replicationFactor == 1) counterLog_.clear(); // only replicas after the first replay it
    counterLog_.push_back(std::move(now));
  }
  if (observer) {
    if (p.kind == K::Block) {
      observer->onBlock(node, true);
      for (unsigned c : p.children)
        exec(r, c);
      observer->onBlock(node, false);
      return;
    }
    // A compute set with vertices costed by execution is recorded once it has run.
    if (p.kind != K::Execute || !measured_[p.computeSet]) observer->onSteps(node);
  }
  switch (p.kind) {
  case K::Sequence:
  case K::Block:
  case K::Call:
    for (unsigned c : p.children)
      exec(r, c);
    break;
  case K::Execute: {
    const bool measured = observer && measured_[p.computeSet];
    try {
      if (counters) {
        // Replicas after the first read what replica 0 read at the same point of the run.
        const std::size_t entry = r.index == 0 ? counterLog_.size() - 1 : r.counterCursor++;
        executeWithCounters(r, p.computeSet,
                            entry < counterLog_.size() ? &counterLog_[entry] : nullptr);
      } else {
        execute(r, p.computeSet);
      }
    } catch (...) {
      if (measured)
        observer->onExecutedSteps(node, p.computeSet, vertexInstructions_[p.computeSet]);
      throw;
    }
    if (measured) observer->onExecutedSteps(node, p.computeSet, vertexInstructions_[p.computeSet]);
    break;
  }
  case K::Copy:
    if (const CopyPlan* plan = copyPlan(p))
      runCopies(*pool_, *plan, r.arena.get(), r.arena.get());
    else
      for (const auto& c : p.copies)
        moveBytes(r.arena.get() + c.dst, r.arena.get() + c.src, c.bytes);
    break;
  case K::StreamToDevice:
    streamToDevice(r, p);
    break;
  case K::StreamFromDevice:
    streamFromDevice(r, p);
    break;
  case K::RemoteToDevice:
    remoteCopy(r, p, true);
    break;
  case K::RemoteFromDevice:
    remoteCopy(r, p, false);
    break;
  case K::Repeat:
    for (std::uint64_t i = 0; i < p.count; ++i) {
      exec(r, p.children[0]);
      if (observer) observer->onLoopIteration(node);
    }
    break;
  case K::RepeatWhileTrue:
  case K::RepeatWhileFalse:
    for (;;) {
      exec(r, p.children[0]);
      const bool pred = scalar(r, p) != 0;
      if (pred != (p.kind == K::RepeatWhileTrue)) break;
      exec(r, p.children[1]);
      if (observer) observer->onLoopIteration(node);
    }
    break;
  case K::If:
    exec(r, p.children[scalar(r, p) != 0 ? 0 : 1]);
    break;
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
  case K::WriteUndef:
    break; // no functional effect; they matter to the cycle and liveness models
  case K::PrintTensor:
    print(r, p);
    break;
  case K::CrossReplica:
    if (lockstep_)
      arrive(r, static_cast<int>(node));
    else
      collective(node); // one replica: its own group
    break;
  case K::Abort:
    if (scalar(r, p) != 0)
      throw application_runtime_error("AbortOnCondition" +
                                      (p.name.empty() ? "" : " '" + p.name + "'") +
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

void Runtime::executeWithCounters(Replica& r, unsigned computeSet,
                                  const std::vector<std::uint64_t>* counters) {
  struct Reset {
    ~Reset() { tlsCycleCounter = 0; }
  } reset;
  execute(r, computeSet, counters);
}

namespace {
// Vertices run one after another, each touching its own object (its fields) and its compiled
// record for the first time in the run: both cold, in separate heap blocks, so each vertex began
// by waiting on memory (issue 38: the 512^3 matmul's run 6 % faster without those waits). Asking
// for the ones a couple of vertices ahead overlaps those waits with the work in between.
constexpr std::size_t kPrefetchVertices = 2;
inline void prefetchVertex(const Vertex* vertex, const CompiledVertex* compiled) {
  const char* object = reinterpret_cast<const char*>(vertex);
  __builtin_prefetch(object);
  __builtin_prefetch(object + 64);
  __builtin_prefetch(compiled);
}
} // namespace

void Runtime::execute(Replica& r, unsigned computeSet, const std::vector<std::uint64_t>* counters) {
  if (pool_ && plans_[computeSet].parallel) return executeParallel(r, computeSet, counters);
  auto& instances = r.computeSets[computeSet];
  for (std::size_t i = 0; i < instances.size(); ++i) {
    if (i + kPrefetchVertices < instances.size()) {
      const VertexInstance& ahead = instances[i + kPrefetchVertices];
      prefetchVertex(ahead.vertex.get(), ahead.compiled);
    }
    runVertex(r, computeSet, instances[i], counters);
  }
}

void Runtime::executeParallel(Replica& r, unsigned computeSet,
                              const std::vector<std::uint64_t>* counters) {
  const ComputeSetPlan& plan = plans_[computeSet];
  auto& instances = r.computeSets[computeSet];
  // The failure of the vertex that comes first in the compute set's order, as one thread
  // running the vertices in order would report it (tiles do not depend on each other).
  std::mutex failureMutex;
  std::size_t failedAt = instances.size();
  std::exception_ptr failure;
  // Neighbouring tiles in chunks: vertices of tiles next to each other usually read the same
  // data and write next to each other, so one thread taking a run of them keeps its cache warm
  // and the threads seldom write into one cache line at a time.
  pool_->parallelFor(plan.groupStart.size() - 1, [&](std::size_t firstGroup, std::size_t endGroup) {
    const unsigned end = plan.groupStart[endGroup];
    for (std::size_t g = firstGroup; g < endGroup; ++g) {
      for (unsigned i = plan.groupStart[g]; i < plan.groupStart[g + 1]; ++i) {
        const unsigned v = plan.order[i];
        if (i + kPrefetchVertices < end) {
          const VertexInstance& ahead = instances[plan.order[i + kPrefetchVertices]];
          prefetchVertex(ahead.vertex.get(), ahead.compiled);
        }
        try {
          runVertex(r, computeSet, instances[v], counters);
        } catch (...) {
          std::lock_guard<std::mutex> lock(failureMutex);
          if (v < failedAt) {
            failedAt = v;
            failure = std::current_exception();
          }
          break; // this tile stops at its failing vertex; the others run on
        }
      }
    }
    if (counters) tlsCycleCounter = 0; // this thread leaves the counter-reading compute set
  });
  if (failure) std::rethrow_exception(failure);
}

void Runtime::runVertex(Replica& r, unsigned computeSet, VertexInstance& vi,
                        const std::vector<std::uint64_t>* counters) {
  const unsigned tilesPerIpu = g_.replicaTarget.getTilesPerIPU();
  // Per tile, and set on the thread that runs the tile's vertices (both are thread-local).
  FloatingPointControl& fp = r.fpControl[vi.compiled->tile];
  activeFloatingPointControl() = &fp;
  if (counters) tlsCycleCounter = (*counters)[vi.compiled->tile / tilesPerIpu];
  for (auto& s : vi.staged)
    gather(r.arena.get(), s.runs, s.buffer.data());
  bool ok;
  runningVertexTile() = vi.compiled->tile % tilesPerIpu; // a tile id within its IPU
  // Execution-based estimate: the counter is the running thread's own (thread-local in the .gp),
  // so vertices running at the same time on other threads never touch it.
  // The count goes to the observer as it is: what it costs is not the runtime's business.
  const bool measure = r.index == 0 && observer_ && vi.compiled->executedInstructions;
  std::uint64_t* executed = measure ? vi.compiled->executedInstructions() : nullptr;
  try {
    if (executed) *executed = 0;
    ok = vi.compiled->type->compute(*vi.vertex);
    if (executed)
      vertexInstructions_[computeSet]
                         [static_cast<std::size_t>(&vi - r.computeSets[computeSet].data())] =
                             *executed;
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
    if (s.writesBack) scatter(r.arena.get(), s.runs, s.buffer.data());
  const bool stopOnNaN = options_.floatingPointChecks || fp.stopsOnNaN();
  const bool stopOnInfinity = options_.floatingPointChecks || fp.stopsOnInfinity();
  if (stopOnNaN || stopOnInfinity) {
    const auto& fields = vi.compiled->type->fields;
    for (std::size_t f = 0; f < fields.size(); ++f) {
      if (fields[f].direction == FieldDirection::In ||
          fields[f].direction == FieldDirection::State || !fields[f].elementType.isFloatingPoint())
        continue;
      const auto& cs = g_.computeSets[computeSet];
      for (const auto& e : cs.edgesOf(*vi.compiled, f)) {
        std::vector<unsigned char> tmp(e.numElements * fields[f].elementType.size());
        gather(r.arena.get(), cs.runsOf(e), tmp.data());
        const NonFinite found = findNonFinite(fields[f].elementType, tmp.data(), e.numElements);
        if ((found.nan && stopOnNaN) || (found.infinity && stopOnInfinity))
          throw floating_point_exception(
              "vertex '" + vi.compiled->type->name + "' on tile " +
              std::to_string(vi.compiled->tile) + " in compute set '" +
              g_.computeSets[computeSet].name + "' wrote " +
              (found.nan && stopOnNaN ? "a NaN" : "an infinity") + " to field '" + fields[f].name +
              "' (" +
              (options_.floatingPointChecks ? "debug.floatPointOpException"
               : found.nan && stopOnNaN     ? "setFloatingPointBehaviour: inv"
                                            : "setFloatingPointBehaviour: oflo/div0") +
              ")");
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
    throw stream_connection_error(
        "stream '" + s.handle +
        "' is copied by the program but not connected: "
        "call Engine::connectStream or connectStreamToCallback before run");
  case StreamConnection::Kind::Buffer:
    std::memcpy(scratch_.data(), c.cursor, bytes);
    c.cursor += bytes;
    if (c.cursor == c.end) c.cursor = c.begin;
    break;
  case StreamConnection::Kind::Function:
    c.function(scratch_.data());
    break;
  case StreamConnection::Kind::Callback:
    // As Poplar: the data of a successful prefetch if there is one, else fetch(); then
    // complete(); then, with prefetching on, prefetch() is offered the next buffer.
    if (c.prefetched) {
      std::memcpy(scratch_.data(), c.prefetchBuffer.data(), bytes);
      c.prefetched = false;
    } else {
      c.callback->fetch(scratch_.data());
    }
    c.callback->complete();
    if (options_.streamPrefetch) {
      c.prefetchBuffer.resize(bytes);
      c.prefetched =
          c.callback->prefetch(c.prefetchBuffer.data()) == StreamCallback::Result::Success;
    }
    break;
  }
  scatterRuns(copyPlan(p), r.arena.get(), p.transfer.runs, scratch_.data());
}

void Runtime::streamFromDevice(Replica& r, const LoweredProgram& p) {
  const auto& s = g_.streams[p.stream];
  auto& c = connections_[r.index][p.stream];
  const std::size_t bytes = s.numElements * s.type.size();
  scratch_.resize(bytes);
  gatherRuns(copyPlan(p), r.arena.get(), p.transfer.runs, scratch_.data());
  switch (c.kind) {
  case StreamConnection::Kind::None:
    throw stream_connection_error(
        "stream '" + s.handle +
        "' is copied by the program but not connected: "
        "call Engine::connectStream or connectStreamToCallback before run");
  case StreamConnection::Kind::Buffer:
    std::memcpy(c.cursor, scratch_.data(), bytes);
    c.cursor += bytes;
    if (c.cursor == c.end) c.cursor = c.begin;
    break;
  case StreamConnection::Kind::Function:
    c.function(scratch_.data());
    break;
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
                                      std::to_string(static_cast<long long>(v)) +
                                      " is outside the " + std::to_string(rb.repeats) +
                                      " rows of the buffer");
    row = static_cast<std::uint64_t>(v);
  }
  const std::size_t bytes = rb.numElements * rb.type.size();
  unsigned char* remote = r.remoteBuffers[p.remoteBuffer].data() + row * bytes;
  if (toDevice)
    scatterRuns(copyPlan(p), r.arena.get(), p.transfer.runs, remote);
  else
    gatherRuns(copyPlan(p), r.arena.get(), p.transfer.runs, remote);
}

void Runtime::print(Replica& r, const LoweredProgram& p) {
  const auto& t = p.transfer;
  std::vector<unsigned char> data(t.numElements * t.type.size());
  gather(r.arena.get(), t.runs, data.data());
  std::vector<double> values(t.numElements);
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = loadAsDouble(t.type, data.data(), i);
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
  for (auto& r : replicas_)
    scatterRuns(hostPlan(h), r->arena.get(), h.transfer.runs,
                static_cast<const unsigned char*>(data));
}

void Runtime::readHost(const std::string& handle, void* data, std::size_t bytes) {
  const auto& h = hostHandle(handle, false);
  const std::size_t expected = h.transfer.numElements * h.transfer.type.size();
  if (bytes != expected)
    throw tensor_io_state_error("readTensor(\"" + handle + "\"): " + std::to_string(bytes) +
                                " bytes given, the tensor has " + std::to_string(expected));
  gatherRuns(hostPlan(h), replicas_.front()->arena.get(), h.transfer.runs,
             static_cast<unsigned char*>(data));
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
                                    std::to_string(size) +
                                    " bytes; it must be a non-zero multiple of the stream's " +
                                    std::to_string(bytes) + " bytes");
    c.cursor = c.begin;
  }
  if (replica >= static_cast<int>(g_.replicationFactor))
    throw stream_connection_error("connectStream(\"" + handle + "\"): replica " +
                                  std::to_string(replica) + " of a graph with " +
                                  std::to_string(g_.replicationFactor) + " replicas");
  for (unsigned r = 0; r < g_.replicationFactor; ++r)
    if (replica < 0 || unsigned(replica) == r) {
      auto& old = connections_[r][s];
      if (old.prefetched) { // the old callback's prefetched data will never be copied
        old.prefetched = false;
        old.callback->invalidatePrefetched();
      }
      old = c;
    }
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
    if (toRemote)
      std::memcpy(remote, host, bytes);
    else
      std::memcpy(host, remote, bytes);
    return;
  }
  throw stream_connection_error("no remote buffer with handle '" + handle + "'");
}

// ---- Replicas meeting at collectives ----------------------------------------------------------
//
// A graph with collectives runs its replicas as threads that take turns: exactly one runs at a
// time (so vertex code, stream callbacks and the observer see no concurrency, and results do not
// depend on scheduling). Replica i runs until it reaches a collective or finishes, then hands
// the turn to replica i + 1. When the last replica arrives, the round is complete: if every
// replica waits at the same collective, it is performed for all of them and replica 0 goes on;
// if all finished, the run is over; anything else means the replicas' control flow diverged
// around a collective, which is an error naming where each replica stands. Control flow that
// differs between replicas but meets at the same collectives is fine.

namespace {
constexpr int kRunning = -1, kFinished = -2;
/// Unwinds a waiting replica's thread when another replica failed.
struct LockstepAborted {};
} // namespace

struct Runtime::Lockstep {
  std::mutex mutex;
  std::condition_variable cv;
  unsigned turn = 0;
  std::vector<int> at; ///< per replica: kRunning, kFinished or the collective node it waits at
  bool aborted = false;
  std::exception_ptr error;
};

void Runtime::runLockstep(unsigned entryPoint) {
  const unsigned root = g_.entryPoints.at(entryPoint);
  Lockstep ls;
  ls.at.assign(replicas_.size(), kRunning);
  lockstep_ = &ls;
  std::vector<std::thread> threads;
  threads.reserve(replicas_.size());
  for (auto& rp : replicas_) {
    Replica& r = *rp;
    threads.emplace_back([this, &ls, &r, root] {
      try {
        {
          std::unique_lock<std::mutex> lock(ls.mutex);
          ls.cv.wait(lock, [&] { return ls.aborted || ls.turn == r.index; });
          if (ls.aborted) return;
        }
        exec(r, root);
        arrive(r, kFinished);
      } catch (const LockstepAborted&) {
      } catch (...) {
        std::lock_guard<std::mutex> lock(ls.mutex);
        if (!ls.error) ls.error = std::current_exception();
        ls.aborted = true;
        ls.cv.notify_all();
      }
    });
  }
  for (auto& t : threads)
    t.join();
  lockstep_ = nullptr;
  if (ls.error) std::rethrow_exception(ls.error);
}

void Runtime::arrive(Replica& r, int node) {
  Lockstep& ls = *lockstep_;
  std::unique_lock<std::mutex> lock(ls.mutex);
  ls.at[r.index] = node;
  if (r.index + 1 < replicas_.size()) {
    ls.turn = r.index + 1;
  } else {
    // The round is complete: every replica has run up to a collective or to its end.
    const bool allFinished =
        std::all_of(ls.at.begin(), ls.at.end(), [](int a) { return a == kFinished; });
    if (allFinished) return;
    const bool allMeet =
        std::all_of(ls.at.begin(), ls.at.end(), [&](int a) { return a == ls.at[0]; });
    if (!allMeet) {
      std::string where;
      for (std::size_t i = 0; i < ls.at.size(); ++i)
        where += (i ? ", replica " : "replica ") + std::to_string(i) +
                 (ls.at[i] == kFinished ? std::string(" finished the program")
                                        : " waits at '" + g_.programs[ls.at[i]].name + "' (" +
                                              g_.programs[ls.at[i]].collective.opName + ")");
      throw application_runtime_error(
          "replicas diverged around a cross-replica collective: every replica must run the same "
          "collectives in the same order, but " +
          where);
    }
    collective(static_cast<unsigned>(ls.at[0]));
    std::fill(ls.at.begin(), ls.at.end(), kRunning);
    ls.turn = 0;
  }
  ls.cv.notify_all();
  if (node == kFinished) return;
  ls.cv.wait(lock,
             [&] { return ls.aborted || (ls.turn == r.index && ls.at[r.index] == kRunning); });
  if (ls.aborted) throw LockstepAborted{};
}

namespace {
/// Combines the group members' values of elements [begin, end) into acc (in double precision,
/// member after member in group order: the order fixes the rounding, so one process and a job
/// of several instances get the same bits). Member-major over a block of elements keeps the
/// block in cache and lets the compiler vectorise the float loops.
template <class Load>
void reduceBlock(CollectiveOp op, const std::vector<const unsigned char*>& src, std::size_t begin,
                 std::size_t end, double* acc, Load load) {
  const std::size_t n = end - begin;
  for (std::size_t i = 0; i < n; ++i) {
    const double v = load(src[0], begin + i);
    acc[i] = op == CollectiveOp::SquareAdd ? v * v : v;
  }
  for (std::size_t j = 1; j < src.size(); ++j) {
    const unsigned char* s = src[j];
    switch (op) {
    case CollectiveOp::Add:
    case CollectiveOp::Mean:
      for (std::size_t i = 0; i < n; ++i)
        acc[i] += load(s, begin + i);
      break;
    case CollectiveOp::SquareAdd:
      for (std::size_t i = 0; i < n; ++i) {
        const double v = load(s, begin + i);
        acc[i] += v * v;
      }
      break;
    case CollectiveOp::Mul:
      for (std::size_t i = 0; i < n; ++i)
        acc[i] *= load(s, begin + i);
      break;
    case CollectiveOp::Min:
      for (std::size_t i = 0; i < n; ++i)
        acc[i] = std::min(acc[i], load(s, begin + i));
      break;
    case CollectiveOp::Max:
      for (std::size_t i = 0; i < n; ++i)
        acc[i] = std::max(acc[i], load(s, begin + i));
      break;
    case CollectiveOp::LogicalAnd:
      for (std::size_t i = 0; i < n; ++i)
        acc[i] = (acc[i] != 0) && (load(s, begin + i) != 0);
      break;
    case CollectiveOp::LogicalOr:
      for (std::size_t i = 0; i < n; ++i)
        acc[i] = (acc[i] != 0) || (load(s, begin + i) != 0);
      break;
    case CollectiveOp::Local:
      break;
    }
  }
  if (op == CollectiveOp::Mean)
    for (std::size_t i = 0; i < n; ++i)
      acc[i] /= double(src.size());
}

void reduceRange(CollectiveOp op, Type type, const std::vector<const unsigned char*>& src,
                 std::size_t begin, std::size_t end, double* acc) {
  if (type == FLOAT)
    reduceBlock(op, src, begin, end, acc, [](const unsigned char* p, std::size_t i) {
      return double(reinterpret_cast<const float*>(p)[i]);
    });
  else
    reduceBlock(op, src, begin, end, acc,
                [type](const unsigned char* p, std::size_t i) { return loadAsDouble(type, p, i); });
}

constexpr std::size_t kReduceBlock = 4096;

/// Every element combined over the group, stored as `type` into out (all-reduce).
void reduceInto(CollectiveOp op, Type type, const std::vector<const unsigned char*>& src,
                std::size_t n, unsigned char* out) {
  double acc[kReduceBlock];
  for (std::size_t begin = 0; begin < n; begin += kReduceBlock) {
    const std::size_t end = std::min(n, begin + kReduceBlock);
    reduceRange(op, type, src, begin, end, acc);
    if (type == FLOAT)
      for (std::size_t i = begin; i < end; ++i)
        reinterpret_cast<float*>(out)[i] = static_cast<float>(acc[i - begin]);
    else
      for (std::size_t i = begin; i < end; ++i)
        storeFromDouble(type, out, i, acc[i - begin]);
  }
}
} // namespace

/// An all-reduce over one group of every replica of a poprun job, as a reduce-scatter then an
/// all-gather between the instances: instance i receives slice i of every replica's source
/// (MPI all-to-all), combines it exactly as one process combines those elements (every replica,
/// in replica order, in double precision), and the instances' combined slices are gathered
/// into every instance. Each instance moves about twice the data instead of every instance's
/// whole sources, and the results are the same bits. False when it does not apply (groups,
/// LOCAL, fewer elements than instances, buffers too large for MPI's int counts).
bool Runtime::allReduceAcrossInstances(const LoweredProgram& p,
                                       const std::vector<unsigned char>& mine, unsigned local) {
  const CollectiveSpec& spec = p.collective;
  const auto& job = instanceContext();
  const std::size_t n = p.transfer.numElements, size = p.transfer.type.size();
  const unsigned global = globalReplicationFactor(local);
  if (spec.kind != CollectiveKind::AllReduce || spec.op == CollectiveOp::Local ||
      replicaGroups(spec, global).size() != 1 || n < job.count ||
      job.replicaOffset != job.index * local || mine.size() > (std::size_t(1) << 30))
    return false;
  InstanceTransport* transport = instanceTransport();
  if (!transport) return false; // the gathering path names the missing backend
  const unsigned instances = job.count;
  auto begin = [&](unsigned i) { return n * i / instances; };
  // Slice j of each local replica's source goes to instance j, replica after replica.
  std::vector<std::size_t> sendBytes(instances), recvBytes(instances), sliceBytes(instances);
  std::vector<unsigned char> send(mine.size());
  std::size_t at = 0;
  for (unsigned j = 0; j < instances; ++j) {
    sliceBytes[j] = (begin(j + 1) - begin(j)) * size;
    sendBytes[j] = local * sliceBytes[j];
    for (unsigned r = 0; r < local; ++r, at += sliceBytes[j])
      std::memcpy(send.data() + at, mine.data() + r * n * size + begin(j) * size, sliceBytes[j]);
  }
  const std::size_t mySlice = sliceBytes[job.index];
  for (unsigned j = 0; j < instances; ++j)
    recvBytes[j] = local * mySlice;
  std::vector<unsigned char> received(std::size_t(instances) * local * mySlice);
  transport->allToAll(send.data(), sendBytes, received.data(), recvBytes);
  // Instance-major, then local replica: the job's replica order.
  std::vector<const unsigned char*> src(std::size_t(instances) * local);
  for (std::size_t m = 0; m < src.size(); ++m)
    src[m] = received.data() + m * mySlice;
  std::vector<unsigned char> reduced(mySlice), out(n * size);
  reduceInto(spec.op, p.transfer.type, src, mySlice / size, reduced.data());
  transport->allGather(reduced.data(), sliceBytes, out.data());
  for (unsigned r = 0; r < local; ++r)
    scatter(replicas_[r]->arena.get(), p.result.runs, out.data());
  return true;
}

void Runtime::collective(unsigned node) {
  const LoweredProgram& p = g_.programs[node];
  const CollectiveSpec& spec = p.collective;
  const Type type = p.transfer.type;
  const std::size_t n = p.transfer.numElements, size = type.size(), bytes = n * size;
  const unsigned local = static_cast<unsigned>(replicas_.size());
  // A graph that is this instance's slice of a poprun job combines the replicas of every
  // instance (runtime/Instances.hpp): the sources of all of them are gathered into every
  // instance, which then computes exactly what one process holding every replica computes, in
  // the same order, and keeps the results of its own replicas.
  const unsigned global = globalReplicationFactor(local);
  const unsigned offset = globalReplicaOffset(local);
  // Every member's source, read before any destination is written (they may overlap).
  std::vector<unsigned char> mine(std::size_t(local) * bytes);
  for (unsigned r = 0; r < local; ++r)
    gather(replicas_[r]->arena.get(), p.transfer.runs, mine.data() + r * bytes);
  std::vector<unsigned char> all;
  const unsigned char* sources = mine.data();
  if (global != local && allReduceAcrossInstances(p, mine, local)) return;
  if (global != local) {
    InstanceTransport* transport = instanceTransport();
    if (!transport)
      throw application_runtime_error(
          spec.opName + " '" + p.name + "' spans the " + std::to_string(global) +
          " replicas of a poprun job of " + std::to_string(instanceContext().count) +
          " instances, but no PopDist backend moves data between them: link libpopdist and "
          "call popdist::init() (or acquire the device with popdist::poplar::getDevice())");
    all.resize(std::size_t(global) * bytes);
    transport->allGather(mine.data(), mine.size(), all.data());
    sources = all.data();
  }
  auto isLocal = [&](unsigned m) { return m >= offset && m < offset + local; };
  if (spec.kind == CollectiveKind::Copy) { // CrossReplicaCopy: one source for each replica
    for (unsigned from = 0; from < spec.copyTo.size(); ++from)
      if (isLocal(spec.copyTo[from]))
        scatter(replicas_[spec.copyTo[from] - offset]->arena.get(), p.result.runs,
                sources + std::size_t(from) * bytes);
    return;
  }
  // Replicas not taking part in the lockstep (a single replica) form a group of one.
  const auto groups =
      global == 1 ? std::vector<std::vector<unsigned>>{{0u}} : replicaGroups(spec, global);
  std::vector<unsigned char> out(p.result.numElements * size);
  for (const auto& group : groups) {
    if (std::none_of(group.begin(), group.end(), isLocal)) continue; // all on other instances
    const std::size_t k = group.size();
    std::vector<const unsigned char*> src(k);
    for (std::size_t j = 0; j < k; ++j)
      src[j] = sources + std::size_t(group[j]) * bytes;
    if (spec.kind == CollectiveKind::Broadcast) { // every member gets the root's data
      for (unsigned m : group)
        if (isLocal(m)) scatter(replicas_[m - offset]->arena.get(), p.result.runs, src[spec.root]);
      continue;
    }
    if (spec.kind == CollectiveKind::AllToAll) { // member j's slice i is member i's slice j
      const std::size_t slice = bytes / k;
      for (std::size_t j = 0; j < k; ++j) {
        if (!isLocal(group[j])) continue;
        for (std::size_t i = 0; i < k; ++i)
          std::memcpy(out.data() + i * slice, src[i] + j * slice, slice);
        scatter(replicas_[group[j] - offset]->arena.get(), p.result.runs, out.data());
      }
      continue;
    }
    if (spec.kind == CollectiveKind::AllGather) {
      for (std::size_t j = 0; j < k; ++j)
        std::memcpy(out.data() + j * bytes, src[j], bytes);
      for (unsigned m : group)
        if (isLocal(m)) scatter(replicas_[m - offset]->arena.get(), p.result.runs, out.data());
      continue;
    }
    // All-reduce: one combination for every member (LOCAL: each keeps its own); reduce-scatter:
    // the combination of every element, each member keeping its slice.
    const bool allReduce = spec.kind == CollectiveKind::AllReduce;
    std::vector<double> reduced;
    if (allReduce && spec.op != CollectiveOp::Local) reduceInto(spec.op, type, src, n, out.data());
    if (!allReduce && spec.op != CollectiveOp::Local) {
      reduced.resize(n);
      for (std::size_t begin = 0; begin < n; begin += kReduceBlock)
        reduceRange(spec.op, type, src, begin, std::min(n, begin + kReduceBlock),
                    reduced.data() + begin);
    }
    for (std::size_t j = 0; j < k; ++j) {
      const unsigned m = group[j];
      if (!isLocal(m)) continue;
      if (allReduce) {
        if (spec.op == CollectiveOp::Local) std::memcpy(out.data(), src[j], bytes);
      } else { // ReduceScatter: member j keeps slice j, the last one padded with zeros
        const std::size_t chunk = p.result.numElements;
        for (std::size_t i = 0; i < chunk; ++i) {
          const std::size_t e = j * chunk + i;
          const double v = e >= n                           ? 0.0
                           : spec.op == CollectiveOp::Local ? loadAsDouble(type, src[j], e)
                                                            : reduced[e];
          storeFromDouble(type, out.data(), i, v);
        }
      }
      scatter(replicas_[m - offset]->arena.get(), p.result.runs, out.data());
    }
  }
}

} // namespace poplar::detail::runtime
