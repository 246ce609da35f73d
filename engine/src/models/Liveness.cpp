#include "Liveness.hpp"

#include <algorithm>
#include <limits>

namespace poplar::detail::models {
using compiler::CompiledGraph;

std::vector<VariableLiveness> computeLiveness(const CompiledGraph& g, const ProgramModel& m) {
  constexpr unsigned kNone = std::numeric_limits<unsigned>::max();
  const std::size_t n = g.variables.size() + m.messages.size();
  std::vector<VariableLiveness> live(n);
  std::vector<unsigned> first(n, kNone), last(n, 0), entry(n, kNone);
  std::vector<bool> readFirst(n, false), manyEntries(n, false);

  for (std::size_t e = 0; e < m.entryRanges.size(); ++e)
    for (unsigned s = m.entryRanges[e].begin; s < m.entryRanges[e].end; ++s)
      for (const auto& a : m.programs[m.schedule[s]].vars) {
        if (first[a.var] == kNone) {
          first[a.var] = s;
          readFirst[a.var] = (std::uint8_t(a.access) & std::uint8_t(Access::Read)) != 0;
          entry[a.var] = static_cast<unsigned>(e);
        } else if (entry[a.var] != e) {
          manyEntries[a.var] = true;
        }
        last[a.var] = s;
      }

  for (std::size_t v = 0; v < g.variables.size(); ++v)
    if (g.variables[v].isConstant || !g.variables[v].initial.empty()) live[v].alwaysLive = true;
  for (const auto& h : g.hostHandles)
    for (const auto& r : h.transfer.regions)
      live[r.var].alwaysLive = true;

  // Innermost loops first, so that extending to an inner loop's end can reach an outer loop.
  auto loops = m.loops;
  std::sort(loops.begin(), loops.end(),
            [](auto& a, auto& b) { return a.end - a.begin < b.end - b.begin; });
  for (std::size_t v = 0; v < n; ++v) {
    auto& l = live[v];
    if (readFirst[v] || manyEntries[v]) l.alwaysLive = true;
    if (l.alwaysLive || first[v] == kNone) continue;
    l.from = first[v];
    l.to = last[v] + 1;
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& loop : loops)
        if (l.from < loop.begin && l.to > loop.begin && l.to < loop.end) {
          l.to = loop.end;
          changed = true;
        }
    }
  }
  return live;
}

} // namespace poplar::detail::models
