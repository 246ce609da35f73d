// Sparse * dense products as public popsparse code writes them: a CSR matrix built on the host,
// its sparsity data from a Partitioner uploaded to the device, the product read back and
// checked against a dense product on the host. Dynamic sparsity (the pattern is data) and static
// sparsity (the pattern is fixed when the graph is built).
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Program.hpp>
#include <popops/codelets.hpp>
#include <popsparse/MatMul.hpp>
#include <popsparse/MatMulParams.hpp>
#include <popsparse/SparsePartitioner.hpp>
#include <popsparse/SparseStorageFormats.hpp>
#include <popsparse/codelets.hpp>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <random>
#include <vector>

using namespace poplar;
using namespace poplar::program;

static const std::size_t M = 64, K = 48, N = 16;

// A CSR matrix [M][K] with about a fifth of its elements non-zero.
static popsparse::CSRMatrix<float> makeCSR(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<float> values;
  std::vector<std::size_t> cols, rows{0};
  for (std::size_t r = 0; r < M; ++r) {
    for (std::size_t c = 0; c < K; ++c)
      if (u(rng) < 0.2f) {
        values.push_back(u(rng) - 0.5f);
        cols.push_back(c);
      }
    rows.push_back(values.size());
  }
  return popsparse::CSRMatrix<float>(M, K, values, cols, rows);
}

static bool check(const char* what, const popsparse::CSRMatrix<float>& a,
                  const std::vector<float>& b, const std::vector<float>& out) {
  double worst = 0;
  for (std::size_t i = 0; i < M; ++i)
    for (std::size_t j = 0; j < N; ++j) {
      double sum = 0;
      for (std::size_t v = a.rowIndices[i]; v < a.rowIndices[i + 1]; ++v)
        sum += a.nzValues[v] * b[a.columnIndices[v] * N + j];
      worst = std::max(worst, std::fabs(sum - out[i * N + j]));
    }
  std::cout << what << ": " << (worst < 1e-4 ? "matches" : "DIFFERS from")
            << " the dense host product" << std::endl;
  return worst < 1e-4;
}

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 16;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  popsparse::addCodelets(graph);

  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> hostRhs(K * N);
  for (auto& x : hostRhs)
    x = u(rng);

  // Dynamic: room for 30% non-zeros; the pattern is uploaded with the values.
  const auto dynParams = popsparse::dynamic::MatMulParams::createWithNzRatio(
      popsparse::dynamic::SparsityParams(), 0.3, 1, M, K, N);
  const poplar::OptionFlags options{{"availableMemoryProportion", "0.6"}};
  auto lhs = popsparse::dynamic::createSparseDenseMatMulLHS(graph, FLOAT, dynParams, "lhs", options);
  Tensor rhs = popsparse::dynamic::createSparseDenseMatMulRHS(graph, FLOAT, dynParams, "rhs", options);
  Sequence prog;
  Tensor dynOut = popsparse::dynamic::sparseDenseMatMul(graph, lhs, rhs, prog, false, false,
                                                        "dynamic", options);

  // Static: the pattern is given now; only the values are uploaded.
  const auto csrStatic = makeCSR(2);
  const auto stParams = popsparse::static_::MatMulParams::createForSparseDense(1, M, K, N);
  auto stLhs = popsparse::static_::createSparseDenseMatMulLHS(graph, FLOAT, stParams, csrStatic);
  Tensor stRhs = popsparse::static_::createSparseDenseMatMulRHS(graph, FLOAT, stParams, csrStatic);
  prog.add(Copy(rhs, stRhs));
  Tensor stOut = popsparse::static_::sparseDenseMatMul(graph, stLhs, stRhs, prog);

  graph.createHostWrite("meta", lhs.getMetaInfoTensor());
  graph.createHostWrite("nz", lhs.getNzValuesTensor());
  graph.createHostWrite("rhs", rhs);
  graph.createHostWrite("stNz", stLhs.getNzValuesTensor());
  graph.createHostRead("dynOut", dynOut);
  graph.createHostRead("stOut", stOut);

  Engine engine(graph, prog);
  engine.load(device);

  popsparse::dynamic::Partitioner<float> dynPart(dynParams, FLOAT, device.getTarget(), options);
  popsparse::static_::Partitioner<float> stPart(stParams, FLOAT, device.getTarget(), {});
  const auto stData = stPart.createSparsityDataImpl(csrStatic);
  engine.writeTensor("stNz", stData.nzValues.data(),
                     stData.nzValues.data() + stData.nzValues.size());
  engine.writeTensor("rhs", hostRhs.data(), hostRhs.data() + hostRhs.size());

  bool ok = true;
  // Two patterns through the one compiled program: dynamic sparsity.
  for (unsigned seed : {11u, 12u}) {
    const auto csr = makeCSR(seed);
    const auto data = dynPart.createSparsityDataImpl(csr);
    std::vector<unsigned short> meta(data.metaInfo.begin(), data.metaInfo.end());
    engine.writeTensor("meta", meta.data(), meta.data() + meta.size());
    engine.writeTensor("nz", data.nzValues.data(), data.nzValues.data() + data.nzValues.size());
    engine.run(0);
    std::vector<float> out(M * N);
    engine.readTensor("dynOut", out.data(), out.data() + out.size());
    ok &= check(seed == 11u ? "dynamic, first pattern" : "dynamic, second pattern", csr, hostRhs,
                out);
  }
  std::vector<float> out(M * N);
  engine.readTensor("stOut", out.data(), out.data() + out.size());
  ok &= check("static", csrStatic, hostRhs, out);

  const auto back = stPart.sparsityDataImplToCSRMatrix(stData);
  std::cout << "static partitioner round trip: "
            << (back.columnIndices == csrStatic.columnIndices ? "same pattern" : "DIFFERENT")
            << std::endl;
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
