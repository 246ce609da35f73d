// A batch of independent products the way public Poplar code writes it with poplin: operands
// from createMatMulGroupedInputLHS/RHS, matMulGrouped for C = A B, then matMulGroupedAcc adding
// 0.5 A B into an existing tensor (as an attention or a batched linear layer would), checked
// against the host.
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>
#include <sstream>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

int main() {
  const std::size_t G = 4, M = 3, K = 20, N = 6;
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 16;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);

  const std::vector<std::size_t> aShape{G, M, K}, bShape{G, K, N};
  std::ostringstream plan;
  poplin::matMulGroupedReportPlan(plan, graph, FLOAT, FLOAT, aShape, bShape);
  const std::string first = plan.str().substr(0, plan.str().find(';'));
  std::cout << "plan: " << first << "\n";

  Tensor a = poplin::createMatMulGroupedInputLHS(graph, FLOAT, FLOAT, aShape, bShape, "A");
  Tensor b = poplin::createMatMulGroupedInputRHS(graph, FLOAT, FLOAT, aShape, bShape, "B");
  Tensor acc = poplin::createMatMulGroupedOutput(graph, FLOAT, FLOAT, aShape, bShape, "acc");
  Sequence prog;
  Tensor c = poplin::matMulGrouped(graph, a, b, prog, FLOAT, "product");
  poplin::matMulGroupedAcc(graph, acc, 0.5f, a, b, prog, "accumulate");
  graph.createHostWrite("A", a);
  graph.createHostWrite("B", b);
  graph.createHostWrite("acc", acc);
  graph.createHostRead("C", c);
  graph.createHostRead("accOut", acc);

  std::vector<float> hA(G * M * K), hB(G * K * N), hAcc(G * M * N);
  for (std::size_t i = 0; i < hA.size(); ++i)
    hA[i] = float(std::sin(double(i)));
  for (std::size_t i = 0; i < hB.size(); ++i)
    hB[i] = float(std::cos(double(i) * 0.5));
  for (std::size_t i = 0; i < hAcc.size(); ++i)
    hAcc[i] = float(i % 5);

  Engine engine(graph, prog);
  engine.load(device);
  engine.writeTensor("A", hA.data(), hA.data() + hA.size());
  engine.writeTensor("B", hB.data(), hB.data() + hB.size());
  engine.writeTensor("acc", hAcc.data(), hAcc.data() + hAcc.size());
  engine.run(0);
  std::vector<float> hC(G * M * N), hAccOut(G * M * N);
  engine.readTensor("C", hC.data(), hC.data() + hC.size());
  engine.readTensor("accOut", hAccOut.data(), hAccOut.data() + hAccOut.size());

  bool productOk = true, accOk = true;
  for (std::size_t g = 0; g < G; ++g)
    for (std::size_t i = 0; i < M; ++i)
      for (std::size_t j = 0; j < N; ++j) {
        double s = 0;
        for (std::size_t k = 0; k < K; ++k)
          s += double(hA[(g * M + i) * K + k]) * hB[(g * K + k) * N + j];
        const std::size_t at = (g * M + i) * N + j;
        productOk = productOk && std::fabs(hC[at] - s) < 1e-4 * (1 + std::fabs(s));
        const double want = hAcc[at] + 0.5 * s;
        accOk = accOk && std::fabs(hAccOut[at] - want) < 1e-4 * (1 + std::fabs(want));
      }
  std::cout << (productOk ? "grouped product matches the host\n"
                          : "grouped product differs from the host\n");
  std::cout << (accOk ? "accumulated product matches the host\n"
                      : "accumulated product differs from the host\n");
  return productOk && accOk ? EXIT_SUCCESS : EXIT_FAILURE;
}
