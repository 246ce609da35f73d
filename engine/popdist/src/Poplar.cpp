#include "MpiBackend.hpp"

#include <popdist/collectives.hpp>
#include <popdist/popdist_poplar.hpp>
#include <poplar/DeviceManager.hpp>

namespace popdist {
namespace poplar {

::poplar::Device getDevice(unsigned ipusPerReplica) {
  init();
  const unsigned id = getDeviceId(ipusPerReplica);
  auto device = ::poplar::DeviceManager::createDeviceManager().getDevice(id);
  if (!device.attach())
    throw popdist_error("popdist::poplar::getDevice: device " + std::to_string(id) + " (instance " +
                        std::to_string(getInstanceIndex()) + ") is attached by someone else");
  return device;
}

unsigned getReplicationFactor() {
  return getNumLocalReplicas();
}

} // namespace poplar

void run(::poplar::Engine& engine, unsigned programId) {
  collectives::synchronize();
  engine.run(programId);
}

} // namespace popdist
