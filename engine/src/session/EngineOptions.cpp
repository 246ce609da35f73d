#include "EngineOptions.hpp"

#include "runtime/RuntimeOptions.hpp"
#include "runtime/ThreadPool.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <poplar/exceptions.hpp>

namespace poplar::detail::session {
using runtime::resolveThreadCount;
using runtime::RuntimeOptions;

namespace {

using K = OptionSpec::Kind;
constexpr bool kHonoured = true, kNoEffect = false;

// Names from Poplar's Engine documentation and the options Poplar programs and frameworks pass.
// Keep sorted by name: the "unknown option" message suggests the nearest names from here.
const std::vector<OptionSpec> kEngineOptions = {
    {"autoReport.all", K::Bool, "", kHonoured},
    {"autoReport.directory", K::Text, "", kHonoured},
    {"autoReport.executionProfileProgramRunCount", K::Unsigned, "", kNoEffect},
    {"autoReport.outputArchive", K::Bool, "", kNoEffect},
    {"autoReport.outputDebugInfo", K::Bool, "", kHonoured},
    {"autoReport.outputExecutionProfile", K::Bool, "", kHonoured},
    {"autoReport.outputGraphProfile", K::Bool, "", kHonoured},
    {"autoReport.outputLoweredVars", K::Bool, "", kNoEffect},
    {"autoReport.outputSerializedGraph", K::Bool, "", kHonoured},
    {"autoReport.streamAtEachRun", K::Bool, "", kNoEffect},
    {"debug.allowOutOfMemory", K::Bool, "", kHonoured},
    {"debug.branchRecordTile", K::Unsigned, "", kNoEffect},
    {"debug.computeInstrumentationLevel", K::Choice, "vertex|tile|ipu|device", kNoEffect},
    {"debug.cpuMultiThreadExecution", K::Bool, "", kNoEffect},
    {"debug.floatPointOpException", K::Bool, "", kHonoured},
    {"debug.instrument", K::Bool, "", kHonoured},
    {"debug.instrumentCompute", K::Bool, "", kHonoured},
    {"debug.instrumentControlFlow", K::Bool, "", kNoEffect},
    {"debug.instrumentExternalExchange", K::Bool, "", kHonoured},
    {"debug.loweredVarDumpFile", K::Text, "", kNoEffect},
    {"debug.loweredVarDumpNumOOMTiles", K::Unsigned, "", kNoEffect},
    {"debug.nanOverflowException", K::Bool, "", kNoEffect},
    {"debug.outputAllSymbols", K::Bool, "", kNoEffect},
    {"debug.retainDebugInformation", K::Bool, "", kHonoured},
    {"debug.runtimeVerify", K::Bool, "", kNoEffect},
    {"debug.supervisorStackSizeInBytes", K::Unsigned, "", kNoEffect},
    {"debug.trace", K::Bool, "", kNoEffect},
    {"debug.traceFile", K::Text, "", kNoEffect},
    {"debug.verify", K::Bool, "", kNoEffect},
    {"debug.workerStackSizeInBytes", K::Unsigned, "", kNoEffect},
    {"exchange.enablePrefetch", K::Bool, "", kHonoured},
    {"exchange.streamBufferOverlap", K::Choice, "none|hostRearrangeOnly|any", kHonoured},
    {"opt.enableMultiAccessCopies", K::Bool, "", kNoEffect},
    {"opt.enableSwSyncs", K::Bool, "", kNoEffect},
    {"opt.internalExchangeOptimisationTarget", K::Choice, "balanced|cycles|memory", kNoEffect},
    {"opt.limitVertexStateToLower256K", K::Bool, "", kNoEffect},
    {"opt.maxCompilationThreads", K::Unsigned, "", kNoEffect},
    {"opt.maxCopyMergeSize", K::Unsigned, "", kNoEffect},
    {"opt.useAutoloader", K::Bool, "", kNoEffect},
    {"profiler.blocks.bufferSize", K::Unsigned, "", kHonoured},
    {"profiler.blocks.filter", K::Text, "", kHonoured},
    {"profiler.blocks.implicitFlush", K::Bool, "", kHonoured},
    {"profiler.blocks.tile", K::Unsigned, "", kHonoured},
    {"profiler.format", K::Choice, "v1|v2|v3|v4", kNoEffect},
    {"profiler.includeCycleEstimates", K::Bool, "", kNoEffect},
    {"profiler.includeFlopEstimates", K::Bool, "", kHonoured},
    {"profiler.programs.filter", K::Text, "", kHonoured},
    {"profiler.replicaToProfile", K::Unsigned, "", kNoEffect},
    {"streamCallbacks.multiThreadMode", K::Choice, "singleThread|collaborative|dedicated",
     kNoEffect},
    {"streamCallbacks.numaAware", K::Bool, "", kNoEffect},
    {"streamCallbacks.numWorkerThreads", K::UnsignedOrAuto, "", kNoEffect},
    {"target.deterministicWorkers", K::Choice, "true|false|portable", kNoEffect},
    {"target.exceptionPollPeriodUs", K::Unsigned, "", kNoEffect},
    {"target.extendedMemory", K::Bool, "", kNoEffect},
    {"target.firstRuntimeReplica", K::Unsigned, "", kNoEffect},
    {"target.gatewayWriteCombining", K::Bool, "", kNoEffect},
    {"target.hostSyncTimeout", K::Seconds, "", kNoEffect},
    {"target.numberRuntimeReplica", K::Unsigned, "", kNoEffect},
    {"target.saveArchive", K::Text, "", kNoEffect},
    {"target.syncMethod", K::Choice, "polling|hybrid|default", kNoEffect},
    {"target.syncPollPeriodUs", K::Unsigned, "", kNoEffect},
    {"target.syncReplicasIndependently", K::Bool, "", kNoEffect},
    {"tessera.threads", K::UnsignedOrAuto, "", kHonoured}, // Tessera's own: host threads per run
};

const std::vector<OptionSpec> kSummaryOptions = {
    {"colours", K::Bool, "", kNoEffect}, // the summary is plain text
    {"showExecutionSteps", K::Bool, "", kHonoured},
    {"showOptimizations", K::Bool, "", kNoEffect}, // the engine makes no optimisations to show
    {"showPerIpuMemoryUsage", K::Bool, "", kHonoured},
    {"showVarStorage", K::Bool, "", kHonoured},
};

std::string quoted(const std::string& context, const std::string& name, const std::string& value) {
  return context + " '" + name + "' = '" + value + "'";
}

/// Names sharing the unknown name's prefix up to its last '.', or all names when none do.
std::string suggestions(const std::string& name, const std::vector<OptionSpec>& specs) {
  const std::string group =
      name.substr(0, name.rfind('.') == std::string::npos ? 0 : name.rfind('.') + 1);
  std::string list;
  for (const auto& s : specs)
    if (group.empty() || std::string(s.name).compare(0, group.size(), group) == 0)
      list += (list.empty() ? "" : ", ") + std::string(s.name);
  if (list.empty())
    for (const auto& s : specs)
      list += (list.empty() ? "" : ", ") + std::string(s.name);
  return list;
}

bool isChoice(const char* choices, const std::string& value) {
  std::string all = choices;
  std::size_t start = 0;
  while (start <= all.size()) {
    const std::size_t bar = std::min(all.find('|', start), all.size());
    if (all.compare(start, bar - start, value) == 0 && bar - start == value.size()) return true;
    start = bar + 1;
  }
  return false;
}

void checkValue(const std::string& context, const OptionSpec& spec, const std::string& value) {
  switch (spec.kind) {
  case K::Bool:
    parseBoolOption(context, spec.name, value);
    break;
  case K::Unsigned:
    parseUnsignedOption(context, spec.name, value, std::numeric_limits<std::uint64_t>::max());
    break;
  case K::UnsignedOrAuto:
    if (value != "auto")
      parseUnsignedOption(context, spec.name, value, std::numeric_limits<std::uint64_t>::max());
    break;
  case K::Seconds: {
    errno = 0;
    char* end = nullptr;
    const double s = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || errno != 0 || !std::isfinite(s) || s < 0)
      throw invalid_option(quoted(context, spec.name, value) +
                           ": expected a number of seconds such as 300 or 0.5");
    break;
  }
  case K::Choice:
    if (!isChoice(spec.choices, value)) {
      std::string accepted = spec.choices;
      std::replace(accepted.begin(), accepted.end(), '|', ',');
      throw invalid_option(quoted(context, spec.name, value) + ": expected one of " + accepted);
    }
    break;
  case K::Text:
    break;
  }
}

} // namespace

