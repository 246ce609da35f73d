// Every option name Poplar documents for Engine and for Engine::printProfileSummary, with the
// values each accepts, in one table. Options the simulation honours change what it does; the
// others are accepted (so programs written for Poplar run unchanged), checked and recorded in
// the report's engine options, and listed in docs/profiling.md as "accepted, no effect here".
// Parsing them lives here too (EngineOptions.cpp), but for the profiler's own (profile/).
#pragma once

#include "runtime/RuntimeOptions.hpp"

#include <cstdint>
#include <poplar/OptionFlags.hpp>
#include <string>
#include <vector>

namespace poplar::detail::session {

struct OptionSpec {
  enum class Kind {
    Bool,           ///< true or false (also 1 or 0)
    Unsigned,       ///< a whole number, decimal or 0x hexadecimal
    UnsignedOrAuto, ///< a whole number or "auto"
    Seconds,        ///< a non-negative number of seconds
    Choice,         ///< one of `choices` ("a|b|c")
    Text,           ///< any text: a path, a file name, a regular expression
  };
  const char* name;
  Kind kind;
  const char* choices; ///< Choice: the accepted values, '|'-separated; otherwise ""
  bool honoured;       ///< false: accepted, no effect in the simulation
};

/// The engine options (Engine constructor and POPLAR_ENGINE_OPTIONS), sorted by name.
const std::vector<OptionSpec>& engineOptionSpecs();
/// The options of Engine::printProfileSummary.
const std::vector<OptionSpec>& summaryOptionSpecs();

/// Checks every option of `options` against `specs`: an unknown name or a value of the wrong
/// kind throws invalid_option naming the option, the value and what is accepted. `context`
/// starts the message ("engine option", "printProfileSummary option").
void checkOptions(const OptionFlags& options, const std::vector<OptionSpec>& specs,
                  const std::string& context);

/// The options given to an Engine with POPLAR_ENGINE_OPTIONS's laid over them, checked against
/// engineOptionSpecs().
OptionFlags mergedEngineOptions(const OptionFlags& given);
/// What the runtime takes from the engine options (floating-point checks, prefetching, host
/// threads). The profiler's options are read by profile/ProfilerOptions.
runtime::RuntimeOptions runtimeOptions(const OptionFlags& options);

/// The typed value of one option, with the same messages as checkOptions.
bool parseBoolOption(const std::string& context, const std::string& name, const std::string& value);
std::uint64_t parseUnsignedOption(const std::string& context, const std::string& name,
                                  const std::string& value, std::uint64_t max);

} // namespace poplar::detail::session
