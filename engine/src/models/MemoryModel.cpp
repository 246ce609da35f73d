#include "MemoryModel.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace poplar::detail::models {
using compiler::CompiledGraph;

namespace {

// Sizes of vertex state (the IPU's 32-bit pointers and counts).
constexpr std::uint64_t kPointerBytes = 4;
constexpr std::uint64_t kCountBytes = 4;
constexpr std::uint64_t kRunDescriptorBytes = 4;
/// Supervisor stack plus one worker stack per context, on every tile that runs vertices.
constexpr std::uint64_t kSupervisorStackBytes = 128, kWorkerStackBytes = 64;
/// Cycle counter storage per compute set per tile when compute instrumentation is on.
constexpr std::uint64_t kInstrumentationCounterBytes = 8;
constexpr std::uint64_t kCodeAlignment = 8, kDataAlignment = 8;

static_assert(sizeof(Allocation) <= 32, "an Allocation per variable piece: keep it small");

std::uint64_t alignUp(std::uint64_t x, std::uint64_t a) {
  return (x + a - 1) / a * a;
}

struct Piece { // widest members first: 24 bytes, not 32
  std::uint64_t bytes;
  int var;
  unsigned from, to;
  MemoryCategory category;
  bool alwaysLive;
};

using Cat = MemoryCategory;

/// A not-always-live piece already placed on a tile: its addresses and its steps [from, to).
struct Placed {
  std::uint64_t offset, end;
  unsigned from, to;
};

/// The placed pieces, found by the steps they are live in. Interval allocation asks, for every
/// new piece, which placed pieces are live at the same time; scanning them all made a tile with
/// thousands of short-lived variables quadratic. Here the pieces are grouped by the length of
/// their live interval (lengths in [2^k, 2^(k+1))) and, in each group, ordered by first step, so
/// a piece of group k live at [from, to) can only meet those starting in [from - 2^(k+1), to).
/// Only the candidates are visited; what is found is the same set as the full scan.
class PlacedByTime {
public:
  void add(const Placed& p) { groups_[group(p.to - p.from)].emplace(p.from, p); }
  template <class F> void forEachOverlapping(unsigned from, unsigned to, F&& f) const {
    for (unsigned k = 0; k < groups_.size(); ++k) {
      const auto& g = groups_[k];
      if (g.empty()) continue;
      const std::uint64_t reach = std::uint64_t(2) << k; // longer than any interval of the group
      const unsigned lowest = from > reach ? static_cast<unsigned>(from - reach) : 0;
      for (auto it = g.lower_bound(lowest); it != g.end() && it->first < to; ++it)
        if (it->second.from < to && from < it->second.to) f(it->second);
    }
  }

private:
  static unsigned group(unsigned length) {
    return length ? 31 - static_cast<unsigned>(__builtin_clz(length)) : 0;
  }
  std::array<std::multimap<unsigned, Placed>, 32> groups_;
};

class Builder {
public:
  Builder(const CompiledGraph& g, const ProgramModel& m, const std::vector<VariableLiveness>& live,
          const MemoryOptions& o)
      : g_(g), m_(m), live_(live), o_(o), numTiles_(g.replicaTarget.getNumTiles()),
        code_(numTiles_), firstOf_(numTiles_ + 1, 0) {}

  MemoryModel build() {
    countVertices();
    countPrograms();
    countInstrumentation();
    MemoryModel out;
    collectVariables(out);
    out.bytesPerTile = g_.replicaTarget.getBytesPerTile();
    out.tiles.resize(numTiles_);
    out.categories.resize(numTiles_);
    placeAll(out);
    for (unsigned t = 0; t < numTiles_; ++t)
      if (out.tiles[t].includingGaps > out.bytesPerTile) out.overflowingTiles.push_back(t);
    std::stable_sort(out.overflowingTiles.begin(), out.overflowingTiles.end(),
                     [&](unsigned a, unsigned b) {
                       return out.tiles[a].includingGaps > out.tiles[b].includingGaps;
                     });
    peaks(out);
    return out;
  }

private:
  void addCode(unsigned tile, Cat c, std::uint64_t bytes) {
    if (bytes) code_[tile][c] += bytes;
  }

