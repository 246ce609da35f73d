#include "LegacyProfile.hpp"

#include "EngineOptions.hpp"

#include <algorithm>
#include <poplar/Engine.hpp>
#include <poplar/exceptions.hpp>
#include <pva/pva.hpp>

namespace poplar {
namespace detail::session {
namespace {

ProfileValue numbers(const std::vector<std::uint64_t>& v) {
  ProfileValue::Vector out;
  out.reserve(v.size());
  for (auto x : v)
    out.emplace_back(static_cast<double>(x));
  return out;
}

/// The report a profile came from, named by its "profilePath" entry.
pva::Report reportOf(const ProfileValue& profile, const char* what) {
  const ProfileValue* path = profile.getOrNull("profilePath");
  if (!path || path->type() != ProfileValue::Type::STRING)
    throw poplar_error(std::string(what) +
                       ": the graph profile names no report (it has no \"profilePath\"): pass "
                       "the ProfileValue Engine::getGraphProfile returned");
  try {
    return pva::openReport(path->asString());
  } catch (const std::exception& e) {
    throw poplar_error(std::string(what) + ": cannot read the profile '" + path->asString() +
                       "': " + e.what());
  }
}

} // namespace

ProfileValue graphProfile(const pva::Report& report) {
  const auto c = report.compilation();
  const auto t = c.target();
  const auto g = c.graph();
  ProfileValue::Map target{
      {"type", pva::Target::typeName(t.type())},
      {"architecture", pva::Target::architectureName(t.architecture())},
      {"numIPUs", t.numIPUs()},
      {"tilesPerIPU", t.tilesPerIpu()},
      {"numTiles", t.numTiles()},
      {"bytesPerTile", static_cast<double>(t.bytesPerTile())},
      {"totalMemory", static_cast<double>(t.totalMemory())},
      {"clockFrequency", t.clockFrequency()},
      {"numReplicas", t.numReplicas()},
  };
  ProfileValue::Map graph{{"numVertices", static_cast<double>(g.numVertices())},
                          {"numComputeSets", static_cast<double>(g.numComputeSets())},
                          {"numEdges", static_cast<double>(g.numEdges())},
                          {"numVars", static_cast<double>(g.numVariables())}};
  std::vector<std::uint64_t> total, includingGaps;
  for (const auto& tile : c.tiles()) {
    total.push_back(tile.memory().total().excludingGaps());
    includingGaps.push_back(tile.memory().total().includingGaps());
  }
  ProfileValue::Vector names;
  for (const auto& cs : c.computeSets())
    names.emplace_back(cs.name());
  return ProfileValue::Map{
      {"target", target},
      {"graph", graph},
      {"memory", ProfileValue::Map{{"byTile", ProfileValue::Map{{"total", numbers(total)},
                                                                {"totalIncludingGaps",
                                                                 numbers(includingGaps)}}}}},
      {"computeSets", ProfileValue::Map{{"names", names}}},
      {"profilePath", report.profilePath()},
  };
}

ProfileValue executionProfile(const pva::Report& report, unsigned firstRun) {
  ProfileValue::Vector steps, runs;
  std::uint64_t cycles = 0;
  for (const auto& run : report.execution().runs()) {
    if (run.index() < firstRun) continue;
    cycles += run.cycles();
    runs.emplace_back(ProfileValue::Map{{"name", run.name()},
                                        {"program", run.programIndex()},
                                        {"cycles", static_cast<double>(run.cycles())}});
    for (const auto& step : run.steps()) {
      const auto program = step.program();
      const auto byTile = step.cyclesByTile();
      const std::uint64_t stepCycles =
          byTile.empty() ? 0 : *std::max_element(byTile.begin(), byTile.end());
      steps.emplace_back(ProfileValue::Map{
          {"type", program ? pva::Program::typeName(program->type()) : std::string()},
          {"name", program ? program->name() : std::string()},
          {"cycles", static_cast<double>(stepCycles)},
          {"run", run.index()}});
    }
  }
  return ProfileValue::Map{
      {"simulation",
       ProfileValue::Map{{"cycles", static_cast<double>(cycles)}, {"steps", std::move(steps)}}},
      {"runs", std::move(runs)},
      {"profilePath", report.profilePath()},
  };
}

report::SummaryOptions summaryOptions(const OptionFlags& options, const char* what) {
  checkOptions(options, summaryOptionSpecs(), std::string(what) + " option");
  report::SummaryOptions o;
  auto flag = [&](const char* name, bool& value) {
    if (options.contains(name))
      value = parseBoolOption(std::string(what) + " option", name, options.at(name));
  };
  flag("showVarStorage", o.showVarStorage);
  flag("showExecutionSteps", o.showExecutionSteps);
  flag("showPerIpuMemoryUsage", o.showPerIpuMemoryUsage);
  return o;
}

void printSummary(std::ostream& out, const ProfileValue& graphProfile,
                  const ProfileValue* executionProfile, const OptionFlags& options,
                  const char* what) {
  const auto o = summaryOptions(options, what);
  const bool withRuns = executionProfile && executionProfile->getOrNull("simulation");
  report::printProfileSummary(out, reportOf(graphProfile, what), withRuns, o);
}

} // namespace detail::session

void printProfileSummary(std::ostream& out, const ProfileValue& graphProfile,
                         const ProfileValue& executionProfile, const OptionFlags& options) {
  detail::session::printSummary(out, graphProfile, &executionProfile, options,
                                "printProfileSummary");
}

void printGraphSummary(std::ostream& out, const ProfileValue& graphProfile,
                       const OptionFlags& options) {
  detail::session::printSummary(out, graphProfile, nullptr, options, "printGraphSummary");
}

void printExecutionSummary(std::ostream& out, const ProfileValue& graphProfile,
                           const ProfileValue& executionProfile, const OptionFlags& options) {
  detail::session::printSummary(out, graphProfile, &executionProfile, options,
                                "printExecutionSummary");
}

} // namespace poplar
