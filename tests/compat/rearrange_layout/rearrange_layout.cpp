// Layout changes as convolution-style custom code makes them: activations stored channels
// innermost are regrouped so that their width is innermost (regroupIfBeneficial), a batch of
// small matrices is transposed in a compute set of the caller's (partialTranspose), a regroup is
// planned into a list of copies and a compute set (regroupTensor), and an embedding's rows are
// read and updated at offsets known when the graph is built (multiSlice / multiUpdateAdd with
// static offsets). Every result is checked against the host; the profile then lists each op's
// vertices.
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/Rearrange.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VarStructure.hpp>
#include <pva/pva.hpp>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

static void printOps(const std::string& dir) {
  pva::Report report = pva::openReport(dir + "/profile.pop", dir + "/debug.cbor");
  for (const pva::ComputeSet& cs : report.compilation().computeSets()) {
    // The op's name, or the compute set's own for those the program made itself.
    auto dc = cs.debugContext();
    std::string op = dc ? dc->opType() : std::string();
    if (op.empty()) op = cs.name();
    for (const auto& v : cs.vertices())
      std::cout << "profile: " << op << " " << v.type().name() << " x" << v.count() << "\n";
  }
}

static bool same(const std::vector<float>& got, const std::vector<float>& want, const char* what) {
  for (std::size_t i = 0; i < want.size(); ++i)
    if (std::fabs(got[i] - want[i]) > 1e-4f) {
      std::cerr << what << "[" << i << "] = " << got[i] << ", expected " << want[i] << "\n";
      return false;
    }
  return true;
}

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 8;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  Sequence prog;

  // Activations [N, C, W] stored as [N, W, C]: channels innermost, 16 of them per (n, w).
  const std::size_t N = 2, C = 16, W = 8;
  Tensor stored = graph.addVariable(HALF, {N, W, C}, "acts");
  poputil::mapTensorLinearly(graph, stored, 0, C);
  graph.createHostWrite("acts", stored);
  Tensor acts = stored.dimShuffle({0, 2, 1});
  Tensor byWidth = popops::rearrange::regroupIfBeneficial(graph, acts, W, prog, "toWidth");
  const auto groupings = poputil::detectDimGroupings(graph, byWidth);
  if (groupings.empty() || groupings[0].first != 2) {
    std::cerr << "regroupIfBeneficial left the width dimension ungrouped\n";
    return 1;
  }
  graph.createHostRead("byWidth", byWidth);

  // A batch of 4 matrices of 6x8 floats, each on one tile, transposed in our compute set.
  Tensor mats = graph.addVariable(FLOAT, {4, 6, 8}, "mats");
  poputil::mapTensorLinearly(graph, mats, 0, 48);
  graph.createHostWrite("mats", mats);
  ComputeSet transposeCS = graph.addComputeSet("transposes");
  Tensor matsT = popops::rearrange::partialTranspose(graph, mats, transposeCS, "transpose");
  prog.add(Execute(transposeCS));
  graph.createHostRead("matsT", matsT);

  // A [8, 6] float tensor grouped by 2 in its columns, regrouped by 4 in its rows.
  Tensor grid = graph.addVariable(FLOAT, {8, 6}, "grid");
  poputil::mapTensorLinearly(graph, grid);
  graph.createHostWrite("grid", grid);
  std::vector<Copy> preCopies;
  ComputeSet regroupCS = graph.addComputeSet("regroup");
  Tensor regrouped = popops::rearrange::regroupTensor(graph, grid, preCopies, regroupCS, {1, 2},
                                                      {0, 4}, "regroup");
  for (const auto& c : preCopies)
    prog.add(c);
  prog.add(Execute(regroupCS));
  graph.createHostRead("regrouped", regrouped);

  // Static offsets: rows 3, 0 and 3 of a [5, 4] table looked up, then updated by 0.5 * grads.
  Tensor table = popops::createSliceableTensor(graph, FLOAT, {5, 4}, {0}, {1}, 0, "table");
  graph.createHostWrite("table", table);
  const std::vector<unsigned> rowsWanted = {3, 0, 3};
  Tensor looked = popops::multiSlice(graph, table, rowsWanted, 0, prog, "lookup");
  graph.createHostRead("looked", looked);
  Tensor grads = popops::createSliceTensor(graph, table, {0}, {1}, rowsWanted.size(), "grads");
  graph.createHostWrite("grads", grads);
  Tensor half = graph.addConstant(FLOAT, {}, 0.5f, "scale");
  graph.setTileMapping(half, 0);
  popops::multiUpdateAdd(graph, table, grads, rowsWanted, half, 0, prog, "update");
  graph.createHostRead("tableOut", table);

  Engine engine(graph, prog,
                {{"autoReport.all", "true"},
                 {"autoReport.directory", "./report"},
                 {"debug.retainDebugInformation", "true"}});
  engine.load(device);

  std::vector<float> hostActs(N * W * C), hostMats(4 * 6 * 8), hostGrid(8 * 6), hostTable(5 * 4),
      hostGrads(3 * 4);
  for (std::size_t i = 0; i < hostActs.size(); ++i)
    hostActs[i] = float(i % 97);
  for (std::size_t i = 0; i < hostMats.size(); ++i)
    hostMats[i] = float(i) * 0.5f;
  for (std::size_t i = 0; i < hostGrid.size(); ++i)
    hostGrid[i] = float(i) - 20.0f;
  for (std::size_t i = 0; i < hostTable.size(); ++i)
    hostTable[i] = float(i);
  for (std::size_t i = 0; i < hostGrads.size(); ++i)
    hostGrads[i] = float(i % 3) + 1.0f;
  std::vector<unsigned short> halfActs(hostActs.size());
  copyFloatToDeviceHalf(device.getTarget(), hostActs.data(), halfActs.data(), hostActs.size());
  engine.writeTensor("acts", halfActs.data(), halfActs.data() + halfActs.size());
  engine.writeTensor("mats", hostMats.data(), hostMats.data() + hostMats.size());
  engine.writeTensor("grid", hostGrid.data(), hostGrid.data() + hostGrid.size());
  engine.writeTensor("table", hostTable.data(), hostTable.data() + hostTable.size());
  engine.writeTensor("grads", hostGrads.data(), hostGrads.data() + hostGrads.size());
  engine.run(0);

  std::vector<unsigned short> gotHalf(N * C * W);
  engine.readTensor("byWidth", gotHalf.data(), gotHalf.data() + gotHalf.size());
  std::vector<float> gotWidth(gotHalf.size());
  copyDeviceHalfToFloat(device.getTarget(), gotHalf.data(), gotWidth.data(), gotHalf.size());
  std::vector<float> wantWidth;
  for (std::size_t n = 0; n < N; ++n)
    for (std::size_t c = 0; c < C; ++c)
      for (std::size_t w = 0; w < W; ++w)
        wantWidth.push_back(hostActs[(n * W + w) * C + c]);
  if (!same(gotWidth, wantWidth, "byWidth")) return 1;
  std::cout << "regroupIfBeneficial matches the host\n";

  std::vector<float> gotGrid(hostGrid.size());
  engine.readTensor("regrouped", gotGrid.data(), gotGrid.data() + gotGrid.size());
  if (!same(gotGrid, hostGrid, "regrouped")) return 1;
  std::cout << "regroupTensor matches the host\n";

  std::vector<float> gotT(hostMats.size()), wantT(hostMats.size());
  engine.readTensor("matsT", gotT.data(), gotT.data() + gotT.size());
  for (std::size_t m = 0; m < 4; ++m)
    for (std::size_t r = 0; r < 6; ++r)
      for (std::size_t c = 0; c < 8; ++c)
        wantT[m * 48 + c * 6 + r] = hostMats[m * 48 + r * 8 + c];
  if (!same(gotT, wantT, "matsT")) return 1;
  std::cout << "partialTranspose matches the host\n";

  std::vector<float> gotLooked(3 * 4), gotTable(hostTable.size());
  engine.readTensor("looked", gotLooked.data(), gotLooked.data() + gotLooked.size());
  engine.readTensor("tableOut", gotTable.data(), gotTable.data() + gotTable.size());
  std::vector<float> wantLooked, wantTable = hostTable;
  for (std::size_t i = 0; i < rowsWanted.size(); ++i)
    for (std::size_t c = 0; c < 4; ++c) {
      wantLooked.push_back(hostTable[rowsWanted[i] * 4 + c]);
      wantTable[rowsWanted[i] * 4 + c] += 0.5f * hostGrads[i * 4 + c];
    }
  if (!same(gotLooked, wantLooked, "looked") || !same(gotTable, wantTable, "table")) return 1;
  std::cout << "static multiSlice and multiUpdateAdd match the host\n";
  printOps("report");
  return 0;
}
