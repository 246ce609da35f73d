#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <pvti/pvti.hpp>

int main() {
  pvti::Tracepoint trace(&pvti::tracePoplar, "consumer"); // libpvti is in the package too
  poplar::IPUModel model;
  model.tilesPerIPU = 4;
  auto device = model.createDevice();
  poplar::Graph graph(device.getTarget());
  auto t = graph.addConstant(poplar::INT, {2}, 21);
  graph.setTileMapping(t, 0);
  graph.createHostRead("t", t);
  poplar::Engine engine(graph, poplar::program::Sequence());
  engine.load(device);
  int v[2];
  engine.readTensor("t", v, v + 2);
  return v[0] + v[1] == 42 ? 0 : 1;
}
