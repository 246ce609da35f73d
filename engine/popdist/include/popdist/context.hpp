// PopDist: this instance's place in a job launched by poprun, read from the POPDIST_*
// environment variables poprun sets (docs/distributed.md). Outside poprun every function
// describes a job of one instance holding every replica.
#pragma once

#include <stdexcept>
#include <string>

namespace popdist {

/// Every PopDist error: a malformed POPDIST_* variable, a device that does not exist, a failed
/// MPI call. The message names the variable, device or call.
class popdist_error : public std::runtime_error {
public:
  explicit popdist_error(const std::string& message) : std::runtime_error(message) {}
};

/// True when the program runs under poprun (the POPDIST_* variables are set).
bool isPopdistEnvSet();
/// This instance, in [0, getNumInstances()).
unsigned getInstanceIndex();
/// The index of this instance among those on its host (0 outside poprun).
unsigned getLocalInstanceIndex();
unsigned getNumInstances();
/// Replicas of the whole job (poprun --num-replicas).
unsigned getNumTotalReplicas();
/// Replicas this instance runs: the total divided by the instances.
unsigned getNumLocalReplicas();
/// The global index of this instance's first replica.
unsigned getReplicaIndexOffset();
/// IPUs per replica (poprun --ipus-per-replica; 1 by default).
unsigned getNumIpusPerReplica();
/// False when poprun's --ipus-per-replica is set and differs from `ipusPerReplica`.
bool checkNumIpusPerReplica(unsigned ipusPerReplica);
/// The id of the device this instance acquires: the aligned group of local replicas × IPUs per
/// replica simulated IPUs that is this instance's share of the machine (DeviceManager ids).
/// `ipusPerReplica` 0 takes poprun's. Throws popdist_error when the machine has no such device.
unsigned getDeviceId(unsigned ipusPerReplica = 0);

} // namespace popdist
