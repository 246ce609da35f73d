// bench_compile_scaling: how Engine construction (compile plus the profiler's models: program
// model, liveness, memory layout, and writing profile.pop) grows with the graph. Graphs of n
// vertices on one Mk2 IPU: n/1000 compute sets in sequence; compute set c reads variable c
// (each vertex its own 16-element slice, plus one element from the next tile, so every compute
// set also has an exchange) and writes variable c+1.
//
//   bench_compile_scaling [--sizes 1000,10000,100000] [--reps R] [--report-dir DIR] [--keep-report]
//                         [--ipus N] [--report-only | --plain-only]
//
// --ipus spreads the vertices over N IPUs' tiles (issue 38: 10 M vertices over 16 IPUs), each
// compute set starting on the tile after the previous one's last;
// --report-only skips the construction without a report, --plain-only the one with it (at 10 M
// vertices each construction takes most of a minute, and peak RSS then shows one of them). Peak RSS
// (ru_maxrss) is printed after each size.
//
// The baseline is the n log n curve through the smallest size, measured in the same run: the
// goal is that time grows no faster, i.e. the printed "vs n log n" ratio stays <= 1.
#include "common/CommandLine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Vertex.hpp>
#include <string>
#include <sys/resource.h>
#include <vector>

using namespace poplar;
using Clock = std::chrono::steady_clock;

