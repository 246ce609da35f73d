// PVTI_OPTIONS: the JSON that switches tracing on. Any text gives options and maybe a warning,
// never an exception.
#include "Options.hpp"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const pvti::detail::Options o = pvti::detail::parseOptions(std::string(reinterpret_cast<const char*>(data), size));
  volatile std::size_t n = o.warning.size() + o.channels.size() + o.directory.size();
  (void)n;
  return 0;
}