  void countVertices() {
    std::vector<std::set<const VertexTypeDescriptor*>> types(numTiles_);
    for (const auto& cs : g_.computeSets)
      for (const auto& v : cs.vertices) {
        types[v.tile].insert(v.type);
        std::uint64_t state = 0, fieldData = 0, descriptors = 0;
        const auto fields = cs.fieldsOf(v);
        for (std::size_t f = 0; f < fields.size(); ++f) {
          const auto& d = v.type->fields[f];
          if (d.direction == FieldDirection::State) {
            state += d.stateSize;
            continue;
          }
          if (d.isEdgeList) {
            state += kPointerBytes + kCountBytes;
            fieldData +=
                fields[f].numEdges * (d.isVector ? kPointerBytes + kCountBytes : kPointerBytes);
          } else {
            state += d.isVector ? kPointerBytes + kCountBytes : kPointerBytes;
          }
          for (const auto& e : cs.edgesOf(fields[f]))
            if (e.numRuns > 1) descriptors += kRunDescriptorBytes * e.numRuns;
        }
        addCode(v.tile, Cat::vertexInstanceState, state);
        addCode(v.tile, Cat::vertexFieldData, fieldData);
        addCode(v.tile, Cat::vectorListDescriptor, descriptors);
      }
    const std::uint64_t stack =
        kSupervisorStackBytes + kWorkerStackBytes * g_.replicaTarget.getNumWorkerContexts();
    for (unsigned t = 0; t < numTiles_; ++t) {
      for (const auto* type : types[t])
        addCode(t, Cat::vertexCode, type->codeBytes);
      if (!types[t].empty()) addCode(t, Cat::stack, stack);
    }
  }

  void countPrograms() {
    for (const auto& p : m_.programs) {
      for (const auto& tv : p.controlCode)
        addCode(tv.tile, Cat::controlCode, tv.value);
      for (const auto& tv : p.copyDescriptors)
        addCode(tv.tile, Cat::copyDescriptor, tv.value);
      const Cat exchange = p.type == ProgramType::DoExchange       ? Cat::internalExchangeCode
                           : p.type == ProgramType::GlobalExchange ? Cat::globalExchangeCode
                                                                   : Cat::hostExchangeCode;
      for (const auto& tv : p.exchangeCode)
        addCode(tv.tile, exchange, tv.value);
    }
  }

  void countInstrumentation() {
    if (o_.computeInstrumentation)
      for (const auto& p : m_.programs)
        if (p.type == ProgramType::OnTileExecute)
          for (const auto& tv : p.cycles)
            addCode(tv.tile, Cat::instrumentationResults, kInstrumentationCounterBytes);
    for (unsigned t : o_.blockTiles)
      if (t < numTiles_) addCode(t, Cat::instrumentationResults, o_.blockBufferBytes);
  }

  /// Calls f(tile, var, category, bytes) for each piece: a variable's (or message buffer's)
  /// bytes on one tile, in variable order, then tile order.
  template <class F> void forEachPiece(F&& f) const {
    auto piece = [&](unsigned tile, int var, Cat c, std::uint64_t bytes) {
      if (bytes && tile < numTiles_) f(tile, var, c, bytes);
    };
    for (std::size_t v = 0; v < g_.variables.size(); ++v) {
      const auto& var = g_.variables[v];
      std::map<unsigned, std::uint64_t> perTile; // one piece per tile, however many intervals
      for (const auto& ti : var.mapping)
        perTile[ti.tile] += (ti.end - ti.begin) * var.type.size();
      const Cat c = var.isConstant ? Cat::constant : Cat::variable;
      for (const auto& [tile, bytes] : perTile)
        piece(tile, static_cast<int>(v), c, bytes);
    }
    for (std::size_t i = 0; i < m_.messages.size(); ++i)
      for (const auto& tv : m_.messages[i].bytes)
        piece(tv.tile, static_cast<int>(g_.variables.size() + i), Cat::message, tv.value);
  }

