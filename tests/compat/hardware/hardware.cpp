// A program written for IPU hardware: it asks the device manager for a free IPU, attaches to
// it, runs, and detaches. On Tessera the manager's IPUs are simulated Mk2 IPUs.
#include <iostream>
#include <vector>

#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  DeviceManager manager = DeviceManager::createDeviceManager();
  std::vector<Device> devices = manager.getDevices(TargetType::IPU, 1);
  if (devices.empty()) {
    std::cerr << "no IPU devices\n";
    return 1;
  }
  // Attach to the first free device, as every hardware program does.
  auto it = devices.begin();
  while (it != devices.end() && !it->attach()) ++it;
  if (it == devices.end()) {
    std::cerr << "could not attach to an IPU\n";
    return 1;
  }
  Device device = std::move(*it);
  const Target& target = device.getTarget();
  std::cout << "attached to device " << device.getId() << ": " << target.getNumIPUs() << " IPU, "
            << target.getTilesPerIPU() << " tiles, " << target.getTargetArchString() << "\n";

  // A second manager handle sees the same IPUs: device 0 is taken now.
  Device again = manager.getDevice(device.getId());
  std::cout << "attach the same IPU twice: " << (again.attach() ? "yes" : "no") << "\n";

  Graph graph(target);
  Tensor t = graph.addVariable(UNSIGNED_INT, {2, 3}, "t");
  graph.setTileMapping(t, target.getNumTiles() - 1);
  graph.setInitialValue(t, std::vector<unsigned>{1, 2, 3, 4, 5, 6});
  Sequence prog({PrintTensor("t", t), PrintTensor("column", t.slice(1, 2, 1))});

  Engine engine(graph, prog, {{"target.syncReplicasIndependently", "false"}});
  engine.load(device);
  engine.run(0);

  device.detach();
  std::cout << "after detach, attach again: " << (again.attach() ? "yes" : "no") << "\n";
  again.detach();
  return 0;
}
