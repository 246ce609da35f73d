// bench_matmul_kernel: the host work of a simulated matMul without the engine around it, against
// OpenBLAS. It runs the blocks of an N x N x N float product through the kernels behind PopLibs'
// vertices (poplin's block kernel, MatMulKernel.cpp, and ReduceAdd's, ReduceAddKernel.cpp):
//
//   cached   every block reads the same A and B and writes the same partials, all in cache:
//            the block kernel's own speed
//   cached, each block by OpenBLAS: the same blocks through cblas_sgemm (issue 38 allows the
//            vertices OpenBLAS for their blocks "if that wins"; built with OpenBLAS only)
//   layout   the blocks in the order the engine runs them (tile order: row block, K split,
//            column block) over the whole matrices, each writing its partials into its split's
//            plane, laid out block by block as PopLibs lays them out; then every row of C summed
//            from the planes: a run's host work, less the engine's per-vertex work
//   layout, blocks by OpenBLAS: the same, each block through cblas_sgemm (with OpenBLAS only)
//   layout, partials cached: the same, but every block writes one cached block of partials,
//            and the sums read from it: what the planes' traffic through memory costs
//
//   bench_matmul_kernel [--size N] [--rows R] [--depth D] [--cols C] [--reps REPS]
//   (defaults: the plan poplin::matMul chooses for 512^3 float on a Mk2 IPU, blocks of 74 rows x
//   40 of K x 32 columns, K split 13 ways; matMulReportPlan prints it)
//
// Each is the median of REPS runs, interleaved with OpenBLAS's cblas_sgemm of the whole product on
// one thread. The layout result is checked against OpenBLAS's.
#include "MatMulKernel.hpp"
#include "ReduceAddKernel.hpp"
#include "common/CommandLine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#ifdef TESSERA_BENCH_OPENBLAS
#include <cblas.h>
#endif

using Clock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// 64-byte aligned floats, as the engine's arena lays out a variable.
struct AlignedFloats {
  explicit AlignedFloats(std::size_t n)
      : data(static_cast<float*>(::operator new[](n * sizeof(float), std::align_val_t{64}))),
        size(n) {
    std::fill(data, data + n, 0.0f);
  }
  ~AlignedFloats() { ::operator delete[](data, std::align_val_t{64}); }
  AlignedFloats(const AlignedFloats&) = delete;
  AlignedFloats& operator=(const AlignedFloats&) = delete;
  float* data;
  std::size_t size;
};

struct Geometry {
  std::size_t n, rows, depth, cols;
  std::size_t rowBlocks() const { return (n + rows - 1) / rows; }
  std::size_t splits() const { return (n + depth - 1) / depth; }
  std::size_t colBlocks() const { return (n + cols - 1) / cols; }
  std::size_t blockRows(std::size_t rb) const { return std::min(rows, n - rb * rows); }
  std::size_t blockDepth(std::size_t s) const { return std::min(depth, n - s * depth); }
  std::size_t blockCols(std::size_t cb) const { return std::min(cols, n - cb * cols); }
  /// Where block (rb, cb)'s partials start in a plane: blocks one after another, row-major.
  std::size_t blockOffset(std::size_t rb, std::size_t cb) const {
    std::size_t offset = 0;
    for (std::size_t r = 0; r < rb; ++r)
      offset += blockRows(r) * n;
    for (std::size_t c = 0; c < cb; ++c)
      offset += blockRows(rb) * blockCols(c);
    return offset;
  }
};

enum class Setting { cached, cachedOpenBlas, layout, layoutOpenBlas, layoutPartialsCached };

/// One run: every block's product, then (except `cached`) every row of C from the partials.
void run(const Geometry& g, Setting setting, const float* a, const float* b, float* planes,
         float* cachedPartials, float* c) {
  std::vector<const float*> aRows(g.rows), bRows(g.depth), sums(g.splits());
  std::vector<float*> outRows(g.rows);
#ifdef TESSERA_BENCH_OPENBLAS
  if (setting == Setting::cachedOpenBlas) { // as `cached`, each block by OpenBLAS instead
    const int n = static_cast<int>(g.n), cols = static_cast<int>(g.cols);
    for (std::size_t block = 0; block < g.rowBlocks() * g.splits() * g.colBlocks(); ++block)
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(g.rows), cols,
                  static_cast<int>(g.depth), 1.0f, a, n, b, n, 0.0f, cachedPartials, cols);
    return;
  }