const std::vector<OptionSpec>& engineOptionSpecs() {
  return kEngineOptions;
}
const std::vector<OptionSpec>& summaryOptionSpecs() {
  return kSummaryOptions;
}

bool parseBoolOption(const std::string& context, const std::string& name,
                     const std::string& value) {
  if (value == "true" || value == "1") return true;
  if (value == "false" || value == "0") return false;
  throw invalid_option(quoted(context, name, value) + ": expected true or false");
}

std::uint64_t parseUnsignedOption(const std::string& context, const std::string& name,
                                  const std::string& value, std::uint64_t max) {
  const bool hex = value.size() > 2 && value[0] == '0' && (value[1] == 'x' || value[1] == 'X');
  const std::string digits = hex ? value.substr(2) : value;
  const bool wellFormed =
      !digits.empty() && std::all_of(digits.begin(), digits.end(), [hex](char c) {
        return hex ? std::isxdigit(static_cast<unsigned char>(c)) != 0 : c >= '0' && c <= '9';
      });
  errno = 0;
  const unsigned long long n =
      wellFormed ? std::strtoull(digits.c_str(), nullptr, hex ? 16 : 10) : 0;
  if (!wellFormed || errno == ERANGE || n > max)
    throw invalid_option(quoted(context, name, value) + ": expected a whole number from 0 to " +
                         std::to_string(max));
  return n;
}

