// pva::insights: does the program fit, where it does not, what fills those tiles, and what to
// change. One pass over the tiles' memory columns, one over the liveness steps' per-tile and
// per-IPU bytes, then the worst tiles' own variables; lists are cut to InsightsOptions' sizes.
#include "../model/Access.hpp"
#include "../model/Saturating.hpp"
#include "MovesData.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <numeric>
#include <pva/Insights.hpp>
#include <set>

namespace pva {

using detail::addTo;
using detail::saturatingAdd;

std::uint64_t LivenessSplit::total() const {
  return saturatingAdd(alwaysLiveBytes, notAlwaysLiveBytes);
}

const std::string& Suggestion::kindName(Kind k) {
  static const std::string names[] = {"float-to-half", "spread-variable", "exchange-code"};
  return names[static_cast<std::size_t>(k)];
}

namespace {

using storage::ReportStore;
using storage::TileColumn;
using storage::U64s;

std::string bytesText(std::uint64_t b) {
  char buf[64];
  if (b >= 1024ull * 1024 * 1024)
    std::snprintf(buf, sizeof buf, "%.2f GiB", double(b) / 1073741824.0);
  else if (b >= 1024 * 1024)
    std::snprintf(buf, sizeof buf, "%.1f MiB", double(b) / 1048576.0);
  else if (b >= 1024)
    std::snprintf(buf, sizeof buf, "%.1f KiB", double(b) / 1024.0);
  else
    std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(b));
  return buf;
}

bool isFloat(const std::string& type) {
  std::string lower(type);
  for (char& ch : lower)
    ch = char(std::tolower(static_cast<unsigned char>(ch)));
  return lower == "float";
}

std::uint64_t at(const U64s& v, std::size_t i) {
  return i < v.size() ? v[i] : 0;
}

/// The `n` largest of `items` by `key` (ties keep their order), largest first.
template <class T, class Key> void keepLargest(std::vector<T>& items, std::size_t n, Key key) {
  std::stable_sort(items.begin(), items.end(),
                   [&](const T& a, const T& b) { return key(a) > key(b); });
  if (items.size() > n) items.resize(n);
}

std::string tileScope(const TileInsight& t) {
  std::string s = "tile " + std::to_string(t.tile) + " (IPU " + std::to_string(t.ipu) + ")";
  if (t.atTilePeak.stepKnown) s += " at liveness step " + std::to_string(t.atTilePeak.step);
  return s;
}

struct Builder {
  const Report& report;
  const InsightsOptions& options;
  std::shared_ptr<detail::ReportState> state;
  ReportStore& store;
  Target target;
  unsigned tilesPerReplica = 0, ipusPerReplica = 0, tilesPerIpu = 0;
  Insights out;

  Builder(const Report& r, const InsightsOptions& o)
      : report(r), options(o), state(detail::Access::state(r)), store(state->store),
        target(state->getTarget()) {
    tilesPerReplica = state->tilesPerReplica();
    ipusPerReplica = target.numReplicas() ? target.ipusPerReplica() : 0;
    tilesPerIpu = target.tilesPerIpu();
    // Each IPU has tiles: a damaged target cannot make more IPUs than that.
    const unsigned ipusWithTiles =
        tilesPerIpu ? (tilesPerReplica + tilesPerIpu - 1) / tilesPerIpu : 0;
    ipusPerReplica = std::min(ipusPerReplica, ipusWithTiles);
  }

  unsigned ipuOf(unsigned tile) const { return tilesPerIpu ? tile / tilesPerIpu : 0; }