#endif
  for (std::size_t rb = 0; rb < g.rowBlocks(); ++rb)
    for (std::size_t s = 0; s < g.splits(); ++s)
      for (std::size_t cb = 0; cb < g.colBlocks(); ++cb) {
        const bool same = setting == Setting::cached;
        const std::size_t rows = g.blockRows(same ? 0 : rb), depth = g.blockDepth(same ? 0 : s),
                          cols = g.blockCols(same ? 0 : cb);
        const std::size_t r0 = same ? 0 : rb * g.rows, k0 = same ? 0 : s * g.depth,
                          c0 = same ? 0 : cb * g.cols;
        float* out = setting == Setting::layout || setting == Setting::layoutOpenBlas
                         ? planes + s * g.n * g.n + g.blockOffset(rb, cb)
                         : cachedPartials;
        for (std::size_t i = 0; i < rows; ++i) {
          aRows[i] = a + (r0 + i) * g.n + k0;
          outRows[i] = out + i * cols;
        }
        for (std::size_t k = 0; k < depth; ++k)
          bRows[k] = b + (k0 + k) * g.n + c0;
#ifdef TESSERA_BENCH_OPENBLAS
        if (setting == Setting::layoutOpenBlas) { // the block's rows are A's, B's and C's own
          cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(rows),
                      static_cast<int>(cols), static_cast<int>(depth), 1.0f, aRows[0],
                      static_cast<int>(g.n), bRows[0], static_cast<int>(g.n), 0.0f, outRows[0],
                      static_cast<int>(cols));
          continue;
        }
#endif
        poplin::matMulBlockFloat(aRows.data(), bRows.data(), outRows.data(), rows, depth, cols);
      }
  if (setting == Setting::cached) return;
  for (std::size_t rb = 0; rb < g.rowBlocks(); ++rb)
    for (std::size_t cb = 0; cb < g.colBlocks(); ++cb) {
      const std::size_t cols = g.blockCols(cb), block = g.blockOffset(rb, cb);
      for (std::size_t i = 0; i < g.blockRows(rb); ++i) {
        for (std::size_t s = 0; s < g.splits(); ++s)
          sums[s] = setting == Setting::layout || setting == Setting::layoutOpenBlas
                        ? planes + s * g.n * g.n + block + i * cols
                        : cachedPartials + i * cols;
        poplin::reduceAddFloat(sums.data(), sums.size(), c + (rb * g.rows + i) * g.n + cb * g.cols,
                               cols);
      }
    }
}

} // namespace

