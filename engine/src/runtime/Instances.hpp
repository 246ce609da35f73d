// The instance this process is in a multi-instance job launched by poprun (docs/distributed.md).
//
// PopRun starts one process ("instance") per slice of a job's replicas and tells each its place
// through POPDIST_* environment variables. The engine reads them here, once, so that a graph
// replicated over the instance's local replicas joins the job's global replication: gcl sizes its
// groups over every replica of every instance and the runtime moves collective data between the
// instances through the transport libpopdist installs (Open MPI). The engine itself never links
// MPI: it only calls the transport it was given.
//
// Engine-internal: not installed. libgcl and libpopdist, built in this project, include it.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace poplar::detail::runtime {

struct InstanceContext {
  bool distributed = false;   ///< POPDIST_* describe a job of more than one instance
  unsigned index = 0;         ///< this instance, in [0, count)
  unsigned count = 1;         ///< instances in the job
  unsigned localReplicas = 1; ///< replicas this instance runs
  unsigned totalReplicas = 1; ///< replicas of the whole job
  unsigned replicaOffset = 0; ///< the global index of this instance's first replica
  unsigned ipusPerReplica = 1;
};

/// The job as the environment describes it (parsed once; a malformed or inconsistent variable is
/// a poplar_error naming it). Outside poprun: one instance holding every replica.
const InstanceContext& instanceContext();

/// Moves bytes between the instances of a job. Every instance calls each function in the same
/// order with the same sizes (the collectives of a program run in one order everywhere).
class InstanceTransport {
public:
  virtual ~InstanceTransport() = default;
  /// `all` receives every instance's `bytes` bytes of `local`, in instance order.
  virtual void allGather(const void* local, std::size_t bytes, void* all) = 0;
  /// Instance i sends its consecutive blocks of `send` (`sendBytes[j]` bytes for instance j) and
  /// receives into `recv` instance j's block for it (`recvBytes[j]` bytes), in instance order.
  virtual void allToAll(const void* send, const std::vector<std::size_t>& sendBytes, void* recv,
                        const std::vector<std::size_t>& recvBytes) = 0;
  /// `all` receives every instance's `bytes[i]` bytes of `local`, in instance order.
  virtual void allGather(const void* local, const std::vector<std::size_t>& bytes, void* all) = 0;
  /// The name shown in errors and profiles ("Open MPI 4.1.4").
  virtual std::string name() const = 0;
};

/// Installed by libpopdist (popdist::init and the popdist::poplar helpers); null until then.
void setInstanceTransport(std::shared_ptr<InstanceTransport> transport);
InstanceTransport* instanceTransport();

/// The replicas a collective spans for a graph of `localReplicas` replicas: the job's total when
/// the graph is this instance's slice of a distributed job, else the graph's own.
unsigned globalReplicationFactor(unsigned localReplicas);
/// The global index of this instance's first replica for such a graph (0 when it is not).
unsigned globalReplicaOffset(unsigned localReplicas);

/// The IPU-Link domains the job's replicas are spread over (poprun --num-ilds, passed on as
/// TESSERA_NUM_ILDS; 1 when unset): consecutive replicas share a domain, `replicas / domains`
/// each. Collectives between domains cross the gateways' GW-Links (the cost model,
/// models/ProgramModel.cpp). A value that is not a count is a poplar_error naming it.
unsigned ipuLinkDomains();
/// The domain of global replica `replica` of `replicas` (domains that do not divide the
/// replicas are a poplar_error naming both counts).
unsigned ipuLinkDomainOf(unsigned replica, unsigned replicas);

} // namespace poplar::detail::runtime
