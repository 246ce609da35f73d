// The host kernels behind the matmul vertices (issue 38): the float block product that every
// ConvPartial type pair runs (MatMulKernel.hpp) and ReduceAdd's float sum (ReduceAddKernel.hpp).
// Each against a reference computing in the order the kernel documents, over many shapes with
// odd sizes and strided rows; then through the engine in float and half, results against the
// host and cycles against the figures the PopLibs estimators gave before the kernels changed
// (how the host computes must never move a cycle).
#include "PlanProfile.hpp"
#include "TestUtil.hpp"
#include "common/ScratchDir.hpp"
#include "poplin/EvenRows.hpp"
#include "poplin/MatMulKernel.hpp"
#include "poplin/ReduceAddKernel.hpp"

#include <cmath>
#include <cstring>
#include <poplar/Engine.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>
#include <pva/pva.hpp>

using namespace poplar;

namespace {

/// Does this host take the vector path (one rounding per product-add)?
bool hostHasFma() {
#if defined(__x86_64__) && defined(__GNUC__)
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

/// A rows x cols matrix whose rows sit `stride` floats apart, as a tile's block does inside a
/// wider matrix (poison between the rows: the kernel must not read or write there).
struct Strided {
  Strided(std::size_t rows_, std::size_t cols_, std::size_t stride_, unsigned seed)
      : rows(rows_), cols(cols_), stride(stride_), data(rows_ * stride_ + 1, 1e30f) {
    const auto v = test::randomValues(rows * cols, -1, 1, seed);
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < cols; ++j)
        data[i * stride + j] = v[i * cols + j];
  }
  std::vector<const float*> constRows() const {
    std::vector<const float*> p(rows);
    for (std::size_t i = 0; i < rows; ++i)
      p[i] = data.data() + i * stride;
    return p;
  }
  std::vector<float*> mutableRows() {
    std::vector<float*> p(rows);
    for (std::size_t i = 0; i < rows; ++i)
      p[i] = data.data() + i * stride;
    return p;
  }
  float at(std::size_t i, std::size_t j) const { return data[i * stride + j]; }
  std::size_t rows, cols, stride;
  std::vector<float> data;
};

/// An edge list as a vertex sees one: rows with data() and size().
struct Row {
  const float* p;
  std::size_t n;
  const float* data() const { return p; }
  std::size_t size() const { return n; }
};
using Rows = std::vector<Row>;

} // namespace

TEST_CASE("EvenRows: equally spaced rows of one size are found, anything else is not",
          "[poplin][matmul][kernel]") {
  std::vector<float> m(1000);
  const float* base = m.data();
  poplin::EvenRows<const float> rows;
  REQUIRE(poplin::findEvenRows(Rows{{base, 8}, {base + 20, 8}, {base + 40, 8}}, 8, rows));
  CHECK(rows.first == base);
  CHECK(rows.stride == 20);
  CHECK(rows.row(2) == base + 40);
  // Backwards, overlapping, a single row, none.
  REQUIRE(poplin::findEvenRows(Rows{{base + 60, 4}, {base + 30, 4}, {base, 4}}, 4, rows));
  CHECK(rows.stride == -30);
  CHECK(rows.row(2) == base);
  REQUIRE(poplin::findEvenRows(Rows{{base, 8}, {base + 4, 8}, {base + 8, 8}}, 8, rows));
  CHECK(rows.stride == 4);
  REQUIRE(poplin::findEvenRows(Rows{{base + 7, 3}}, 3, rows));
  CHECK(rows.row(0) == base + 7);
  CHECK(poplin::findEvenRows(Rows{}, 3, rows));
  // One row out of step, one of another size, a spacing that is not a whole number of floats.
  CHECK_FALSE(poplin::findEvenRows(Rows{{base, 8}, {base + 20, 8}, {base + 41, 8}}, 8, rows));
  CHECK_FALSE(poplin::findEvenRows(Rows{{base, 8}, {base + 20, 7}, {base + 40, 8}}, 8, rows));
  CHECK_FALSE(poplin::findEvenRows(Rows{{base, 8}, {base + 20, 8}}, 7, rows));
  const auto* bytes = reinterpret_cast<const unsigned char*>(base);
  CHECK_FALSE(poplin::findEvenRows(Rows{{base, 1}, {reinterpret_cast<const float*>(bytes + 6), 1}},
                                   1, rows));
}

