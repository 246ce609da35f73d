// A small pool of host threads for executing one compute set's tiles, or one exchange's copies,
// at a time (Runtime.cpp). The calling thread takes part, so a pool of n threads starts n - 1
// workers.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace poplar::detail::runtime {

class ThreadPool {
public:
  explicit ThreadPool(unsigned threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned size() const { return static_cast<unsigned>(workers_.size()) + 1; }
  /// Calls task(worker) once on each of the pool's threads (worker 0 is the caller) and returns
  /// when all have returned. Tasks must not throw. One call at a time.
  void runOnAll(const std::function<void(unsigned)>& task);
  /// Calls body(begin, end) on the pool's threads for contiguous chunks covering [0, n) once.
  /// Chunks are handed out in order, each a share of what remains (large first, single items
  /// at the end): a thread works through neighbouring items, which share data in its cache and
  /// cache lines at their edges, while the threads still finish together. Body must not throw.
  void parallelFor(std::size_t n, const std::function<void(std::size_t, std::size_t)>& body);

private:
  void workerLoop(unsigned worker);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(unsigned)>* task_ = nullptr;
  std::size_t generation_ = 0;
  unsigned pending_ = 0;
  bool stopping_ = false;
};

/// The number of host threads a run uses: `option` (the engine option tessera.threads, empty
/// when not given), else $TESSERA_THREADS, else every core. "auto" means every core. Throws
/// invalid_option naming the option or variable for anything but "auto" or 1 .. kMaxThreads.
unsigned resolveThreadCount(const std::string& option);
constexpr unsigned kMaxThreads = 1024;

} // namespace poplar::detail::runtime
