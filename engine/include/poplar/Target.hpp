// The machine a graph is compiled for: IPUs, tiles, memory, clocks and exchange bandwidths.
#pragma once

#include <cstdint>
#include <poplar/OptionFlags.hpp>
#include <poplar/SyncType.hpp>
#include <poplar/TargetType.hpp>
#include <poplar/Type.hpp>
#include <string>
#include <vector>

namespace poplar {

/// Description of a (simulated) device. Values default to a Mk2 IPU (GC200).
class Target {
public:
  struct Params {
    TargetType type = TargetType::IPU_MODEL;
    std::string arch = "ipu2";
    unsigned numIPUs = 1;
    unsigned tilesPerIPU = 1472;
    unsigned numWorkerContexts = 6;
    std::uint64_t bytesPerTile = 638976; ///< 624 KiB
    double tileClockFrequency = 1.33e9;  ///< Hz
    unsigned exchangeBytesPerCycle = 4;  ///< per tile, on-chip exchange
    unsigned memcpyBytesPerCycle = 8;    ///< on-tile copies
    unsigned instructionBytes = 4;
    double ipuLinkBytesPerCycle =
        12.0; ///< per IPU, between chips (64 GB/s at 1.33 GHz ≈ 48 B/c over 4 links)
    double hostLinkBytesPerCycle =
        12.0; ///< per IPU, host streams (IPU targets: Target.cpp, paramsForArch)
    unsigned tilesPerSuperTile = 4;
    bool supportsSuperTileSendReceive = true;
    unsigned minIPUSyncDelay = 15;    ///< cycles for the nearest tile's sync round trip
    unsigned maxIPUSyncDelay = 60;    ///< cycles for the farthest tile
    unsigned globalSyncCycles = 1500; ///< a sync across IPUs / the host (IPU targets: Target.cpp)
    unsigned interleavedMemoryElementIndex = 16; ///< memory elements below this are non-interleaved
    std::vector<std::uint64_t> memoryElementOffsets; ///< empty: derived from bytesPerTile
    unsigned dataPathWidth = 64;                     ///< bits
    unsigned replicationFactor = 1;
  };

  Target() : Target(Params{}) {}
  explicit Target(const Params& p);

  /// An IPU target: arch is "ipu1" (Mk1), "ipu2" (Mk2) or "bow" (Mk2 at 1.85 GHz).
  /// `arch` may also name an IPU system, as Poplar's systemType does: "IPU-POD4" ...
  /// "IPU-POD256", "IPU-M2000", "C600" (Mk2), "Bow-Pod16" ... "Bow-2000" (Bow), "C2" (Mk1).
  /// Options: Poplar's target options (ipuLinkConfiguration, ipuLinkTopology,
  /// ipuLinkDomainSize, syncConfiguration, gatewayMode) are accepted and have no effect on a
  /// simulated target; any other is an invalid_option.
  static Target createIPUTarget(unsigned numIPUs, const std::string& arch = "ipu2",
                                const OptionFlags& options = {});
  static Target createIPUTarget(const std::string& systemType, const OptionFlags& options = {}) {
    return createIPUTarget(1, systemType, options);
  }
  static Target createIPUTarget(unsigned numIPUs, unsigned tilesPerIPU,
                                const std::string& systemType, const OptionFlags& options = {});
  static Target createCPUTarget();

  TargetType getTargetType() const { return p_.type; }
  const std::string& getTargetArchString() const { return p_.arch; }
  unsigned getNumIPUs() const { return p_.numIPUs; }
  unsigned getTilesPerIPU() const { return p_.tilesPerIPU; }
  unsigned getNumTiles() const { return p_.numIPUs * p_.tilesPerIPU; }
  std::uint64_t getBytesPerTile() const { return p_.bytesPerTile; }
  std::uint64_t getMemoryBytes() const { return p_.bytesPerTile * getNumTiles(); }
  unsigned getNumWorkerContexts() const { return p_.numWorkerContexts; }
  double getTileClockFrequency() const { return p_.tileClockFrequency; }
  unsigned getExchangeBytesPerCycle() const { return p_.exchangeBytesPerCycle; }
  unsigned getMemcpyBytesPerCycle() const { return p_.memcpyBytesPerCycle; }
  unsigned getInstructionBytes() const { return p_.instructionBytes; }
  unsigned getMinIPUSyncDelay() const { return p_.minIPUSyncDelay; }
  unsigned getMaxIPUSyncDelay() const { return p_.maxIPUSyncDelay; }
  unsigned getGlobalSyncCycles() const { return p_.globalSyncCycles; }
  unsigned getTilesPerSuperTile() const { return p_.tilesPerSuperTile; }
  bool supportsSuperTileSendReceive() const { return p_.supportsSuperTileSendReceive; }
  unsigned getInterleavedMemoryElementIndex() const { return p_.interleavedMemoryElementIndex; }
  const std::vector<std::uint64_t>& getMemoryElementOffsets() const { return elementOffsets_; }
  unsigned getDataPathWidth() const { return p_.dataPathWidth; }
  /// Elements of `type` processed per cycle by one vector instruction.
  unsigned getVectorWidth(Type type) const;
  unsigned getFloatVectorWidth() const { return getVectorWidth(FLOAT); }
  unsigned getHalfVectorWidth() const { return getVectorWidth(HALF); }
  std::size_t getTypeSize(Type type) const { return type.size(); }
  unsigned getAtomicStoreGranularity() const { return 4; }
  double getIpuLinkBytesPerCycle() const { return p_.ipuLinkBytesPerCycle; }
  double getHostLinkBytesPerCycle() const { return p_.hostLinkBytesPerCycle; }
  unsigned getReplicationFactor() const { return p_.replicationFactor; }
  /// The IPU a global tile id belongs to.
  unsigned getIPUForTile(unsigned tile) const { return tile / p_.tilesPerIPU; }

  /// A target with the same IPU but fewer IPUs/tiles (used for replicas and virtual graphs).
  Target createVirtualTarget(unsigned numIPUs, unsigned tilesPerIPU) const;

  const Params& params() const { return p_; }
  bool operator==(const Target& o) const;
  bool operator!=(const Target& o) const { return !(*this == o); }

private:
  Params p_;
  std::vector<std::uint64_t> elementOffsets_;
};

} // namespace poplar
