// openReport on a fuzzed profile.pop (from memory), walking the whole object model and
// comparing it against a valid report both ways.
#include "FromMemory.hpp"
#include "common/Budget.hpp"
#include "common/FuzzUtil.hpp"
#include "common/SqliteMutator.hpp"
#include "common/Walk.hpp"

#include <memory>

namespace {
std::string validBytes;
std::unique_ptr<pva::Report> valid;
} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  validBytes = fuzz::readFile(TESSERA_FUZZ_VALID_PROFILE);
  if (!validBytes.empty())
    valid = std::make_unique<pva::Report>(
        pva::detail::openReportImage("valid/profile.pop", validBytes));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz::Budget budget(size); // time and heap bounded by the input's size
  fuzz::part([&] {
    const pva::Report r = pva::detail::openReportImage(
        "fuzz/profile.pop", std::string_view(reinterpret_cast<const char*>(data), size));
    fuzz::walkReport(r, valid.get());
  });
  budget.check("walkReport");
  return 0;
}

TESSERA_SQLITE_MUTATOR
