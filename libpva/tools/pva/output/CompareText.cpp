// `pva compare` as text: warnings (targets differ, unrelated reports), the gate, then targets,
// memory, variables, cycles and operations with their totals, and what grew.
#include "output/CompareReport.hpp"
#include "output/Format.hpp"

#include <algorithm>
#include <cmath>
#include <ostream>

namespace pvacli {

namespace {

std::string padRight(const std::string& s, std::size_t n) {
  return s.size() >= n ? s + " " : s + std::string(n - s.size(), ' ');
}
std::string padLeft(const std::string& s, std::size_t n) {
  return s.size() >= n ? s : std::string(n - s.size(), ' ') + s;
}

std::string amount(std::uint64_t v, const std::string& unit) {
  return unit == "bytes" ? bytes(v) : withCommas(v);
}
std::string change(const pva::ComparedValue& v, const std::string& unit) {
  if (v.delta() == 0) return "=";
  return (unit == "bytes" ? signedBytes(v.delta()) : signedWithCommas(v.delta())) + " (" +
         signedPercent(v.relative()) + ")";
}

void line(std::ostream& out, const std::string& label, const pva::ComparedValue& v,
          const std::string& unit, const std::string& note = "") {
  out << "  " << padRight(label, 24) << padLeft(amount(v.base, unit), 14) << " -> "
      << padLeft(amount(v.current, unit), 14) << "  " << change(v, unit) << note << "\n";
}

void textLine(std::ostream& out, const std::string& label, const std::string& base,
              const std::string& current) {
  out << "  " << padRight(label, 24) << padLeft(base, 14) << " -> " << padLeft(current, 14) << "  "
      << (base == current ? "=" : "differs") << "\n";
}

std::string join(const std::vector<std::string>& parts) {
  std::string s;
  for (const auto& p : parts)
    s += (s.empty() ? "" : ", ") + p;
  return s;
}

std::string mhz(const pva::Target& t) {
  return std::to_string(std::llround(t.clockFrequency() / 1e6)) + " MHz";
}

void header(std::ostream& out, const std::string& title) {
  out << "\n" << padRight(title, 27) << padLeft("base", 14) << "    " << padLeft("new", 14) << "\n";
}

void warnings(std::ostream& out, const pva::ReportComparison& c) {
  if (!c.target.same())
    out << "\nWARNING: the targets differ (" << join(c.target.differences)
        << "): memory and cycles depend on the device, so their differences are not the program's "
           "alone\n";
  const pva::ProgramsInCommon& p = c.programsInCommon;
  if (!p.related)
    out << "\nWARNING: unrelated reports: " << p.namesInCommon << " of "
        << std::min(p.namesBase, p.namesCurrent)
        << " program names in common; rows matched by name (variables, compute sets, operations) "
           "are left out,\n"
           "  runs are matched by position\n";
}

void targets(std::ostream& out, const pva::TargetComparison& t) {
  header(out, t.same() ? "Targets (the same)" : "Targets (DIFFER)");
  textLine(out, "type", pva::Target::typeName(t.base.type()),
           pva::Target::typeName(t.current.type()));
  textLine(out, "architecture", pva::Target::architectureName(t.base.architecture()),
           pva::Target::architectureName(t.current.architecture()));
  textLine(out, "IPUs", withCommas(t.ipus.base), withCommas(t.ipus.current));
  textLine(out, "tiles per IPU", withCommas(t.tilesPerIpu.base), withCommas(t.tilesPerIpu.current));
  textLine(out, "memory per tile", bytes(t.bytesPerTile.base), bytes(t.bytesPerTile.current));
  textLine(out, "replicas", withCommas(t.replicas.base), withCommas(t.replicas.current));
  textLine(out, "clock", t.clockHz.delta() ? withCommas(t.clockHz.base) + " Hz" : mhz(t.base),
           t.clockHz.delta() ? withCommas(t.clockHz.current) + " Hz" : mhz(t.current));
}

void steps(std::ostream& out, const std::string& label, const pva::ComparedValue& v,
           const std::string& unit, std::uint64_t stepBase, std::uint64_t stepNew) {
  line(out, label, v, unit,
       "  step " + std::to_string(stepBase) +
           (stepBase == stepNew ? "" : " -> " + std::to_string(stepNew)));
}

/// How a run was paired, after its figures (a run matched by name needs no note).
std::string runNote(const pva::RunComparison& run) {
  using M = pva::RunComparison::Match;
  switch (run.match) {
  case M::ByName:
    return "";
  case M::ByPosition:
    return "  with " + run.currentName + " (matched by position)";
  case M::OnlyInBase:
    return "  (only in base)";
  case M::OnlyInCurrent:
    return "  (only in new)";
  }
  return "";
}

} // namespace

void writeCompareText(std::ostream& out, const CompareResult& r) {
  const auto& c = r.comparison;
  const auto& m = c.memory;
  out << "pva compare\n  base  " << r.basePath << "\n  new   " << r.newPath << "\n";
  warnings(out, c);

  out << "\nGate (" << (allPassed(r.checks) ? "PASS" : "FAIL") << ")\n";
  for (const GateCheck& g : r.checks)
    out << "  " << padRight(g.passed ? (g.skipped ? "skip" : "ok") : "FAIL", 6)
        << padRight(g.id, 22) << g.message << "\n";

  targets(out, c.target);

  header(out, "Memory (all tiles)");
  line(out, "total including gaps", m.totalIncludingGaps, "bytes");
  line(out, "total excluding gaps", m.totalExcludingGaps, "bytes");
  line(out, "largest tile", m.maxTileIncludingGaps, "bytes",
       "  tile " + std::to_string(m.maxTileBase) +
           (m.maxTileBase == m.maxTileCurrent ? "" : " -> " + std::to_string(m.maxTileCurrent)));
  line(out, "always live", m.alwaysLive, "bytes");
  steps(out, "peak liveness", m.peakLiveness, "bytes", m.peakStepBase, m.peakStepCurrent);
  line(out, "allocated", m.allocated, "bytes",
       "  (categories summed; shared bytes count once per variable)");

  header(out, "Variables (one replica)");
  line(out, "always live", c.variables.alwaysLiveTotal, "bytes");
  steps(out, "live at the peak step", c.variables.atPeakTotal, "bytes", m.peakStepBase,
        m.peakStepCurrent);

  out << "\nCycles\n";
  if (!c.hasExecution) {
    out << "  not compared: a report has no execution profile\n";
  } else {
    line(out, "total", c.cycles.total, "cycles");
    for (const auto& run : c.cycles.matchedRuns)
      line(out, "run " + (run.inBase() ? run.baseName : run.currentName), run.cycles, "cycles",
           runNote(run));
    line(out, "compute sets", c.cycles.computeSetsTotal, "cycles",
         "  (steps that run vertices, summed)");
    line(out, "programs", c.cycles.programsTotal, "cycles",
         "  (every step at its slowest IPU, summed)");
    line(out, "tile cycles", c.cycles.kindsTotal, "cycles", "  (busy tile cycles of one replica)");
    line(out, "stream copies", c.cycles.streamCopiesTotal, "cycles",
         "  (stream-copy steps, each at its slowest IPU)");
    // By destination: host and remote buffers always, the rarer two when either report has them.
    for (const auto& d : c.cycles.streamCopies)
      if (d.name == "host" || d.name == "remoteBuffer" || d.value.base || d.value.current)
        line(out, "  " + d.name, d.value, "cycles");
  }

  out << "\nOperations\n";
  const auto& o = c.operations;
  if (!o.compared) {
    out << "  not compared: a report has no debug information (debug.cbor)\n";
  } else {
    std::size_t inBase = 0, inCurrent = 0;
    for (const auto& op : o.operations) {
      inBase += op.inBase ? 1 : 0;
      inCurrent += op.inCurrent ? 1 : 0;
    }
    const std::string count = std::to_string(inBase) +
                              (inBase == inCurrent ? "" : " -> " + std::to_string(inCurrent)) +
                              " operations";
    if (c.hasExecution)
      line(out, "cycles (all runs)", o.total.cycles, "cycles", "  " + count);
    else
      out << "  " << count << "; cycles not compared: a report has no execution profile\n";
    line(out, "estimated cycles", o.total.estimatedCycles, "cycles", "  (each step once)");
    line(out, "always-live bytes", o.total.alwaysLiveBytes, "bytes");
    line(out, "peak live bytes", o.total.peakNotAlwaysLiveBytes, "bytes",
         "  (not always live, at one step)");
    line(out, "code bytes", o.total.codeBytes, "bytes");
  }

  const auto grew = increases(r);
  out << "\nWhat grew (largest increases first, at most " << r.top << " of each kind)\n";
  if (!c.programsInCommon.related)
    out << "  (variables, compute sets and operations left out: unrelated reports)\n";
  if (grew.empty()) out << "  nothing\n";
  for (const Increase& i : grew)
    out << "  " << padRight(i.what, 20) << padRight(i.name, 40) << " " << change(i.value, i.unit)
        << (i.inBase ? "" : "  (only in new)") << "\n";

  std::size_t failed = 0;
  for (const GateCheck& g : r.checks)
    failed += g.passed ? 0 : 1;
  out << "\n";
  if (failed == 0) {
    out << "PASS: every gated quantity is within its threshold\n";
  } else {
    out << "FAIL: " << failed << " of " << r.checks.size()
        << " gated quantities over their thresholds\n";
    for (const GateCheck& g : r.checks)
      if (!g.passed) out << "  " << g.id << ": " << g.message << "\n";
  }
}

} // namespace pvacli
