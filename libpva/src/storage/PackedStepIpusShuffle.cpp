// The IPU-entry decoder with SSSE3 byte shuffles (PackedReader.hpp): this file alone is compiled
// with -mssse3 (libpva/CMakeLists.txt), and PackedStepIpus.cpp calls it only on a processor that
// has SSSE3, so the library still runs on any x86-64.
#include "PackedReader.hpp"

#if !defined(__SSSE3__)
#error "PackedStepIpusShuffle.cpp must be compiled with -mssse3"
#endif

namespace pva::storage::packed {

tessera::profiler::StepIpu readEntryShuffled(const unsigned char* data, std::size_t size,
                                             const StepIpusLayout& layout, PackedPosition& at,
                                             const Slots& slot) {
  return readEntry<Spread::Shuffle>(data, size, layout, at, slot);
}

void readEntriesShuffled(const unsigned char* data, std::size_t size, const StepIpusLayout& layout,
                         PackedPosition& at, const Slots& slot, tessera::profiler::StepIpu* out,
                         std::size_t count) {
  readEntries<Spread::Shuffle>(data, size, layout, at, slot, out, count);
}

} // namespace pva::storage::packed
