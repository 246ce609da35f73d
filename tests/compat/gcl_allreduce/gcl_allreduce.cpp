// Data-parallel gradient all-reduce as a training step does it: 4 replicas of one graph (one IPU
// each), each given its own gradient from the host through a replicated stream, summed across
// the replicas in place with gcl and averaged into a second tensor; every replica's results are
// streamed back and checked against the same sums on the host.
#include <cmath>
#include <cstdlib>
#include <gcl/Collectives.hpp>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <vector>

using namespace poplar;
using namespace poplar::program;

int main() {
  const unsigned replicas = 4;
  IPUModel ipuModel;
  ipuModel.numIPUs = replicas;
  ipuModel.tilesPerIPU = 8;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget(), replication_factor(replicas));
  popops::addCodelets(graph);

  const std::size_t n = 1000;
  Tensor grad = graph.addVariable(FLOAT, {n}, "grad");
  poputil::mapTensorLinearly(graph, grad);
  DataStream gradIn = graph.addHostToDeviceFIFO("gradIn", FLOAT, n);
  DataStream sumOut = graph.addDeviceToHostFIFO("sumOut", FLOAT, n);
  DataStream meanOut = graph.addDeviceToHostFIFO("meanOut", FLOAT, n);

  Sequence prog;
  prog.add(Copy(gradIn, grad));
  Tensor mean =
      gcl::allReduceCrossReplica(graph, grad, gcl::CollectiveOperator::MEAN, prog, "meanGrad");
  gcl::allReduceInPlaceCrossReplica(graph, grad, gcl::CollectiveOperator::ADD, prog,
                                    "allReduceGrad");
  prog.add(Copy(grad, sumOut));
  prog.add(Copy(mean, meanOut));

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<std::vector<float>> in(replicas, std::vector<float>(n)),
      sums(replicas, std::vector<float>(n)), means(replicas, std::vector<float>(n));
  std::vector<double> hostSum(n, 0.0);
  for (unsigned r = 0; r < replicas; ++r) {
    for (std::size_t i = 0; i < n; ++i) {
      in[r][i] = std::sin(0.01f * float(i) + float(r)) * float(r + 1);
      hostSum[i] += in[r][i];
    }
    engine.connectStream("gradIn", r, in[r].data(), in[r].data() + n);
    engine.connectStream("sumOut", r, sums[r].data(), sums[r].data() + n);
    engine.connectStream("meanOut", r, means[r].data(), means[r].data() + n);
  }
  engine.run(0);

  bool ok = true;
  for (unsigned r = 0; r < replicas; ++r) {
    bool sumOk = true, meanOk = true;
    for (std::size_t i = 0; i < n; ++i) {
      sumOk = sumOk && std::fabs(sums[r][i] - hostSum[i]) <= 1e-5 * (1 + std::fabs(hostSum[i]));
      meanOk = meanOk &&
               std::fabs(means[r][i] - hostSum[i] / replicas) <= 1e-5 * (1 + std::fabs(hostSum[i]));
    }
    std::cout << "replica " << r << ": sum " << (sumOk ? "matches" : "DIFFERS")
              << " the host, mean " << (meanOk ? "matches" : "DIFFERS") << " the host\n";
    ok = ok && sumOk && meanOk;
  }
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
