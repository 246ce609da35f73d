// POPLAR_ENGINE_OPTIONS: the JSON parsed into option flags, checked against the engine's option
// table (names and value kinds), then the profiler's reading of them (autoReport.*, debug.*,
// profiler.*). Bad text or values are poplar::invalid_option (a poplar_error); anything else
// escaping is a finding.
#include "profile/ProfilerOptions.hpp"
#include "session/EngineOptions.hpp"

#include <poplar/OptionFlags.hpp>
#include <poplar/exceptions.hpp>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const poplar::OptionFlags flags = poplar::parseOptionFlagsJson(
        std::string(reinterpret_cast<const char*>(data), size), "POPLAR_ENGINE_OPTIONS");
    poplar::detail::session::checkOptions(flags, poplar::detail::session::engineOptionSpecs(),
                                          "engine option");
    const auto options = poplar::detail::profile::parseProfilerOptions(flags);
    volatile std::size_t n = options.reportDirectory().size();
    (void)n;
  } catch (const poplar::poplar_error&) {
  }
  return 0;
}
