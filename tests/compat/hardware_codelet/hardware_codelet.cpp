// A program for IPU hardware that keeps its codelet in its own file: popc sees the part under
// __POPC__, the host compiler the rest, and the program adds itself with addCodelets(__FILE__).
#ifdef __POPC__
#include <poplar/Vertex.hpp>

using namespace poplar;

// Counts values into buckets. A supervisor vertex, as IPU code marks with target("supervisor").
class Histogram : public SupervisorVertex {
public:
  Input<Vector<unsigned>> values;
  Output<Vector<unsigned>> buckets;

  __attribute__((target("supervisor"))) bool compute() {
    for (unsigned b = 0; b < buckets.size(); ++b)
      buckets[b] = 0;
    for (unsigned v : values) {
      if (v >= buckets.size())
        return false;
      buckets[v] += 1;
    }
    return true;
  }
};

#else
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
  auto it = devices.begin();
  while (it != devices.end() && !it->attach())
    ++it;
  if (it == devices.end()) {
    std::cerr << "could not attach to an IPU\n";
    return 1;
  }
  Device device = std::move(*it);
  Graph graph(device.getTarget());
  graph.addCodelets(__FILE__);

  Tensor values = graph.addVariable(UNSIGNED_INT, {10}, "values");
  Tensor buckets = graph.addVariable(UNSIGNED_INT, {4}, "buckets");
  graph.setTileMapping(values, 5);
  graph.setTileMapping(buckets, 5);
  graph.createHostWrite("values", values);

  ComputeSet cs = graph.addComputeSet("histogram");
  VertexRef v = graph.addVertex(cs, "Histogram", {{"values", values}, {"buckets", buckets}});
  graph.setTileMapping(v, 5);

  Engine engine(graph, Sequence({Execute(cs), PrintTensor("buckets", buckets)}));
  engine.load(device);
  std::vector<unsigned> host = {0, 1, 1, 2, 3, 3, 3, 0, 2, 3};
  engine.writeTensor("values", host.data(), host.data() + host.size());
  engine.run(0);
  device.detach();
  std::cout << "histogram done on device " << device.getId() << "\n";
  return 0;
}
#endif