TEST_CASE("The float block kernel gives the documented sums for odd shapes and strided rows",
          "[poplin][matmul][kernel]") {
  // Rows around the 6-row sweep (1-13), depths short and long, columns around the 16-column
  // panel and its 8-lane halves (a masked tail of every width 1-15 appears below).
  const std::size_t rowsList[] = {1, 2, 5, 6, 7, 11, 13, 74};
  const std::size_t depthList[] = {1, 3, 8, 40, 129};
  const std::size_t colsList[] = {1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47};
  const bool fma = hostHasFma();
  unsigned seed = 1;
  for (std::size_t rows : rowsList)
    for (std::size_t depth : depthList)
      for (std::size_t cols : colsList) {
        CAPTURE(rows, depth, cols);
        // Row strides as a block of a wider matrix has them: 2 KiB apart for B (the L1-set
        // case the panels exist for), an odd stride for A, packed rows for out.
        const Strided a(rows, depth, depth + 13, seed++), b(depth, cols, 512, seed++);
        Strided out(rows, cols, cols + 3, seed++);
        const auto ap = a.constRows(), bp = b.constRows();
        const auto op = out.mutableRows();
        poplin::matMulBlockFloat(ap.data(), bp.data(), op.data(), rows, depth, cols);
        double worst = 0;
        bool exact = true;
        for (std::size_t i = 0; i < rows; ++i) {
          for (std::size_t j = 0; j < cols; ++j) {
            // The documented order: one float accumulator from +0, k ascending, each product
            // added with one rounding (FMA) on the vector path, two on the portable one.
            float acc = 0.0f;
            double exactSum = 0;
            for (std::size_t k = 0; k < depth; ++k) {
              acc = fma ? std::fma(a.at(i, k), b.at(k, j), acc) : acc + a.at(i, k) * b.at(k, j);
              exactSum += double(a.at(i, k)) * double(b.at(k, j));
            }
            exact = exact && std::memcmp(&acc, &out.data[i * out.stride + j], sizeof acc) == 0;
            worst = std::max(worst, std::abs(double(out.at(i, j)) - exactSum));
          }
          // Nothing written between the rows.
          for (std::size_t j = cols; j < out.stride && i * out.stride + j < out.data.size(); ++j)
            REQUIRE(out.data[i * out.stride + j] == 1e30f);
        }
        // Float sums of depth products in [-1, 1]: within depth * 2^-23 of the exact sum.
        CHECK(worst <= 1.2e-7 * double(depth) + 1e-7);
        if (fma) CHECK(exact); // the vector path is exactly the documented order
      }
}

TEST_CASE("ReduceAdd's float kernel sums the partials in order, bit for bit",
          "[poplin][reduce][kernel]") {
  for (std::size_t count : {1, 2, 3, 7, 13, 16})
    for (std::size_t n : {0, 1, 7, 8, 9, 31, 32, 33, 63, 64, 65, 100}) {
      CAPTURE(count, n);
      std::vector<std::vector<float>> parts;
      std::vector<const float*> ptrs;
      for (std::size_t p = 0; p < count; ++p)
        parts.push_back(test::randomValues(n + 1, -1e3f, 1e3f, unsigned(100 + p + 17 * n)));
      // -0 in every partial at column 0: a sum from +0 is +0 (starting from the first partial
      // would give -0).
      if (n)
        for (auto& part : parts)
          part[0] = -0.0f;
      for (auto& part : parts)
        ptrs.push_back(part.data());
      std::vector<float> out(n + 1, 1e30f);
      poplin::reduceAddFloat(ptrs.data(), count, out.data(), n);
      for (std::size_t j = 0; j < n; ++j) {
        float want = 0.0f;
        for (std::size_t p = 0; p < count; ++p)
          want += parts[p][j];
        REQUIRE(std::memcmp(&want, &out[j], sizeof want) == 0);
      }
      CHECK(out[n] == 1e30f); // nothing past the end
      if (n) CHECK(!std::signbit(out[0]));
    }
}

