#include "HostTrace.hpp"

#include <cstdio>
#include <pvti/pvti.hpp>
#include <unistd.h>

namespace poplar::detail::session {

namespace {

/// Resident set size in MiB from /proc/self/statm (second field, in pages); -1 if unreadable.
double residentMiB() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return -1;
  unsigned long size = 0, resident = 0;
  const int n = std::fscanf(f, "%lu %lu", &size, &resident);
  std::fclose(f);
  if (n != 2) return -1;
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) /
         (1024.0 * 1024.0);
}

class TracedCallback : public StreamCallback {
public:
  TracedCallback(const std::string& handle, std::unique_ptr<StreamCallback> inner)
      : label_("stream callback " + handle), inner_(std::move(inner)) {}
  Result prefetch(void* p) override {
    pvti::Tracepoint t(&pvti::tracePoplar, label_ + " (prefetch)");
    return inner_->prefetch(p);
  }
  void fetch(void* p) override {
    pvti::Tracepoint t(&pvti::tracePoplar, label_);
    inner_->fetch(p);
  }
  void complete() override { inner_->complete(); }
  void invalidatePrefetched() override { inner_->invalidatePrefetched(); }

private:
  std::string label_;
  std::unique_ptr<StreamCallback> inner_;
};

} // namespace

void sampleHostMemory() {
  if (!pvti::detail::sessionActive.load(std::memory_order_relaxed))
    return; // tracing off: skip /proc
  static pvti::Graph graph("Host memory", "MiB");
  static pvti::Series rss = graph.addSeries("RSS");
  const double mib = residentMiB();
  if (mib >= 0) rss.add(mib);
}

std::function<void(void*)> traced(const std::string& handle, std::function<void(void*)> f) {
  return [label = "stream callback " + handle, f = std::move(f)](void* p) {
    pvti::Tracepoint t(&pvti::tracePoplar, label);
    f(p);
  };
}

std::unique_ptr<StreamCallback> traced(const std::string& handle,
                                       std::unique_ptr<StreamCallback> cb) {
  return std::make_unique<TracedCallback>(handle, std::move(cb));
}

} // namespace poplar::detail::session
