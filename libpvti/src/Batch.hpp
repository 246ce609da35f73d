// Everything other than ring records that the writer puts in the file: interned names, thread
// names, graph/heatmap definitions and heatmap samples. Producers add to the session's pending
// Batch under its lock; the writer takes the whole Batch at each flush.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace pvti::detail {

struct Batch {
  using Named = std::pair<std::uint32_t, std::string>;
  struct Thread {
    std::uint32_t index;
    long tid;
    std::string name;
    bool rename; ///< false: a new thread; true: ThreadName on a known one
  };
  struct Graph {
    std::uint32_t id;
    std::string name, unit;
  };
  struct Series {
    std::uint32_t id, graph;
    std::string name;
  };
  struct Heatmap {
    std::uint32_t id;
    std::string name, unit, valueType, edgesJson;
  };
  struct HeatmapSample {
    std::uint32_t heatmap;
    std::uint64_t ts; ///< raw steady_clock ns
    std::vector<std::uint8_t> bins;
  };

  std::vector<Named> labels, channels, metadata;
  std::vector<Thread> threads;
  std::vector<Graph> graphs;
  std::vector<Series> series;
  std::vector<Heatmap> heatmaps;
  std::vector<HeatmapSample> heatmapSamples;
};

} // namespace pvti::detail
