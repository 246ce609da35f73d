// Compile once, save the executable, run it later in another process: the way programs that
// cache their compiled graph work (compileGraph, Executable::serialize, Executable::deserialize,
// Engine(Executable&&)).
//
//   saved_executable                      build, compile and run in one process
//   saved_executable --save-exe FILE      build and compile, save to FILE, run nothing
//   saved_executable --load-exe FILE      load FILE and run it (no graph is built)
//   --report DIR                          write the profile to DIR
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/Executable.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>

using namespace poplar;
using namespace poplar::program;

static const unsigned rows = 4, cols = 16;

static Executable buildAndCompile(const Target &target, const OptionFlags &options) {
  Graph graph(target);
  graph.addCodelets("scale_codelets.cpp");
  popops::addCodelets(graph);

  Tensor x = graph.addVariable(FLOAT, {rows, cols}, "x");
  Tensor scaled = graph.addVariable(FLOAT, {rows, cols}, "scaled");
  ComputeSet cs = graph.addComputeSet("scaleRows");
  for (unsigned r = 0; r < rows; ++r) {
    graph.setTileMapping(x[r], r);
    graph.setTileMapping(scaled[r], r);
    VertexRef v = graph.addVertex(cs, "ScaleRow", {{"in", x[r]}, {"out", scaled[r]}});
    graph.setInitialValue(v["factor"], float(r + 1));
    graph.setInitialValue(v["offset"], 0.5f);
    graph.setTileMapping(v, r);
  }
  Sequence prog{Execute(cs)};
  Tensor y = popops::add(graph, scaled, x, prog, "addBack");

  DataStream in = graph.addHostToDeviceFIFO("x", FLOAT, rows * cols);
  DataStream out = graph.addDeviceToHostFIFO("y", FLOAT, rows * cols);
  Sequence main{Copy(in, x), prog, Copy(y, out)};
  return compileGraph(graph, {main}, options, {}, "scaleAndAdd");
}

int main(int argc, char **argv) {
  std::string save, load, report;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--save-exe")) save = argv[i + 1];
    else if (!std::strcmp(argv[i], "--load-exe")) load = argv[i + 1];
    else if (!std::strcmp(argv[i], "--report")) report = argv[i + 1];
  }
  OptionFlags options;
  if (!report.empty())
    options = {{"autoReport.all", "true"}, {"autoReport.directory", report}};

  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 8;
  Device device = ipuModel.createDevice();

  if (!save.empty()) {
    Executable exe = buildAndCompile(device.getTarget(), options);
    std::ofstream file(save, std::ios::binary);
    exe.serialize(file);
    std::cout << "saved the executable to " << save << "\n";
    return 0;
  }
  Executable exe = load.empty() ? buildAndCompile(device.getTarget(), options) : [&] {
    std::ifstream file(load, std::ios::binary);
    return Executable::deserialize(file);
  }();
  Engine engine(std::move(exe), options);
  engine.load(device);

  std::vector<float> x(rows * cols), y(rows * cols);
  for (unsigned i = 0; i < rows * cols; ++i)
    x[i] = float(i % 9) - 4;
  engine.connectStream("x", x.data());
  engine.connectStream("y", y.data());
  engine.run(0);

  unsigned wrong = 0;
  for (unsigned r = 0; r < rows; ++r)
    for (unsigned c = 0; c < cols; ++c) {
      const float v = x[r * cols + c];
      if (y[r * cols + c] != v * float(r + 1) + 0.5f + v) ++wrong;
    }
  std::cout << "y[0][0..3] = " << y[0] << " " << y[1] << " " << y[2] << " " << y[3] << "\n";
  std::cout << "y[3][0..3] = " << y[48] << " " << y[49] << " " << y[50] << " " << y[51] << "\n";
  std::cout << (wrong ? "WRONG: " + std::to_string(wrong) + " elements\n" : std::string("all 64 elements match the host\n"));
  return wrong ? 1 : 0;
}