  void memory() {
    // The device's totals are summarize's, derived there once (and cached with the report).
    out.memory = summarize(report).memory;
    out.scope.replicas = Scope::Replicas::OneReplica;
    out.bytesPerTile = target.bytesPerTile();
    const U64s& incl = state->getTileColumn(TileColumn::IncludingGaps);
    const U64s& excl = state->getTileColumn(TileColumn::ExcludingGaps);
    const U64s& alwaysLive = state->getTileColumn(TileColumn::AlwaysLive);
    const std::uint64_t cap = out.bytesPerTile;

    out.usage.resize(11);
    for (unsigned b = 0; b < 10; ++b)
      out.usage[b] = {b / 10.0, (b + 1) / 10.0, 0};
    out.usage[10] = {1.0, std::numeric_limits<double>::infinity(), 0};
    out.ipus.resize(ipusPerReplica);
    for (unsigned i = 0; i < ipusPerReplica; ++i) {
      out.ipus[i].ipu = i;
      out.ipus[i].fullestTile = {i * tilesPerIpu, i, 0};
      if (__builtin_mul_overflow(cap, std::uint64_t(tilesPerIpu), &out.ipus[i].capacityBytes))
        out.ipus[i].capacityBytes = std::numeric_limits<std::uint64_t>::max();
    }
    std::uint64_t fullest = 0;
    for (unsigned t = 0; t < tilesPerReplica; ++t) {
      const std::uint64_t bytes = at(incl, t);
      addTo(out.model.alwaysLiveBytes, at(alwaysLive, t));
      fullest = std::max(fullest, bytes);
      const bool over = bytes > cap;
      if (over) {
        ++out.tilesOutOfMemory;
        out.worstOverBytes = std::max(out.worstOverBytes, bytes - cap);
        addTo(out.totalOverBytes, bytes - cap);
      }
      std::size_t bin = 10;
      if (!over)
        bin = cap ? std::min<std::size_t>(9, std::size_t(double(bytes) / double(cap) * 10.0)) : 0;
      ++out.usage[bin].tiles;
      const unsigned ipu = ipuOf(t);
      if (ipu < out.ipus.size()) {
        IpuInsight& i = out.ipus[ipu];
        addTo(i.includingGapsBytes, bytes);
        addTo(i.atModelPeak.alwaysLiveBytes, at(alwaysLive, t));
        i.tilesOutOfMemory += over ? 1 : 0;
        if (bytes > i.fullestTile.bytes) i.fullestTile = {t, ipu, bytes};
      }
    }
    for (IpuInsight& i : out.ipus)
      i.atIpuPeak.alwaysLiveBytes = i.atModelPeak.alwaysLiveBytes;
    out.fits = out.tilesOutOfMemory == 0 && !report.outOfMemory();
    out.headroomBytes = out.fits && fullest < cap ? cap - fullest : 0;

    // The fullest tiles, then lower tile numbers.
    std::vector<unsigned> order(tilesPerReplica);
    std::iota(order.begin(), order.end(), 0u);
    const std::size_t n = std::min<std::size_t>(options.worstTiles, order.size());
    std::partial_sort(order.begin(), order.begin() + std::ptrdiff_t(n), order.end(),
                      [&](unsigned a, unsigned b) {
                        return at(incl, a) != at(incl, b) ? at(incl, a) > at(incl, b) : a < b;
                      });
    const std::vector<MemoryCategories>& categories = state->getCategories();
    for (std::size_t k = 0; k < n; ++k) {
      const unsigned t = order[k];
      TileInsight ti;
      ti.tile = t;
      ti.ipu = ipuOf(t);
      ti.includingGapsBytes = at(incl, t);
      ti.excludingGapsBytes = at(excl, t);
      ti.overBytes = ti.includingGapsBytes > cap ? ti.includingGapsBytes - cap : 0;
      ti.freeBytes = ti.includingGapsBytes < cap ? cap - ti.includingGapsBytes : 0;
      ti.atModelPeak.alwaysLiveBytes = ti.atTilePeak.alwaysLiveBytes = at(alwaysLive, t);
      if (t < categories.size())
        for (std::size_t c = 0; c < MemoryCategories::size(); ++c)
          if (const std::uint64_t b = categories[t].at(c).total())
            ti.categories.push_back({MemoryCategories::names()[c], b});
      keepLargest(ti.categories, ti.categories.size(), [](const NamedBytes& x) { return x.bytes; });
      out.worstTiles.push_back(std::move(ti));
    }
  }

  /// Each tile's worst liveness step (the first of its largest not-always-live bytes).
  std::vector<std::uint64_t> tilePeakBytes, tilePeakStep;
  bool tilePeakKnown = false;

