// openTrace on a fuzzed .pvti (from memory): processes, threads, events and their children,
// instant events, graphs, heatmaps, the Chrome export and `pva trace --json`'s summary, both of
// which must parse as JSON; each input within its time and memory budget (common/Budget.hpp).
#include "FromMemory.hpp"
#include "common/Budget.hpp"
#include "common/FuzzUtil.hpp"
#include "common/SqliteMutator.hpp"
#include "common/Walk.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz::Budget budget(size); // time and heap bounded by the input's size
  fuzz::part([&] {
    const pva::Trace t = pva::detail::openTraceImage(
        "fuzz/trace.pvti", std::string_view(reinterpret_cast<const char*>(data), size));
    fuzz::walkTrace(t);
  });
  budget.check("walkTrace");
  return 0;
}

TESSERA_SQLITE_MUTATOR
