// How a host-to-device stream of a replicated graph is fed to its replicas
// (Graph::addHostToDeviceFIFO). Its own header, as in Poplar.
#pragma once

namespace poplar {

enum class ReplicatedStreamMode { REPLICATE, BROADCAST };

} // namespace poplar