  /// Sizes each tile's slice of out.allocations (its code categories, then its pieces) and
  /// writes the pieces into their tiles' slices, unplaced: place() lays each slice out where it
  /// is. Pieces and allocations in one array, written once: separate per-tile piece arrays were
  /// held beside all the allocations (issue 38: 10 M vertices). Two passes over the variables'
  /// mappings (count, then write) rather than a second copy of the pieces.
  void collectVariables(MemoryModel& out) {
    std::vector<std::size_t> next(numTiles_, 0); // pieces per tile, then the next free slot
    forEachPiece([&](unsigned tile, int, Cat, std::uint64_t) { ++next[tile]; });
    for (unsigned t = 0; t < numTiles_; ++t) {
      pieces_ += next[t];
      firstOf_[t + 1] = firstOf_[t] + code_[t].size() + next[t];
      next[t] = firstOf_[t] + code_[t].size();
    }
    out.allocations.resize(firstOf_[numTiles_]);
    forEachPiece([&](unsigned tile, int var, Cat c, std::uint64_t bytes) {
      const bool alwaysLive = live_[static_cast<std::size_t>(var)].alwaysLive;
      out.allocations[next[tile]++] = {tile, var, bytes, 0, 0, c, alwaysLive, false};
    });
  }

  /// Lays out every tile. Tiles are independent, so with o_.threads > 1 and enough pieces to be
  /// worth it, host threads take tiles in chunks; each tile writes its own slice of
  /// out.allocations, so the model is the same whatever the thread count.
  void placeAll(MemoryModel& out) {
    // Each code category and each piece of a tile becomes one allocation, in the tile's slice
    // (collectVariables): per-tile arrays joined afterwards held every allocation twice at the
    // join (issue 38, 10 M vertices).
    auto sliceOf = [&](unsigned t) { return out.allocations.data() + firstOf_[t]; };
    auto sizeOf = [&](unsigned t) { return firstOf_[t + 1] - firstOf_[t]; };
    const unsigned threads =
        pieces_ < kMinPiecesForThreads ? 1 : std::max(1u, std::min(o_.threads, numTiles_));
    std::atomic<unsigned> next{0};
    // Hands finished tiles to o_.onTile in tile order: a chunk finishing early waits (in `done`)
    // for the chunks before it; whoever completes the prefix passes it on.
    std::mutex handOver;
    std::vector<char> done(o_.onTile ? numTiles_ : 0, 0);
    unsigned handedOver = 0;
    auto finished = [&](unsigned first, unsigned last) {
      if (!o_.onTile) return;
      std::lock_guard<std::mutex> lock(handOver);
      for (unsigned t = first; t < last; ++t)
        done[t] = 1;
      for (; handedOver < numTiles_ && done[handedOver]; ++handedOver)
        o_.onTile(handedOver, sliceOf(handedOver), sizeOf(handedOver));
    };
    auto work = [&] {
      for (unsigned first; (first = next.fetch_add(kTilesPerChunk)) < numTiles_;) {
        const unsigned last = std::min(numTiles_, first + kTilesPerChunk);
        for (unsigned t = first; t < last; ++t)
          place(t, out, sliceOf(t), sizeOf(t));
        finished(first, last);
      }
    };
    std::vector<std::thread> helpers;
    for (unsigned i = 1; i < threads; ++i)
      helpers.emplace_back(work);
    work();
    for (auto& h : helpers)
      h.join();
  }
  static constexpr std::size_t kMinPiecesForThreads = 50000;
  static constexpr unsigned kTilesPerChunk = 16;

