#include "output/CompareReport.hpp"

#include "output/Format.hpp"

#include <algorithm>
#include <cmath>
#include <ostream>

namespace pvacli {

namespace {

Json valueJson(const pva::ComparedValue& v) {
  const double rel = v.relative();
  // JSON has no infinity: a quantity that was 0 in the base has a null relative change.
  return {{"base", v.base}, {"new", v.current}, {"delta", v.delta()}, {"relative", std::isfinite(rel) ? Json(rel) : Json(nullptr)}};
}

Json namedJson(const pva::NamedComparison& n) {
  Json j = {{"name", n.name}, {"inBase", n.inBase}, {"inNew", n.inCurrent}};
  j.update(valueJson(n.value));
  return j;
}

Json namedListJson(const std::vector<pva::NamedComparison>& list) {
  Json a = Json::array();
  for (const auto& n : list) a.push_back(namedJson(n));
  return a;
}

Json limitJson(const Limit& l) {
  return {{"relative", l.relative ? Json(*l.relative) : Json(nullptr)},
          {"absolute", l.absolute ? Json(*l.absolute) : Json(nullptr)}};
}

void addGroup(std::vector<Increase>& out, const std::vector<pva::NamedComparison>& list, const std::string& what,
              const std::string& unit, std::size_t top) {
  std::vector<const pva::NamedComparison*> grew;
  for (const auto& n : list)
    if (n.value.delta() > 0) grew.push_back(&n);
  std::stable_sort(grew.begin(), grew.end(), [](auto* a, auto* b) { return a->value.delta() > b->value.delta(); });
  for (std::size_t i = 0; i < grew.size() && i < top; ++i) out.push_back({what, unit, grew[i]});
}

std::string padRight(const std::string& s, std::size_t n) { return s.size() >= n ? s + " " : s + std::string(n - s.size(), ' '); }
std::string padLeft(const std::string& s, std::size_t n) { return s.size() >= n ? s : std::string(n - s.size(), ' ') + s; }

std::string amount(std::uint64_t v, const std::string& unit) { return unit == "bytes" ? bytes(v) : withCommas(v); }
std::string change(const pva::ComparedValue& v, const std::string& unit) {
  if (v.delta() == 0) return "=";
  return (unit == "bytes" ? signedBytes(v.delta()) : signedWithCommas(v.delta())) + " (" + signedPercent(v.relative()) + ")";
}

void line(std::ostream& out, const std::string& label, const pva::ComparedValue& v, const std::string& unit,
          const std::string& note = "") {
  out << "  " << padRight(label, 24) << padLeft(amount(v.base, unit), 14) << " -> " << padLeft(amount(v.current, unit), 14)
      << "  " << change(v, unit) << note << "\n";
}

} // namespace

std::vector<Increase> increases(const CompareResult& r) {
  std::vector<Increase> out;
  const auto& c = r.comparison;
  addGroup(out, c.memory.categories, "memory category", "bytes", r.top);
  if (c.hasExecution) {
    addGroup(out, c.cycles.computeSets, "compute set cycles", "cycles", r.top);
    addGroup(out, c.cycles.runs, "run cycles", "cycles", r.top);
    addGroup(out, c.cycles.kinds, "tile cycles", "cycles", r.top);
  }
  return out;
}

void writeCompareText(std::ostream& out, const CompareResult& r) {
  const auto& c = r.comparison;
  const auto& m = c.memory;
  out << "pva compare\n  base  " << r.basePath << "\n  new   " << r.newPath << "\n";

  out << "\nGate (" << (allPassed(r.checks) ? "PASS" : "FAIL") << ")\n";
  for (const GateCheck& g : r.checks)
    out << "  " << padRight(g.passed ? (g.skipped ? "skip" : "ok") : "FAIL", 6) << padRight(g.id, 22) << g.message << "\n";

  out << "\nMemory (all tiles)" << std::string(9, ' ') << padLeft("base", 14) << "    " << padLeft("new", 14) << "\n";
  line(out, "total including gaps", m.totalIncludingGaps, "bytes");
  line(out, "total excluding gaps", m.totalExcludingGaps, "bytes");
  line(out, "largest tile", m.maxTileIncludingGaps, "bytes",
       "  tile " + std::to_string(m.maxTileBase) + (m.maxTileBase == m.maxTileCurrent ? "" : " -> " + std::to_string(m.maxTileCurrent)));
  line(out, "always live", m.alwaysLive, "bytes");
  line(out, "peak liveness", m.peakLiveness, "bytes",
       "  step " + std::to_string(m.peakStepBase) +
           (m.peakStepBase == m.peakStepCurrent ? "" : " -> " + std::to_string(m.peakStepCurrent)));

  out << "\nCycles\n";
  if (!c.hasExecution) {
    out << "  not compared: a report has no execution profile\n";
  } else {
    line(out, "total", c.cycles.total, "cycles");
    for (const auto& run : c.cycles.runs)
      line(out, "run " + run.name, run.value, "cycles",
           run.inBase && run.inCurrent ? "" : run.inBase ? "  (only in base)" : "  (only in new)");
  }

  const auto grew = increases(r);
  out << "\nWhat grew (largest increases first, at most " << r.top << " of each kind)\n";
  if (grew.empty()) out << "  nothing\n";
  for (const Increase& i : grew)
    out << "  " << padRight(i.what, 20) << padRight(i.item->name, 40) << " " << change(i.item->value, i.unit)
        << (i.item->inBase ? "" : "  (only in new)") << "\n";

  std::size_t failed = 0;
  for (const GateCheck& g : r.checks) failed += g.passed ? 0 : 1;
  out << "\n";
  if (failed == 0) {
    out << "PASS: every gated quantity is within its threshold\n";
  } else {
    out << "FAIL: " << failed << " of " << r.checks.size() << " gated quantities over their thresholds\n";
    for (const GateCheck& g : r.checks)
      if (!g.passed) out << "  " << g.id << ": " << g.message << "\n";
  }
}

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
                 {"categories", namedListJson(m.categories)}};
  j["cycles"] = {{"hasExecution", c.hasExecution},
                 {"total", valueJson(c.cycles.total)},
                 {"runs", namedListJson(c.cycles.runs)},
                 {"computeSets", namedListJson(c.cycles.computeSets)},
                 {"kinds", namedListJson(c.cycles.kinds)}};
  Json grew = Json::array();
  for (const Increase& i : increases(r)) {
    Json g = {{"what", i.what}, {"unit", i.unit}};
    g.update(namedJson(*i.item));
    grew.push_back(std::move(g));
  }
  j["increases"] = grew;
  return j;
}

} // namespace pvacli