namespace {

class BenchAxpy : public Vertex {
public:
  Input<Vector<float>> in;
  Input<float> neighbour;
  Output<Vector<float>> out;
  bool compute() {
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = 2.0f * in[i] + neighbour;
    return true;
  }
  static std::uint64_t getCycleEstimate(const VertexIntrospector& v, const Target&) {
    return 20 + 2 * v.getFieldInfo("in").size();
  }
};
TESSERA_VERTEX(BenchAxpy, in, neighbour, out);

// Process CPU time (all threads), seconds: on a shared machine wall time depends on the load,
// CPU time on the work.
double cpuNow() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

constexpr std::size_t kVerticesPerComputeSet = 1000, kSlice = 16;

struct Built {
  double buildSeconds, buildCpuSeconds;
  Graph graph;
  program::Sequence program;
};

// spread: vertex i of compute set c goes to tile (c * perSet + i) mod tiles rather than i mod
// tiles, so that over 16 IPUs the 1,000 vertices of each compute set do not all land on the first
// 1,000 tiles (10 M vertices there need more than a tile's memory).
Built build(const Target& target, std::size_t n, bool spread) {
  const auto t0 = Clock::now();
  const double c0 = cpuNow();
  Graph g(target);
  g.addCodelets(__FILE__);
  const unsigned tiles = target.getNumTiles();
  const std::size_t sets = std::max<std::size_t>(1, n / kVerticesPerComputeSet);
  const std::size_t perSet = n / sets;
  auto tileOf = [&](std::size_t c, std::size_t i) {
    return unsigned(((spread ? c * perSet : 0) + i) % tiles);
  };
  std::vector<Tensor> vars;
  for (std::size_t c = 0; c <= sets; ++c) {
    Tensor v = g.addVariable(FLOAT, {perSet * kSlice}, "v" + std::to_string(c));
    for (std::size_t i = 0; i < perSet; ++i)
      g.setTileMapping(v.slice(i * kSlice, (i + 1) * kSlice), tileOf(c, i));
    vars.push_back(v);
  }
  g.setInitialValue(vars[0], std::vector<float>(perSet * kSlice, 1.0f));
  g.createHostRead("result", vars.back());
  program::Sequence prog;
  for (std::size_t c = 0; c < sets; ++c) {
    ComputeSet cs = g.addComputeSet("layer" + std::to_string(c));
    for (std::size_t i = 0; i < perSet; ++i) {
      const std::size_t next = ((i + 1) % perSet) * kSlice;
      VertexRef v = g.addVertex(cs, "BenchAxpy",
                                {{"in", vars[c].slice(i * kSlice, (i + 1) * kSlice)},
                                 {"neighbour", vars[c][next]},
                                 {"out", vars[c + 1].slice(i * kSlice, (i + 1) * kSlice)}});
      g.setTileMapping(v, tileOf(c, i));
    }
    prog.add(program::Execute(cs));
  }
  return {std::chrono::duration<double>(Clock::now() - t0).count(), cpuNow() - c0, std::move(g),
          std::move(prog)};
}

// Peak resident set of the process so far, MiB (ru_maxrss is in KiB on Linux).
double peakRssMiB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_maxrss) / 1024.0;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
  std::vector<std::size_t> sizes{1000, 10000, 100000};
  unsigned reps = 3;
  std::string reportDir =
      (std::filesystem::temp_directory_path() / "tessera-bench-compile").string();
  tessera::cli::CommandLine cli(
      "bench_compile_scaling",
      "bench_compile_scaling: how Engine construction (compile, profiler models, "
      "profile.pop) grows with the graph, against n log n.",
      "bench_compile_scaling --sizes 200,400 --reps 1 --report-dir /tmp/compile-scaling");
  const CLI::Validator& positive = tessera::cli::PositiveNumber;
  cli.add_option("--sizes", sizes, "Graph sizes in vertices, comma-separated")
      ->delimiter(',')
      ->check(positive);
  cli.add_option("--reps", reps, "Constructions per size (medians are reported)")->check(positive);
  cli.add_option("--report-dir", reportDir, "Where profile.pop is written")->type_name("DIR");
  bool keepReport = false;
  cli.add_flag("--keep-report", keepReport,
               "Keep the last profile.pop (to compare layouts between builds)");
  unsigned ipus = 1;
  cli.add_option("--ipus", ipus, "IPUs the vertices are spread over")->check(positive);
  bool reportOnly = false;
  cli.add_flag("--report-only", reportOnly,
               "Only the construction that writes profile.pop (not the plain one first)");
  bool plainOnly = false;
  cli.add_flag("--plain-only", plainOnly,
               "Only the construction without a report (compile, models, runtime set-up)");
  cli.parseOrExit(argc, argv);
  if (reportOnly && plainOnly) {
    std::fprintf(stderr,
                 "bench_compile_scaling: --report-only and --plain-only exclude each other\n");
    return 1;
  }
  std::sort(sizes.begin(), sizes.end());
  IPUModel model("ipu2");
  model.numIPUs = ipus;
  const Target target = model.createTarget();
  const OptionFlags withReport{{"autoReport.outputGraphProfile", "true"},
                               {"autoReport.directory", reportDir}};

  std::printf("Engine construction on %u Mk2 IPU(s) (%u tiles), median of %u\n", ipus,
              target.getNumTiles(), reps);
  std::printf("%10s %10s %12s %14s %12s %10s %12s %12s\n", "vertices", "build s", "compile s",
              "compile+rep s", "us/vertex", "x prev", "vs n log n", "report MiB");
  double base = 0, baseNlogN = 0, prev = 0;
  for (std::size_t n : sizes) {
    std::vector<double> plain, reported, builds, buildCpu, reportedCpu;
    std::uintmax_t reportBytes = 0;
    for (unsigned r = 0; r < reps; ++r) {
      Built b = build(target, n, ipus > 1);
      builds.push_back(b.buildSeconds);
      buildCpu.push_back(b.buildCpuSeconds);
      auto t0 = Clock::now();
      const double plainCpu = cpuNow();
      if (!reportOnly) {
        { Engine e(b.graph, b.program); }
        plain.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
      }
      if (plainOnly) {
        // The plain construction stands in for the reported one in the figures below.
        reported.push_back(plain.back());
        reportedCpu.push_back(cpuNow() - plainCpu);
        continue;
      }
      t0 = Clock::now();
      const double c0 = cpuNow();
      { Engine e(b.graph, b.program, withReport); }
      reported.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
      reportedCpu.push_back(cpuNow() - c0);
      reportBytes = std::filesystem::file_size(std::filesystem::path(reportDir) / "profile.pop");
    }
    const double t = median(reported), nlogn = double(n) * std::log2(double(n));
    if (base == 0) {
      base = t;
      baseNlogN = nlogn;
    }
    const double ratio = (t / base) / (nlogn / baseNlogN);
    std::printf("%10zu %10.3f %12.3f %14.3f %12.2f %10.2f %12.2f %12.1f\n", n, median(builds),
                plain.empty() ? 0.0 : median(plain), t, 1e6 * t / double(n),
                prev > 0 ? t / prev : 1.0, ratio, double(reportBytes) / (1 << 20));
    prev = t;
    std::printf("%10s CPU: build %.3f s, compile+rep %.3f s, in all %.3f s; wall in all %.3f s; "
                "peak RSS %.0f MiB\n",
                "", median(buildCpu), median(reportedCpu), median(buildCpu) + median(reportedCpu),
                median(builds) + t, peakRssMiB());
  }
  std::printf(
      "(\"vs n log n\": time relative to the smallest size divided by n log n relative to it; <= 1 "
      "means no faster than n log n)\n");
  if (!keepReport) std::filesystem::remove_all(reportDir);
  return 0;
}
