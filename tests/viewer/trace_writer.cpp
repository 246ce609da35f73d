// viewer_trace_writer: writes a small but complete host trace with the libpvti C++ API (nested
// events on two named threads, metadata, a sub-microsecond event, a burst of tiny events,
// instant events, a graph with two series, a heatmap), for the Host trace tests and screenshots.
// libpvti reads PVTI_OPTIONS when it is loaded, so the caller sets it in this process'
// environment. Prints the trace file's path. `--ticks N` changes the size of the burst.
#include "RichTraceShape.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pvti/pvti.hpp>
#include <string>
#include <thread>
#include <vector>

namespace {

pvti::TraceChannel channel{"Test"};

void sleepMs(int ms) {
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

void loader(int ticks) {
  pvti::ThreadName name("loader");
  for (int i = 0; i < rich_trace::loads; ++i) {
    pvti::Tracepoint load(&channel, "load batch");
    sleepMs(1);
    pvti::Tracepoint decode(&channel, "decode");
    sleepMs(1);
  }
  pvti::Tracepoint::event(&channel, "queue empty");
  for (int i = 0; i < ticks; ++i)
    pvti::Tracepoint tick(&channel, "tick");
  pvti::Tracepoint::event(&channel, "queue empty");
}

} // namespace

int main(int argc, char** argv) {
  int ticks = rich_trace::defaultTicks;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--ticks") == 0) ticks = std::atoi(argv[i + 1]);
  if (pvti::getCurrentTraceFilename().empty()) {
    std::fprintf(stderr, "viewer_trace_writer: tracing is off (set PVTI_OPTIONS)\n");
    return 1;
  }
  pvti::ThreadName name("main");
  pvti::Graph memory("memory", "MB");
  pvti::Series host = memory.addSeries("host");
  pvti::Series device = memory.addSeries("device");
  pvti::HeatmapDouble gradients("gradients", {-2, -1, 0, 1, 2}, "2^x");
  host.add(100);
  device.add(0);

  std::thread worker(loader, ticks);
  for (int step = 0; step < rich_trace::steps; ++step) {
    pvti::Metadata meta =
        pvti::createJsonMetadata("{\"step\": " + std::to_string(step) + ", \"phase\": \"train\"}");
    pvti::Tracepoint s(&channel, "step", &meta);
    {
      pvti::Tracepoint forward(&channel, "forward");
      {
        pvti::Tracepoint l0(&channel, "layer0");
        sleepMs(rich_trace::stepSleepMs);
      }
      pvti::Tracepoint l1(&channel, "layer1");
      sleepMs(rich_trace::stepSleepMs);
    }
    {
      pvti::Tracepoint backward(&channel, "backward");
      pvti::Tracepoint allreduce(&channel, "allreduce");
      sleepMs(1);
    }
    if (step == rich_trace::steps - 1) pvti::Tracepoint tiny(&channel, "tiny");
    host.add(100 + 50.0 * (step + 1));
    device.add(20.0 * (step + 1));
    std::vector<double> values(rich_trace::heatmapValuesPerSample);
    for (int v = 0; v < rich_trace::heatmapValuesPerSample; ++v)
      values[std::size_t(v)] = -2.5 + 0.6 * v + 0.3 * step;
    gradients.add(values);
    if (step == 1) {
      pvti::Metadata cp = pvti::createJsonMetadata("{\"saved\": \"checkpoint-1\"}");
      pvti::Tracepoint::event(&channel, "checkpoint", &cp);
    }
  }
  worker.join();
  const std::string file = pvti::getCurrentTraceFilename();
  pvti::closeTrace();
  std::printf("%s\n", file.c_str());
  return 0;
}
