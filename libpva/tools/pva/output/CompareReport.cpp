// What grew, and how runs are named: shared by the text and JSON outputs of `pva compare`.
#include "output/CompareReport.hpp"

#include <algorithm>

namespace pvacli {

namespace {

void addGroup(std::vector<Increase>& out, std::vector<Increase> group, std::size_t top) {
  std::vector<Increase> grew;
  for (auto& i : group)
    if (i.value.delta() > 0) grew.push_back(std::move(i));
  std::stable_sort(grew.begin(), grew.end(), [](const Increase& a, const Increase& b) {
    return a.value.delta() > b.value.delta();
  });
  if (grew.size() > top) grew.resize(top);
  out.insert(out.end(), grew.begin(), grew.end());
}

std::vector<Increase> namedGroup(const std::vector<pva::NamedComparison>& list,
                                 const std::string& what, const std::string& unit) {
  std::vector<Increase> g;
  for (const auto& n : list)
    g.push_back({what, unit, n.name, n.inBase, n.inCurrent, n.value});
  return g;
}

} // namespace

std::string runLabel(const pva::RunComparison& run) {
  using M = pva::RunComparison::Match;
  switch (run.match) {
  case M::ByName:
    return run.baseName;
  case M::ByPosition:
    return run.baseName + " -> " + run.currentName + " (by position)";
  case M::OnlyInBase:
    return run.baseName + " (only in base)";
  case M::OnlyInCurrent:
    return run.currentName + " (only in new)";
  }
  return {};
}

std::vector<Increase> increases(const CompareResult& r) {
  std::vector<Increase> out;
  const auto& c = r.comparison;
  const bool related = c.programsInCommon.related;
  addGroup(out, namedGroup(c.memory.categories, "memory category", "bytes"), r.top);
  if (related) {
    // Code and state are always-live pseudo-variables named after their category: the category
    // lines above say that already.
    std::vector<Increase> variables;
    const auto& categoryNames = pva::MemoryCategories::names();
    for (Increase& i : namedGroup(c.variables.alwaysLive, "variable (always)", "bytes"))
      if (std::find(categoryNames.begin(), categoryNames.end(), i.name) == categoryNames.end())
        variables.push_back(std::move(i));
    addGroup(out, std::move(variables), r.top);
    addGroup(out, namedGroup(c.variables.atPeak, "variable (at peak)", "bytes"), r.top);
  }
  if (c.hasExecution) {
    if (related)
      addGroup(out, namedGroup(c.cycles.computeSets, "compute set cycles", "cycles"), r.top);
    std::vector<Increase> runs;
    for (const auto& run : c.cycles.matchedRuns)
      runs.push_back(
          {"run cycles", "cycles", runLabel(run), run.inBase(), run.inCurrent(), run.cycles});
    addGroup(out, std::move(runs), r.top);
    addGroup(out, namedGroup(c.cycles.kinds, "tile cycles", "cycles"), r.top);
  }
  if (related && c.operations.compared && c.hasExecution) {
    std::vector<Increase> ops;
    for (const auto& o : c.operations.operations)
      ops.push_back({"operation cycles", "cycles", o.name, o.inBase, o.inCurrent, o.cycles});
    addGroup(out, std::move(ops), r.top);
  }
  return out;
}

} // namespace pvacli
