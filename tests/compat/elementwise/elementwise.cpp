// PopLibs element-wise operations and a reduction on tensors mapped with poputil, on a small
// IPU Model; results read back through host streams and printed with PrintTensor.
#include <cstdlib>
#include <iostream>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 16;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);

  const std::size_t rows = 3, cols = 4;
  Tensor x = graph.addVariable(FLOAT, {rows, cols}, "x");
  Tensor y = graph.addVariable(FLOAT, {rows, cols}, "y");
  poputil::mapTensorLinearly(graph, x);
  poputil::mapTensorLinearly(graph, y);

  DataStream inX = graph.addHostToDeviceFIFO("x", FLOAT, rows * cols);
  DataStream inY = graph.addHostToDeviceFIFO("y", FLOAT, rows * cols);
  DataStream outSum = graph.addDeviceToHostFIFO("rowSums", FLOAT, rows);

  Sequence prog;
  prog.add(Copy(inX, x));
  prog.add(Copy(inY, y));
  Tensor sum = popops::add(graph, x, y, prog, "x+y");
  Tensor scaled = popops::mul(graph, sum, y, prog, "(x+y)*y");
  popops::subInPlace(graph, scaled, x, prog, "minus x");
  Tensor rowSums = popops::reduce(graph, scaled, FLOAT, {1}, popops::Operation::ADD, prog, "rowSums");
  prog.add(PrintTensor("sum", sum));
  prog.add(PrintTensor("scaled", scaled));
  prog.add(PrintTensor("rowSums", rowSums));
  prog.add(Copy(rowSums, outSum));

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> hostX(rows * cols), hostY(rows * cols), hostSums(rows);
  for (std::size_t i = 0; i < hostX.size(); ++i) {
    hostX[i] = static_cast<float>(i);
    hostY[i] = 0.5f * static_cast<float>(i % cols);
  }
  engine.connectStream("x", hostX.data());
  engine.connectStream("y", hostY.data());
  engine.connectStream("rowSums", hostSums.data());
  engine.run(0);

  // The same arithmetic on the host.
  for (std::size_t r = 0; r < rows; ++r) {
    float expect = 0;
    for (std::size_t c = 0; c < cols; ++c) {
      const float a = hostX[r * cols + c], b = hostY[r * cols + c];
      expect += (a + b) * b - a;
    }
    if (std::abs(expect - hostSums[r]) > 1e-4f) {
      std::cerr << "row " << r << ": device " << hostSums[r] << ", host " << expect << "\n";
      return 1;
    }
  }
  std::cout << "row sums match the host\n";
  return 0;
}