  /// Tiles over their memory that storing FLOAT as HALF would bring within it: FLOAT bytes always
  /// live on the tile or live at its worst step, halved, against its excess.
  unsigned tilesFixedByHalf() {
    const U64s& incl = state->getTileColumn(TileColumn::IncludingGaps);
    const auto& vars = state->getVariables();
    std::vector<std::uint64_t> floatBytes(tilesPerReplica, 0);
    for (const auto& row : store.loweredVariables()) {
      if (row.tile >= tilesPerReplica || row.variable < 0 ||
          std::uint64_t(row.variable) >= vars.size())
        continue;
      const auto& v = vars[std::size_t(row.variable)];
      if (!isFloat(v.elementType)) continue;
      const std::uint64_t step = tilePeakStep.empty() ? 0 : tilePeakStep[row.tile];
      if (row.alwaysLive || (tilePeakKnown && v.from <= step && step < v.to))
        addTo(floatBytes[row.tile], row.bytes);
    }
    unsigned fixed = 0;
    for (unsigned t = 0; t < tilesPerReplica; ++t)
      if (at(incl, t) > out.bytesPerTile && floatBytes[t] / 2 >= at(incl, t) - out.bytesPerTile)
        ++fixed;
    return fixed;
  }

  void liveness() {
    const auto& steps = state->getLiveness();
    // The model's peak: the first step of the largest not-always-live bytes (as summarize).
    for (const auto& row : steps)
      if (!out.model.stepKnown || row.bytes > out.model.notAlwaysLiveBytes) {
        out.model.stepKnown = true;
        out.model.step = row.id;
        out.model.notAlwaysLiveBytes = row.bytes;
        out.peakProgram = row.program < state->getPrograms().objects.size()
                              ? state->getPrograms().objects[row.program]->name()
                              : std::string();
      }
    if (!out.model.stepKnown) return;
    tilePeakBytes.assign(tilesPerReplica, 0);
    tilePeakStep.assign(tilesPerReplica, 0);
    for (const auto& row : steps) {
      const bool isPeak = row.id == out.model.step;
      if (!out.worstTiles.empty()) {
        const U64s byTile = store.livenessBlob(row.id, ReportStore::LivenessBlob::ByTile);
        // Over the stored entries only (missing ones are 0): the work is the file's data, so a
        // damaged report of many steps and many tiles cannot make it quadratic.
        const std::size_t stored = std::min<std::size_t>(byTile.size(), tilesPerReplica);
        if (!tilePeakKnown) std::fill(tilePeakStep.begin(), tilePeakStep.end(), row.id);
        for (std::size_t t = 0; t < stored; ++t)
          if (at(byTile, t) > tilePeakBytes[t] || !tilePeakKnown) {
            tilePeakBytes[t] = at(byTile, t);
            tilePeakStep[t] = row.id;
          }
        tilePeakKnown = true;
        for (TileInsight& t : out.worstTiles) {
          const std::uint64_t b = at(byTile, t.tile);
          if (isPeak) t.atModelPeak = {true, row.id, t.atModelPeak.alwaysLiveBytes, b};
          if (!t.atTilePeak.stepKnown || b > t.atTilePeak.notAlwaysLiveBytes)
            t.atTilePeak = {true, row.id, t.atTilePeak.alwaysLiveBytes, b};
        }
      }
      if (!out.ipus.empty()) {
        const U64s byIpu = store.livenessBlob(row.id, ReportStore::LivenessBlob::ByIpu);
        for (IpuInsight& i : out.ipus) {
          const std::uint64_t b = at(byIpu, i.ipu);
          if (isPeak) i.atModelPeak = {true, row.id, i.atModelPeak.alwaysLiveBytes, b};
          if (!i.atIpuPeak.stepKnown || b > i.atIpuPeak.notAlwaysLiveBytes)
            i.atIpuPeak = {true, row.id, i.atIpuPeak.alwaysLiveBytes, b};
        }
      }
    }
  }

