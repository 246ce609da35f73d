// bench_execution_estimates: what execution-based estimates cost (docs/profiling.md). The same
// codelet file is compiled by popc twice in this run, with its execution counting (the default)
// and without (--no-execution-counts), and the same program, profiled, runs with each:
// Engine::run with an execution profile, the vertices of the counted .gp measured as they run
// (each compute set's cycles laid on the clock from the counts), against the plain .gp whose
// vertices get the field-size estimate. The runs alternate; medians are compared.
//
// Goal (docs/benchmarks.md): counted <= 1.5x plain.
//
//   bench_execution_estimates [--reps R] [--tiles T] [--size N] [--dir DIR]
#include "common/CommandLine.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <string>
#include <time.h>
#include <vector>

namespace fs = std::filesystem;
using namespace poplar;
using namespace poplar::program;

namespace {

// Typical user codelets: a dot product per row (a MultiVertex), a data-dependent clamp-and-count
// and a scaled update, all without cycle estimates of their own.
const char* const kCodelets = R"(#include <poplar/Vertex.hpp>
using namespace poplar;
class RowDot : public MultiVertex {
public:
  Input<Vector<float>> a, b;
  Output<Vector<float>> partials;
  void compute(unsigned w) {
    float s = 0;
    for (unsigned i = w; i < a.size(); i += numWorkers()) s += a[i] * b[i];
    partials[w] = s;
  }
};
class ClampCount : public Vertex {
public:
  InOut<Vector<float>> data;
  Output<unsigned> clamped;
  bool compute() {
    unsigned n = 0;
    for (auto& x : data)
      if (x > 1.0f) { x = 1.0f; ++n; }
    *clamped = n;
    return true;
  }
};
class Axpy : public Vertex {
public:
  InOut<Vector<float>> y;
  Input<Vector<float>> x;
  float alpha;
  bool compute() {
    for (unsigned i = 0; i < y.size(); ++i) y[i] += alpha * x[i];
    return true;
  }
};
)";

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Bench {
  Device device;
  Graph graph;
  Sequence prog;
  Bench(const std::string& gp, unsigned tiles, unsigned size, IPUModel& model)
      : device(model.createDevice()), graph(device.getTarget()) {
    graph.addCodelets(gp);
    Tensor a = graph.addVariable(FLOAT, {tiles, size}, "a");
    Tensor b = graph.addVariable(FLOAT, {tiles, size}, "b");
    Tensor partials = graph.addVariable(FLOAT, {tiles, 6}, "partials");
    Tensor clamped = graph.addVariable(UNSIGNED_INT, {tiles}, "clamped");
    std::vector<float> init(std::size_t(tiles) * size);
    for (std::size_t i = 0; i < init.size(); ++i)
      init[i] = float(i % 7) * 0.4f - 1.0f;
    graph.setInitialValue(a, init);
    graph.setInitialValue(b, init);
    ComputeSet dot = graph.addComputeSet("dot"), clamp = graph.addComputeSet("clamp"),
               axpy = graph.addComputeSet("axpy");
    for (unsigned t = 0; t < tiles; ++t) {
      for (const Tensor& x : {a[t], b[t], partials[t], clamped[t]})
        graph.setTileMapping(x, t);
      graph.setTileMapping(
          graph.addVertex(dot, "RowDot", {{"a", a[t]}, {"b", b[t]}, {"partials", partials[t]}}), t);
      graph.setTileMapping(
          graph.addVertex(clamp, "ClampCount", {{"data", a[t]}, {"clamped", clamped[t]}}), t);
      VertexRef v = graph.addVertex(axpy, "Axpy", {{"y", b[t]}, {"x", a[t]}});
      graph.setInitialValue(v["alpha"], 0.5f);
      graph.setTileMapping(v, t);
    }
    prog = Sequence{Repeat(4, Sequence{Execute(dot), Execute(clamp), Execute(axpy)})};
  }
};

} // namespace

