#include "core/VariableLives.hpp"

#include "core/NameTerms.hpp"

#include <algorithm>

namespace tessera::viewer {

std::vector<std::size_t> VariableLives::matching(const QStringList& terms,
                                                 std::size_t* matched) const {
  std::vector<std::size_t> out;
  if (!terms.isEmpty())
    for (std::size_t i = 0; i < variables.size(); ++i)
      if (matchesAnyTerm(variables[i].name, terms)) out.push_back(i);
  std::stable_sort(out.begin(), out.end(), [this](std::size_t a, std::size_t b) {
    if (variables[a].bytes != variables[b].bytes) return variables[a].bytes > variables[b].bytes;
    return variables[a].name < variables[b].name;
  });
  if (matched) *matched = out.size();
  return out;
}

VariableLives loadVariableLives(const Document& doc, Progress& progress) {
  const pva::Report& report = doc.report();
  const pva::CompilationReport compilation = report.compilation();
  VariableLives out;
  out.steps = compilation.livenessProgramSteps().size();
  const std::vector<pva::Variable> vars = compilation.variables();
  out.variables.reserve(vars.size());
  for (std::size_t i = 0; i < vars.size(); ++i) {
    if ((i & 1023) == 0) {
      if (progress.cancelled()) throw Cancelled{};
      progress.report(double(i) / double(std::max<std::size_t>(1, vars.size())));
    }
    const pva::Variable& v = vars[i];
    VariableLife life;
    life.name = QString::fromStdString(v.name());
    life.bytes = v.bytes();
    life.alwaysLive = v.alwaysLive();
    life.from = life.alwaysLive ? 0 : v.liveFrom();
    life.to = life.alwaysLive ? out.steps : v.liveTo();
    out.variables.push_back(std::move(life));
  }
  return out;
}

} // namespace tessera::viewer