void checkOptions(const OptionFlags& options, const std::vector<OptionSpec>& specs,
                  const std::string& context) {
  for (const auto& [name, value] : options) {
    const auto spec = std::find_if(specs.begin(), specs.end(),
                                   [&name = name](const OptionSpec& s) { return name == s.name; });
    if (spec == specs.end())
      throw invalid_option("unknown " + context + " '" + name +
                           "' (known: " + suggestions(name, specs) + ")");
    checkValue(context, *spec, value);
  }
}

// --- What the engine's parts take from the options ------------------------------------------

OptionFlags mergedEngineOptions(const OptionFlags& given) {
  OptionFlags merged = given;
  if (const char* env = std::getenv("POPLAR_ENGINE_OPTIONS"))
    for (const auto& [k, v] : parseOptionFlagsJson(env, "POPLAR_ENGINE_OPTIONS"))
      merged.set(k, v);
  checkOptions(merged, engineOptionSpecs(), "engine option");
  return merged;
}

RuntimeOptions runtimeOptions(const OptionFlags& o) {
  RuntimeOptions r;
  if (o.contains("debug.floatPointOpException"))
    r.floatingPointChecks = parseBoolOption("engine option", "debug.floatPointOpException",
                                            o.at("debug.floatPointOpException"));
  // Poplar's defaults: prefetch enabled, but stream buffers may overlap host rearrangement,
  // which rules prefetching out; streamBufferOverlap=none lets it happen.
  const bool prefetch =
      !o.contains("exchange.enablePrefetch") ||
      parseBoolOption("engine option", "exchange.enablePrefetch", o.at("exchange.enablePrefetch"));
  const bool noOverlap =
      o.contains("exchange.streamBufferOverlap") && o.at("exchange.streamBufferOverlap") == "none";
  r.streamPrefetch = prefetch && noOverlap;
  r.threads = resolveThreadCount(o.contains("tessera.threads") ? o.at("tessera.threads") : "");
  return r;
}

} // namespace poplar::detail::session
