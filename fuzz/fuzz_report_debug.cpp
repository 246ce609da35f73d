// openReport with a valid profile.pop and a fuzzed debug.cbor beside it (both from memory),
// then everything that reads debug information: contexts of programs, compute sets and
// variables, and the operations.
#include "FromMemory.hpp"
#include "common/FuzzUtil.hpp"
#include "common/Walk.hpp"

namespace {
std::string profile;
} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  profile = fuzz::readFile(TESSERA_FUZZ_VALID_PROFILE);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (profile.empty()) return 0;
  fuzz::part([&] {
    const std::string debugName = "fuzz/debug.cbor";
    const pva::Report r =
        pva::detail::openReportImage("valid/profile.pop", profile, &debugName,
                                     std::string_view(reinterpret_cast<const char*>(data), size));
    fuzz::walkReport(r, nullptr);
  });
  return 0;
}
