// The job's shape: the engine parses POPDIST_* once (runtime/Instances.hpp); PopDist reports it,
// so the library and the engine can never disagree about it.
#include "runtime/Instances.hpp"

#include <cstdlib>
#include <popdist/context.hpp>
#include <poplar/DeviceManager.hpp>
#include <poplar/exceptions.hpp>

namespace popdist {
namespace {
const poplar::detail::runtime::InstanceContext& context() {
  try {
    return poplar::detail::runtime::instanceContext();
  } catch (const poplar::poplar_error& e) {
    throw popdist_error(std::string("popdist: ") + e.what());
  }
}
} // namespace

bool isPopdistEnvSet() {
  return std::getenv("POPDIST_NUM_TOTAL_REPLICAS") || std::getenv("POPDIST_NUM_INSTANCES");
}
unsigned getInstanceIndex() {
  return context().index;
}
unsigned getLocalInstanceIndex() {
  const char* v = std::getenv("OMPI_COMM_WORLD_LOCAL_RANK");
  return v ? static_cast<unsigned>(std::strtoul(v, nullptr, 10)) : 0;
}
unsigned getNumInstances() {
  return context().count;
}
unsigned getNumTotalReplicas() {
  return context().totalReplicas;
}
unsigned getNumLocalReplicas() {
  return context().localReplicas;
}
unsigned getReplicaIndexOffset() {
  return context().replicaOffset;
}
unsigned getNumIpusPerReplica() {
  return context().ipusPerReplica;
}
bool checkNumIpusPerReplica(unsigned ipusPerReplica) {
  return !std::getenv("POPDIST_NUM_IPUS_PER_REPLICA") || context().ipusPerReplica == ipusPerReplica;
}

unsigned getDeviceId(unsigned ipusPerReplica) {
  const unsigned ipr = ipusPerReplica ? ipusPerReplica : getNumIpusPerReplica();
  const unsigned ipus = getNumLocalReplicas() * ipr;
  // DeviceManager ids run over aligned groups of 1, 2, 4 ... IPUs; group i of a size starts at
  // IPU i × size, so instance i takes group i and no two instances share an IPU.
  const auto manager = ::poplar::DeviceManager::createDeviceManager();
  const auto devices = manager.getDevices(::poplar::TargetType::IPU, ipus);
  const unsigned index = getInstanceIndex();
  if (index >= devices.size())
    throw popdist_error("popdist::getDeviceId: instance " + std::to_string(index) +
                        " needs a device of " + std::to_string(ipus) + " IPUs (" +
                        std::to_string(getNumLocalReplicas()) + " local replicas x " +
                        std::to_string(ipr) + " IPUs per replica), but the simulated " +
                        "machine of " + std::to_string(manager.getNumIPUs()) + " IPUs has " +
                        std::to_string(devices.size()) + " such devices" +
                        ((ipus & (ipus - 1)) != 0 ? " (devices come in powers of two)" : "") +
                        ": set TESSERA_POD_IPUS to a larger machine");
  return devices[index].getId();
}

} // namespace popdist
