#include "poplibs_support/TileWork.hpp"

#include <algorithm>
#include <poplar/exceptions.hpp>
#include <poputil/exceptions.hpp>

namespace poplibs_support {

using poplar::Interval;

void checkOptions(const poplar::OptionFlags& options, std::initializer_list<const char*> known,
                  const std::string& op) {
  for (const auto& [name, value] : options) {
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    std::string list;
    for (const char* k : known)
      list += std::string(list.empty() ? "" : ", ") + k;
    throw poplar::invalid_option(op + ": unknown option '" + name + "' (" +
                                 (list.empty() ? "it takes no options" : "known options: " + list) +
                                 ")");
  }
}

void checkType(const poplar::Type& type, std::initializer_list<poplar::Type> supported,
               const std::string& op, const std::string& operand) {
  if (std::find(supported.begin(), supported.end(), type) != supported.end()) return;
  std::string list;
  for (const auto& t : supported)
    list += (list.empty() ? "" : ", ") + t.toString();
  throw poputil::poplibs_error(op + ": " + operand + " has element type " + type.toString() +
                               "; supported: " + list);
}

poplar::Graph::TileToTensorMapping tileMapping(const poplar::Graph& graph, const poplar::Tensor& t,
                                               const std::string& op) {
  poplar::Graph::TileToTensorMapping mapping;
  try {
    mapping = graph.getTileMapping(t);
  } catch (const poplar::invalid_tile_mapping& e) {
    throw poplar::invalid_tile_mapping(op + ": an operand of shape " + t.shapeToString() +
                                       " is not fully mapped to tiles: " + e.what());
  }
  // A virtual graph's mapping leaves out elements on other tiles; work on them would be lost.
  std::size_t mapped = 0;
  for (const auto& intervals : mapping)
    for (const auto& iv : intervals)
      mapped += iv.size();
  if (mapped != t.numElements())
    throw poplar::invalid_tile_mapping(op + ": " + std::to_string(t.numElements() - mapped) +
                                       " elements of an operand of shape " + t.shapeToString() +
                                       " are on tiles outside this (virtual) graph");
  return mapping;
}

namespace {

/// [begin, end) cut into min(parts, end - begin) consecutive intervals whose sizes differ by at
/// most one.
std::vector<Interval> splitEvenly(std::size_t begin, std::size_t end, std::size_t parts) {
  std::vector<Interval> out;
  const std::size_t n = end - begin;
  parts = std::min(parts, n);
  for (std::size_t p = 0; p < parts; ++p)
    out.emplace_back(begin + n * p / parts, begin + n * (p + 1) / parts);
  return out;
}

std::size_t ceilDiv(std::size_t a, std::size_t b) {
  return (a + b - 1) / b;
}

/// Cuts `iv` where `regions` (sorted, covering the tensor) start, appending the parts to `out`.
void cutAtRegions(const Interval& iv, const std::vector<Interval>& regions,
                  std::vector<Interval>& out) {
  auto r = std::upper_bound(regions.begin(), regions.end(), iv.begin(),
                            [](std::size_t x, const Interval& reg) { return x < reg.begin(); });
  --r;
  for (std::size_t pos = iv.begin(); pos < iv.end(); ++r) {
    const std::size_t end = std::min(iv.end(), r->end());
    out.emplace_back(pos, end);
    pos = end;
  }
}

} // namespace

std::vector<std::vector<Interval>> splitTileWork(const poplar::Graph& graph,
                                                 const poplar::Tensor& t, std::size_t minPiece,
                                                 const std::string& op) {
  const auto mapping = tileMapping(graph, t, op);
  const auto regions = t.getContiguousRegions();
  const unsigned workers = graph.getTarget().getNumWorkerContexts();
  std::vector<std::vector<Interval>> work(mapping.size());
  for (std::size_t tile = 0; tile < mapping.size(); ++tile) {
    std::vector<Interval> contiguous;
    std::size_t total = 0;
    for (const auto& iv : mapping[tile]) {
      cutAtRegions(iv, regions, contiguous);
      total += iv.size();
    }
    const std::size_t piece =
        std::max<std::size_t>(ceilDiv(total, workers), std::max<std::size_t>(minPiece, 1));
    for (const auto& c : contiguous)
      for (const auto& p : splitEvenly(c.begin(), c.end(), ceilDiv(c.size(), piece)))
        work[tile].push_back(p);
  }
  return work;
}

std::vector<std::vector<Interval>>
splitRowsByTile(const poplar::Graph& graph, const poplar::Tensor& matrix, const std::string& op) {
  const std::size_t cols = matrix.dim(1);
  const auto mapping = tileMapping(graph, matrix, op);
  const unsigned workers = graph.getTarget().getNumWorkerContexts();
  std::vector<std::vector<Interval>> work(mapping.size());
  for (std::size_t tile = 0; tile < mapping.size(); ++tile) {
    std::vector<Interval> rows; // rows whose first element (index row * cols) is on this tile
    std::size_t total = 0;
    for (const auto& iv : mapping[tile]) {
      const std::size_t first = ceilDiv(iv.begin(), cols), last = ceilDiv(iv.end(), cols);
      if (first == last) continue;
      if (!rows.empty() && rows.back().end() == first)
        rows.back() = Interval(rows.back().begin(), last);
      else
        rows.emplace_back(first, last);
      total += last - first;
    }
    const std::size_t group = ceilDiv(total, workers);
    for (const auto& r : rows)
      for (const auto& g : splitEvenly(r.begin(), r.end(), ceilDiv(r.size(), group)))
        work[tile].push_back(g);
  }
  return work;
}

/// Below this many elements, cutting a tile's work further costs more in vertex overhead than
/// the extra workers save.
constexpr std::size_t kMinElementsPerVertex = 32;

std::vector<poplar::VertexRef>
addElementWiseVertices(poplar::Graph& graph, const poplar::ComputeSet& cs,
                       const std::string& vertexType, const poplar::Tensor& driver,
                       const std::vector<std::pair<std::string, poplar::Tensor>>& fields,
                       const std::string& op) {
  std::vector<poplar::Tensor> flat;
  for (const auto& f : fields)
    flat.push_back(f.second.flatten());
  std::vector<poplar::VertexRef> vertices;
  const auto work = splitTileWork(graph, driver, kMinElementsPerVertex, op);
  for (unsigned tile = 0; tile < work.size(); ++tile)
    for (const auto& piece : work[tile]) {
      auto v = graph.addVertex(cs, vertexType);
      for (std::size_t i = 0; i < fields.size(); ++i)
        graph.connect(v[fields[i].first], flat[i].slice(piece));
      graph.setTileMapping(v, tile);
      vertices.push_back(v);
    }
  return vertices;
}

void checkValid(const poplar::Tensor& t, const std::string& op, const std::string& operand) {
  if (!t.valid())
    throw poputil::poplibs_error(op + ": " + operand +
                                 " is an invalid (default-constructed) tensor");
}

} // namespace poplibs_support
