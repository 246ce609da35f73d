// Metadata, graphs with series, heatmaps and thread names: definitions go through the session
// (a lock, rare), samples through the thread's ring (series) or the session (heatmaps, whose
// histogram is variable-sized and counted here, on the calling thread).
#include "Session.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <profiler/TraceSchema.hpp>
#include <pvti/pvti.hpp>
#include <stdexcept>

namespace pvti {

namespace detail {
std::uint32_t currentThreadIndex();
}

namespace {

bool tracing() {
  return detail::sessionActive.load(std::memory_order_relaxed);
}

template <class T> void checkEdges(const std::string& name, const std::vector<T>& edges) {
  for (std::size_t i = 1; i < edges.size(); ++i)
    if (!(edges[i - 1] < edges[i]))
      throw std::invalid_argument(
          "pvti heatmap '" + name + "': bin edges must be strictly ascending (edge " +
          std::to_string(i) + " is not above edge " + std::to_string(i - 1) + ")");
}

/// Counts into n+1 bins: below edge 0, [e[i-1], e[i]), at or above the last edge.
template <class T>
std::vector<std::uint32_t> histogram(const std::vector<T>& edges, const T* values, std::size_t n) {
  std::vector<std::uint32_t> counts(edges.size() + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const T v = values[i];
    if constexpr (std::is_floating_point_v<T>)
      if (std::isnan(v)) continue;
    const auto bin = std::upper_bound(edges.begin(), edges.end(), v) - edges.begin();
    ++counts[static_cast<std::size_t>(bin)];
  }
  return counts;
}

template <class T>
std::uint32_t defineHeatmap(const std::string& name, const std::vector<T>& edges,
                            const std::string& unit, std::string_view type) {
  checkEdges(name, edges);
  if (!tracing()) return 0;
  return detail::Session::instance().defineHeatmap(name, unit, type, nlohmann::json(edges).dump());
}

} // namespace

Metadata createJsonMetadata(const std::string& json) {
  if (!nlohmann::json::accept(json))
    throw std::invalid_argument("pvti::createJsonMetadata: not valid JSON: '" + json + "'");
  Metadata m;
  m.json_ = json;
  if (tracing()) m.id_ = detail::Session::instance().internMetadata(json);
  return m;
}

Graph::Graph(const std::string& name, const std::string& unit, bool enable) {
  if (enable && tracing()) id_ = detail::Session::instance().defineGraph(name, unit);
}

Series Graph::addSeries(const std::string& name) {
  Series s;
  if (id_ && tracing()) s.id_ = detail::Session::instance().defineSeries(id_, name);
  return s;
}

HeatmapDouble::HeatmapDouble(const std::string& name, const std::vector<double>& binEdges,
                             const std::string& unit)
    : edges_(binEdges),
      id_(defineHeatmap(name, edges_, unit, tessera::profiler::schema::trace::kHeatmapDouble)) {}

void HeatmapDouble::add(const double* values, std::size_t count) {
  if (!id_ || !tracing()) return;
  detail::Session::instance().addHeatmapSample(
      id_, tessera::profiler::schema::trace::encodeHeatmapBins(histogram(edges_, values, count)));
}

HeatmapInt64::HeatmapInt64(const std::string& name, const std::vector<std::int64_t>& binEdges,
                           const std::string& unit)
    : edges_(binEdges),
      id_(defineHeatmap(name, edges_, unit, tessera::profiler::schema::trace::kHeatmapInt64)) {}

void HeatmapInt64::add(const std::int64_t* values, std::size_t count) {
  if (!id_ || !tracing()) return;
  detail::Session::instance().addHeatmapSample(
      id_, tessera::profiler::schema::trace::encodeHeatmapBins(histogram(edges_, values, count)));
}

ThreadName::ThreadName(const std::string& name) {
  if (!tracing()) return;
  if (const std::uint32_t index = detail::currentThreadIndex())
    detail::Session::instance().nameThread(index, name);
}

} // namespace pvti
