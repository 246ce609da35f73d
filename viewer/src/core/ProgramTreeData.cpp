// Reading the program tree and per-program executed cycles from libpva.
#include "core/ProgramTreeData.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <pva/Analysis.hpp>
#include <pva/Compare.hpp>
#include <pva/Debug.hpp>

namespace tessera::viewer {

namespace {

ProgramInfo describe(const pva::Program& p) {
  ProgramInfo info;
  info.name = QString::fromStdString(p.name());
  info.type = QString::fromStdString(pva::Program::typeName(p.type()));
  info.syncType = QString::fromStdString(p.syncType());
  info.dataBytes = p.dataBytes();
  info.isStep = p.isStep();
  const auto control = p.controlCodeByTile();
  info.controlCodeBytes = std::accumulate(control.begin(), control.end(), std::uint64_t(0));
  const auto exchange = p.codeBytesByTile();
  info.exchangeCodeBytes = std::accumulate(exchange.begin(), exchange.end(), std::uint64_t(0));
  if (info.isStep) {
    const auto est = p.estimatedCyclesByTile();
    if (!est.empty()) info.estimatedCyclesMaxTile = *std::max_element(est.begin(), est.end());
  }
  info.numVars = p.vars().size();
  if (p.type() == pva::Program::Type::OnTileExecute)
    info.computeSet = QString::fromStdString(
        static_cast<const pva::OnTileExecuteProgram&>(p).computeSet().name());
  if (p.type() == pva::Program::Type::Repeat)
    info.repeatCount = std::int64_t(static_cast<const pva::RepeatProgram&>(p).repeatCount());
  if (const auto ctx = p.debugContext()) info.debugPath = QString::fromStdString(ctx->path());
  return info;
}

} // namespace

std::shared_ptr<const ProgramTreeData> loadProgramTree(const Document& doc, Progress& progress) {
  return doc.session().programs(progress);
}

ProgramTreeData deriveProgramTree(const pva::Report& report, Progress& progress) {
  const pva::CompilationReport c = report.compilation();
  const auto programs = c.programs();
  ProgramTreeData d;
  d.programs.reserve(programs.size());
  std::vector<std::vector<std::uint32_t>> children(programs.size());
  for (std::size_t i = 0; i < programs.size(); ++i) {
    d.programs.push_back(describe(*programs[i]));
    for (const auto& child : programs[i]->children())
      children[i].push_back(std::uint32_t(child->_id()));
    if (i % 256 == 0) {
      if (progress.cancelled()) throw Cancelled{};
      progress.report(0.9 * double(i) / double(programs.size()));
    }
  }
  // Expand the program graph into places, depth first with an explicit stack (trees can be deep).
  struct Pending {
    std::uint32_t program, parent, row;
  };
  std::vector<Pending> stack;
  const auto entries = c.entryPoints();
  for (std::size_t i = entries.size(); i-- > 0;)
    stack.push_back(
        {std::uint32_t(entries[i]->_id()), ProgramTreeData::noParent, std::uint32_t(i)});
  while (!stack.empty()) {
    if (d.nodes.size() >= ProgramTreeData::maxNodes) {
      d.truncated = true;
      break;
    }
    const Pending p = stack.back();
    stack.pop_back();
    const auto index = std::uint32_t(d.nodes.size());
    d.nodes.push_back({p.program, p.parent, p.row, {}});
    if (p.parent == ProgramTreeData::noParent)
      d.roots.push_back(index);
    else
      d.nodes[p.parent].children.push_back(index);
    const auto& kids = children[p.program];
    for (std::size_t k = kids.size(); k-- > 0;)
      stack.push_back({kids[k], index, std::uint32_t(k)});
  }
  progress.report(1.0);
  return d;
}

ProgramCycles loadProgramCycles(const Document& doc, Progress& progress) {
  const pva::Report& report = doc.report();
  const auto base = doc.base();
  if (base) progress.setStage(0, 0.5);
  const auto baseAnalysis = base ? base->session().execution(progress) : nullptr;
  progress.setStage(base ? 0.5 : 0, 1);
  const auto current = doc.session().execution(progress);
  const pva::ExecutionAnalysis& analysis = *current;
  ProgramCycles out;
  for (const pva::ProgramFigures& p : analysis.allRuns.programs) {
    out.cycles.push_back(p.cycles);
    out.executions.push_back(p.executions);
  }
  out.totals = pva::programTotals(report, analysis.allRuns);
  if (base) {
    std::map<std::string, ProgramCycles::Change> byName;
    for (const pva::NamedComparison& n :
         pva::compareProgramCycles(base->report(), *baseAnalysis, report, analysis))
      byName[n.name] = {n.value.base, n.value.current, n.inBase, n.inCurrent};
    out.compared = true;
    out.basis = pva::runBasis(base->report(), report);
    const auto programs = report.compilation().programs();
    out.changes.resize(programs.size());
    for (std::size_t i = 0; i < programs.size(); ++i) {
      const auto it = byName.find(programs[i]->name());
      if (it != byName.end()) out.changes[i] = it->second;
    }
  }
  return out;
}

} // namespace tessera::viewer