int main(int argc, char** argv) {
  Geometry g{512, 74, 40, 32};
  std::size_t reps = 21;
  tessera::cli::CommandLine cli(
      "bench_matmul_kernel",
      "bench_matmul_kernel: a simulated N^3 float matMul's host kernels without the engine, "
      "against OpenBLAS (defaults: the plan poplin::matMul chooses for 512^3 on a Mk2).",
      "bench_matmul_kernel --size 128 --rows 16 --depth 16 --cols 16 --reps 1");
  const CLI::Validator& positive = tessera::cli::PositiveNumber;
  cli.add_option("--size", g.n, "Matrix size N")->check(positive);
  cli.add_option("--rows", g.rows, "Rows of a block of A and C")->check(positive);
  cli.add_option("--depth", g.depth, "Depth of a block (K / splits)")->check(positive);
  cli.add_option("--cols", g.cols, "Columns of a block of B and C")->check(positive);
  cli.add_option("--reps", reps, "Runs of each (medians are reported)")->check(positive);
  cli.parseOrExit(argc, argv);
  if (g.rows > g.n || g.depth > g.n || g.cols > g.n) {
    std::fprintf(stderr,
                 "bench_matmul_kernel: a block (--rows, --depth, --cols) cannot be "
                 "larger than the matrix (--size %zu)\n",
                 g.n);
    return 2;
  }

  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  AlignedFloats a(g.n * g.n), b(g.n * g.n), c(g.n * g.n), planes(g.splits() * g.n * g.n),
      cachedPartials(g.rows * g.cols), blas(g.n * g.n);
  std::generate(a.data, a.data + a.size, [&] { return dist(rng); });
  std::generate(b.data, b.data + b.size, [&] { return dist(rng); });

  std::vector<Setting> settings{Setting::cached, Setting::layout, Setting::layoutPartialsCached};
  std::vector<const char*> names{"cached: one block's data, in cache",
                                 "layout: the run's matrices, planes",
                                 "layout, partials in one cached block"};
#ifdef TESSERA_BENCH_OPENBLAS
  settings.insert(settings.begin() + 1, Setting::cachedOpenBlas);
  names.insert(names.begin() + 1, "cached, each block by OpenBLAS's sgemm");
  settings.insert(settings.begin() + 3, Setting::layoutOpenBlas);
  names.insert(names.begin() + 3, "layout, each block by OpenBLAS's sgemm");
#endif
  // The layout run's C stays in `c` for the check; the partials-cached run's sums are not C.
  AlignedFloats scratchC(g.n * g.n);
  auto runSetting = [&](Setting s) {
    run(g, s, a.data, b.data, planes.data, cachedPartials.data,
        s == Setting::layout ? c.data : scratchC.data);
  };
  std::vector<std::vector<double>> times(settings.size());
  std::vector<double> blasTimes;
#ifdef TESSERA_BENCH_OPENBLAS
  openblas_set_num_threads(1);
  const int ni = static_cast<int>(g.n);
  auto sgemm = [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, ni, ni, ni, 1.0f, a.data, ni, b.data, ni,
                0.0f, blas.data, ni);
  };
  sgemm();
#endif
  for (const Setting s : settings) // warm-up
    runSetting(s);
  // Interleaved, so that machine noise affects every setting and the baseline alike.
  for (std::size_t r = 0; r < reps; ++r) {
    for (std::size_t s = 0; s < settings.size(); ++s) {
      const auto t0 = Clock::now();
      runSetting(settings[s]);
      times[s].push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    }
#ifdef TESSERA_BENCH_OPENBLAS
    const auto t0 = Clock::now();
    sgemm();
    blasTimes.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
#endif
  }

  std::printf("matMul %zux%zux%zu float: blocks of %zu rows x %zu of K x %zu columns, K split %zu "
              "ways (%zu blocks, %zu row sums), median of %zu runs\n",
              g.n, g.n, g.n, g.rows, g.depth, g.cols, g.splits(),
              g.rowBlocks() * g.splits() * g.colBlocks(), g.n * g.colBlocks(), reps);
  const double blasTime = blasTimes.empty() ? 0.0 : median(blasTimes);
  for (std::size_t s = 0; s < settings.size(); ++s) {
    const double t = median(times[s]);
    std::printf("  %-42s %8.2f ms", names[s], t * 1e3);
    if (blasTime > 0) std::printf("   speed / OpenBLAS %5.2f x", blasTime / t);
    std::printf("\n");
  }
#ifdef TESSERA_BENCH_OPENBLAS
  double error = 0;
  for (std::size_t i = 0; i < c.size; ++i)
    error = std::max(error, double(std::abs(c.data[i] - blas.data[i])));
  std::printf("  %-42s %8.2f ms\n", "OpenBLAS cblas_sgemm, 1 thread", blasTime * 1e3);
  std::printf("  largest difference layout vs OpenBLAS:     %8.2e\n", error);
  if (error > 1e-3 * double(g.n)) {
    std::fprintf(stderr, "bench_matmul_kernel: the kernels' product differs from OpenBLAS's\n");
    return 1;
  }
#else
  std::printf("  OpenBLAS: not built in (install libopenblas-dev and reconfigure)\n");
#endif
  return 0;
}
