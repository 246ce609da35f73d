// bench_allreduce: a gcl all-reduce across the instances of a poprun job against MPI_Allreduce of
// the same bytes, in the same run (docs/benchmarks.md, docs/distributed.md).
//
//   poprun --num-instances 2 --num-replicas 2 bench_allreduce [--mib 1,16,256] [--reps 3]
//
// Each instance holds one replica with a FLOAT tensor of the given size spread over its tiles;
// the engine's program is one in-place all-reduce (ADD) over every replica of the job, so
// Engine::run is the collective: gathering the replica's data from its tiles, moving it between
// instances with MPI (a reduce-scatter by MPI_Alltoallv, each instance combining its slice in
// replica order, then MPI_Allgatherv: docs/distributed.md) and writing it back. The baseline is
// MPI_Allreduce (MPI_SUM, MPI_FLOAT) of a host buffer of the same bytes. Both are timed after a
// barrier, the slowest instance's time counting; instance 0 prints the medians and their ratio.
// The engine's result is checked against the baseline's (sums of small integers are exact).
#include "common/CommandLine.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <gcl/Collectives.hpp>
#include <mpi.h>
#include <popdist/context.hpp>
#include <popdist/popdist_poplar.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poputil/TileMapping.hpp>
#include <sstream>
#include <string>
#include <vector>

using namespace poplar;
using Clock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// The slowest instance's time for `f`, all starting together.
template <class F> double timed(F&& f) {
  MPI_Barrier(MPI_COMM_WORLD);
  const auto t0 = Clock::now();
  f();
  double mine = std::chrono::duration<double>(Clock::now() - t0).count(), slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

} // namespace

int main(int argc, char** argv) try {
  std::string sizes = "1,16,256";
  unsigned reps = 3;
  tessera::cli::CommandLine cli(
      "bench_allreduce",
      "bench_allreduce: a gcl all-reduce across the instances of a poprun job against "
      "MPI_Allreduce of the same bytes, in one run. Run it under poprun with one replica per "
      "instance.",
      "poprun --num-instances 2 --num-replicas 2 bench_allreduce --mib 1,16,256 --reps 3");
  cli.add_option("--mib", sizes, "Sizes in MiB, comma-separated");
  cli.add_option("--reps", reps, "Timed runs of each (medians are reported)")
      ->check(CLI::Range(1u, 100u));
  cli.parseOrExit(argc, argv);
  if (!popdist::isPopdistEnvSet() || popdist::getNumLocalReplicas() != 1) {
    std::fprintf(stderr, "bench_allreduce: run it under poprun with one replica per instance "
                         "(poprun --num-instances N --num-replicas N bench_allreduce)\n");
    return 2;
  }
  Device device = popdist::poplar::getDevice(); // starts MPI
  const unsigned instance = popdist::getInstanceIndex(), n = popdist::getNumInstances();
  if (instance == 0)
    std::printf("all-reduce (ADD, FLOAT) across %u instances, one replica each; medians of %u\n"
                "%8s %14s %14s %8s\n",
                n, reps, "MiB", "gcl (engine)", "MPI_Allreduce", "ratio");
  std::stringstream list(sizes);
  for (std::string item; std::getline(list, item, ',');) {
    const std::size_t mib = std::stoul(item);
    const std::size_t elements = mib * 1024 * 1024 / sizeof(float);
    Graph graph(device.getTarget(), replication_factor(1));
    Tensor data = graph.addVariable(FLOAT, {elements}, "data");
    poputil::mapTensorLinearly(graph, data);
    program::Sequence prog;
    gcl::allReduceInPlaceCrossReplica(graph, data, gcl::CollectiveOperator::ADD, prog, "sum");
    graph.createHostWrite("data", data);
    graph.createHostRead("result", data);
    Engine engine(graph, prog, {{"tessera.threads", "1"}});
    engine.load(device);
    std::vector<float> input(elements), result(elements), baseline(elements);
    for (std::size_t i = 0; i < elements; ++i)
      input[i] = float((i + instance) % 7);
    std::vector<double> engineTimes, mpiTimes;
    for (unsigned r = 0; r < reps; ++r) {
      engine.writeTensor("data", input.data(), input.data() + elements);
      engineTimes.push_back(timed([&] { engine.run(0); }));
      mpiTimes.push_back(timed([&] {
        MPI_Allreduce(input.data(), baseline.data(), int(elements), MPI_FLOAT, MPI_SUM,
                      MPI_COMM_WORLD);
      }));
    }
    engine.readTensor("result", result.data(), result.data() + elements);
    if (result != baseline) {
      std::fprintf(stderr,
                   "bench_allreduce: instance %u: the engine's sum differs from "
                   "MPI_Allreduce's at %zu MiB\n",
                   instance, mib);
      return 1;
    }
    if (instance == 0)
      std::printf("%8zu %12.1f ms %12.1f ms %7.2fx\n", mib, 1e3 * median(engineTimes),
                  1e3 * median(mpiTimes), median(engineTimes) / median(mpiTimes));
    std::fflush(stdout);
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_allreduce: %s\n", e.what());
  return 1;
}
