// poputil::TensorUseTracker: uses are kept per variable as (interval, tile) records. Resolving
// cuts each variable at every use boundary into segments with one set of user tiles, and gives
// each segment's elements to its users: whole to a single user, in even grain-multiple shares
// to several (the least loaded users first, so broadcast data spreads over the tiles).
#include <algorithm>
#include <map>
#include <numeric>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>
#include <string>

namespace poputil {

using poplar::Tensor;

namespace {

struct Use {
  std::size_t begin, end;
  unsigned tile;
};

struct VarUses {
  const void* graph = nullptr;
  poplar::Type type;
  std::vector<Use> uses;
};

/// A piece of a variable with the sorted set of tiles using all of it.
struct Segment {
  std::size_t begin, end;
  std::vector<unsigned> tiles;
};

/// The variable cut at every use boundary; pieces no tile uses are left out. A sweep over the
/// use boundaries, keeping the tiles whose uses cover the current position.
std::vector<Segment> segmentsOf(const std::vector<Use>& uses) {
  std::vector<std::pair<std::size_t, std::pair<int, unsigned>>> events; // pos, (+1/-1, tile)
  for (const Use& u : uses) {
    events.push_back({u.begin, {+1, u.tile}});
    events.push_back({u.end, {-1, u.tile}});
  }
  std::sort(events.begin(), events.end());
  std::map<unsigned, int> active;
  std::vector<Segment> out;
  for (std::size_t i = 0; i < events.size();) {
    const std::size_t pos = events[i].first;
    for (; i < events.size() && events[i].first == pos; ++i) {
      int& count = active[events[i].second.second];
      count += events[i].second.first;
      if (count == 0) active.erase(events[i].second.second);
    }
    if (i == events.size() || active.empty()) continue;
    Segment seg{pos, events[i].first, {}};
    for (const auto& a : active)
      seg.tiles.push_back(a.first);
    out.push_back(std::move(seg));
  }
  return out;
}

/// Gives the gaps between used segments the tiles of the segment before them.
void extendIntoGaps(std::vector<Segment>& segs) {
  for (std::size_t i = 0; i + 1 < segs.size(); ++i)
    if (segs[i].end < segs[i + 1].begin) segs[i].end = segs[i + 1].begin;
}

/// A segment used by several tiles between neighbours used by a strict subset of them is a
/// halo: it goes whole to the first tile of such a neighbour.
void settleHalos(std::vector<Segment>& segs) {
  auto strictSubset = [](const std::vector<unsigned>& a, const std::vector<unsigned>& b) {
    return a.size() < b.size() && std::includes(b.begin(), b.end(), a.begin(), a.end());
  };
  for (std::size_t i = 0; i < segs.size(); ++i) {
    if (segs[i].tiles.size() < 2) continue;
    for (const std::size_t j : {i - 1, i + 1}) {
      if (j >= segs.size()) continue; // i - 1 wraps for i == 0
      const bool adjacent = segs[j].end == segs[i].begin || segs[i].end == segs[j].begin;
      if (adjacent && strictSubset(segs[j].tiles, segs[i].tiles)) {
        segs[i].tiles = {segs[j].tiles.front()};
        break;
      }
    }
  }
}

} // namespace

class TensorUseTrackerState {
public:
  unsigned numTiles = 0;
  unsigned startTile = 0;
  bool ascending = true;
  std::map<unsigned, VarUses> vars;
};

TensorUseTracker::TensorUseTracker(unsigned numTiles, unsigned startTile,
                                   bool ascendingMappingOrder)
    : st(new TensorUseTrackerState) {
  if (numTiles != 0 && startTile >= numTiles)
    throw poplibs_error("poputil::TensorUseTracker: startTile " + std::to_string(startTile) +
                        " is not below numTiles " + std::to_string(numTiles));
  st->numTiles = numTiles;
  st->startTile = startTile;
  st->ascending = ascendingMappingOrder;
}
TensorUseTracker::TensorUseTracker(const TensorUseTracker& other)
    : st(new TensorUseTrackerState(*other.st)) {}
TensorUseTracker::TensorUseTracker(TensorUseTracker&& other)
    : st(new TensorUseTrackerState(std::move(*other.st))) {}
TensorUseTracker& TensorUseTracker::operator=(const TensorUseTracker& other) {
  *st = *other.st;
  return *this;
}
TensorUseTracker& TensorUseTracker::operator=(TensorUseTracker&& other) {
  *st = std::move(*other.st);
  return *this;
}
TensorUseTracker::~TensorUseTracker() = default;

void TensorUseTracker::add(const poplar::Graph&, unsigned tile, const Tensor& t) {
  const std::string op = "poputil::TensorUseTracker::add";
  if (!t.valid()) throw poplibs_error(op + ": t is an invalid tensor");
  if (tile >= st->numTiles)
    throw poplibs_error(op + ": tile " + std::to_string(tile) + " is not below the tracker's " +
                        std::to_string(st->numTiles) + " tiles");
  for (const auto& r : t.getVarRegions()) {
    if (r.size() == 0) continue;
    VarUses& v = st->vars[r.var];
    v.graph = t.graphId();
    v.type = t.elementType();
    v.uses.push_back({r.begin, r.end, tile});
  }
}

void TensorUseTracker::add(TensorUseTracker other) {
  if (other.st->numTiles != st->numTiles)
    throw poplibs_error("poputil::TensorUseTracker::add: other tracks " +
                        std::to_string(other.st->numTiles) + " tiles, this one " +
                        std::to_string(st->numTiles));
  for (auto& [var, uses] : other.st->vars) {
    VarUses& v = st->vars[var];
    v.graph = uses.graph;
    v.type = uses.type;
    v.uses.insert(v.uses.end(), uses.uses.begin(), uses.uses.end());
  }
}

void TensorUseTracker::resolve(const poplar::Graph&, unsigned grainSize,
                               unsigned minElementsPerTile, bool extendPartialUsage,
                               MappingMethod mappingMethod) {
  if (grainSize == 0)
    throw poplibs_error("poputil::TensorUseTracker::resolve: grainSize is 0; it must be at "
                        "least 1");
  std::vector<std::size_t> load(st->numTiles, 0);
  for (auto& [var, v] : st->vars) {
    std::vector<Segment> segs = segmentsOf(v.uses);
    if (extendPartialUsage) extendIntoGaps(segs);
    if (mappingMethod == MappingMethod::OptimizeHaloRegions) settleHalos(segs);
    std::vector<Use> settled;
    for (Segment& s : segs) {
      const std::size_t n = s.end - s.begin;
      const std::size_t grains = (n + grainSize - 1) / grainSize;
      std::size_t shares = std::min<std::size_t>(s.tiles.size(), grains);
      if (minElementsPerTile > 0)
        shares = std::max<std::size_t>(1, std::min<std::size_t>(shares, n / minElementsPerTile));
      // The least loaded users take the shares; ties go in mapping order (from startTile,
      // ascending or descending).
      const auto order = [&](unsigned tile) {
        return transformTileIndex(tile, st->numTiles, st->startTile, st->ascending);
      };
      std::stable_sort(s.tiles.begin(), s.tiles.end(), [&](unsigned a, unsigned b) {
        return load[a] != load[b] ? load[a] < load[b] : order(a) < order(b);
      });
      for (std::size_t k = 0; k < shares; ++k) {
        const std::size_t g0 = grains * k / shares, g1 = grains * (k + 1) / shares;
        const std::size_t b = s.begin + std::min(n, g0 * grainSize);
        const std::size_t e = s.begin + std::min(n, g1 * grainSize);
        if (b == e) continue;
        settled.push_back({b, e, s.tiles[k]});
        load[s.tiles[k]] += e - b;
      }
    }
    v.uses = std::move(settled);
  }
}

void TensorUseTracker::mapTensorsByUse(poplar::Graph& graph, unsigned grainSize,
                                       unsigned minElementsPerTile, bool extendPartialUsage,
                                       MappingMethod mappingMethod) {
  resolve(graph, grainSize, minElementsPerTile, extendPartialUsage, mappingMethod);
  for (const auto& [var, v] : st->vars)
    for (const Use& u : v.uses) {
      const Tensor piece(v.graph, v.type, {u.end - u.begin},
                         {poplar::detail::VarRegion{var, u.begin, u.end}});
      graph.setTileMapping(piece, u.tile);
    }
}

bool TensorUseTracker::empty() const {
  return st->vars.empty();
}

} // namespace poputil