int main(int argc, char** argv) {
  unsigned reps = 5, tiles = 64, size = 4096;
  std::string dir = (fs::temp_directory_path() / "bench-execution-estimates").string();
  tessera::cli::CommandLine cli(
      "bench_execution_estimates",
      "Engine::run of the same codelets with and without popc's execution counting.",
      "bench_execution_estimates --reps 5 --tiles 64 --size 4096");
  cli.add_option("--reps", reps, "Runs of each kind (medians are reported)")
      ->check(tessera::cli::PositiveNumber);
  cli.add_option("--tiles", tiles, "Tiles, one vertex of each codelet per tile")
      ->check(tessera::cli::PositiveNumber);
  cli.add_option("--size", size, "Elements per tile")->check(tessera::cli::PositiveNumber);
  cli.add_option("--dir", dir, "Scratch directory (the .gp files and reports)")->type_name("DIR");
  cli.parseOrExit(argc, argv);

  fs::create_directories(dir);
  const fs::path source = fs::path(dir) / "bench_codelets.cpp";
  std::ofstream(source) << kCodelets;
  const fs::path counted = fs::path(dir) / "counted.gp", plain = fs::path(dir) / "plain.gp";
  for (const auto& [gp, option] :
       {std::pair<fs::path, std::string>{counted, ""}, {plain, "--no-execution-counts"}}) {
    const std::string cmd = std::string(TESSERA_POPC) + " " + option + " -o '" + gp.string() +
                            "' '" + source.string() + "'";
    if (std::system(cmd.c_str()) != 0) {
      std::fprintf(stderr, "bench_execution_estimates: popc failed: %s\n", cmd.c_str());
      return 1;
    }
  }

  IPUModel model;
  model.tilesPerIPU = tiles;
  Bench withCounts(counted.string(), tiles, size, model),
      withoutCounts(plain.string(), tiles, size, model);
  auto engineFor = [&](Bench& b, const std::string& reportDir) {
    auto e = std::make_unique<Engine>(b.graph, b.prog,
                                      OptionFlags{{"autoReport.outputExecutionProfile", "true"},
                                                  {"autoReport.directory", reportDir},
                                                  {"tessera.threads", "1"}});
    e->load(b.device);
    return e;
  };
  auto countedEngine = engineFor(withCounts, (fs::path(dir) / "counted").string());
  auto plainEngine = engineFor(withoutCounts, (fs::path(dir) / "plain").string());
  // CPU time of this thread (the engine runs on it alone: tessera.threads 1), which other
  // processes on a shared machine disturb far less than wall-clock time.
  auto cpuMs = [] {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
  };
  auto time = [&](Engine& e) {
    const double t0 = cpuMs();
    e.run(0);
    return cpuMs() - t0;
  };
  time(*countedEngine); // warm up both
  time(*plainEngine);
  std::vector<double> c, p;
  for (unsigned r = 0; r < reps; ++r) { // alternate which goes first
    if (r % 2) {
      p.push_back(time(*plainEngine));
      c.push_back(time(*countedEngine));
    } else {
      c.push_back(time(*countedEngine));
      p.push_back(time(*plainEngine));
    }
  }
  const double mc = median(c), mp = median(p);
  const double bc = *std::min_element(c.begin(), c.end()),
               bp = *std::min_element(p.begin(), p.end());
  double load1 = 0;
  if (FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf", &load1) != 1) load1 = 0;
    std::fclose(f);
  }
  std::printf("Engine::run (thread CPU time), %u tiles x %u floats, 3 compute sets x 4 repeats, "
              "execution profile on\n",
              tiles, size);
  std::printf("  plain .gp (field-size estimates)     %8.2f ms\n", mp);
  std::printf("  counted .gp (execution-based)        %8.2f ms   %.2fx   goal <= 1.5x: %s\n", mc,
              mc / mp, mc / mp <= 1.5 ? "met" : "NOT met");
  std::printf("  fastest runs: plain %.2f ms, counted %.2f ms, %.2fx\n", bp, bc, bc / bp);
  std::printf("median of %u, load average %.1f\n", reps, load1);
  return 0;
}
