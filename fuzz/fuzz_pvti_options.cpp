// PVTI_OPTIONS: the JSON that switches tracing on. Any text gives options and maybe a warning,
// never an exception.
#include "Options.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const pvti::detail::Options o =
      pvti::detail::parseOptions(std::string(reinterpret_cast<const char*>(data), size));
  // The session turns the duration into a deadline in nanoseconds: it must be a number the
  // conversion holds (found: 1e11 and "inf" overflowed it).
  if (!(o.durationSeconds >= 0 && o.durationSeconds <= pvti::detail::kMaxDurationSeconds)) {
    std::fprintf(stderr, "==fuzz oracle== a duration of %g s was accepted\n", o.durationSeconds);
    std::abort();
  }
  volatile std::size_t n = o.warning.size() + o.channels.size() + o.directory.size();
  (void)n;
  return 0;
}
