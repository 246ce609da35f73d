// The runtime: simulated tile memory for each replica, vertex instances bound to it, host
// connections, and an interpreter that steps the lowered program tree.
#pragma once

#include "RuntimeOptions.hpp"
#include "compiler/CompiledGraph.hpp"

#include <functional>
#include <iosfwd>
#include <memory>
#include <poplar/StreamCallback.hpp>
#include <vector>

namespace poplar::detail::runtime {

/// How the host end of one stream is served for one replica.
struct StreamConnection {
  enum class Kind { None, Buffer, Function, Callback } kind = Kind::None;
  unsigned char* begin = nullptr;
  unsigned char* end = nullptr;
  unsigned char* cursor = nullptr;
  std::function<void(void*)> function;
  std::shared_ptr<StreamCallback> callback;
  /// Host-to-device callbacks with prefetching on: the data of a successful prefetch(), which
  /// the stream's next copy takes instead of calling fetch().
  bool prefetched = false;
  std::vector<unsigned char> prefetchBuffer;
};

/// Told about the execution of replica 0 as it happens (the profiler's execution recorder).
class ExecutionObserver {
public:
  virtual ~ExecutionObserver() = default;
  /// A lowered node that records steps (compute, exchange, copy, stream, sync) is executing.
  virtual void onSteps(unsigned node) = 0;
  /// The same for an Execute node whose compute set has vertices that count the instructions
  /// they execute (CompiledVertex::executedInstructions), told after it ran: `instructions`
  /// holds each of the compute set's vertices' count in its latest execution, raw
  /// (kNoInstructionCount for a vertex with no counter, or not run yet). Costing them is the
  /// observer's part (models/ExecutedComputeCost.hpp).
  virtual void onExecutedSteps(unsigned node, unsigned computeSet,
                               const std::vector<std::uint64_t>& instructions) = 0;
  /// A Block node starts (begin) or ends; also a node isImplicitBlock wraps.
  virtual void onBlock(unsigned node, bool begin) = 0;
  /// Whether a node that is not a Block is measured as one (profiler.programs.filter).
  virtual bool isImplicitBlock(unsigned node) const { return false; }
  /// An iteration of a loop node (Repeat, RepeatWhileTrue/False) ended: where Poplar places the
  /// implicit flushes of the lightweight-profiling buffers.
  virtual void onLoopIteration(unsigned node) { (void)node; }
  /// The simulated cycle counter of an IPU's tiles now (between steps).
  virtual std::uint64_t ipuCycleCounter(unsigned ipu) const = 0;
};

/// For the cycle-counter vertices (poplar::cycleCount, cycleStamp): the counter of the vertex's
/// tile as its compute step began. 0 outside such a compute set.
std::uint64_t currentCycleCounter();
/// True for the vertex types that read currentCycleCounter().
bool readsCycleCounter(const VertexTypeDescriptor& type);

class ThreadPool;
struct CopyPlan;

class Runtime {
public:
  Runtime(const compiler::CompiledGraph& graph, RuntimeOptions options);
  ~Runtime();

  /// Allocates memory, writes initial values and creates the vertex instances.
  /// Allocates every replica's memory and binds the vertices; poplar_error when the host
  /// cannot hold the device (runtime/HostMemory.hpp).
  void load();
  bool loaded() const { return !replicas_.empty(); }
  void run(unsigned entryPoint);
  /// Drops the data of successful prefetches that no copy took, telling each callback
  /// (invalidatePrefetched). Runs end with this: the next run starts from fetch().
  void invalidatePrefetched();

