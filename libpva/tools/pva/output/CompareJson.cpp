// `pva compare --format json`: the gate, then every compared figure with full lists (scripts
// filter; the text output shows totals and what grew).
#include "output/CompareReport.hpp"

#include <cmath>

namespace pvacli {

namespace {

Json valueJson(const pva::ComparedValue& v) {
  const double rel = v.relative();
  // JSON has no infinity: a quantity that was 0 in the base has a null relative change.
  return {{"base", v.base},
          {"new", v.current},
          {"delta", v.delta()},
          {"relative", std::isfinite(rel) ? Json(rel) : Json(nullptr)}};
}

Json namedJson(const pva::NamedComparison& n) {
  Json j = {{"name", n.name}, {"inBase", n.inBase}, {"inNew", n.inCurrent}};
  j.update(valueJson(n.value));
  return j;
}

Json namedListJson(const std::vector<pva::NamedComparison>& list) {
  Json a = Json::array();
  for (const auto& n : list)
    a.push_back(namedJson(n));
  return a;
}

Json limitJson(const Limit& l) {
  return {{"relative", l.relative ? Json(*l.relative) : Json(nullptr)},
          {"absolute", l.absolute ? Json(*l.absolute) : Json(nullptr)}};
}

Json targetJson(const pva::Target& t) {
  return {{"type", pva::Target::typeName(t.type())},
          {"architecture", pva::Target::architectureName(t.architecture())},
          {"ipus", t.numIPUs()},
          {"tilesPerIpu", t.tilesPerIpu()},
          {"bytesPerTile", t.bytesPerTile()},
          {"replicas", t.numReplicas()},
          {"clockHz", t.clockFrequency()}};
}

Json operationJson(const pva::OperationComparison& o) {
  return {{"name", o.name},
          {"inBase", o.inBase},
          {"inNew", o.inCurrent},
          {"cycles", valueJson(o.cycles)},
          {"estimatedCycles", valueJson(o.estimatedCycles)},
          {"alwaysLiveBytes", valueJson(o.alwaysLiveBytes)},
          {"peakNotAlwaysLiveBytes", valueJson(o.peakNotAlwaysLiveBytes)},
          {"codeBytes", valueJson(o.codeBytes)}};
}

Json runJson(const pva::RunComparison& run) {
  Json j = {{"match", pva::RunComparison::matchName(run.match)}};
  j["base"] = run.inBase() ? Json{{"name", run.baseName}, {"index", run.baseIndex}} : Json(nullptr);
  j["new"] = run.inCurrent() ? Json{{"name", run.currentName}, {"index", run.currentIndex}}
                             : Json(nullptr);
  j["cycles"] = valueJson(run.cycles);
  j["steps"] = valueJson(run.steps);
  return j;
}

} // namespace

Json compareJson(const CompareResult& r) {
  const auto& c = r.comparison;
  const auto& m = c.memory;
  Json j;
  j["base"] = r.basePath;
  j["new"] = r.newPath;
  j["passed"] = allPassed(r.checks);
  j["thresholds"] = {{"cycles", limitJson(r.cycles)}, {"memory", limitJson(r.memory)}};
  Json gates = Json::array();
  for (const GateCheck& g : r.checks) {
    Json gj = {{"id", g.id}, {"description", g.description}, {"unit", g.unit}};
    gj.update(valueJson(g.value));
    gj["limit"] = limitJson(g.limit);
    gj["passed"] = g.passed;
    gj["skipped"] = g.skipped;
    gj["message"] = g.message;
    gates.push_back(std::move(gj));
  }
  j["gates"] = gates;
  j["targets"] = {{"same", c.target.same()},
                  {"differences", c.target.differences},
                  {"base", targetJson(c.target.base)},
                  {"new", targetJson(c.target.current)}};
  const auto& p = c.programsInCommon;
  j["programsInCommon"] = {{"namesBase", p.namesBase},
                           {"namesNew", p.namesCurrent},
                           {"namesInCommon", p.namesInCommon},
                           {"share", p.share},
                           {"related", p.related}};
  Json maxTile = valueJson(m.maxTileIncludingGaps);
  maxTile["tileBase"] = m.maxTileBase;
  maxTile["tileNew"] = m.maxTileCurrent;
  Json peak = valueJson(m.peakLiveness);
  peak["stepBase"] = m.peakStepBase;
  peak["stepNew"] = m.peakStepCurrent;
  j["memory"] = {{"totalIncludingGaps", valueJson(m.totalIncludingGaps)},
                 {"totalExcludingGaps", valueJson(m.totalExcludingGaps)},
                 {"maxTile", maxTile},
                 {"alwaysLive", valueJson(m.alwaysLive)},
                 {"peakLiveness", peak},
                 {"allocated", valueJson(m.allocated)},
                 {"categories", namedListJson(m.categories)}};
  j["variables"] = {{"alwaysLive",
                     {{"total", valueJson(c.variables.alwaysLiveTotal)},
                      {"items", namedListJson(c.variables.alwaysLive)}}},
                    {"atPeak",
                     {{"total", valueJson(c.variables.atPeakTotal)},
                      {"stepBase", m.peakStepBase},
                      {"stepNew", m.peakStepCurrent},
                      {"items", namedListJson(c.variables.atPeak)}}}};
  Json runs = Json::array();
  for (const auto& run : c.cycles.matchedRuns)
    runs.push_back(runJson(run));
  j["cycles"] = {{"hasExecution", c.hasExecution},
                 {"total", valueJson(c.cycles.total)},
                 {"runs", namedListJson(c.cycles.runs)},
                 {"matchedRuns", runs},
                 {"computeSets", namedListJson(c.cycles.computeSets)},
                 {"kinds", namedListJson(c.cycles.kinds)},
                 {"streamCopiesByDestination", namedListJson(c.cycles.streamCopies)},
                 {"totals",
                  {{"runs", valueJson(c.cycles.runsTotal)},
                   {"computeSets", valueJson(c.cycles.computeSetsTotal)},
                   {"programs", valueJson(c.cycles.programsTotal)},
                   {"kinds", valueJson(c.cycles.kindsTotal)},
                   {"streamCopies", valueJson(c.cycles.streamCopiesTotal)}}}};
  Json ops = Json::array();
  for (const auto& o : c.operations.operations)
    ops.push_back(operationJson(o));
  j["operations"] = {{"compared", c.operations.compared},
                     {"total", operationJson(c.operations.total)},
                     {"items", ops}};
  Json grew = Json::array();
  for (const Increase& i : increases(r)) {
    Json g = {{"what", i.what},
              {"unit", i.unit},
              {"name", i.name},
              {"inBase", i.inBase},
              {"inNew", i.inCurrent}};
    g.update(valueJson(i.value));
    grew.push_back(std::move(g));
  }
  j["increases"] = grew;
  return j;
}

} // namespace pvacli
