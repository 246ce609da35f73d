// bench_engine_threads: Engine::run of a compute-heavy program (poplin::matMul N x N x N float
// over 1472 simulated tiles) or an exchange-heavy one (--program exchange: every tile's N floats
// to the next tile, then a transpose of the [tiles, N] matrix, one 4-byte copy per element) on
// one host thread against T threads (tessera.threads), in the same run, with wall and process
// CPU time, each thread's share and the machine's load average beside them.
//
//   bench_engine_threads [--program matmul|exchange] [--size N] [--reps R] [--threads T]
//                        (defaults matmul, 512, 5, every core)
//
// Both engines' results are compared bit for bit: the benchmark fails if they differ.
#include "common/CommandLine.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace poplar;
using Clock = std::chrono::steady_clock;

namespace {

double processCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

double loadAverage() {
  std::ifstream in("/proc/loadavg");
  double l = -1;
  in >> l;
  return l;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// CPU time of each of this process's threads so far (ns, from /proc/self/task/<tid>/schedstat),
// by thread id: how the work of a run was shared among the pool's threads, which a loaded
// machine's wall time cannot show.
std::map<long, double> threadCpuNs() {
  std::map<long, double> out;
  for (const auto& e : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream in(e.path() / "schedstat");
    double ns = 0;
    if (in >> ns) out[std::stol(e.path().filename().string())] = ns;
  }
  return out;
}

struct Timed {
  std::vector<double> wall, cpu;
};

} // namespace

int main(int argc, char** argv) {
  std::size_t n = 512, reps = 5;
  std::string programKind = "matmul";
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  tessera::cli::CommandLine cli(
      "bench_engine_threads",
      "bench_engine_threads: Engine::run of a float matMul on one host thread "
      "against several (tessera.threads), in one run.",
      "bench_engine_threads --size 64 --reps 1 --threads 2");
  const CLI::Validator& positive = tessera::cli::PositiveNumber;
  cli.add_option("--program", programKind, "matmul (compute) or exchange (copies between tiles)")
      ->check(CLI::IsMember({"matmul", "exchange"}));
  cli.add_option("--size", n, "Matrix size N (exchange: floats per tile)")->check(positive);
  cli.add_option("--reps", reps, "Runs of each (medians are reported)")->check(positive);
  cli.add_option("--threads", threads, "Host threads of the second engine")->check(positive);
  cli.parseOrExit(argc, argv);

  IPUModel model;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  program::Sequence prog;
  std::vector<std::pair<std::string, std::vector<float>>> inputs; // host writes before the runs
  std::size_t outElements = 0;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  const auto randomValues = [&](std::size_t count) {
    std::vector<float> v(count);
    for (auto& x : v)
      x = dist(rng);
    return v;
  };
  if (programKind == "matmul") {
    const Tensor ta = poplin::createMatMulInputLHS(graph, FLOAT, {n, n}, {n, n}, "A");
    const Tensor tb = poplin::createMatMulInputRHS(graph, FLOAT, {n, n}, {n, n}, "B");
    const Tensor tc = poplin::matMul(graph, ta, tb, prog, "C");
    graph.createHostWrite("A", ta);
    graph.createHostWrite("B", tb);
    graph.createHostRead("C", tc);
    inputs = {{"A", randomValues(n * n)}, {"B", randomValues(n * n)}};
    outElements = n * n;
  } else {
    // Each tile's n floats go to the next tile, then y viewed as [tiles, n] is transposed back
    // into x: every tile sends to every tile.
    const unsigned tiles = device.getTarget().getNumTiles();
    const std::size_t total = std::size_t(tiles) * n;
    const Tensor x = graph.addVariable(FLOAT, {total}, "x"),
                 y = graph.addVariable(FLOAT, {total}, "y");
    for (unsigned t = 0; t < tiles; ++t) {
      graph.setTileMapping(x.slice(t * n, (t + 1) * n), t);
      graph.setTileMapping(y.slice(t * n, (t + 1) * n), t);
    }
    prog.add(program::Copy(concat(x.slice(total - n, total), x.slice(0, total - n)), y));
    prog.add(program::Copy(y.reshape({tiles, n}).transpose().flatten(), x));
    graph.createHostWrite("A", x);
    graph.createHostRead("C", x);
    inputs = {{"A", randomValues(total)}};
    outElements = total;
  }

  const unsigned counts[2] = {1, threads};
  std::vector<std::unique_ptr<Engine>> engines;
  for (unsigned t : counts) {
    engines.push_back(
        std::make_unique<Engine>(graph, prog, OptionFlags{{"tessera.threads", std::to_string(t)}}));
    engines.back()->load(device);
    for (const auto& [handle, values] : inputs)
      engines.back()->writeTensor(handle, values.data(), values.data() + values.size());
    engines.back()->run(); // warm-up
  }
  const double loadBefore = loadAverage();
  // Interleaved, so that the machine's other work disturbs both alike.
  Timed timed[2];
  std::map<long, double> perThread; // CPU ns of each thread during the multi-threaded runs
  for (std::size_t r = 0; r < reps; ++r)
    for (int e = 0; e < 2; ++e) {
      const auto before = e == 1 ? threadCpuNs() : std::map<long, double>();
      const double c0 = processCpuSeconds();
      const auto t0 = Clock::now();
      engines[e]->run();
      const auto t1 = Clock::now();
      const double c1 = processCpuSeconds();
      if (e == 1)
        for (const auto& [tid, ns] : threadCpuNs()) {
          const auto it = before.find(tid);
          perThread[tid] += ns - (it == before.end() ? 0 : it->second);
        }
      timed[e].wall.push_back(std::chrono::duration<double>(t1 - t0).count());
      timed[e].cpu.push_back(c1 - c0);
    }
  const double loadAfter = loadAverage();

  std::vector<float> c1(outElements), cn(outElements);
  engines[0]->readTensor("C", c1.data(), c1.data() + c1.size());
  engines[1]->readTensor("C", cn.data(), cn.data() + cn.size());
  const bool same = std::memcmp(c1.data(), cn.data(), c1.size() * sizeof(float)) == 0;

  if (programKind == "matmul")
    std::printf(
        "Engine::run of matMul %zux%zux%zu float on %u simulated tiles, median of %zu runs\n", n, n,
        n, device.getTarget().getNumTiles(), reps);
  else
    std::printf(
        "Engine::run of an exchange of %zu floats per tile to the next tile and a transpose, on %u "
        "simulated tiles, median of %zu runs\n",
        n, device.getTarget().getNumTiles(), reps);
  std::printf("  host cores: %u; load average %.2f before, %.2f after\n",
              std::thread::hardware_concurrency(), loadBefore, loadAfter);
  for (int e = 0; e < 2; ++e)
    std::printf("  %2u thread%s: wall %8.2f ms, process CPU %8.2f ms (%.2f cores busy)\n",
                counts[e], counts[e] == 1 ? " " : "s", median(timed[e].wall) * 1e3,
                median(timed[e].cpu) * 1e3, median(timed[e].cpu) / median(timed[e].wall));
  std::printf("  speed-up (wall, 1 thread / %u): %.2f x\n", threads,
              median(timed[0].wall) / median(timed[1].wall));
  // The share of the work each thread did: with idle cores the wall time cannot fall below the
  // busiest thread's CPU time, so total / busiest bounds the speed-up the split allows.
  double total = 0, busiest = 0;
  std::string shares;
  for (const auto& [tid, ns] : perThread) {
    if (ns < 1e5) continue; // threads of the process that did not take part (under 0.1 ms)
    total += ns;
    busiest = std::max(busiest, ns);
    shares +=
        (shares.empty() ? "" : ", ") + std::to_string(int(ns / 1e6 / double(reps) + 0.5)) + " ms";
  }
  if (busiest > 0)
    std::printf(
        "  %u threads, CPU per run by thread: %s; total / busiest thread = %.2f (the wall speed-up "
        "idle cores would allow)\n",
        threads, shares.c_str(), total / busiest);
  std::printf("  results bit-identical: %s\n", same ? "yes" : "NO");
  if (!same) {
    std::fprintf(stderr, "bench_engine_threads: the results differ between thread counts\n");
    return 1;
  }
  return 0;
}
