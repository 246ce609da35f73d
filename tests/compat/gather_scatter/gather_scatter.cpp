// XLA-style gather and scatter as a framework backend emits them: rows of a table gathered by
// index, their gradient scattered back with an add computation, and a reflect-padded copy of
// the table; each checked against the same computation on the host.
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Gather.hpp>
#include <popops/Pad.hpp>
#include <popops/Scatter.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 8;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);

  const std::size_t rows = 10, cols = 4, n = 5;
  // Row gather: index vectors of one element along dimension 1 of indices [n, 1].
  Tensor table = popops::createGatherInput(graph, FLOAT, {rows, cols}, {1, cols}, {0}, "table");
  Tensor indices = graph.addVariable(INT, {n, 1}, "indices");
  poputil::mapTensorLinearly(graph, indices);
  Tensor grad = graph.addVariable(FLOAT, {n, cols}, "grad");
  poputil::mapTensorLinearly(graph, grad);
  Tensor accum = graph.addVariable(FLOAT, {rows, cols}, "accum");
  poputil::mapTensorLinearly(graph, accum);
  graph.createHostWrite("table", table);
  graph.createHostWrite("indices", indices);
  graph.createHostWrite("grad", grad);
  graph.createHostWrite("accum", accum);

  Sequence prog;
  Tensor gathered = popops::gather(graph, table, indices, 1, {1}, {1, cols}, {0}, {0}, prog,
                                   "gather");
  popops::UpdateComputationFunc add = [](Graph& g, Tensor& current, Tensor& update,
                                         Sequence& p) {
    return popops::add(g, current, update, p, "scatterAdd");
  };
  popops::scatter(graph, accum, indices, grad, 1, {1}, {0}, {0}, add, prog, "scatter");
  Tensor padded = popops::pad(table, {1, 0}, {1, 2}, popops::padding::Type::REFLECT);
  Tensor paddedCopy = graph.clone(padded, "paddedCopy");
  prog.add(Copy(padded, paddedCopy));
  graph.createHostRead("gathered", gathered);
  graph.createHostRead("accumOut", accum);
  graph.createHostRead("padded", paddedCopy);

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> hostTable(rows * cols), hostGrad(n * cols), hostAccum(rows * cols, 1.0f);
  std::vector<int> hostIndices{7, 2, 7, 0, 9};
  for (std::size_t i = 0; i < hostTable.size(); ++i) hostTable[i] = float(i) - 11.0f;
  for (std::size_t i = 0; i < hostGrad.size(); ++i) hostGrad[i] = 0.25f * float(i % 7);
  engine.writeTensor("table", hostTable.data(), hostTable.data() + hostTable.size());
  engine.writeTensor("indices", hostIndices.data(), hostIndices.data() + hostIndices.size());
  engine.writeTensor("grad", hostGrad.data(), hostGrad.data() + hostGrad.size());
  engine.writeTensor("accum", hostAccum.data(), hostAccum.data() + hostAccum.size());
  engine.run(0);
  std::vector<float> gotGathered(n * cols), gotAccum(rows * cols),
      gotPadded((rows + 2) * (cols + 2));
  engine.readTensor("gathered", gotGathered.data(), gotGathered.data() + gotGathered.size());
  engine.readTensor("accumOut", gotAccum.data(), gotAccum.data() + gotAccum.size());
  engine.readTensor("padded", gotPadded.data(), gotPadded.data() + gotPadded.size());

  int errors = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t c = 0; c < cols; ++c) {
      const std::size_t r = std::size_t(hostIndices[i]);
      if (gotGathered[i * cols + c] != hostTable[r * cols + c]) ++errors;
      hostAccum[r * cols + c] += hostGrad[i * cols + c];
    }
  for (std::size_t i = 0; i < hostAccum.size(); ++i)
    if (std::fabs(gotAccum[i] - hostAccum[i]) > 1e-6f) ++errors;
  // numpy.pad(table, ((1, 1), (0, 2)), mode="reflect")
  for (std::size_t r = 0; r < rows + 2; ++r)
    for (std::size_t c = 0; c < cols + 2; ++c) {
      const std::size_t sr = r == 0 ? 1 : (r == rows + 1 ? rows - 2 : r - 1);
      const std::size_t sc = c < cols ? c : 2 * (cols - 1) - c;
      if (gotPadded[r * (cols + 2) + c] != hostTable[sr * cols + sc]) ++errors;
    }
  if (errors) {
    std::cerr << errors << " values differ from the host\n";
    return 1;
  }
  std::cout << "gather, scatter with an add computation, and reflect padding match the host\n";
  return 0;
}
