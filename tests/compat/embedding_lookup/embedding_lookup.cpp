// An embedding layer as custom ops write it: a table laid out with createSliceableTensor for an
// embedding plan, a lookup with multiSlice, and the gradient step with multiUpdateAdd, checked
// against the same computation on the host. The profile then lists each op's compute sets.
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/codelets.hpp>
#include <pva/pva.hpp>

using namespace poplar;
using namespace poplar::program;

static void printOps(const std::string& dir) {
  pva::Report report = pva::openReport(dir + "/profile.pop", dir + "/debug.cbor");
  for (const pva::ComputeSet& cs : report.compilation().computeSets()) {
    auto dc = cs.debugContext();
    std::string op = dc ? dc->opType() : std::string("?");
    for (const auto& v : cs.vertices())
      std::cout << "profile: " << op << " " << v.type().name() << " x" << v.count() << "\n";
  }
}

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 16;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);

  const std::size_t entries = 50, width = 12, lookups = 9;
  popops::SlicePlan plan = popops::embedding::plan(graph, FLOAT, entries, width, {lookups},
                                                   {{"usedForSlice", "true"},
                                                    {"usedForUpdate", "true"},
                                                    {"operationForUpdate", "add"}});
  Tensor table = popops::createSliceableTensor(graph, FLOAT, {entries, width}, {0}, {1}, plan,
                                               {}, "table");
  Tensor indices = popops::createIndicesTensor(graph, {0}, lookups, plan, {}, "indices");
  Tensor grads = popops::createSliceTensor(graph, FLOAT, {entries, width}, {0}, {1}, lookups,
                                           plan, {}, "grads");
  Tensor learningRate = graph.addConstant(FLOAT, {}, -0.25f, "learningRate");
  graph.setTileMapping(learningRate, 0);
  graph.createHostWrite("table", table);
  graph.createHostWrite("indices", indices);
  graph.createHostWrite("grads", grads);

  Sequence prog;
  Tensor rows = popops::multiSlice(graph, table, indices, {0}, {1}, prog, plan, {}, "lookup");
  popops::multiUpdateAdd(graph, table, grads, indices, learningRate, {0}, {1}, prog, plan, {},
                         "update");
  graph.createHostRead("rows", rows);
  graph.createHostRead("tableOut", table);

  OptionFlags engineOptions{{"autoReport.all", "true"},
                            {"autoReport.directory", "./report"},
                            {"debug.retainDebugInformation", "true"}};
  Engine engine(graph, prog, engineOptions);
  engine.load(device);

  std::vector<float> hostTable(entries * width), hostGrads(lookups * width);
  std::vector<unsigned> hostIndices{4, 17, 4, 49, 0, 23, 17, 8, 31};
  for (std::size_t i = 0; i < hostTable.size(); ++i) hostTable[i] = float(i % 13) - 6.0f;
  for (std::size_t i = 0; i < hostGrads.size(); ++i) hostGrads[i] = float(i % 5) * 0.5f;
  engine.writeTensor("table", hostTable.data(), hostTable.data() + hostTable.size());
  engine.writeTensor("indices", hostIndices.data(), hostIndices.data() + hostIndices.size());
  engine.writeTensor("grads", hostGrads.data(), hostGrads.data() + hostGrads.size());
  engine.run(0);
  std::vector<float> gotRows(lookups * width), gotTable(entries * width);
  engine.readTensor("rows", gotRows.data(), gotRows.data() + gotRows.size());
  engine.readTensor("tableOut", gotTable.data(), gotTable.data() + gotTable.size());

  std::vector<float> expectTable = hostTable;
  for (std::size_t i = 0; i < lookups; ++i)
    for (std::size_t c = 0; c < width; ++c) {
      const float looked = hostTable[hostIndices[i] * width + c];
      if (gotRows[i * width + c] != looked) {
        std::cerr << "rows[" << i << "][" << c << "] = " << gotRows[i * width + c]
                  << ", expected " << looked << "\n";
        return 1;
      }
      expectTable[hostIndices[i] * width + c] += -0.25f * hostGrads[i * width + c];
    }
  for (std::size_t i = 0; i < expectTable.size(); ++i)
    if (std::fabs(expectTable[i] - gotTable[i]) > 1e-5f) {
      std::cerr << "table element " << i << " = " << gotTable[i] << ", expected "
                << expectTable[i] << "\n";
      return 1;
    }
  std::cout << "multiSlice matches the host (" << lookups << " lookups of " << width
            << " values)\n";
  std::cout << "multiUpdateAdd matches the host\n";
  printOps("report");
  return 0;
}
