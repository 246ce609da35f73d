// bench_matmul: the engine's functional simulation of an N x N x N float matMul (poplin::matMul
// spread over 1472 tiles) against the same product in plain C++ loops and in OpenBLAS's
// cblas_sgemm on one thread (when built with OpenBLAS), timed in one run.
//
//   bench_matmul [--size N] [--reps R] [--threads T] [--no-loops]
//   (default N = 512, R = 5, T = every core: the engine's tessera.threads)
//
// Reports the median of R runs of each and their ratios; the engine's speed against OpenBLAS's
// one thread is also given per host thread of the engine (issue 38's "per core" figure), with the
// CPU time the engine's runs took. --no-loops leaves out the plain loops (slow, and most of a
// profile of the benchmark) after one run that checks the result. Every result is compared, so
// the benchmark also fails loudly if the engine computes something else.
#include "common/CommandLine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>
#include <random>
#include <string>
#include <thread>
#include <time.h>
#include <vector>

#ifdef TESSERA_BENCH_OPENBLAS
#include <cblas.h>
#endif

using namespace poplar;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

/// CPU time of the whole process (every thread), for the engine's share of the cores.
double processCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// The baseline: C = A . B in i-k-j order, so the inner loop streams rows and vectorises.
void plainMatMul(const std::vector<float>& a, const std::vector<float>& b, std::vector<float>& c,
                 std::size_t n) {
  std::fill(c.begin(), c.end(), 0.0f);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < n; ++k) {
      const float aik = a[i * n + k];
      const float* brow = &b[k * n];
      float* crow = &c[i * n];
      for (std::size_t j = 0; j < n; ++j)
        crow[j] += aik * brow[j];
    }
}

} // namespace

int main(int argc, char** argv) {
  std::size_t n = 512, reps = 5;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  bool noLoops = false;
  tessera::cli::CommandLine cli(
      "bench_matmul",
      "bench_matmul: the engine's simulated N x N x N float matMul against the "
      "same product in plain C++ loops.",
      "bench_matmul --size 48 --reps 1");
  const CLI::Validator& positive = tessera::cli::PositiveNumber;
  cli.add_option("--size", n, "Matrix size N")->check(positive);
  cli.add_option("--reps", reps, "Runs of each (medians are reported)")->check(positive);
  cli.add_option("--threads", threads, "Host threads of the engine (tessera.threads)")
      ->check(positive);
  cli.add_flag("--no-loops", noLoops, "Run the plain loops once only, to check the result");
  cli.parseOrExit(argc, argv);

  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> a(n * n), b(n * n), expect(n * n), got(n * n);
  for (auto& x : a)
    x = dist(rng);
  for (auto& x : b)
    x = dist(rng);

  const auto buildStart = Clock::now();
  IPUModel model;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  const Tensor ta = poplin::createMatMulInputLHS(graph, FLOAT, {n, n}, {n, n}, "A");
  const Tensor tb = poplin::createMatMulInputRHS(graph, FLOAT, {n, n}, {n, n}, "B");
  program::Sequence prog;
  const Tensor tc = poplin::matMul(graph, ta, tb, prog, "C");
  graph.createHostWrite("A", ta);
  graph.createHostWrite("B", tb);
  graph.createHostRead("C", tc);
  Engine engine(graph, prog, OptionFlags{{"tessera.threads", std::to_string(threads)}});
  engine.load(device);
  engine.writeTensor("A", a.data(), a.data() + a.size());
  engine.writeTensor("B", b.data(), b.data() + b.size());
  const double buildSeconds = seconds(buildStart, Clock::now());

  // Interleave the two so that machine noise affects both alike; one warm-up run of each.
  std::vector<double> engineTimes, engineCpu, loopTimes, blasTimes;
#ifdef TESSERA_BENCH_OPENBLAS
  openblas_set_num_threads(1); // the baseline is one host core, like the engine's run today
  std::vector<float> blas(n * n);
  const int ni = static_cast<int>(n);
  auto sgemm = [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, ni, ni, ni, 1.0f, a.data(), ni, b.data(),
                ni, 0.0f, blas.data(), ni);
  };
  sgemm();
#endif
  engine.run();
  plainMatMul(a, b, expect, n);
  for (std::size_t r = 0; r < reps; ++r) {
    const double cpu0 = processCpuSeconds();
    auto t0 = Clock::now();
    engine.run();
    auto t1 = Clock::now();
    engineCpu.push_back(processCpuSeconds() - cpu0);
    if (!noLoops) plainMatMul(a, b, expect, n);
    auto t2 = Clock::now();
    engineTimes.push_back(seconds(t0, t1));
    loopTimes.push_back(seconds(t1, t2));
#ifdef TESSERA_BENCH_OPENBLAS
    t0 = Clock::now();
    sgemm();
    blasTimes.push_back(seconds(t0, Clock::now()));
#endif
  }
  engine.readTensor("C", got.data(), got.data() + got.size());

  double maxError = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    maxError = std::max(maxError, double(std::abs(got[i] - expect[i])));
  const double e = median(engineTimes), l = median(loopTimes);
  std::printf("matMul %zux%zux%zu float, median of %zu runs\n", n, n, n, reps);
  std::printf("  engine (poplin::matMul on %u simulated tiles): %8.2f ms\n",
              device.getTarget().getNumTiles(), e * 1e3);
  std::printf("  engine CPU time, all threads (median):         %8.2f ms on %u threads\n",
              median(engineCpu) * 1e3, threads);
  if (!noLoops) {
    std::printf("  plain C++ i-k-j loops:                         %8.2f ms\n", l * 1e3);
    std::printf("  ratio engine / loops:                          %8.2f x\n", e / l);
  }
  if (!blasTimes.empty()) {
    const double s = median(blasTimes);
    double blasError = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
      blasError = std::max(blasError, double(std::abs(got[i] - blas[i])));
    std::printf("  OpenBLAS cblas_sgemm, 1 thread:                %8.2f ms\n", s * 1e3);
    std::printf("  engine speed / OpenBLAS speed:                 %8.2f x\n", s / e);
    std::printf("  per engine thread:                             %8.2f x (goal >= 0.8)\n",
                s / e / threads);
    std::printf("  largest difference engine vs OpenBLAS:         %8.2e\n", blasError);
  } else {
    std::printf("  OpenBLAS: not built in (install libopenblas-dev and reconfigure)\n");
  }
  std::printf("  graph build + compile + load:                  %8.2f ms\n", buildSeconds * 1e3);
  std::printf("  largest difference between the results:        %8.2e\n", maxError);
  if (maxError > 1e-3 * double(n)) {
    std::fprintf(stderr, "bench_matmul: the engine's result differs from the loops'\n");
    return 1;
  }
  return 0;
}
