// bench_codelet_compile: Graph::addCodelets of a small C++ codelet file (four plain vertex
// classes, no registration line), compiled the first time and loaded from the codelet cache
// after that, against the host compiler alone compiling the same file in the same run:
//
//   clang++-14 -std=c++17 -O2 -fPIC -shared -I<Tessera's include dir> codelets.cpp -o x.so
//
// Goals (docs/benchmarks.md): first load <= 1.5x the compiler alone; a cached load <= 20 ms.
// Each addCodelets runs in a fresh child process (this program with --child), timed inside it
// around the call, so a cached load pays what a user's next run pays (hashing, dlopen,
// registration) and nothing is already loaded. Kinds of measurement:
//   first      a codelet file the cache has not seen (each repetition edits a comment in it),
//              in a cache that has its precompiled poplar/Vertex.hpp: what editing costs;
//   first ever an empty cache: the precompiled header is built too (once per cache and flags);
//   cached     the unchanged file again.
// The compiler alone compiles the same edited file. The kinds alternate; medians are compared.
//
//   bench_codelet_compile [--reps R] [--dir DIR]
#include "common/CommandLine.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

const char* const kCodelets = R"(#include <poplar/Vertex.hpp>

using namespace poplar;

class RowSums : public Vertex {
public:
  Vector<Input<Vector<float>>> rows;
  Output<Vector<float>> sums;
  bool compute() {
    for (unsigned r = 0; r < rows.size(); ++r) {
      float s = 0;
      for (float x : rows[r]) s += x;
      sums[r] = s;
    }
    return true;
  }
};

template <typename T> class Scale : public Vertex {
public:
  InOut<Vector<T>> data;
  T factor;
  bool compute() {
    for (auto& x : data) x *= factor;
    return true;
  }
};
template class Scale<float>;
template class Scale<int>;

class PartialDot : public MultiVertex {
public:
  Input<Vector<float>> a, b;
  Output<Vector<float>> partials;
  void compute(unsigned w) {
    float s = 0;
    for (unsigned i = w; i < a.size(); i += numWorkers()) s += a[i] * b[i];
    partials[w] = s;
  }
};
)";

/// The child: one addCodelets, its wall time in seconds on stdout.
int child(const std::string& file) {
  poplar::IPUModel model;
  poplar::Graph graph(model.createDevice().getTarget());
  const auto t0 = Clock::now();
  graph.addCodelets(file);
  std::printf("%.6f\n", std::chrono::duration<double>(Clock::now() - t0).count());
  return 0;
}

/// Runs a shell command; its wall time in seconds, or exits if it fails.
double timed(const std::string& command, std::string* output = nullptr) {
  const auto t0 = Clock::now();
  FILE* p = popen(command.c_str(), "r");
  std::string out;
  char buf[256];
  while (p && fgets(buf, sizeof buf, p))
    out += buf;
  const int status = p ? pclose(p) : -1;
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  if (status != 0) {
    std::fprintf(stderr, "bench_codelet_compile: '%s' failed:\n%s\n", command.c_str(), out.c_str());
    std::exit(1);
  }
  if (output) *output = out;
  return s;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
  unsigned reps = 5;
  std::string dir = (fs::temp_directory_path() / "tessera-bench-codelets").string();
  std::string childFile;
  tessera::cli::CommandLine cli(
      "bench_codelet_compile",
      "bench_codelet_compile: addCodelets of a small codelet file, first (compile) and cached, "
      "against clang++-14 alone on the same file.",
      "bench_codelet_compile --reps 3 --dir /tmp/bench-codelets");
  cli.add_option("--reps", reps, "Measurements of each kind (medians are reported)")
      ->check(tessera::cli::PositiveNumber);
  cli.add_option("--dir", dir, "Scratch directory (the codelet file and the caches)")
      ->type_name("DIR");
  cli.add_option("--child", childFile, "Internal: time one addCodelets of FILE")->group("");
  cli.parseOrExit(argc, argv);
  if (!childFile.empty()) return child(childFile);

  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path source = fs::path(dir) / "bench_codelets.cpp";
  std::ofstream(source) << kCodelets;
  const fs::path edited = fs::path(dir) / "edited_codelets.cpp";
  const std::string self = fs::read_symlink("/proc/self/exe").string();
  const std::string compiler = "clang++-14 -std=c++17 -O2 -fPIC -shared -I" TESSERA_INCLUDE_DIR
                               " '" +
                               edited.string() + "' -o '" + dir + "/alone.so'";
  const std::string warmCache = dir + "/cache-warm";
  auto load = [&](const std::string& cache, const fs::path& file) {
    std::string out;
    timed("TESSERA_CODELET_CACHE='" + cache + "' '" + self + "' --child '" + file.string() + "'",
          &out);
    return std::atof(out.c_str());
  };
  auto edit = [&](unsigned r) { std::ofstream(edited) << kCodelets << "// edit " << r << "\n"; };

  load(warmCache, source); // fills the warm cache, and the page cache with the compiler and headers
  edit(0);
  timed(compiler);
  std::vector<double> alone, first, firstEver, cached;
  for (unsigned r = 1; r <= reps; ++r) {
    edit(r);
    alone.push_back(timed(compiler));
    first.push_back(load(warmCache, edited));
    const std::string fresh = dir + "/cache-" + std::to_string(r);
    firstEver.push_back(load(fresh, source));
    fs::remove_all(fresh);
    cached.push_back(load(warmCache, source));
  }
  const double a = median(alone), f = median(first), fe = median(firstEver), c = median(cached);
  double load1 = 0, load5 = 0, load15 = 0;
  if (FILE* l = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(l, "%lf %lf %lf", &load1, &load5, &load15) != 3) load1 = load5 = load15 = 0;
    std::fclose(l);
  }
  std::printf("addCodelets of a 4-vertex codelet file, median of %u (load average %.2f %.2f %.2f, "
              "%ld cores)\n",
              reps, load1, load5, load15, sysconf(_SC_NPROCESSORS_ONLN));
  std::printf("%-34s %10s %12s %8s\n", "", "seconds", "ratio", "goal");
  std::printf("%-34s %10.3f %12s %8s\n", "clang++-14 -O2 -shared alone", a, "1.00x", "");
  std::printf("%-34s %10.3f %11.2fx %8s\n", "addCodelets, first (compile)", f, f / a, "<= 1.5x");
  std::printf("%-34s %10.3f %11.2fx %8s\n", "addCodelets, first ever (+ PCH)", fe, fe / a, "");
  std::printf("%-34s %10.4f %11.4fx %8s\n", "addCodelets, cached", c, c / a, "<= 20 ms");
  return 0;
}
