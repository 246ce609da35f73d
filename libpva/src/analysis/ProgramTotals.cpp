// Totals of the program tree's containers (pva::programTotals): each program with every step
// program under it, counted once.
#include "../model/Access.hpp"
#include "../model/Saturating.hpp"
#include "AnalysisCache.hpp"

#include <algorithm>
#include <cstdint>
#include <pva/ProgramTotals.hpp>
#include <string>
#include <vector>

namespace pva {

std::vector<ProgramTotals> programTotals(const Report& report, const SpanFigures& span) {
  const auto programs = report.compilation().programs();
  const std::size_t n = programs.size();
  std::vector<std::vector<std::uint32_t>> children(n);
  for (std::size_t i = 0; i < n; ++i)
    for (const auto& child : programs[i]->children())
      if (child && std::size_t(child->_id()) < n)
        children[i].push_back(std::uint32_t(child->_id()));
  // Where each executed step program works, from the compiled program: tiles of one replica
  // with a cycle estimate (compute) or exchange code, by IPU.
  const unsigned tilesPerIpu = std::max(1u, report.compilation().target().tilesPerIpu());
  std::vector<std::uint64_t> own(n, 0);
  for (std::size_t i = 0; i < n && i < span.programs.size(); ++i) {
    if (!span.programs[i].executions || !programs[i]->isStep()) continue;
    for (const auto& byTile :
         {programs[i]->estimatedCyclesByTile(), programs[i]->codeBytesByTile()})
      for (std::size_t t = 0; t < byTile.size(); ++t)
        if (byTile[t]) own[i] |= std::uint64_t(1) << std::min<std::size_t>(t / tilesPerIpu, 63);
  }
  std::vector<ProgramTotals> out(n);
  // A walk per program over the distinct programs under it: `seen` holds, per program, the
  // number of the walk that last met it, so a program shared by two branches (a Call'd
  // function, a body run from two places) adds its figures once, and cycles in a hostile
  // report's graph end instead of looping.
  std::vector<std::uint32_t> seen(n, 0);
  std::vector<std::uint32_t> stack;
  for (std::size_t root = 0; root < n; ++root) {
    const auto walk = std::uint32_t(root + 1);
    ProgramTotals& t = out[root];
    stack.assign(1, std::uint32_t(root));
    seen[root] = walk;
    while (!stack.empty()) {
      const std::uint32_t p = stack.back();
      stack.pop_back();
      if (p < span.programs.size()) {
        const ProgramFigures& f = span.programs[p];
        detail::addTo(t.cycles, f.cycles);
        detail::addTo(t.steps, f.executions);
        if (f.executions) t.ipuMask |= own[p];
      }
      for (const std::uint32_t c : children[p])
        if (seen[c] != walk) {
          seen[c] = walk;
          stack.push_back(c);
        }
    }
  }
  return out;
}

std::shared_ptr<const std::vector<ProgramTotals>> sharedProgramTotals(const Report& report) {
  const std::shared_ptr<detail::ReportState> state = detail::Access::state(report);
  detail::AnalysisCache& cache = detail::analysisCache(*state);
  const std::vector<ProgramTotals>& kept = cache.programTotals.get([&] {
    const std::shared_ptr<const ExecutionAnalysis> analysis = sharedExecutionAnalysis(report);
    cache.programTotals.value = programTotals(report, analysis->allRuns);
    detail::countDerivation(detail::Derivation::ProgramTotals);
  });
  return std::shared_ptr<const std::vector<ProgramTotals>>(state, &kept);
}

std::string ipusText(std::uint64_t ipuMask) {
  std::string text;
  for (unsigned i = 0; i < 64;) {
    if (!(ipuMask >> i & 1)) {
      ++i;
      continue;
    }
    unsigned j = i;
    while (j + 1 < 64 && (ipuMask >> (j + 1) & 1))
      ++j;
    if (!text.empty()) text += ", ";
    const auto name = [](unsigned k) { return k == 63 ? std::string("63+") : std::to_string(k); };
    text += i == j ? name(i) : name(i) + "-" + name(j);
    i = j + 1;
  }
  return text;
}

} // namespace pva