  /// Lays out one tile: code and state from address 0 (they must be in the non-interleaved
  /// region), always-live data after them, then not-always-live data by interval allocation.
  /// `allocs`: the tile's slice of the model's allocations, `count` of them (placeAll).
  void place(unsigned t, MemoryModel& out, Allocation* allocs, std::size_t count) {
    std::size_t n = 0;                                 // allocations written
    std::uint64_t cursor = 0, top = 0, alwaysLive = 0; // next free address; highest used address
    auto placeAlwaysLive = [&](int var, Cat c, std::uint64_t bytes, std::uint64_t alignment) {
      cursor = alignUp(cursor, alignment);
      allocs[n++] = {t, var, bytes, cursor, static_cast<std::uint32_t>(alignment), c, true, false};
      cursor += bytes;
      top = cursor;
      alwaysLive += bytes;
    };
    // The slice holds the code categories' places, then the tile's pieces (collectVariables):
    // taken out before the slice is overwritten with the allocations, in the order they had.
    const std::size_t codes = code_[t].size();
    std::vector<Piece> pieces;
    pieces.reserve(count - codes);
    for (std::size_t i = codes; i < count; ++i) {
      const Allocation& a = allocs[i];
      const auto& l = live_[static_cast<std::size_t>(a.var)];
      pieces.push_back({a.bytes, a.var, l.from, l.to, a.category, a.alwaysLive});
    }
    for (const auto& [c, bytes] : code_[t])
      placeAlwaysLive(-1, c, bytes, kCodeAlignment);
    for (const auto& p : pieces)
      if (p.alwaysLive) placeAlwaysLive(p.var, p.category, p.bytes, kDataAlignment);
    const std::uint64_t base = alignUp(cursor, kDataAlignment);

    std::vector<const Piece*> order;
    for (const auto& p : pieces)
      if (!p.alwaysLive) order.push_back(&p);
    std::stable_sort(order.begin(), order.end(),
                     [](const Piece* a, const Piece* b) { return a->bytes > b->bytes; });
    PlacedByTime placed;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> busy;
    for (const Piece* p : order) {
      busy.clear();
      placed.forEachOverlapping(p->from, p->to, [&](const Placed& q) {
        busy.push_back({q.offset, q.end});
      });
      std::sort(busy.begin(), busy.end());
      std::uint64_t at = base;
      for (const auto& [b, e] : busy) {
        if (at + p->bytes <= b) break;
        at = std::max(at, alignUp(e, kDataAlignment));
      }
      placed.add({at, at + p->bytes, p->from, p->to});
      allocs[n++] = {t,           p->var, p->bytes, at, static_cast<std::uint32_t>(kDataAlignment),
                     p->category, false,  false};
      top = std::max(top, at + p->bytes);
    }

    assert(n == count);
    markOverlaps(allocs, count);
    summarise(t, allocs, count, out);
    out.tiles[t].includingGaps = top;
    out.tiles[t].alwaysLive = alwaysLive;
  }

  // Marks every allocation whose addresses intersect another's (all have bytes > 0). After the
  // sort by offset, a later allocation intersects an earlier one exactly when it starts before the
  // furthest end so far, and an earlier one intersects some later one exactly when the next one
  // starts before it ends: two linear passes instead of comparing pairs (thousands of pieces share
  // an offset on a tile whose variables live at different times).
  static void markOverlaps(Allocation* allocs, std::size_t count) {
    std::sort(allocs, allocs + count, [](auto& a, auto& b) { return a.offset < b.offset; });
    std::uint64_t furthestEnd = 0;
    for (std::size_t i = 0; i < count; ++i) {
      if (i > 0 && allocs[i].offset < furthestEnd) allocs[i].overlapped = true;
      if (i + 1 < count && allocs[i + 1].offset < allocs[i].offset + allocs[i].bytes)
        allocs[i].overlapped = true;
      furthestEnd = std::max(furthestEnd, allocs[i].offset + allocs[i].bytes);
    }
  }

  void summarise(unsigned t, const Allocation* allocs, std::size_t count, MemoryModel& out) const {
    const auto& offsets = g_.replicaTarget.getMemoryElementOffsets();
    const unsigned il = g_.replicaTarget.getInterleavedMemoryElementIndex();
    const std::uint64_t capacity = g_.replicaTarget.getBytesPerTile();
    const std::uint64_t interleavedStart = il < offsets.size() ? offsets[il] : capacity;
    for (std::size_t i = 0; i < count; ++i) {
      const Allocation& a = allocs[i];
      const std::uint64_t b = a.offset, e = a.offset + a.bytes;
      auto within = [&](std::uint64_t lo, std::uint64_t hi) {
        return std::max(b, lo) < std::min(e, hi) ? std::min(e, hi) - std::max(b, lo) : 0;
      };
      auto& c = out.categories[t][static_cast<std::size_t>(a.category)];
      c.byRegion[0][a.overlapped] += within(0, interleavedStart);
      c.byRegion[1][a.overlapped] += within(interleavedStart, capacity);
      c.byRegion[2][a.overlapped] += within(capacity, ~std::uint64_t(0));
    }
  }

  void peaks(MemoryModel& out) const {
    out.forEachLivenessStep(
        live_, m_.schedule.size(), [&](unsigned, const std::vector<std::uint64_t>& bytes) {
          std::uint64_t total = 0;
          for (unsigned t = 0; t < numTiles_; ++t) {
            out.tiles[t].notAlwaysLivePeak = std::max(out.tiles[t].notAlwaysLivePeak, bytes[t]);
            total += bytes[t];
          }
          out.notAlwaysLiveByStep.push_back(total);
        });
    for (auto& tile : out.tiles)
      tile.excludingGaps = tile.alwaysLive + tile.notAlwaysLivePeak;
  }

