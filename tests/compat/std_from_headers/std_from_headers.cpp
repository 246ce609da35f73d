// Written as the public lightweight-profiling examples are: only Poplar's and libpva's headers
// are included, and the standard library's std::cout, std::setw, std::find_if, assert and
// std::runtime_error come through them, as they do with the Poplar SDK.
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <pva/pva.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  std::vector<Device> devices;
  devices.push_back(ipuModel.createDevice());
  auto it = std::find_if(devices.begin(), devices.end(),
                         [](Device &d) { return d.getTarget().getNumTiles() == 4; });
  if (it == devices.end())
    throw std::runtime_error("no 4-tile device");
  Device device = std::move(*it);
  Graph graph(device.getTarget());

  Tensor v = graph.addVariable(INT, {4}, "v");
  graph.setTileMapping(v, 0);
  graph.setInitialValue(v, std::vector<int>{3, 1, 4, 1});
  graph.createHostRead("v", v);
  Sequence seq;
  Engine engine(graph, seq, {{"debug.instrument", "true"}});
  engine.load(device);
  engine.run();
  std::vector<int> out(4);
  engine.readTensor("v", out.data(), out.data() + out.size());
  assert(out[2] == 4);
  for (int x : out)
    std::cout << std::setw(3) << x;
  std::cout << "\n";
  auto report = engine.getReport();
  std::cout << "tiles in the profile: " << report.compilation().target().numTiles() << "\n";
  return 0;
}
