// pva compare BASE NEW: the CI regression gate. Compares two reports with pva::compare (with
// their operations when both have debug.cbor beside them), checks
// the gated quantities against the thresholds (Gate.hpp) and exits 0 within them, 1 over them,
// 2 on bad input. Without any threshold option for a family (cycles, memory), that family
// allows no increase at all: the engine is deterministic, so the same program gives the same
// numbers and any growth is a real change.
#include "Commands.hpp"
#include "Common.hpp"
#include "output/CompareReport.hpp"
#include "output/Format.hpp"
#include "output/JUnit.hpp"
#include "output/Progress.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>

namespace pvacli {

namespace {

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

int compareReports(const CompareOptions& o, const GlobalOptions& global) {
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
  // libpva pairs the instances as the viewer and Python do; a gate needs every instance
  // compared, so jobs of different shapes are a usage error here (the viewer compares the pairs
  // and warns).
  const pva::JobPairing pairing = pva::pairJobs(base, current);
  if (!pairing.sameShape())
    throw UsageError(o.base + " has " + std::to_string(pairing.baseInstances) + " instances and " +
                     o.current + " has " + std::to_string(pairing.currentInstances) +
                     ": compare jobs of the same shape");
  int status = kOk;
  for (unsigned i = 0; i < pairing.paired(); ++i) {
    std::cout << (i ? "\n" : "") << "== instance " << i << " ==\n" << std::flush;
    CompareOptions one = o;
    one.base = base.instances()[i].report.profilePath();
    one.current = current.instances()[i].report.profilePath();
    status = std::max(status, compareReports(one, global));
  }
  return status;
}

} // namespace

int runCompare(const CompareOptions& o, const GlobalOptions& global) {
  if (!pva::isJobDirectory(o.base) && !pva::isJobDirectory(o.current))
    return compareReports(o, global);
  return runCompareJobs(o, global);
}

} // namespace pvacli
