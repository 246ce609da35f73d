// A profiled matrix multiplication: the engine writes profile.pop and debug.cbor, prints the
// profile summary, and the program reads the report back with libpva, as PopVision users do.
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <pva/pva.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 64;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);

  const std::size_t m = 32, k = 48, n = 16;
  Tensor a = poplin::createMatMulInputLHS(graph, FLOAT, {m, k}, {k, n}, "a");
  Tensor b = poplin::createMatMulInputRHS(graph, FLOAT, {m, k}, {k, n}, "b");
  graph.createHostWrite("a", a);
  graph.createHostWrite("b", b);

  Sequence prog;
  Tensor c = poplin::matMul(graph, a, b, prog, "c");
  graph.createHostRead("c", c);

  OptionFlags engineOptions{{"autoReport.all", "true"},
                            {"autoReport.directory", "./report"},
                            {"debug.retainDebugInformation", "true"}};
  Engine engine(graph, prog, engineOptions);
  engine.load(device);

  std::vector<float> hostA(m * k), hostB(k * n), hostC(m * n);
  for (std::size_t i = 0; i < hostA.size(); ++i) hostA[i] = static_cast<float>(i % 7) - 3;
  for (std::size_t i = 0; i < hostB.size(); ++i) hostB[i] = static_cast<float>(i % 5) * 0.25f;
  engine.writeTensor("a", hostA.data(), hostA.data() + hostA.size());
  engine.writeTensor("b", hostB.data(), hostB.data() + hostB.size());
  engine.run(0);
  engine.readTensor("c", hostC.data(), hostC.data() + hostC.size());

  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      float expect = 0;
      for (std::size_t x = 0; x < k; ++x) expect += hostA[i * k + x] * hostB[x * n + j];
      if (std::abs(expect - hostC[i * n + j]) > 1e-3f) {
        std::cerr << "c[" << i << "][" << j << "] = " << hostC[i * n + j] << ", expected " << expect << "\n";
        return 1;
      }
    }
  std::cout << "matMul matches the host\n";

  engine.printProfileSummary(std::cout, {{"showExecutionSteps", "true"}});

  // Read the report back with libpva, from the files the engine wrote.
  pva::Report report = pva::openReport("report/profile.pop", "report/debug.cbor");
  std::uint64_t memory = 0;
  for (const pva::Tile& tile : report.compilation().tiles())
    memory += tile.memory().total().includingGaps();
  std::cout << "libpva: " << report.compilation().target().numTiles() << " tiles, "
            << report.execution().runs().size() << " run(s), "
            << (memory > 0 ? "memory used" : "NO MEMORY") << ", "
            << (report.execution().totalCycles().total() > 0 ? "cycles recorded" : "NO CYCLES") << "\n";
  return 0;
}
