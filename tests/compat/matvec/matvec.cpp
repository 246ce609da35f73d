// y = A x with codelets from a file, planned from the target: each row is cut into segments so
// that there is work for every worker of every tile without segments shorter than what one
// exchange cycle brings in a few cycles.
#include <algorithm>
#include <iostream>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

static unsigned segmentsPerRow(const Target &target, unsigned rows, unsigned cols) {
  const unsigned workers = target.getNumTiles() * target.getNumWorkerContexts();
  const unsigned minSegment = std::max(1u, 4 * target.getExchangeBytesPerCycle() / 4);
  const unsigned byWorkers = std::max(1u, workers / rows);
  const unsigned byLength = std::max(1u, cols / minSegment);
  return std::min(byWorkers, byLength);
}

int main() {
  const unsigned rows = 12, cols = 96;
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 16;
  Device device = ipuModel.createDevice();
  const Target &target = device.getTarget();
  Graph graph(target);
  graph.addCodelets("matvec_codelets.cpp");

  const unsigned segments = segmentsPerRow(target, rows, cols);
  const unsigned segLen = (cols + segments - 1) / segments;
  std::cout << "plan: " << segments << " segments of up to " << segLen << " columns per row, "
            << target.getNumTiles() << " tiles x " << target.getNumWorkerContexts()
            << " workers\n";

  Tensor A = graph.addVariable(FLOAT, {rows, cols}, "A");
  Tensor x = graph.addVariable(FLOAT, {cols}, "x");
  Tensor partials = graph.addVariable(FLOAT, {rows, segments}, "partials");
  Tensor y = graph.addVariable(FLOAT, {rows}, "y");
  graph.setTileMapping(x, 0);
  ComputeSet products = graph.addComputeSet("partialSums");
  ComputeSet reduce = graph.addComputeSet("reduceRows");
  for (unsigned r = 0; r < rows; ++r) {
    const unsigned tile = r % target.getNumTiles();
    graph.setTileMapping(A[r], tile);
    graph.setTileMapping(partials[r], tile);
    graph.setTileMapping(y[r], tile);
    for (unsigned s = 0; s < segments; ++s) {
      const unsigned begin = s * segLen, end = std::min(cols, begin + segLen);
      VertexRef v = graph.addVertex(products, "PartialSum",
                                    {{"row", A[r].slice(begin, end)},
                                     {"x", x.slice(begin, end)},
                                     {"partial", partials[r][s]}});
      graph.setTileMapping(v, tile);
    }
    VertexRef red = graph.addVertex(reduce, "ReduceRow", {{"partials", partials[r]}, {"out", y[r]}});
    graph.setTileMapping(red, tile);
  }
  graph.createHostWrite("A", A);
  graph.createHostWrite("x", x);
  graph.createHostRead("y", y);

  Engine engine(graph, Sequence({Execute(products), Execute(reduce)}));
  engine.load(device);
  std::vector<float> a(rows * cols), xs(cols), ys(rows);
  for (unsigned i = 0; i < rows * cols; ++i)
    a[i] = float(i % 7) - 3;
  for (unsigned j = 0; j < cols; ++j)
    xs[j] = float(j % 5);
  engine.writeTensor("A", a.data(), a.data() + a.size());
  engine.writeTensor("x", xs.data(), xs.data() + xs.size());
  engine.run(0);
  engine.readTensor("y", ys.data(), ys.data() + ys.size());

  unsigned wrong = 0;
  for (unsigned r = 0; r < rows; ++r) {
    float expect = 0;
    for (unsigned j = 0; j < cols; ++j)
      expect += a[r * cols + j] * xs[j];
    if (expect != ys[r])
      ++wrong;
  }
  std::cout << "y[0..3] = " << ys[0] << " " << ys[1] << " " << ys[2] << " " << ys[3] << "\n";
  std::cout << (wrong ? "MISMATCH" : "matches the host") << "\n";
  return wrong ? 1 : 0;
}
