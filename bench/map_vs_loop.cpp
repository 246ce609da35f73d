// bench_map: popops::map of a 4-operand expression, (a * b + c) / max(d, 0.5), over N floats
// on one simulated Mk2 IPU (1472 tiles) against the same loop in plain C++, timed in one run.
//
//   bench_map [--elements N] [--reps R]     (default N = 4 Mi, R = 5)
//
// Reports the median of R runs of each and their ratio (and the fastest runs' ratio, steadier
// on a loaded machine); the results are compared, so the
// benchmark fails loudly if the fused vertex computes something else.
#include "common/CommandLine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <random>
#include <vector>

using namespace poplar;
using Clock = std::chrono::steady_clock;
namespace pe = popops::expr;

namespace {

double seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// The baseline: the same expression in one loop (the compiler vectorises it).
void plainLoop(const std::vector<float>& a, const std::vector<float>& b,
               const std::vector<float>& c, const std::vector<float>& d, std::vector<float>& out) {
  const std::size_t n = out.size();
  for (std::size_t i = 0; i < n; ++i)
    out[i] = (a[i] * b[i] + c[i]) / std::max(d[i], 0.5f);
}

} // namespace

int main(int argc, char** argv) {
  std::size_t n = 4u << 20, reps = 5;
  tessera::cli::CommandLine cli("bench_map",
                                "bench_map: popops::map of a 4-operand expression over N floats "
                                "against the same loop in plain C++.",
                                "bench_map --elements 100000 --reps 1");
  const CLI::Validator& positive = tessera::cli::PositiveNumber;
  cli.add_option("--elements", n, "Elements per operand")->check(positive);
  cli.add_option("--reps", reps, "Runs of each (medians are reported)")->check(positive);
  cli.parseOrExit(argc, argv);

  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> a(n), b(n), c(n), d(n), expect(n), got(n);
  for (auto* v : {&a, &b, &c, &d})
    for (auto& x : *v)
      x = dist(rng);

  const auto buildStart = Clock::now();
  IPUModel model;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  std::vector<Tensor> ins;
  for (const char* name : {"a", "b", "c", "d"}) {
    Tensor t = graph.addVariable(FLOAT, {n}, name);
    poputil::mapTensorLinearly(graph, t);
    graph.createHostWrite(name, t);
    ins.push_back(t);
  }
  program::Sequence prog;
  const Tensor out = popops::map(
      graph, (pe::_1 * pe::_2 + pe::_3) / pe::Max(pe::_4, pe::Const(0.5f)), ins, prog, "fused");
  graph.createHostRead("out", out);
  Engine engine(graph, prog);
  engine.load(device);
  engine.writeTensor("a", a.data(), a.data() + n);
  engine.writeTensor("b", b.data(), b.data() + n);
  engine.writeTensor("c", c.data(), c.data() + n);
  engine.writeTensor("d", d.data(), d.data() + n);
  const double buildSeconds = seconds(buildStart, Clock::now());

  // Interleaved, one warm-up run of each.
  std::vector<double> engineTimes, loopTimes;
  engine.run();
  plainLoop(a, b, c, d, expect);
  for (std::size_t r = 0; r < reps; ++r) {
    auto t0 = Clock::now();
    engine.run();
    auto t1 = Clock::now();
    plainLoop(a, b, c, d, expect);
    auto t2 = Clock::now();
    engineTimes.push_back(seconds(t0, t1));
    loopTimes.push_back(seconds(t1, t2));
  }
  engine.readTensor("out", got.data(), got.data() + n);

  double maxError = 0;
  for (std::size_t i = 0; i < n; ++i)
    maxError = std::max(maxError, double(std::fabs(got[i] - expect[i])));
  const double e = median(engineTimes), l = median(loopTimes);
  const double eMin = *std::min_element(engineTimes.begin(), engineTimes.end());
  const double lMin = *std::min_element(loopTimes.begin(), loopTimes.end());
  std::printf("popops::map (a*b + c) / max(d, 0.5) over %zu floats, median of %zu runs\n", n, reps);
  std::printf("  engine (one fused compute set on %u simulated tiles): %8.2f ms\n",
              device.getTarget().getNumTiles(), e * 1e3);
  std::printf("  plain C++ loop:                                       %8.2f ms\n", l * 1e3);
  std::printf("  ratio engine / loop:                                  %8.2f x\n", e / l);
  std::printf("  fastest runs: engine %.2f ms, loop %.2f ms, ratio     %8.2f x\n", eMin * 1e3,
              lMin * 1e3, eMin / lMin);
  std::printf("  graph build + compile + load:                         %8.2f ms\n",
              buildSeconds * 1e3);
  std::printf("  largest difference between the results:               %8.2e\n", maxError);
  if (maxError > 1e-6) {
    std::fprintf(stderr, "bench_map: the engine's result differs from the loop's\n");
    return 1;
  }
  return 0;
}
