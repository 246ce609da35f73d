// Compiles a graph built with PopLibs (popops::fill, popops::scaledAddTo) and saves its
// executable, as a program that compiles once and deploys the executable does.
#include <fstream>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/Fill.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  Tensor x = graph.addVariable(FLOAT, {8}, "x");
  Tensor y = graph.addVariable(FLOAT, {8}, "y");
  poputil::mapTensorLinearly(graph, x);
  poputil::mapTensorLinearly(graph, y);
  std::vector<float> init(8);
  for (unsigned i = 0; i < 8; ++i)
    init[i] = float(i);
  graph.setInitialValue(x, init);
  Sequence prog;
  popops::fill(graph, y, prog, 3.0f, "fill");
  popops::scaledAddTo(graph, y, x, 0.5f, prog, "axpy");
  graph.createHostRead("y", y);

  Executable exe = compileGraph(graph, {prog});
  std::ofstream out("axpy.exe", std::ios::binary);
  exe.serialize(out);
  std::cout << "saved axpy.exe\n";
  return 0;
}