  void vertices() {
    const std::vector<VertexType>& types = state->getVertexTypes();
    std::vector<VertexTypeInsight> all(types.size());
    for (std::size_t i = 0; i < types.size(); ++i) {
      all[i].name = types[i].name();
      all[i].stateBytesEach = types[i].size();
      all[i].codeBytesEach = types[i].codeBytes();
    }
    for (const auto& cs : state->getComputeSets())
      for (const auto& row : store.computeSetVertices(cs.id))
        if (row.vertexType < all.size()) addTo(all[row.vertexType].instances, row.count);
    for (const auto& [type, tiles] : store.vertexTypeTileCounts())
      if (type < all.size()) all[type].tiles = tiles;
    for (VertexTypeInsight& v : all) {
      if (__builtin_mul_overflow(v.instances, v.stateBytesEach, &v.stateBytes))
        v.stateBytes = std::numeric_limits<std::uint64_t>::max();
      if (__builtin_mul_overflow(v.tiles, v.codeBytesEach, &v.codeBytes))
        v.codeBytes = std::numeric_limits<std::uint64_t>::max();
    }
    std::vector<VertexTypeInsight> byState, code;
    for (const VertexTypeInsight& v : all) {
      if (v.stateBytes) byState.push_back(v);
      if (v.codeBytes) code.push_back(v);
    }
    keepLargest(byState, options.topItems, [](const VertexTypeInsight& v) { return v.stateBytes; });
    keepLargest(code, options.topItems, [](const VertexTypeInsight& v) { return v.codeBytes; });
    out.largestVertexState = std::move(byState);
    out.largestVertexCode = std::move(code);
  }

  /// Exchange code on the fullest tile, by program id (for the exchange-code suggestion).
  std::vector<std::pair<std::uint64_t, std::uint64_t>> codeOnWorstTile;

  void exchanges() {
    const detail::ProgramCache& programs = state->getPrograms();
    std::vector<ExchangeInsight> all;
    for (const auto& p : programs.objects) {
      if (!detail::movesData(p->type())) continue;
      ExchangeInsight x;
      x.program = p->_id();
      x.name = p->name();
      x.type = Program::typeName(p->type());
      x.dataBytes = p->dataBytes();
      // The stored array as it is (a program without exchange code stores none): reading each
      // program's code padded to every tile would cost programs x tiles.
      const U64s code = store.programBlob(x.program, ReportStore::ProgramBlob::ExchangeCode);
      for (std::size_t t = 0; t < std::min<std::size_t>(code.size(), tilesPerReplica); ++t) {
        addTo(x.codeBytes, code[t]);
        if (code[t] > x.maxTileCodeBytes) {
          x.maxTileCodeBytes = code[t];
          x.maxTile = unsigned(t);
        }
      }
      if (!out.worstTiles.empty()) {
        const std::uint64_t onWorst = at(code, out.worstTiles.front().tile);
        if (onWorst) codeOnWorstTile.emplace_back(x.program, onWorst);
      }
      if (x.codeBytes || x.dataBytes) all.push_back(std::move(x));
    }
    std::stable_sort(
        all.begin(), all.end(), [](const ExchangeInsight& a, const ExchangeInsight& b) {
          return a.codeBytes != b.codeBytes ? a.codeBytes > b.codeBytes : a.dataBytes > b.dataBytes;
        });
    if (all.size() > options.topItems) all.resize(options.topItems);
    for (ExchangeInsight& x : all)
      x.computeSets = computeSetsServed(x.program);
    out.largestExchanges = std::move(all);
  }

  /// Compute sets next to the exchange in some parent (Syncs between them skipped) that share a
  /// variable with it: the set it feeds (after it) or whose results it moves (before it).
  std::vector<std::string> computeSetsServed(std::uint64_t exchange) {
    const detail::ProgramCache& programs = state->getPrograms();
    std::set<std::uint64_t> exchangeVars;
    for (const ProgramVariable& v : programs.objects[exchange]->vars())
      exchangeVars.insert(v._id());
    std::vector<std::string> names;
    const auto consider = [&](std::uint64_t id) {
      const Program& p = *programs.objects[id];
      if (p.type() != Program::Type::OnTileExecute) return;
      for (const ProgramVariable& v : p.vars())
        if (exchangeVars.count(v._id())) {
          const std::string name = static_cast<const OnTileExecuteProgram&>(p).computeSet().name();
          if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
          return;
        }
    };
    std::size_t parentsSeen = 0;
    for (std::size_t parent = 0; parent < programs.children.size() && parentsSeen < 16; ++parent) {
      const auto& kids = programs.children[parent];
      for (std::size_t i = 0; i < kids.size(); ++i) {
        if (kids[i] != exchange) continue;
        ++parentsSeen;
        for (std::size_t j = i + 1; j < kids.size(); ++j) {
          if (programs.objects[kids[j]]->type() == Program::Type::Sync) continue;
          consider(kids[j]);
          break;
        }
        for (std::size_t j = i; j-- > 0;) {
          if (programs.objects[kids[j]]->type() == Program::Type::Sync) continue;
          consider(kids[j]);
          break;
        }
      }
    }
    return names;
  }

