// A counted loop that slices one row of a table per pass with the loop counter as the offset:
// it accumulates the rows into a running sum and writes each row to the mirrored position of
// an output table with dynamicUpdate, checked against the same loop on the host.
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Loop.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
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
  ipuModel.tilesPerIPU = 8;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);

  const unsigned steps = 6, width = 5;
  Tensor table = popops::createSliceableTensor(graph, FLOAT, {steps, width}, {0}, {1}, 0, "table");
  Tensor mirrored = popops::createSliceableTensor(graph, FLOAT, {steps, width}, {0}, {1}, 0,
                                                  "mirrored");
  Tensor sum = graph.addVariable(FLOAT, {1, width}, "sum");
  poputil::mapTensorLinearly(graph, sum);
  // mirrorOffsets[i] = steps - 1 - i, sliced with the counter too.
  std::vector<unsigned> mirror(steps);
  for (unsigned i = 0; i < steps; ++i) mirror[i] = steps - 1 - i;
  Tensor mirrorOffsets = graph.addConstant(UNSIGNED_INT, {steps}, mirror, "mirrorOffsets");
  poputil::mapTensorLinearly(graph, mirrorOffsets);
  graph.createHostWrite("table", table);
  graph.createHostWrite("sum", sum);
  graph.createHostRead("sumOut", sum);
  graph.createHostRead("mirrored", mirrored);

  Sequence prog;
  prog.add(popops::countedLoop(graph, steps, [&](const Tensor& i) {
    Sequence body;
    Tensor offset = i.reshape({1});
    Tensor row = popops::dynamicSlice(graph, table, offset, {0}, {1}, body, "row");
    popops::addInPlace(graph, sum, row, body, "accumulate");
    Tensor target = popops::dynamicSlice(graph, mirrorOffsets, offset, {0}, {1}, body, "target");
    popops::dynamicUpdate(graph, mirrored, row, target, {0}, {1}, body, "store");
    return body;
  }, "loop"));

  OptionFlags engineOptions{{"autoReport.all", "true"},
                            {"autoReport.directory", "./report"},
                            {"debug.retainDebugInformation", "true"}};
  Engine engine(graph, prog, engineOptions);
  engine.load(device);
  std::vector<float> hostTable(steps * width), hostSum(width, 0.5f);
  for (std::size_t i = 0; i < hostTable.size(); ++i) hostTable[i] = float(i) * 0.5f - 3.0f;
  engine.writeTensor("table", hostTable.data(), hostTable.data() + hostTable.size());
  engine.writeTensor("sum", hostSum.data(), hostSum.data() + hostSum.size());
  engine.run(0);
  std::vector<float> gotSum(width), gotMirrored(steps * width);
  engine.readTensor("sumOut", gotSum.data(), gotSum.data() + gotSum.size());
  engine.readTensor("mirrored", gotMirrored.data(), gotMirrored.data() + gotMirrored.size());

  for (unsigned i = 0; i < steps; ++i)
    for (unsigned c = 0; c < width; ++c) {
      hostSum[c] += hostTable[i * width + c];
      if (gotMirrored[(steps - 1 - i) * width + c] != hostTable[i * width + c]) {
        std::cerr << "mirrored row " << steps - 1 - i << " differs from table row " << i << "\n";
        return 1;
      }
    }
  for (unsigned c = 0; c < width; ++c)
    if (std::fabs(gotSum[c] - hostSum[c]) > 1e-5f) {
      std::cerr << "sum[" << c << "] = " << gotSum[c] << ", expected " << hostSum[c] << "\n";
      return 1;
    }
  std::cout << "countedLoop of " << steps << " passes with dynamicSlice matches the host\n";
  printOps("report");
  return 0;
}
