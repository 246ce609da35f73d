#include "ProfilerOptions.hpp"

#include "runtime/Instances.hpp"
#include "session/EngineOptions.hpp"

#include <algorithm>
#include <cctype>
#include <poplar/exceptions.hpp>
#include <string>
#include <vector>

namespace poplar::detail::profile {
using runtime::instanceContext;
using session::parseBoolOption;
using session::parseUnsignedOption;

namespace {

// libstdc++'s std::regex reads a back-reference or repetition count into a long without checking
// (the 20-digit back-reference `\18446744073709551616` overflows: undefined behaviour, found by
// fuzzing) and its compile time and stack grow with the pattern, so a filter is checked before it
// is compiled: program-name filters need neither long patterns nor counts above a few thousand.
constexpr std::size_t kMaxFilterLength = 1000;
constexpr std::size_t kMaxDigits = 4; // counts and back-references up to 9999

std::size_t digitsAt(const std::string& text, std::size_t at) {
  std::size_t n = 0;
  while (at + n < text.size() && std::isdigit(static_cast<unsigned char>(text[at + n])))
    ++n;
  return n;
}

/// Why `text` must not reach std::regex, or "" when it may.
std::string unsafeRegexReason(const std::string& text) {
  if (text.size() > kMaxFilterLength)
    return "a regular expression longer than " + std::to_string(kMaxFilterLength) +
           " characters (it has " + std::to_string(text.size()) + ")";
  // The numbers std::regex parses: back-references (\N) and repetition counts ({N}, {N,}, {N,M}).
  std::vector<std::size_t> numbers;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\') {
      numbers.push_back(i + 1);
      ++i; // the escaped character is not itself special
    } else if (text[i] == '{') {
      numbers.push_back(i + 1);
      const std::size_t comma = i + 1 + digitsAt(text, i + 1);
      if (comma < text.size() && text[comma] == ',') numbers.push_back(comma + 1);
    }
  }
  for (std::size_t at : numbers)
    if (const std::size_t n = digitsAt(text, at); n > kMaxDigits)
      return "the number " + text.substr(at, std::min<std::size_t>(n, 24)) + (n > 24 ? "..." : "") +
             " at character " + std::to_string(at + 1) +
             " is too large for a repetition count or back-reference (at most " +
             std::to_string(kMaxDigits) + " digits)";
  return {};
}

bool toBool(const std::string& name, const std::string& v) {
  return parseBoolOption("engine option", name, v);
}

std::uint64_t toCount(const std::string& name, const std::string& v, std::uint64_t max) {
  return parseUnsignedOption("engine option", name, v, max);
}

} // namespace

std::string ProfilerOptions::reportDirectory() const {
  // Under poprun each instance writes into a directory of its own (docs/distributed.md), so the
  // instances of a job never overwrite each other's files and libpva opens the folder as a job.
  const auto& job = instanceContext();
  const std::string base =
      job.distributed ? directory + "/instance_" + std::to_string(job.index) : directory;
  return engineName.empty() ? base : base + "/" + engineName;
}

ProfilerOptions parseProfilerOptions(const OptionFlags& o) {
  ProfilerOptions p;
  auto flag = [&](const char* name, bool& out) {
    if (o.contains(name)) out = toBool(name, o.at(name));
  };
  bool all = false;
  flag("autoReport.all", all);
  p.graphProfile = p.executionProfile = p.debugInfo = p.computeInstrumentation = all;
  flag("autoReport.outputGraphProfile", p.graphProfile);
  flag("autoReport.outputExecutionProfile", p.executionProfile);
  flag("autoReport.outputDebugInfo", p.debugInfo);
  flag("autoReport.outputSerializedGraph", p.serializedGraph);
  bool instrument = false;
  flag("debug.instrument", instrument);
  p.computeInstrumentation = p.computeInstrumentation || instrument || p.executionProfile;
  flag("debug.instrumentCompute", p.computeInstrumentation);
  p.externalExchangeInstrumentation = instrument || p.executionProfile;
  flag("debug.instrumentExternalExchange", p.externalExchangeInstrumentation);
  flag("debug.allowOutOfMemory", p.allowOutOfMemory);
  flag("profiler.includeFlopEstimates", p.flopEstimates);
  bool retain = false;
  flag("debug.retainDebugInformation", retain);
  // On hardware, instrumenting is what makes a profile: after Engine{graph, prog,
  // {{"debug.instrument", "true"}}} printProfileSummary works. Any option that asks for
  // instrumentation keeps a private profile as debug.retainDebugInformation does.
  bool instrumented = instrument;
  for (const char* name : {"debug.instrumentCompute", "debug.instrumentExternalExchange"}) {
    bool on = false;
    flag(name, on);
    instrumented = instrumented || on;
  }
  // Lightweight profiling too: on Poplar, instrumented blocks (profiler.blocks.filter or
  // profiler.programs.filter) alone give a report that holds them (getReport reads them back).
  const bool blocks =
      o.contains("profiler.blocks.filter") || o.contains("profiler.programs.filter");
  if ((retain || instrumented || blocks) && !p.graphProfile && !p.executionProfile && !p.debugInfo)
    p.privateReport = p.graphProfile = p.executionProfile = true;
  // An execution profile needs the compilation profile it refers to.
  if (p.executionProfile || p.debugInfo) p.graphProfile = true;
  if (o.contains("autoReport.directory")) {
    p.directory = o.at("autoReport.directory");
    if (p.directory.empty()) throw invalid_option("engine option 'autoReport.directory' is empty");
  }
  for (const char* name : {"profiler.blocks.filter", "profiler.programs.filter"})
    if (o.contains(name)) {
      const std::string& text = o.at(name);
      if (const std::string why = unsafeRegexReason(text); !why.empty())
        throw invalid_option(std::string("engine option '") + name + "' = '" + text.substr(0, 80) +
                             (text.size() > 80 ? "...'" : "'") + ": " + why);
      try {
        // profiler.blocks.filter selects Block programs by name; profiler.programs.filter wraps
        // the programs it names in implicit blocks (and selects Block programs of those names).
        const bool programs = std::string(name) == "profiler.programs.filter";
        std::string& filterText = programs ? p.programsFilterText : p.blocksFilterText;
        filterText = text;
        (programs ? p.programsFilter : p.blocksFilter).emplace(text, std::regex::ECMAScript);
      } catch (const std::regex_error& e) {
        throw invalid_option(std::string("engine option '") + name + "' = '" + text +
                             "': not a valid regular expression (" + e.what() + ")");
      }
    }
  // A Block program named by either filter is measured.
  if (p.programsFilter) {
    const std::string combined = p.blocksFilterText.empty()
                                     ? p.programsFilterText
                                     : p.blocksFilterText + "|" + p.programsFilterText;
    p.blocksFilter.emplace(combined, std::regex::ECMAScript);
  }
  if (o.contains("profiler.blocks.tile"))
    p.blocksTile = static_cast<unsigned>(
        toCount("profiler.blocks.tile", o.at("profiler.blocks.tile"), 1u << 20));
  if (o.contains("profiler.blocks.bufferSize"))
    p.blocksBufferSize =
        toCount("profiler.blocks.bufferSize", o.at("profiler.blocks.bufferSize"), 1u << 20);
  flag("profiler.blocks.implicitFlush", p.blocksImplicitFlush);
  return p;
}

} // namespace poplar::detail::profile
