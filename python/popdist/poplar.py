"""popdist.poplar: what a Poplar program under poprun builds with (docs/distributed.md): the
device id to acquire and the replication factor of this instance's Graph."""
from . import getDeviceId, getNumLocalReplicas, getNumTotalReplicas, getReplicaIndexOffset


def getReplicationFactor():
    """The replication factor of this instance's Graph (its local replicas)."""
    return getNumLocalReplicas()


__all__ = ["getDeviceId", "getNumLocalReplicas", "getNumTotalReplicas", "getReplicaIndexOffset",
           "getReplicationFactor"]
