// pva compare BASE NEW: the CI regression gate. Compares two reports with pva::compare (with
// their operations when both have debug.cbor beside them), checks
// the gated quantities against the thresholds (Gate.hpp) and exits 0 within them, 1 over them,
// 2 on bad input. Without any threshold option for a family (cycles, memory), that family
// allows no increase at all: the engine is deterministic, so the same program gives the same
// numbers and any growth is a real change.
#include "Common.hpp"
#include "output/CompareReport.hpp"
#include "output/Format.hpp"
#include "output/JUnit.hpp"
#include "output/Progress.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>

namespace pvacli {

namespace {

struct CompareOptions {
  std::string base, current;
  std::string maxCycles, maxCyclesAbs, maxMemory, maxMemoryAbs;
  std::string format = "text", output;
  std::size_t top = 10;
};

/// One family's thresholds from its two options; 0% when neither was given.
Limit limitFrom(const std::string& relative, const std::string& absolute,
                const std::string& relOption, const std::string& absOption, bool allowUnits) {
  Limit l;
  if (relative.empty() && absolute.empty()) {
    l.relative = 0.0;
    return l;
  }
  if (!relative.empty()) l.relative = parsePercent(relative, relOption);
  if (!absolute.empty()) l.absolute = parseAmount(absolute, absOption, allowUnits);
  return l;
}

int compareAndWrite(const CompareOptions& o, const GlobalOptions& global, CompareResult& r,
                    std::ofstream& file);

int runCompare(const CompareOptions& o, const GlobalOptions& global) {
  CompareResult r;
  r.cycles = limitFrom(o.maxCycles, o.maxCyclesAbs, "--max-cycles-increase",
                       "--max-cycles-increase-abs", false);
  r.memory = limitFrom(o.maxMemory, o.maxMemoryAbs, "--max-memory-increase",
                       "--max-memory-increase-abs", true);
  r.top = o.top;

  // Open the output before the (long) comparison so that a bad path fails at once.
  std::ofstream file;
  if (!o.output.empty()) {
    file.open(o.output);
    if (!file) throw UsageError(o.output + ": cannot write the output file");
  }

  try {
    return compareAndWrite(o, global, r, file);
  } catch (...) {
    // No half-written file for a CI system to pick up as a result.
    if (file.is_open()) {
      file.close();
      std::remove(o.output.c_str());
    }
    throw;
  }
}

int compareAndWrite(const CompareOptions& o, const GlobalOptions& global, CompareResult& r,
                    std::ofstream& file) {
  // debug.cbor beside a profile adds the operations; the gate needs only the profiles, so debug
  // information that cannot be used costs a warning, never the gate's verdict.
  ReportFiles baseFiles = findReport(o.base), currentFiles = findReport(o.current);
  pva::Report base = openReportFiles(baseFiles);
  pva::Report current = openReportFiles(currentFiles);
  r.basePath = base.profilePath();
  r.newPath = current.profilePath();
  const std::uint64_t steps = base.execution().steps().size() + current.execution().steps().size();
  Progress::note("comparing: reading " + withCommas(steps) + " execution steps of two reports...",
                 global.progress);
  try {
    r.comparison = pva::compare(base, current);
  } catch (const pva::Exception& e) {
    if (!base.hasDebugInfo() && !current.hasDebugInfo()) throw;
    std::cerr << "pva: warning: operations not compared: " << escapeControls(e.what()) << "\n";
    base = pva::openReport(baseFiles.profile);
    current = pva::openReport(currentFiles.profile);
    r.comparison = pva::compare(base, current);
  }
  r.checks =
      evaluateGate(r.comparison, r.cycles, r.memory, base.outOfMemory(), current.outOfMemory());

  auto writeFormat = [&](std::ostream& out) {
    if (o.format == "json")
      writeJson(out, compareJson(r));
    else if (o.format == "junit")
      writeJUnit(out, "pva compare " + r.basePath + " " + r.newPath, r.checks);
    else
      writeCompareText(out, r);
  };
  if (o.output.empty()) {
    writeFormat(std::cout);
  } else {
    writeFormat(file);
    file.close();
    if (!file) throw UsageError(o.output + ": error writing the output file");
    // CI logs still show what happened; the file is for the CI system.
    writeCompareText(std::cout, r);
  }
  return allPassed(r.checks) ? kOk : kOverThreshold;
}

/// Two poprun job folders: instance i of one against instance i of the other, each gated as
/// two reports are; the job passes when every instance does.
int runCompareJobs(const CompareOptions& o, const GlobalOptions& global) {
  if (!pva::isJobDirectory(o.base) || !pva::isJobDirectory(o.current))
    throw UsageError("compare a job folder with another job folder (" +
                     (pva::isJobDirectory(o.base) ? o.current : o.base) +
                     " is not one: it has no instance_0/)");
  if (!o.output.empty())
    throw UsageError("--output is for two reports; with job folders each instance's comparison "
                     "is written to stdout in --format");
  const pva::Job base = pva::openJob(o.base), current = pva::openJob(o.current);
  if (base.instances().size() != current.instances().size())
    throw UsageError(
        o.base + " has " + std::to_string(base.instances().size()) + " instances and " + o.current +
        " has " + std::to_string(current.instances().size()) + ": compare jobs of the same shape");
  int status = kOk;
  for (std::size_t i = 0; i < base.instances().size(); ++i) {
    std::cout << (i ? "\n" : "") << "== instance " << i << " ==\n" << std::flush;
    CompareOptions one = o;
    one.base = base.instances()[i].report.profilePath();
    one.current = current.instances()[i].report.profilePath();
    status = std::max(status, runCompare(one, global));
  }
  return status;
}

} // namespace

Command addCompareCommand(CLI::App& app, const GlobalOptions& global) {
  auto opt = std::make_shared<CompareOptions>();
  CLI::App* sub =
      app.add_subcommand("compare", "Compare two reports; a CI gate on cycles and memory growth");
  sub->footer(
      R"(Gated quantities (each fails when it grows by more than any threshold given for it):
  cycles.total         total cycles of all runs             --max-cycles-increase[-abs]
  memory.maxTile       the largest tile, including gaps     --max-memory-increase[-abs]
  memory.total         all tiles, including gaps            --max-memory-increase[-abs]
  memory.peakLiveness  always live + the largest step       --max-memory-increase[-abs]
  memory.outOfMemory   the new report is out of memory and the base is not (always gated)
Without any option of a family, that family allows no increase (0%). 'off' disables a threshold.
Decreases never fail.

Also shown, never gated: the targets (a warning first when they differ), memory by category,
variables always live and live at each report's peak step, runs (matched by name, else by
position), compute sets, programs, and operations when both reports have debug.cbor. Reports of
unrelated programs (few program names in common) are flagged, and rows matched by name left out.

exit status: 0 within every threshold, 1 over a threshold, 2 bad input (missing or corrupt
report, bad option).

With --output, the --format output goes to FILE and the text report to stdout.

examples:
  pva compare base/profile.pop new/profile.pop
  pva compare base/ new/ --max-cycles-increase 2% --max-memory-increase 1%
  pva compare base/ new/ --max-cycles-increase-abs 10000 --max-memory-increase-abs 64KiB
  pva compare base/ new/ --max-memory-increase off --format junit --output pva-gate.xml
  pva compare base/ new/ --format json | jq '.gates[] | select(.passed | not)'

Two poprun job folders (instance_0/ ...) are compared instance by instance, each gated as above;
exit 1 when any instance is over a threshold.)");
  sub->add_option("BASE", opt->base, "The reference report: profile.pop or its directory")
      ->required();
  sub->add_option("NEW", opt->current, "The report to check: profile.pop or its directory")
      ->required();
  sub->add_option("--max-cycles-increase", opt->maxCycles,
                  "Allowed growth of total cycles, in percent: 2% (or off)");
  sub->add_option("--max-cycles-increase-abs", opt->maxCyclesAbs,
                  "Allowed growth of total cycles, in cycles");
  sub->add_option("--max-memory-increase", opt->maxMemory,
                  "Allowed growth of the largest tile, total memory and peak liveness, in percent: "
                  "1% (or off)");
  sub->add_option("--max-memory-increase-abs", opt->maxMemoryAbs,
                  "Allowed growth of the same three, in bytes: 4096, 64KiB, 1MiB");
  sub->add_option("--format", opt->format, "text, json or junit")
      ->check(CLI::IsMember({"text", "json", "junit"}));
  sub->add_option("--output", opt->output,
                  "Write the --format output to FILE (the text report still goes to stdout)");
  sub->add_option("--top", opt->top, "Entries of each 'what grew' list (default 10)");
  const GlobalOptions* g = &global;
  return {sub, [opt, g]() {
            if (!pva::isJobDirectory(opt->base) && !pva::isJobDirectory(opt->current))
              return runCompare(*opt, *g);
            return runCompareJobs(*opt, *g);
          }};
}

} // namespace pvacli
