// The Cap'n Proto blob decoders of profile.pop alone: TileValues, StepIpus, and libpva's
// in-place reader of StepIpus entries (storage/PackedStepIpus), which must agree with the full
// decoder on every blob both accept. The first byte picks the decoder.
#include "storage/PackedStepIpus.hpp"

#include <cstdlib>
#include <cstring>
#include <profiler/Blob.hpp>

namespace {
/// Field by field, floats by their bits: NaN balances must match too (== would say they differ).
bool same(const tessera::profiler::StepIpu& a, const tessera::profiler::StepIpu& b) {
  auto bits = [](float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
  };
  return a.ipu == b.ipu && a.cycles == b.cycles && a.activeTiles == b.activeTiles &&
         a.activeFromMin == b.activeFromMin && a.activeFromMax == b.activeFromMax &&
         a.activeToMin == b.activeToMin && a.activeToMax == b.activeToMax &&
         a.allFromMin == b.allFromMin && a.allFromMax == b.allFromMax && a.allToMin == b.allToMin &&
         a.allToMax == b.allToMax && a.dataIn == b.dataIn && a.dataOut == b.dataOut &&
         bits(a.tileBalance) == bits(b.tileBalance) &&
         bits(a.activeTileBalance) == bits(b.activeTileBalance);
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t which = data[0];
  ++data, --size;
  using tessera::profiler::BlobError;
  try {
    if (which % 3 == 0) {
      (void)tessera::profiler::decodeTileValues(data, size);
    } else if (which % 3 == 1) {
      (void)tessera::profiler::decodeStepIpus(data, size);
    } else {
      pva::storage::StepIpusLayout layout;
      if (!pva::storage::readStepIpusLayout(data, size, layout)) return 0;
      std::vector<tessera::profiler::StepIpu> full;
      bool fullOk = true;
      try {
        full = tessera::profiler::decodeStepIpus(data, size);
      } catch (const BlobError&) {
        fullOk = false;
      }
      pva::storage::PackedPosition at = layout.first;
      for (std::uint32_t i = 0; i < layout.count && i < 4096; ++i) {
        const auto ipu = pva::storage::readStepIpuAt(data, size, layout, at);
        // Where both read an entry they must read the same one.
        if (fullOk && i < full.size() && !same(ipu, full[i])) std::abort();
      }
      if (layout.count) (void)pva::storage::stepIpuPosition(data, size, layout, layout.count - 1);
    }
  } catch (const BlobError&) {
  }
  return 0;
}
