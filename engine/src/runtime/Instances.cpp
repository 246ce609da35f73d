#include "Instances.hpp"

#include <cerrno>
#include <cstdlib>
#include <mutex>
#include <poplar/exceptions.hpp>

namespace poplar::detail::runtime {
namespace {

/// A POPDIST_* variable as a count; absent gives `fallback`.
unsigned envCount(const char* name, unsigned fallback, unsigned min) {
  const char* text = std::getenv(name);
  if (!text) return fallback;
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || errno != 0 || v < long(min) || v > 1000000)
    throw poplar_error("environment variable " + std::string(name) + "='" + text +
                       "' is not a number of at least " + std::to_string(min) +
                       " (it is set by poprun; see docs/distributed.md)");
  return static_cast<unsigned>(v);
}

InstanceContext readContext() {
  InstanceContext c;
  if (!std::getenv("POPDIST_NUM_TOTAL_REPLICAS") && !std::getenv("POPDIST_NUM_INSTANCES")) return c;
  c.count = envCount("POPDIST_NUM_INSTANCES", 1, 1);
  c.totalReplicas = envCount("POPDIST_NUM_TOTAL_REPLICAS", c.count, 1);
  c.ipusPerReplica = envCount("POPDIST_NUM_IPUS_PER_REPLICA", 1, 1);
  if (c.totalReplicas % c.count != 0)
    throw poplar_error("POPDIST_NUM_TOTAL_REPLICAS=" + std::to_string(c.totalReplicas) +
                       " is not divisible by POPDIST_NUM_INSTANCES=" + std::to_string(c.count));
  c.localReplicas = envCount("POPDIST_NUM_LOCAL_REPLICAS", c.totalReplicas / c.count, 1);
  // Open MPI's rank when poprun did not say (a job started with mpirun directly).
  const unsigned rank = envCount("OMPI_COMM_WORLD_RANK", 0, 0);
  c.index = envCount("POPDIST_INSTANCE_INDEX", rank, 0);
  c.replicaOffset = envCount("POPDIST_REPLICA_INDEX_OFFSET", c.index * c.localReplicas, 0);
  if (c.index >= c.count)
    throw poplar_error("POPDIST_INSTANCE_INDEX=" + std::to_string(c.index) + " is not below " +
                       "POPDIST_NUM_INSTANCES=" + std::to_string(c.count));
  if (c.localReplicas * c.count != c.totalReplicas ||
      c.replicaOffset + c.localReplicas > c.totalReplicas)
    throw poplar_error("POPDIST_* describe an uneven job: instance " + std::to_string(c.index) +
                       " of " + std::to_string(c.count) + " with replicas " +
                       std::to_string(c.replicaOffset) + ".." +
                       std::to_string(c.replicaOffset + c.localReplicas - 1) + " of " +
                       std::to_string(c.totalReplicas) +
                       " (Tessera needs the same number of replicas on every instance)");
  c.distributed = c.count > 1;
  return c;
}

std::mutex transportMutex;
std::shared_ptr<InstanceTransport> transport;

} // namespace

const InstanceContext& instanceContext() {
  static const InstanceContext context = readContext();
  return context;
}

void setInstanceTransport(std::shared_ptr<InstanceTransport> t) {
  std::lock_guard<std::mutex> lock(transportMutex);
  transport = std::move(t);
}

InstanceTransport* instanceTransport() {
  std::lock_guard<std::mutex> lock(transportMutex);
  return transport.get();
}

unsigned globalReplicationFactor(unsigned localReplicas) {
  const auto& c = instanceContext();
  return c.distributed && localReplicas == c.localReplicas ? c.totalReplicas : localReplicas;
}

unsigned globalReplicaOffset(unsigned localReplicas) {
  const auto& c = instanceContext();
  return c.distributed && localReplicas == c.localReplicas ? c.replicaOffset : 0;
}

unsigned ipuLinkDomains() {
  static const unsigned domains = envCount("TESSERA_NUM_ILDS", 1, 1);
  return domains;
}

unsigned ipuLinkDomainOf(unsigned replica, unsigned replicas) {
  const unsigned domains = ipuLinkDomains();
  if (domains <= 1) return 0;
  if (replicas % domains != 0)
    throw poplar_error("TESSERA_NUM_ILDS=" + std::to_string(domains) + " IPU-Link domains do not " +
                       "divide the job's " + std::to_string(replicas) +
                       " replicas (poprun --num-ilds must divide --num-replicas)");
  return replica / (replicas / domains);
}

} // namespace poplar::detail::runtime
