// Variables, constants, on-device copies, a host stream and a host read, printed with
// PrintTensor: the first things a Poplar program does, on an IPU Model.
#include <iostream>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Target target = device.getTarget();
  Graph graph(target);

  // A 2x4 matrix spread over two tiles by rows, a vector and a constant.
  Tensor m = graph.addVariable(FLOAT, {2, 4}, "m");
  Tensor v = graph.addVariable(FLOAT, {4}, "v");
  Tensor half = graph.addConstant<float>(FLOAT, {4}, {0.5f, 1.5f, 2.5f, 3.5f}, "half");
  Tensor counts = graph.addVariable(INT, {3}, "counts");
  graph.setTileMapping(m[0], 0);
  graph.setTileMapping(m[1], 1);
  graph.setTileMapping(v, 2);
  graph.setTileMapping(half, 3);
  graph.setTileMapping(counts, 3);
  graph.setInitialValue(counts, std::vector<int>{7, -2, 40});

  DataStream input = graph.addHostToDeviceFIFO("input", FLOAT, 4);
  graph.createHostRead("m-read", m);

  Sequence prog;
  prog.add(Copy(half, m[0]));
  prog.add(Copy(input, v));
  prog.add(Copy(v, m[1]));
  prog.add(PrintTensor("m", m));
  prog.add(PrintTensor("v", v));
  prog.add(PrintTensor("counts", counts));
  prog.add(PrintTensor(v.slice(1, 3)));

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> host = {5.0f, 4.5f, -1.25f, 100.0f};
  engine.connectStream("input", host.data(), host.data() + host.size());
  engine.run(0);

  std::vector<float> back(8);
  engine.readTensor("m-read", back.data(), back.data() + back.size());
  std::cout << "m on the host:";
  for (float x : back) std::cout << " " << x;
  std::cout << "\n";
  return 0;
}
