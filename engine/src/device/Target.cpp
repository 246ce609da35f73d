#include <algorithm>
#include <cmath>
#include <iterator>
#include <poplar/IPUModel.hpp>
#include <poplar/Target.hpp>
#include <poplar/exceptions.hpp>

namespace poplar {
namespace {

/// The IPU architecture of one of Poplar's system names, or the name itself (an architecture).
std::string archOfSystem(const std::string& system) {
  auto startsWith = [&](const char* prefix) { return system.rfind(prefix, 0) == 0; };
  if (startsWith("IPU-POD") || system == "IPU-M2000" || system == "C600" || system == "M2000")
    return "ipu2";
  if (startsWith("Bow-") || startsWith("BOW-") || startsWith("Bow") || system == "bow-pod")
    return "bow";
  if (system == "C2" || system == "IPU-C2") return "ipu1";
  return system;
}

Target::Params paramsForArch(const std::string& arch) {
  Target::Params p;
  // Host transfers and host syncs as Poplar's IPU Model shows them (docs/fidelity.md), for every
  // IPU architecture (no Mk1 figure is published; the host interface is the same PCIe link):
  // - host link, per IPU: 6 bytes/cycle (8 GB/s at 1.33 GHz), the throughput of tutorial 6's
  //   published Mk2 profile (40,044,000 bytes streamed in 6,663,551 tile-average host cycles);
  // - a sync across IPUs / with the host (each stream copy's StreamCopyBegin, external Syncs,
  //   global exchanges): 378 cycles (284 ns at 1.33 GHz), tutorial 6's 1,134.8 tile-average sync
  //   cycles over its three stream copies, its internal sync delays being set to 0.
  p.hostLinkBytesPerCycle = 6.0;
  p.globalSyncCycles = 378;
  if (arch == "ipu1") { // Mk1 (GC2)
    p.arch = "ipu1";
    p.tilesPerIPU = 1216;
    p.bytesPerTile = 256 * 1024;
    p.tileClockFrequency = 1.6e9;
    p.interleavedMemoryElementIndex = 8;
  } else if (arch == "ipu2") { // Mk2 (GC200)
  } else if (arch == "bow") {  // Mk2 silicon, wafer-on-wafer power delivery: faster clock
    p.arch = "ipu2";
    p.tileClockFrequency = 1.85e9;
  } else {
    throw invalid_machine_model("unknown IPU version or system '" + arch +
                                "': use ipu1, ipu2, bow, or a system such as IPU-POD16, "
                                "IPU-M2000, C600, Bow-Pod16, Bow-2000 or C2");
  }
  return p;
}

} // namespace

Target::Target(const Params& p) : p_(p) {
  if (p_.numIPUs == 0 || p_.tilesPerIPU == 0)
    throw invalid_machine_model("a target needs at least one IPU and one tile");
  if (p_.numWorkerContexts == 0) throw invalid_machine_model("numWorkerContexts must be > 0");
  if (p_.bytesPerTile == 0) throw invalid_machine_model("memoryBytesPerTile must be > 0");
  // Every rate divides a byte count into cycles: zero, negative, NaN or infinite rates would make
  // the cycle figures undefined (a float-to-integer conversion out of range), whether they come
  // from an IPUModel's fields or from an executable file.
  auto positive = [](double v) { return std::isfinite(v) && v > 0; };
  if (!positive(p_.tileClockFrequency))
    throw invalid_machine_model("tileClockFrequency must be a finite number > 0");
  if (p_.exchangeBytesPerCycle == 0)
    throw invalid_machine_model("exchangeBytesPerCycle must be > 0");
  if (p_.memcpyBytesPerCycle == 0) throw invalid_machine_model("memcpyBytesPerCycle must be > 0");
  if (p_.instructionBytes == 0) throw invalid_machine_model("instructionBytes must be > 0");
  if (!positive(p_.ipuLinkBytesPerCycle))
    throw invalid_machine_model("ipuLinkBytesPerCycle must be a finite number > 0");
  if (!positive(p_.hostLinkBytesPerCycle))
    throw invalid_machine_model("hostLinkBytesPerCycle must be a finite number > 0");
  if (p_.tilesPerSuperTile == 0) throw invalid_machine_model("tilesPerSuperTile must be > 0");
  if (p_.dataPathWidth < 8) throw invalid_machine_model("dataPathWidth must be at least 8 bits");
  elementOffsets_ = p_.memoryElementOffsets;
  if (elementOffsets_.empty()) {
    // Memory elements: the lower part of the tile in 16 KiB elements (non-interleaved), the upper
    // part in 32 KiB elements (interleaved), as on the IPU.
    const std::uint64_t low = std::uint64_t(p_.interleavedMemoryElementIndex) * 16384;
    for (std::uint64_t off = 0; off < p_.bytesPerTile; off += off < low ? 16384 : 32768)
      elementOffsets_.push_back(off);
  }
}

Target Target::createIPUTarget(unsigned numIPUs, const std::string& systemType,
                               const OptionFlags& options) {
  for (const auto& [name, value] : options) {
    static const char* const accepted[] = {"ipuLinkConfiguration", "ipuLinkTopology",
                                           "ipuLinkDomainSize", "syncConfiguration", "gatewayMode"};
    if (std::find(std::begin(accepted), std::end(accepted), name) == std::end(accepted))
      throw invalid_option("createIPUTarget: unknown target option '" + name +
                           "' (accepted: ipuLinkConfiguration, ipuLinkTopology, "
                           "ipuLinkDomainSize, syncConfiguration, gatewayMode)");
  }
  if (numIPUs == 0) throw invalid_machine_model("createIPUTarget: numIPUs must be at least 1");
  Params p = paramsForArch(archOfSystem(systemType));
  p.type = TargetType::IPU;
  p.numIPUs = numIPUs;
  return Target(p);
}

Target Target::createIPUTarget(unsigned numIPUs, unsigned tilesPerIPU,
                               const std::string& systemType, const OptionFlags& options) {
  Target t = createIPUTarget(numIPUs, systemType, options);
  if (tilesPerIPU == 0 || tilesPerIPU > t.getTilesPerIPU())
    throw invalid_machine_model("createIPUTarget: " + std::to_string(tilesPerIPU) +
                                " tiles per IPU; a " + systemType + " IPU has 1 to " +
                                std::to_string(t.getTilesPerIPU()));
  return t.createVirtualTarget(numIPUs, tilesPerIPU);
}

Target Target::createCPUTarget() {
  Params p;
  p.type = TargetType::CPU;
  p.arch = "cpu";
  p.tilesPerIPU = 1;
  return Target(p);
}

unsigned Target::getVectorWidth(Type type) const {
  const std::size_t bytes = type.size();
  return bytes ? static_cast<unsigned>(p_.dataPathWidth / 8 / bytes) : 0;
}

Target Target::createVirtualTarget(unsigned numIPUs, unsigned tilesPerIPU) const {
  Params p = p_;
  p.numIPUs = numIPUs;
  p.tilesPerIPU = tilesPerIPU;
  p.memoryElementOffsets = elementOffsets_;
  return Target(p);
}

bool Target::operator==(const Target& o) const {
  return p_.type == o.p_.type && p_.arch == o.p_.arch && p_.numIPUs == o.p_.numIPUs &&
         p_.tilesPerIPU == o.p_.tilesPerIPU && p_.bytesPerTile == o.p_.bytesPerTile &&
         p_.numWorkerContexts == o.p_.numWorkerContexts &&
         p_.tileClockFrequency == o.p_.tileClockFrequency;
}

IPUModel::IPUModel(const char* ipuVersion) {
  const Target::Params p = paramsForArch(ipuVersion ? ipuVersion : "");
  IPUVersion = ipuVersion;
  numIPUs = p.numIPUs;
  tilesPerIPU = p.tilesPerIPU;
  tilesPerSuperTile = p.tilesPerSuperTile;
  numWorkerContexts = p.numWorkerContexts;
  memoryBytesPerTile = static_cast<unsigned>(p.bytesPerTile);
  tileClockFrequency = p.tileClockFrequency;
  exchangeBytesPerCycle = p.exchangeBytesPerCycle;
  memcpyBytesPerCycle = p.memcpyBytesPerCycle;
  instructionBytes = p.instructionBytes;
  supportsSuperTileSendReceive = p.supportsSuperTileSendReceive;
  interleavedMemoryElementIndex = p.interleavedMemoryElementIndex;
  minIPUSyncDelay = p.minIPUSyncDelay;
  globalSyncCycles = p.globalSyncCycles;
}

Target IPUModel::createTarget() const {
  Target::Params p = paramsForArch(IPUVersion);
  p.type = TargetType::IPU_MODEL;
  p.numIPUs = numIPUs;
  p.tilesPerIPU = tilesPerIPU;
  p.tilesPerSuperTile = tilesPerSuperTile;
  p.numWorkerContexts = numWorkerContexts;
  p.bytesPerTile = memoryBytesPerTile;
  p.tileClockFrequency = tileClockFrequency;
  p.exchangeBytesPerCycle = exchangeBytesPerCycle;
  p.memcpyBytesPerCycle = memcpyBytesPerCycle;
  p.instructionBytes = instructionBytes;
  p.supportsSuperTileSendReceive = supportsSuperTileSendReceive;
  p.interleavedMemoryElementIndex = interleavedMemoryElementIndex;
  p.minIPUSyncDelay = minIPUSyncDelay;
  p.globalSyncCycles = globalSyncCycles;
  if (relativeSyncDelay == RelativeSyncDelayType::NO_DELAY) p.maxIPUSyncDelay = p.minIPUSyncDelay;
  return Target(p);
}

} // namespace poplar
