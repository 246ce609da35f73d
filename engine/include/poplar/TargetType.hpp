// The kind of device a graph runs on. Its own header, as in Poplar, for code that names the
// type without needing the whole Target (for example DeviceManager::getDevices callers).
#pragma once

namespace poplar {

enum class TargetType { IPU, IPU_MODEL, CPU };

} // namespace poplar
