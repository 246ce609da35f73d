"""PopDist: this instance's place in a job launched by poprun (docs/distributed.md).

    import popdist
    if popdist.isPopdistEnvSet():
        print(popdist.getInstanceIndex(), popdist.getNumLocalReplicas(),
              popdist.getReplicaIndexOffset(), popdist.getDeviceId())

Outside poprun every function describes one instance holding every replica.
"""
from .popdist_core import (PopdistError, checkNumIpusPerReplica, finalizeBackend, getDeviceId,
                           getInstanceIndex, getLocalInstanceIndex, getNumInstances,
                           getNumIpusPerReplica, getNumLocalReplicas, getNumTotalReplicas,
                           getReplicaIndexOffset, init, initializeBackend, isBackendInitialized,
                           isPopdistEnvSet)


def execute_on_instances(instances, func, *args, **kwargs):
    """func(*args, **kwargs) on the instances in `instances` only (None elsewhere)."""
    if getInstanceIndex() in set(instances):
        return func(*args, **kwargs)
    return None


__all__ = ["PopdistError", "checkNumIpusPerReplica", "execute_on_instances", "finalizeBackend",
           "getDeviceId", "getInstanceIndex", "getLocalInstanceIndex", "getNumInstances",
           "getNumIpusPerReplica", "getNumLocalReplicas", "getNumTotalReplicas",
           "getReplicaIndexOffset", "init", "initializeBackend", "isBackendInitialized",
           "isPopdistEnvSet"]
