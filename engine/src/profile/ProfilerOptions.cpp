#include "ProfilerOptions.hpp"

#include "../EngineOptions.hpp"

#include <poplar/exceptions.hpp>

namespace poplar::detail::profile {
namespace {

bool toBool(const std::string& name, const std::string& v) { return parseBoolOption("engine option", name, v); }

std::uint64_t toCount(const std::string& name, const std::string& v, std::uint64_t max) {
  return parseUnsignedOption("engine option", name, v, max);
}

} // namespace

std::string ProfilerOptions::reportDirectory() const {
  return engineName.empty() ? directory : directory + "/" + engineName;
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
  bool retain = false;
  flag("debug.retainDebugInformation", retain);
  if (retain && !p.graphProfile && !p.executionProfile && !p.debugInfo)
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
      try {
        // Both select Block programs by name in this engine (programs.filter wraps programs in
        // implicit blocks in Poplar; here every named program is already one).
        const std::string combined = p.blocksFilterText.empty() ? text : p.blocksFilterText + "|" + text;
        p.blocksFilter.emplace(combined, std::regex::ECMAScript);
        p.blocksFilterText = combined;
      } catch (const std::regex_error& e) {
        throw invalid_option(std::string("engine option '") + name + "' = '" + text +
                             "': not a valid regular expression (" + e.what() + ")");
      }
    }
  if (o.contains("profiler.blocks.tile"))
    p.blocksTile = static_cast<unsigned>(toCount("profiler.blocks.tile", o.at("profiler.blocks.tile"), 1u << 20));
  if (o.contains("profiler.blocks.bufferSize"))
    p.blocksBufferSize = toCount("profiler.blocks.bufferSize", o.at("profiler.blocks.bufferSize"), 1u << 20);
  flag("profiler.blocks.implicitFlush", p.blocksImplicitFlush);
  return p;
}

} // namespace poplar::detail::profile
