// codelet_runner <codelet file>: adds the file with Graph::addCodelets (compiling it through
// the codelet cache), runs its Sum vertex on 1, 2, 3, 4 and prints "sum 10". Exit status 0 when
// the sum is right, 1 with the error's message otherwise. The cache tests run it as a separate
// process so that damaging a cache entry never touches a .gp this test process has loaded.
#include <exception>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <vector>

//
// codelet_runner --save-exe <codelet file> <exe>: compiles the same program and saves it as an
// executable (which carries the codelet's object); codelet_runner --load-exe <exe>: loads and
// runs one, as a fresh process would (the executable cache tests).
#include <fstream>
#include <poplar/Executable.hpp>
#include <string>

namespace {
float runAndRead(poplar::Engine& engine, poplar::Device& device) {
  engine.load(device);
  engine.run(0);
  float sum = 0;
  engine.readTensor("out", &sum, &sum + 1);
  std::cout << "sum " << sum << "\n";
  return sum;
}
} // namespace

int main(int argc, char** argv) {
  using namespace poplar;
  const std::string mode = argc > 1 ? argv[1] : "";
  if (!(argc == 2 && mode[0] != '-') && !(argc == 4 && mode == "--save-exe") &&
      !(argc == 3 && mode == "--load-exe")) {
    std::cerr << "usage: codelet_runner <codelet file> | --save-exe <codelet file> <exe> | "
                 "--load-exe <exe>\n";
    return 2;
  }
  try {
    IPUModel model;
    model.tilesPerIPU = 4;
    Device device = model.createDevice();
    if (mode == "--load-exe") {
      std::ifstream in(argv[2], std::ios::binary);
      Engine engine(Executable::deserialize(in));
      return runAndRead(engine, device) == 10.0f ? 0 : 1;
    }
    Graph graph(device.getTarget());
    graph.addCodelets(mode == "--save-exe" ? argv[2] : argv[1]);
    Tensor in = graph.addVariable(FLOAT, {4}, "in");
    Tensor out = graph.addVariable(FLOAT, {}, "out");
    graph.setTileMapping(in, 0);
    graph.setTileMapping(out, 0);
    graph.setInitialValue(in, std::vector<float>{1, 2, 3, 4});
    ComputeSet cs = graph.addComputeSet("sum");
    graph.setTileMapping(graph.addVertex(cs, "Sum", {{"in", in}, {"out", out}}), 0);
    graph.createHostRead("out", out);
    if (mode == "--save-exe") {
      std::ofstream file(argv[3], std::ios::binary);
      compileGraph(graph, {program::Execute(cs)}).serialize(file);
      return file ? 0 : 1;
    }
    Engine engine(graph, program::Execute(cs));
    return runAndRead(engine, device) == 10.0f ? 0 : 1;
  } catch (const std::exception& e) {
    std::cout << "error: " << e.what() << "\n";
    return 1;
  }
}
