// The debug.cbor decoder alone (storage::readDebugInfo over bytes in memory): the fast target
// for the CBOR reader, millions of executions where fuzz_report_debug manages thousands.
#include "common/FuzzUtil.hpp"
#include "storage/DebugInfo.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const pva::storage::FileImage image{std::string_view(reinterpret_cast<const char*>(data), size)};
  fuzz::part([&] {
    const auto rows =
        pva::storage::readDebugInfo(pva::storage::Source{"fuzz/debug.cbor", &image},
                                    "00000000000000000000000000000000", "fuzz/profile.pop");
    volatile std::size_t n = rows.size();
    (void)n;
  });
  return 0;
}
