// codelet_runner <codelet file>: adds the file with Graph::addCodelets (compiling it through
// the codelet cache), runs its Sum vertex on 1, 2, 3, 4 and prints "sum 10". Exit status 0 when
// the sum is right, 1 with the error's message otherwise. The cache tests run it as a separate
// process so that damaging a cache entry never touches a .gp this test process has loaded.
#include <exception>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <vector>

int main(int argc, char** argv) {
  using namespace poplar;
  if (argc != 2) {
    std::cerr << "usage: codelet_runner <codelet file>\n";
    return 2;
  }
  try {
    IPUModel model;
    model.tilesPerIPU = 4;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    graph.addCodelets(argv[1]);
    Tensor in = graph.addVariable(FLOAT, {4}, "in");
    Tensor out = graph.addVariable(FLOAT, {}, "out");
    graph.setTileMapping(in, 0);
    graph.setTileMapping(out, 0);
    graph.setInitialValue(in, std::vector<float>{1, 2, 3, 4});
    ComputeSet cs = graph.addComputeSet("sum");
    graph.setTileMapping(graph.addVertex(cs, "Sum", {{"in", in}, {"out", out}}), 0);
    graph.createHostRead("out", out);
    Engine engine(graph, program::Execute(cs));
    engine.load(device);
    engine.run(0);
    float sum = 0;
    engine.readTensor("out", &sum, &sum + 1);
    std::cout << "sum " << sum << "\n";
    return sum == 10.0f ? 0 : 1;
  } catch (const std::exception& e) {
    std::cout << "error: " << e.what() << "\n";
    return 1;
  }
}