  /// Bytes of each variable on the tile that are always live or live at the tile's worst step,
  /// by index in the variables' list.
  std::map<std::uint64_t, std::uint64_t> liveOnTile(const TileInsight& t) {
    const auto& vars = state->getVariables();
    std::map<std::uint64_t, std::uint64_t> bytes;
    for (const auto& row : store.loweredVariables(t.tile)) {
      if (row.variable < 0 || std::uint64_t(row.variable) >= vars.size()) continue;
      const auto& v = vars[std::size_t(row.variable)];
      const bool live = row.alwaysLive || (t.atTilePeak.stepKnown && v.from <= t.atTilePeak.step &&
                                           t.atTilePeak.step < v.to);
      if (live) addTo(bytes[std::uint64_t(row.variable)], row.bytes);
    }
    return bytes;
  }

  std::vector<NamedBytes> named(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& byVar,
                                std::size_t n) {
    const auto& vars = state->getVariables();
    std::vector<NamedBytes> outList;
    for (const auto& [id, b] : byVar)
      outList.push_back({id < vars.size() ? vars[id].name : "variable " + std::to_string(id), b});
    keepLargest(outList, n, [](const NamedBytes& x) { return x.bytes; });
    return outList;
  }

  void suggestions() {
    const auto& vars = state->getVariables();
    // The fullest tile's own variables (the next tiles of a regular layout hold the same), when
    // it is over its memory or near it (three quarters full): elsewhere a tile's bytes matter
    // little.
    for (std::size_t k = 0; k < std::min<std::size_t>(1, out.worstTiles.size()); ++k) {
      const TileInsight& t = out.worstTiles[k];
      if (t.overBytes == 0 && t.includingGapsBytes / 3 < t.freeBytes) break;
      const std::map<std::uint64_t, std::uint64_t> live = liveOnTile(t);

      // FLOAT -> HALF: each FLOAT element takes 4 bytes, a HALF 2.
      std::vector<std::pair<std::uint64_t, std::uint64_t>> floats;
      std::uint64_t floatBytes = 0;
      for (const auto& [id, b] : live)
        if (id < vars.size() && isFloat(vars[id].elementType)) {
          floats.emplace_back(id, b);
          addTo(floatBytes, b);
        }
      if (floatBytes >= 2) {
        Suggestion s;
        s.kind = Suggestion::Kind::FloatToHalf;
        s.scope = tileScope(t);
        s.savingBytes = floatBytes / 2;
        s.wouldFit = t.overBytes > 0 && s.savingBytes >= t.overBytes;
        s.title = "Store the FLOAT variables on tile " + std::to_string(t.tile) + " as HALF";
        s.detail = std::to_string(floats.size()) + " FLOAT variable(s) hold " +
                   bytesText(floatBytes) + " of tile " + std::to_string(t.tile) +
                   " at its worst step; as HALF they would take half of that";
        if (t.overBytes)
          s.detail += std::string(s.wouldFit ? ", enough" : ", not enough") + " to cover the " +
                      bytesText(t.overBytes) + " it is over";
        s.subjects = named(floats, 5);
        out.suggestions.push_back(std::move(s));
      }

      // Variables concentrated on this tile: what is here beyond an even share over every tile.
      std::vector<std::pair<std::uint64_t, std::uint64_t>> spread;
      std::uint64_t spreadSaving = 0;
      for (const auto& [id, b] : live) {
        if (id >= vars.size() || !tilesPerReplica) continue;
        const std::uint64_t share =
            vars[id].bytes / tilesPerReplica + (vars[id].bytes % tilesPerReplica ? 1 : 0);
        if (b >= 1024 && b / 4 >= share) {
          spread.emplace_back(id, b - share);
          addTo(spreadSaving, b - share);
        }
      }
      if (!spread.empty()) {
        const std::vector<NamedBytes> top = named(spread, 3);
        std::uint64_t saving = 0;
        for (const NamedBytes& x : top)
          addTo(saving, x.bytes);
        Suggestion s;
        s.kind = Suggestion::Kind::SpreadVariable;
        s.scope = tileScope(t);
        s.savingBytes = saving;
        s.wouldFit = t.overBytes > 0 && saving >= t.overBytes;
        s.title = "Map '" + top.front().name + "'" +
                  (top.size() > 1 ? " and " + std::to_string(top.size() - 1) + " more" : "") +
                  " over more tiles";
        s.detail = "on tile " + std::to_string(t.tile) +
                   " they hold at least 4 times their even share over the " +
                   std::to_string(tilesPerReplica) +
                   " tiles; spread evenly, the tile keeps only that share";
        s.subjects = top;
        out.suggestions.push_back(std::move(s));
      }

      // The exchange with the most code on the fullest tile.
      if (k == 0 && !codeOnWorstTile.empty()) {
        const auto largest =
            *std::max_element(codeOnWorstTile.begin(), codeOnWorstTile.end(),
                              [](const auto& a, const auto& b) { return a.second < b.second; });
        if (largest.second >= 256) {
          const Program& p = *state->getPrograms().objects[largest.first];
          const std::vector<std::string> sets = computeSetsServed(largest.first);
          Suggestion s;
          s.kind = Suggestion::Kind::ExchangeCode;
          s.scope = "tile " + std::to_string(t.tile) + " (IPU " + std::to_string(t.ipu) + ")";
          s.savingBytes = largest.second;
          s.wouldFit = t.overBytes > 0 && s.savingBytes >= t.overBytes;
          s.title = "Avoid the exchange '" + p.name() + "'";
          s.detail = "its code takes " + bytesText(largest.second) + " of tile " +
                     std::to_string(t.tile) +
                     (sets.empty() ? std::string()
                                   : "; map the data of compute set '" + sets.front() +
                                         "' onto the tiles that use it") +
                     " and the exchange, with its code, goes";
          s.subjects = {{p.name(), largest.second}};
          out.suggestions.push_back(std::move(s));
        }
      }
    }

    // The whole model: FLOAT variables always live, and those live at the peak step.
    if (out.model.stepKnown || !vars.empty()) {
      std::vector<std::pair<std::uint64_t, std::uint64_t>> floats;
      std::uint64_t floatBytes = 0;
      for (std::size_t index = 0; index < vars.size(); ++index) {
        const auto& v = vars[index];
        if (!isFloat(v.elementType)) continue;
        const bool live = v.alwaysLive || (out.model.stepKnown && v.from <= out.model.step &&
                                           out.model.step < v.to);
        if (!live || !v.bytes) continue;
        floats.emplace_back(index, v.bytes);
        addTo(floatBytes, v.bytes);
      }
      if (floatBytes >= 2) {
        Suggestion s;
        s.kind = Suggestion::Kind::FloatToHalf;
        s.scope = "one replica" + (out.model.stepKnown ? " at the peak liveness step " +
                                                             std::to_string(out.model.step)
                                                       : std::string());
        s.savingBytes = floatBytes / 2;
        s.title = "Store the model's FLOAT variables as HALF";
        s.detail = std::to_string(floats.size()) + " FLOAT variable(s) hold " +
                   bytesText(floatBytes) +
                   " at the peak (always live, or live at that step); as HALF they would take half";
        if (out.tilesOutOfMemory) {
          const unsigned fixed = tilesFixedByHalf();
          s.tilesOver = out.tilesOutOfMemory;
          s.tilesThatWouldFit = fixed;
          s.detail += "; " + std::to_string(fixed) + " of the " +
                      std::to_string(out.tilesOutOfMemory) +
                      " tiles over their memory would then fit";
        }
        s.subjects = named(floats, 5);
        out.suggestions.push_back(std::move(s));
      }
    }
    keepLargest(out.suggestions, options.suggestions,
                [](const Suggestion& s) { return s.savingBytes; });
  }
};

} // namespace

Insights insights(const Report& report, const InsightsOptions& options) {
  Builder b(report, options);
  b.memory();
  b.liveness();
  b.vertices();
  b.exchanges();
  b.suggestions();
  return std::move(b.out);
}

} // namespace pva
