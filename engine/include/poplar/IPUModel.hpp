// The simulated IPU: a description whose public fields can be edited before createDevice().
#pragma once

#include <poplar/Device.hpp>
#include <poplar/OptionFlags.hpp>
#include <string>

namespace poplar {

class IPUModel {
public:
  /// "ipu1" (Mk1 GC2), "ipu2" (Mk2 GC200, default) or "bow" (Mk2 at 1.85 GHz).
  explicit IPUModel(const char* ipuVersion = "ipu2");

  std::string IPUVersion;
  unsigned numIPUs;
  unsigned tilesPerIPU;
  unsigned tilesPerSuperTile;
  unsigned numWorkerContexts;
  unsigned memoryBytesPerTile;
  double tileClockFrequency;
  unsigned exchangeBytesPerCycle;
  unsigned memcpyBytesPerCycle;
  unsigned instructionBytes;
  bool supportsSuperTileSendReceive;
  unsigned interleavedMemoryElementIndex;
  unsigned minIPUSyncDelay;
  unsigned globalSyncCycles;
  enum class RelativeSyncDelayType {
    AUTO,
    NO_DELAY
  } relativeSyncDelay = RelativeSyncDelayType::AUTO;
  bool compileIPUCode = false;

  /// A device running on the host CPU that models this IPU's memory and cycles.
  Device createDevice(OptionFlags opts = {}, bool accurateHalf = false,
                      unsigned deviceManagerId = 0) const;
  Target createTarget() const;
};

} // namespace poplar
