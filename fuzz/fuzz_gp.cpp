// The codelet loader's check of a .gp image (engine/src/codelets/GpFile.cpp), run before
// anything is dlopen'ed: any bytes give metadata or a reason, never a crash. Nothing is loaded
// here (dlopen of fuzzed ELF would run its constructors); the oracle is what the loader relies
// on when it does load: an accepted image is a non-empty ELF object at offset 0, covered by
// its trailer up to the metadata, which is text.
#include "codelets/GpFile.hpp"
#include "common/Budget.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz::Budget budget(size);
  const std::string_view image(reinterpret_cast<const char*>(data), size);
  std::string why;
  const auto meta = poplar::detail::codelets::parseGpImage(image, why);
  if (!meta) {
    if (why.empty()) {
      std::fprintf(stderr, "==fuzz oracle== a .gp was refused without a reason\n");
      std::abort();
    }
  } else {
    const std::uint64_t tail = 8 + 16;
    std::uint64_t metaBytes = 0;
    for (int i = 0; i < 8; ++i)
      metaBytes |= std::uint64_t(data[size - tail + i]) << (8 * i);
    const bool covered = meta->objectSize > 0 && meta->objectSize + metaBytes + tail == size &&
                         std::memcmp(data,
                                     "\x7f"
                                     "ELF",
                                     4) == 0 &&
                         std::memchr(data + meta->objectSize, 0, metaBytes) == nullptr &&
                         !meta->tesseraVersion.empty();
    if (!covered) {
      std::fprintf(
          stderr,
          "==fuzz oracle== a .gp whose trailer does not cover an ELF object was accepted\n");
      std::abort();
    }
  }
  budget.check("parseGpImage");
  return 0;
}
