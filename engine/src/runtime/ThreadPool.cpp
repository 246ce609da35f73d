#include "ThreadPool.hpp"

#include "session/EngineOptions.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <poplar/exceptions.hpp>
#include <string>

namespace poplar::detail::runtime {
using session::parseUnsignedOption;

ThreadPool::ThreadPool(unsigned threads) {
  for (unsigned w = 1; w < threads; ++w)
    workers_.emplace_back([this, w] { workerLoop(w); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_)
    t.join();
}

void ThreadPool::runOnAll(const std::function<void(unsigned)>& task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    task_ = &task;
    pending_ = static_cast<unsigned>(workers_.size());
    ++generation_;
  }
  wake_.notify_all();
  task(0);
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [this] { return pending_ == 0; });
  task_ = nullptr;
}

void ThreadPool::parallelFor(std::size_t n,
                             const std::function<void(std::size_t, std::size_t)>& body) {
  std::atomic<std::size_t> next{0};
  const std::size_t shares = 2 * std::size_t(size());
  runOnAll([&](unsigned) {
    std::size_t begin = next.load(std::memory_order_relaxed);
    while (begin < n) {
      const std::size_t end = begin + std::max<std::size_t>(1, (n - begin) / shares);
      // On failure `begin` is reloaded with where another thread left the next chunk.
      if (next.compare_exchange_weak(begin, end, std::memory_order_relaxed)) {
        body(begin, end);
        begin = next.load(std::memory_order_relaxed);
      }
    }
  });
}

void ThreadPool::workerLoop(unsigned worker) {
  std::size_t seen = 0;
  for (;;) {
    const std::function<void(unsigned)>* task;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      task = task_;
    }
    (*task)(worker);
    std::lock_guard<std::mutex> lock(mutex_);
    if (--pending_ == 0) done_.notify_one();
  }
}

namespace {
unsigned parseThreads(const std::string& context, const std::string& name,
                      const std::string& value) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  if (value == "auto") return cores;
  std::uint64_t n = 0;
  try {
    n = parseUnsignedOption(context, name, value, kMaxThreads);
  } catch (const invalid_option&) {
    n = 0;
  }
  if (n == 0)
    throw invalid_option(context + " '" + name + "' = '" + value +
                         "': expected auto or a number of host threads from 1 to " +
                         std::to_string(kMaxThreads));
  return static_cast<unsigned>(n);
}
} // namespace

unsigned resolveThreadCount(const std::string& option) {
  if (!option.empty()) return parseThreads("engine option", "tessera.threads", option);
  if (const char* env = std::getenv("TESSERA_THREADS"); env && *env)
    return parseThreads("environment variable", "TESSERA_THREADS", env);
  return parseThreads("", "", "auto");
}

} // namespace poplar::detail::runtime
