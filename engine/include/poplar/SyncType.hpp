// Which tiles and devices a program::Sync waits for. Its own header, as in Poplar.
#pragma once

namespace poplar {

enum class SyncType {
  INTERNAL, ///< all tiles of one IPU
  EXTERNAL, ///< all IPUs of the device, and the host
  GLOBAL,   ///< all IPUs of all replicas
};

} // namespace poplar
