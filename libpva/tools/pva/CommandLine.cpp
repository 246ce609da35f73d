// pva's command line, on CLI11: the subcommands, their options, help text, footers and checks,
// parsed into the plain option structs of commands/Commands.hpp.
//
// Why everything CLI11 is in this one file: CLI11 (Debian's libcli11-dev 2.1.2) is header-only,
// so every file that includes <CLI/CLI.hpp> compiles its formatter, config parser and validators
// again. Measured at -O2, commands/Summary.cpp took 36 s of CPU with its option registration and
// 18 s without; the tool's 16 files cost as much CPU as all of libpva's 42, in both of CI's
// builds (gcc -O2 and clang ASan+UBSan). With the registration here, the subcommands' files
// never see CLI11 and it is compiled once (docs/benchmarks.md, "CI's time").
#include "CommandLine.hpp"

#include "Common.hpp"
#include "commands/Commands.hpp"

#include <CLI/CLI.hpp>
#include <memory>
#include <utility>
#include <vector>

namespace pvacli {

namespace {

const char* kDescription =
    R"(pva: read Tessera profile reports (profile.pop, debug.cbor) and host traces (.pvti).

examples:
  pva summary reports/mlp                       target, memory, liveness and cycles
  pva query reports/mlp compute-sets --top 5    the slowest compute sets
  pva insights reports/oom                      does it fit, the worst tiles, what to change
  pva compare base/ new/ --max-cycles-increase 2% --max-memory-increase 1%
                                                CI gate: exit 0 within, 1 over, 2 bad input
  pva trace trace.pvti --export-chrome trace.json

Run 'pva SUBCOMMAND --help' for the options and examples of each.)";

CLI::App* addSummary(CLI::App& app, SummaryOptions& opt) {
  CLI::App* sub =
      app.add_subcommand("summary", "Target, graph, memory, liveness and cycles of one report");
  sub->footer(
      R"(REPORT is a profile.pop, or a directory holding one; debug.cbor beside it is used when present.

examples:
  pva summary reports/mlp
  pva summary reports/mlp/profile.pop --json | jq .memory.peakLiveness
  pva summary build/report/profile.pop --debug build/report/debug.cbor

A poprun job folder (instance_0/, instance_1/ ...: docs/distributed.md) is summarised as one job:
each instance's cycles, collectives and memory, the slowest instance and the spread.
  pva summary reports/cnn-job --max-instance-slowdown 5%   exit 1 when the slowest instance
                                                          is over 5% slower than the others)");
  sub->add_option("REPORT", opt.report, "profile.pop or a directory containing it")->required();
  sub->add_option("--debug", opt.debug, "debug.cbor to use (default: the one beside the profile)");
  sub->add_flag("--json", opt.json, "Write JSON instead of text");
  sub->add_option("--max-instance-slowdown", opt.maxInstanceSlowdown,
                  "Job folders: exit 1 when the slowest instance's cycles exceed the mean of the "
                  "others' by more than this, in percent: 5%");
  return sub;
}

CLI::App* addQuery(CLI::App& app, QueryOptions& opt) {
  CLI::App* sub = app.add_subcommand(
      "query", "Tables of one report: tiles, compute sets, live variables, programs, runs");
  sub->footer(R"(WHAT:
  tiles          tiles by memory including gaps, largest first (default top 10)
  compute-sets   compute sets by cycles: the slowest IPU of each executed step, summed, with the
                 compile-time estimate of the same executions (default top 10)
  live-at-peak   variables live at the peak liveness step, largest first (default top 10)
  programs       programs counted by type; with --type T, the programs of that type
  runs           runs: steps, cycles, host time, tile cycles by kind, stream-copy cycles by
                 destination (host, remote buffer, mixed, unknown)
  categories     memory by category over all tiles

examples:
  pva query reports/mlp tiles --top 5
  pva query reports/mlp compute-sets --format csv > compute-sets.csv
  pva query reports/mlp live-at-peak --top 0 --format json
  pva query reports/mlp programs --type DoExchange)");
  sub->add_option("REPORT", opt.report, "profile.pop or a directory containing it")->required();
  sub->add_option("WHAT", opt.what,
                  "tiles, compute-sets, live-at-peak, programs, runs or categories")
      ->required()
      ->check(CLI::IsMember(
          {"tiles", "compute-sets", "live-at-peak", "programs", "runs", "categories"}));
  sub->add_option("--top", opt.top, "Rows to show (0: all)")->check(CLI::NonNegativeNumber);
  sub->add_option("--format", opt.format, "table, csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}));
  sub->add_option("--type", opt.type,
                  "programs: list the programs of this type (OnTileExecute, DoExchange, ...)");
  sub->add_option("--debug", opt.debug, "debug.cbor to use (default: the one beside the profile)");
  return sub;
}

CLI::App* addInsights(CLI::App& app, InsightsCommandOptions& opt) {
  CLI::App* sub = app.add_subcommand(
      "insights", "Does it fit, the worst tiles, what fills them, and what to change");
  sub->footer(R"(REPORT is a profile.pop, or a directory holding one.

Savings are estimates from the report's figures, each for the scope it names (a tile at its worst
liveness step, or one replica at the peak step).

examples:
  pva insights reports/oom
  pva insights reports/mlp --json | jq .suggestions
  pva insights reports/oom --top 10)");
  sub->add_option("REPORT", opt.report, "profile.pop or a directory containing it")->required();
  sub->add_option("--debug", opt.debug, "debug.cbor to use (default: the one beside the profile)");
  sub->add_option("--top", opt.top, "Worst tiles, vertex types and exchanges listed (default 5)")
      ->check(CLI::Range(1u, 1000u));
  sub->add_flag("--json", opt.json, "Write JSON instead of text");
  return sub;
}

CLI::App* addCompare(CLI::App& app, CompareOptions& opt) {
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
  sub->add_option("BASE", opt.base, "The reference report: profile.pop or its directory")
      ->required();
  sub->add_option("NEW", opt.current, "The report to check: profile.pop or its directory")
      ->required();
  sub->add_option("--max-cycles-increase", opt.maxCycles,
                  "Allowed growth of total cycles, in percent: 2% (or off)");
  sub->add_option("--max-cycles-increase-abs", opt.maxCyclesAbs,
                  "Allowed growth of total cycles, in cycles");
  sub->add_option("--max-memory-increase", opt.maxMemory,
                  "Allowed growth of the largest tile, total memory and peak liveness, in percent: "
                  "1% (or off)");
  sub->add_option("--max-memory-increase-abs", opt.maxMemoryAbs,
                  "Allowed growth of the same three, in bytes: 4096, 64KiB, 1MiB");
  sub->add_option("--format", opt.format, "text, json or junit")
      ->check(CLI::IsMember({"text", "json", "junit"}));
  sub->add_option("--output", opt.output,
                  "Write the --format output to FILE (the text report still goes to stdout)");
  sub->add_option("--top", opt.top, "Entries of each 'what grew' list (default 10)");
  return sub;
}

CLI::App* addTrace(CLI::App& app, TraceOptions& opt) {
  CLI::App* sub = app.add_subcommand(
      "trace", "Summary of a host trace (.pvti); export to Chrome/Perfetto JSON");
  sub->footer(R"(Traces are written by programs run with PVTI_OPTIONS (docs/tracing.md).

examples:
  PVTI_OPTIONS='{"enable":"true","directory":"traces"}' build/bin/tessera-mlp
  pva trace traces/*.pvti
  pva trace run.pvti --top 20 --json
  pva trace run.pvti --export-chrome run.json     then open run.json in ui.perfetto.dev)");
  sub->add_option("TRACE", opt.path, "The .pvti file")->required();
  sub->add_option("--export-chrome", opt.chrome,
                  "Write the trace as Chrome Trace Event JSON to this file ('-': stdout)");
  sub->add_option("--top", opt.top, "Labels to list by total duration (0: all; default 10)");
  sub->add_flag("--json", opt.json, "Write the summary as JSON");
  return sub;
}

/// Every subcommand's options: filled by parsing, read by the chosen command when it runs.
struct AllOptions {
  GlobalOptions global;
  SummaryOptions summary;
  QueryOptions query;
  InsightsCommandOptions insights;
  CompareOptions compare;
  TraceOptions trace;
};

} // namespace

Invocation parseCommandLine(int argc, char** argv, const std::string& version) {
  CLI::App app{kDescription, "pva"};
  app.require_subcommand(1);
  app.fallthrough(); // global options (--progress) may also follow the subcommand
  app.set_version_flag("--version", version);
  const auto o = std::make_shared<AllOptions>();
  app.add_flag(
      "--progress", o->global.progress,
      "Show progress of long work on stderr even when it is not a terminal (always shown on one)");

  const std::vector<std::pair<CLI::App*, std::function<int()>>> commands = {
      {addSummary(app, o->summary), [o] { return runSummary(o->summary, o->global); }},
      {addQuery(app, o->query), [o] { return runQuery(o->query, o->global); }},
      {addInsights(app, o->insights), [o] { return runInsights(o->insights, o->global); }},
      {addCompare(app, o->compare), [o] { return runCompare(o->compare, o->global); }},
      {addTrace(app, o->trace), [o] { return runTrace(o->trace, o->global); }},
  };
  Invocation invocation;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; every other parse error is bad input (status 2, which CI
    // scripts tell apart from "over threshold").
    const int status = app.exit(e);
    invocation.status = status == 0 ? 0 : kBadInput;
    return invocation;
  }
  for (const auto& [sub, run] : commands)
    if (sub->parsed()) {
      invocation.run = run;
      return invocation;
    }
  invocation.status = kBadInput; // require_subcommand(1) makes this unreachable
  return invocation;
}

} // namespace pvacli
