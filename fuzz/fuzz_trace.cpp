// openTrace on a fuzzed .pvti (from memory): processes, threads, events and their children,
// instant events, graphs, heatmaps, and the Chrome export.
#include "FromMemory.hpp"
#include "common/FuzzUtil.hpp"
#include "common/SqliteMutator.hpp"
#include "common/Walk.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::part([&] {
    const pva::Trace t = pva::detail::openTraceImage("fuzz/trace.pvti", std::string_view(reinterpret_cast<const char*>(data), size));
    fuzz::walkTrace(t);
  });
  return 0;
}

TESSERA_SQLITE_MUTATOR