// Through the engine: every vertex type pair of the product (float and half in and out, half
// partials, K split so that ReduceAdd runs, odd sizes) against the host, and the profile's
// cycles against what the estimators gave before issue 38's kernels (main at bf37bdf): the host
// kernel must never change a simulated figure.
TEST_CASE("matMul on the host kernels: results in float and half, cycles unchanged",
          "[poplin][matmul][kernel]") {
  struct Case {
    std::size_t M, K, N;
    Type in, out;
    const char* partials;
    std::uint64_t cycles; ///< sum over steps and tiles of the run's compute cycles, before
  };
  const auto c = GENERATE(
      Case{24, 40, 16, FLOAT, FLOAT, "float", 10930},
      Case{37, 53, 29, FLOAT, FLOAT, "float", 37556},
      Case{4, 2048, 8, FLOAT, FLOAT, "float", 96152}, Case{6, 512, 10, HALF, HALF, "half", 16420},
      Case{19, 700, 13, HALF, FLOAT, "float", 39061}, Case{21, 33, 45, HALF, HALF, "float", 121329},
      Case{5, 7, 9, FLOAT, HALF, "float", 5540});
  CAPTURE(c.M, c.K, c.N, c.in.toString(), c.out.toString(), c.partials);
  test::ScratchDir dir;
  test::Harness h(16);
  const auto a = test::randomValues(c.M * c.K, -1, 1, 70),
             b = test::randomValues(c.K * c.N, -1, 1, 71);
  const Tensor A = h.input("A", c.in, {c.M, c.K}, a), B = h.input("B", c.in, {c.K, c.N}, b);
  h.read("C",
         poplin::matMul(h.graph(), A, B, h.prog(), c.out, "mm", {{"partialsType", c.partials}}));
  h.run({{"autoReport.outputExecutionProfile", "true"},
         {"autoReport.directory", dir.path().string()}});
  // The host rounds A and B as the device holds them (half inputs), then sums in double.
  auto rounded = [&](std::vector<float> v) {
    if (c.in == HALF)
      for (auto& x : v)
        x = float(half(x));
    return v;
  };
  const bool halfSums = c.out == HALF || std::string(c.partials) == "half";
  const float tol = halfSums ? 4e-3f : 1e-5f;
  CHECK_THAT(h.result("C"),
             test::CloseTo(test::hostMatMul(rounded(a), rounded(b), 1, c.M, c.K, c.N), tol, tol));

  const pva::Report report = pva::openReport((dir.path() / "profile.pop").string());
  std::uint64_t cycles = 0;
  const auto execution = report.execution();
  for (const auto& step : execution.steps())
    for (const auto& cs : step.computeSets())
      for (std::uint64_t t : cs.cyclesByTile())
        cycles += t;
  INFO("cycles " << cycles);
  CHECK(cycles == c.cycles);
}

TEST_CASE("matMul with blocks across two variables, run again on new inputs",
          "[poplin][matmul][kernel]") {
  // A's rows come from two variables (a gap between them in memory), so some blocks' rows are
  // not equally spaced and take the vertices' general path, others are and take the one the
  // first run found (EvenRows.hpp); each run must read the inputs written since.
  const std::size_t M = 37, K = 53, N = 29, top = 20;
  IPUModel model;
  model.tilesPerIPU = 16;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  const Tensor a1 = poplin::createMatMulInputLHS(graph, FLOAT, {top, K}, {K, N}, "a1");
  const Tensor a2 = poplin::createMatMulInputLHS(graph, FLOAT, {M - top, K}, {K, N}, "a2");
  const Tensor b = poplin::createMatMulInputRHS(graph, FLOAT, {M, K}, {K, N}, "b");
  program::Sequence prog;
  const Tensor c = poplin::matMul(graph, concat(a1, a2), b, prog, "mm");
  graph.createHostWrite("a1", a1);
  graph.createHostWrite("a2", a2);
  graph.createHostWrite("b", b);
  graph.createHostRead("c", c);
  Engine engine(graph, prog);
  engine.load(device);
  for (unsigned run = 0; run < 3; ++run) {
    CAPTURE(run);
    const auto a = test::randomValues(M * K, -1, 1, 80 + run),
               bv = test::randomValues(K * N, -1, 1, 90 + run);
    engine.writeTensor("a1", a.data(), a.data() + top * K);
    engine.writeTensor("a2", a.data() + top * K, a.data() + a.size());
    engine.writeTensor("b", bv.data(), bv.data() + bv.size());
    engine.run();
    std::vector<float> got(M * N);
    engine.readTensor("c", got.data(), got.data() + got.size());
    CHECK_THAT(got, test::CloseTo(test::hostMatMul(a, bv, 1, M, K, N), 1e-5f, 1e-5f));
  }
}