  const CompiledGraph& g_;
  const ProgramModel& m_;
  const std::vector<VariableLiveness>& live_;
  const MemoryOptions& o_;
  unsigned numTiles_;
  std::vector<std::map<Cat, std::uint64_t>> code_;
  /// Where each tile's slice of the allocations starts, and the end (collectVariables).
  std::vector<std::size_t> firstOf_;
  std::size_t pieces_ = 0; ///< over all tiles
};

} // namespace

std::uint64_t CategoryBytes::total() const {
  std::uint64_t s = 0;
  for (const auto& r : byRegion)
    s += r[0] + r[1];
  return s;
}

namespace {
/// MemoryModel::forEachLivenessStep with allocation indices of type Index (32 bits whenever they
/// fit: the sweep's two index arrays are the largest thing it holds).
template <class Index>
void sweepLiveness(const std::vector<Allocation>& allocations,
                   const std::vector<VariableLiveness>& live, std::size_t numSteps,
                   std::size_t numTiles,
                   const std::function<void(unsigned, const std::vector<std::uint64_t>&)>& f) {
  // Each not-always-live allocation adds its bytes at step `from` and removes them at `to`. The
  // allocations are bucketed by those steps (a counting sort: a million vertices make millions of
  // them, and a comparison sort was the largest part of this sweep), as indices: 8 bytes per
  // allocation rather than two 16-byte (tile, delta) events (issue 38). Within a step the order
  // does not matter: all of a step's changes are applied before f sees it.
  // A step past the schedule's end goes to the bucket after the last one, never applied.
  auto bucket = [&](unsigned step) { return std::min<std::size_t>(step, numSteps); };
  auto forEachLive = [&](auto&& visit) {
    for (std::size_t i = 0; i < allocations.size(); ++i) {
      const Allocation& a = allocations[i];
      if (a.alwaysLive || a.var < 0) continue;
      const auto& l = live[static_cast<std::size_t>(a.var)];
      if (l.from < l.to) visit(static_cast<Index>(i), bucket(l.from), bucket(l.to));
    }
  };
  // Allocations added at step s: adds[addStart[s], addStart[s + 1]); removed: the same.
  std::vector<std::size_t> addStart(numSteps + 2, 0), removeStart(numSteps + 2, 0);
  forEachLive([&](Index, std::size_t from, std::size_t to) {
    ++addStart[from + 1];
    ++removeStart[to + 1];
  });
  for (std::size_t s = 1; s < addStart.size(); ++s) {
    addStart[s] += addStart[s - 1];
    removeStart[s] += removeStart[s - 1];
  }
  std::vector<Index> adds(addStart.back()), removes(removeStart.back());
  {
    std::vector<std::size_t> nextAdd(addStart.begin(), addStart.end() - 1),
        nextRemove(removeStart.begin(), removeStart.end() - 1);
    forEachLive([&](Index i, std::size_t from, std::size_t to) {
      adds[nextAdd[from]++] = i;
      removes[nextRemove[to]++] = i;
    });
  }
  std::vector<std::uint64_t> bytes(numTiles, 0);
  for (unsigned s = 0; s < numSteps; ++s) {
    for (std::size_t e = addStart[s]; e < addStart[s + 1]; ++e)
      bytes[allocations[adds[e]].tile] += allocations[adds[e]].bytes;
    // Unsigned arithmetic is modulo 2^64: the adds and removes of a step in any order.
    for (std::size_t e = removeStart[s]; e < removeStart[s + 1]; ++e)
      bytes[allocations[removes[e]].tile] -= allocations[removes[e]].bytes;
    f(s, bytes);
  }
}
} // namespace

void MemoryModel::forEachLivenessStep(
    const std::vector<VariableLiveness>& live, std::size_t numSteps,
    const std::function<void(unsigned, const std::vector<std::uint64_t>&)>& f) const {
  if (allocations.size() <= std::numeric_limits<std::uint32_t>::max())
    sweepLiveness<std::uint32_t>(allocations, live, numSteps, tiles.size(), f);
  else
    sweepLiveness<std::size_t>(allocations, live, numSteps, tiles.size(), f);
}

MemoryModel buildMemoryModel(const CompiledGraph& g, const ProgramModel& m,
                             const std::vector<VariableLiveness>& live,
                             const MemoryOptions& options) {
  return Builder(g, m, live, options).build();
}

} // namespace poplar::detail::models