  void writeHost(const std::string& handle, const void* data, std::size_t bytes);
  void readHost(const std::string& handle, void* data, std::size_t bytes);
  /// Connection of a stream for one replica, or for every replica when replica < 0.
  void connect(const std::string& handle, int replica, StreamConnection c);
  void copyRemote(const std::string& handle, std::uint64_t row, unsigned replica, void* host,
                  bool toRemote);
  void setPrintStream(std::ostream& os) { print_ = &os; }
  /// Observer of replica 0's execution, or nullptr.
  void setObserver(ExecutionObserver* o) { observer_ = o; }

private:
  void allocateReplicas();
  struct Replica;
  struct VertexInstance;
  struct Lockstep;
  /// Runs every replica on its own thread, one at a time, meeting at each collective.
  void runLockstep(unsigned entryPoint);
  /// Replica `r` reached collective `node` (or finished, node < 0); returns when it may go on.
  void arrive(Replica& r, int node);
  /// Every replica waits at `node`: performs the collective for all of them.
  /// A job-wide all-reduce between instances as a reduce-scatter and an all-gather (Runtime.cpp).
  bool allReduceAcrossInstances(const compiler::LoweredProgram& p,
                                const std::vector<unsigned char>& mine, unsigned local);
  void collective(unsigned node);
  /// `wrapped`: the node's implicit Block (ExecutionObserver::isImplicitBlock) is already open.
  void exec(Replica& r, unsigned node, bool wrapped = false);
  void execute(Replica& r, unsigned computeSet,
               const std::vector<std::uint64_t>* counters = nullptr);
  /// One vertex: stages its edges, computes, writes back, checks floats; throws on failure.
  void runVertex(Replica& r, unsigned computeSet, VertexInstance& vi,
                 const std::vector<std::uint64_t>* counters);
  /// The compute set's tiles spread over the pool; each tile's vertices in order on one thread.
  void executeParallel(Replica& r, unsigned computeSet, const std::vector<std::uint64_t>* counters);
  void executeWithCounters(Replica& r, unsigned computeSet,
                           const std::vector<std::uint64_t>* counters);
  /// The bytes of `runs` of the arena from contiguous `src`, or into contiguous `dst`: on the
  /// pool by `plan` when there is one, else here.
  void scatterRuns(const CopyPlan* plan, unsigned char* arena,
                   const std::vector<compiler::ByteRun>& runs, const unsigned char* src);
  void gatherRuns(const CopyPlan* plan, const unsigned char* arena,
                  const std::vector<compiler::ByteRun>& runs, unsigned char* dst);
  const CopyPlan* copyPlan(const compiler::LoweredProgram& p) const;
  const CopyPlan* hostPlan(const compiler::CompiledHostHandle& h) const;
  void streamToDevice(Replica& r, const compiler::LoweredProgram& p);
  void streamFromDevice(Replica& r, const compiler::LoweredProgram& p);
  void remoteCopy(Replica& r, const compiler::LoweredProgram& p, bool toDevice);
  void print(Replica& r, const compiler::LoweredProgram& p);
  double scalar(const Replica& r, const compiler::LoweredProgram& p) const;
  const compiler::CompiledHostHandle& hostHandle(const std::string& handle, bool write) const;
  unsigned streamIndex(const std::string& handle) const;

  const compiler::CompiledGraph& g_;
  RuntimeOptions options_;
  std::vector<bool> readsCounter_; ///< per compute set: has a cycle-counter vertex
  /// Per compute set: has vertices that count their instructions; when it does, the count of
  /// each of its vertices in replica 0's latest execution. Each slot is written only by the
  /// thread that runs its vertex, and read after the compute set has finished.
  std::vector<bool> measured_;
  std::vector<std::vector<std::uint64_t>> vertexInstructions_;
  /// How a compute set runs on the pool: its vertex instances grouped by tile (in their order
  /// within each tile), or serial when it is small or a vertex may write to the console.
  struct ComputeSetPlan {
    bool parallel = false;
    std::vector<unsigned> order;      ///< vertex indices, tile by tile
    std::vector<unsigned> groupStart; ///< where each tile's run of `order` starts, and the end
  };
  std::vector<ComputeSetPlan> plans_;
  /// Per lowered program: its copies (Copy), or the scatter or gather of its transfer (stream
  /// and remote-buffer copies), spread over the pool; null when they run here (one thread, too
  /// few bytes, or copies whose order matters). Per host handle the same for its transfer.
  std::vector<std::unique_ptr<CopyPlan>> copyPlans_, hostPlans_;
  std::unique_ptr<ThreadPool> pool_; ///< only with more than one thread and work for them
  /// Each IPU's counter as each counter-reading compute step of replica 0 began, in execution
  /// order: the other replicas run in step with it, so they read the same values.
  std::vector<std::vector<std::uint64_t>> counterLog_;
  std::vector<std::unique_ptr<Replica>> replicas_;
  std::vector<std::vector<StreamConnection>> connections_; // [replica][stream]
  std::vector<unsigned char> scratch_;
  std::ostream* print_;
  ExecutionObserver* observer_ = nullptr;
  bool hasCollectives_ = false;
  Lockstep* lockstep_ = nullptr; ///< during runLockstep
};

/// Compute sets with less work than this (elements on their edges, plus a few per vertex) run
/// on the calling thread: handing them to other threads would cost more than it saves.
constexpr std::size_t kMinParallelWork = 16384;

/// Copies the bytes of `runs` out of `arena` into contiguous `dst`, or back.
void gather(const unsigned char* arena, compiler::PoolView<const compiler::ByteRun> runs,
            unsigned char* dst);
void scatter(unsigned char* arena, compiler::PoolView<const compiler::ByteRun> runs,
             const unsigned char* src);

} // namespace poplar::detail::runtime
