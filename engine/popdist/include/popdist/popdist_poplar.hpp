// PopDist's Poplar helpers: the device each instance acquires and a synchronized run.
#pragma once

#include <popdist/backend.hpp>
#include <popdist/context.hpp>
#include <poplar/Device.hpp>
#include <poplar/Engine.hpp>

namespace popdist {
namespace poplar {

/// This instance's share of the machine, attached: getNumLocalReplicas() × IPUs per replica
/// simulated IPUs (device getDeviceId()). A Graph built on it with getNumLocalReplicas()
/// replicas is this instance's slice of the job's replicated graph: its gcl collectives span
/// every replica of every instance. Initializes the backend. Throws popdist_error when the
/// device does not exist or is taken.
::poplar::Device getDevice(unsigned ipusPerReplica = 0);

/// The replication factor to build this instance's Graph with (getNumLocalReplicas()).
unsigned getReplicationFactor();

} // namespace poplar

/// engine.run(programId) with every instance starting together (a barrier first), as the SDK's
/// run does to keep host-sync timeouts away.
void run(::poplar::Engine& engine, unsigned programId = 0);

} // namespace popdist
