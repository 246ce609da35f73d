// popsparse::experimental: block-sparse matmul (dense x sparse, and dense x dense into a sparse
// result with sub-block masks) and block-sparse softmax and its gradient, each against dense
// products and softmaxes computed on the host with the sparsity pattern applied.
#include "TestUtil.hpp"
#include "popsparse/BlockSparseCycles.hpp"

#include <cmath>
#include <poplar/exceptions.hpp>
#include <popsparse/codelets.hpp>
#include <popsparse/experimental/BlockSparse.hpp>
#include <popsparse/experimental/BlockSparseMatMul.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
namespace bs = popsparse::experimental;

namespace {

using Mask = std::vector<unsigned char>;

/// The dense [rows][cols] matrix whose non-zero blocks (mask, row-major) hold `blocks`.
std::vector<float> densify(const std::vector<float>& blocks, const Mask& mask, std::size_t rows,
                           std::size_t cols, std::size_t br, std::size_t bc) {
  std::vector<float> d(rows * cols, 0.0f);
  std::size_t b = 0;
  for (std::size_t i = 0; i < rows / br; ++i)
    for (std::size_t j = 0; j < cols / bc; ++j) {
      if (!mask[i * (cols / bc) + j]) continue;
      for (std::size_t r = 0; r < br; ++r)
        for (std::size_t c = 0; c < bc; ++c)
          d[(i * br + r) * cols + j * bc + c] = blocks[b * br * bc + r * bc + c];
      ++b;
    }
  return d;
}

/// The non-zero blocks of a dense matrix, in the mask's order.
std::vector<float> sparsify(const std::vector<float>& d, const Mask& mask, std::size_t rows,
                            std::size_t cols, std::size_t br, std::size_t bc) {
  std::vector<float> out;
  for (std::size_t i = 0; i < rows / br; ++i)
    for (std::size_t j = 0; j < cols / bc; ++j)
      if (mask[i * (cols / bc) + j])
        for (std::size_t r = 0; r < br; ++r)
          for (std::size_t c = 0; c < bc; ++c)
            out.push_back(d[(i * br + r) * cols + j * bc + c]);
  return out;
}

std::vector<float> transpose(const std::vector<float>& a, std::size_t rows, std::size_t cols) {
  std::vector<float> t(a.size());
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      t[c * rows + r] = a[r * cols + c];
  return t;
}

bool masked(bs::SubBlockMask m, std::size_t r, std::size_t c) {
  return m == bs::SubBlockMask::ZeroUpperTriangle   ? c > r
         : m == bs::SubBlockMask::ZeroLowerTriangle ? c < r
                                                    : false;
}

/// Softmax of each row of a dense matrix over the elements in non-zero blocks not masked out
/// (rows count within groups of groupRows); everything else 0.
std::vector<float> hostSoftmax(const std::vector<float>& d, const Mask& mask, std::size_t rows,
                               std::size_t cols, std::size_t br, std::size_t bc, bs::SubBlockMask m,
                               std::size_t groupRows) {
  std::vector<float> out(d.size(), 0.0f);
  const auto kept = [&](std::size_t r, std::size_t c) {
    return mask[(r / br) * (cols / bc) + c / bc] && !masked(m, r % groupRows, c);
  };
  for (std::size_t r = 0; r < rows; ++r) {
    double mx = -INFINITY, sum = 0;
    for (std::size_t c = 0; c < cols; ++c)
      if (kept(r, c)) mx = std::max(mx, double(d[r * cols + c]));
    for (std::size_t c = 0; c < cols; ++c)
      if (kept(r, c)) sum += std::exp(d[r * cols + c] - mx);
    for (std::size_t c = 0; c < cols; ++c)
      if (kept(r, c)) out[r * cols + c] = float(std::exp(d[r * cols + c] - mx) / sum);
  }
  return out;
}

/// A mask of `rows` x `cols` blocks with about half of them set, block (0, 0) always.
Mask someMask(std::size_t rows, std::size_t cols, unsigned seed) {
  const auto v = test::randomValues(rows * cols, 0.0f, 1.0f, seed);
  Mask m(rows * cols);
  for (std::size_t i = 0; i < m.size(); ++i)
    m[i] = v[i] < 0.5f || i == 0;
  return m;
}

} // namespace

TEST_CASE("block-sparse: dense x sparse matches the dense product", "[popsparse][blocksparse]") {
  const bool transposed = GENERATE(false, true);
  const Type type = GENERATE(FLOAT, HALF);
  const unsigned groups = GENERATE(1u, 2u);
  test::Harness h(8);
  popsparse::addCodelets(h.graph());
  const std::size_t M = 8, K = 12, N = 16, b0 = 4, b1 = 4, b2 = 8;
  // The stored rhs is [K][N] with blocks [b1][b2], or [N][K] with blocks [b2][b1] transposed.
  const std::size_t sr = transposed ? N : K, sc = transposed ? K : N;
  const std::size_t sbr = transposed ? b2 : b1, sbc = transposed ? b1 : b2;
  Mask mask;
  std::vector<Mask> masks;
  for (unsigned g = 0; g < groups; ++g) {
    masks.push_back(someMask(sr / sbr, sc / sbc, 10 + g));
    mask.insert(mask.end(), masks.back().begin(), masks.back().end());
  }
  const bs::BSMatMulParams params({int(M), int(K), int(N)}, {int(b0), int(b1), int(b2)}, mask,
                                  transposed, type, type, FLOAT, groups);
  const Tensor lhs = bs::createBSMatMulInputLHS(h.graph(), params, "lhs");
  const Tensor rhs = bs::createBSMatMulInputRHS(h.graph(), params, "rhs");
  REQUIRE(lhs.shape() == std::vector<std::size_t>{groups * M, K});
  const auto a = test::randomValues(groups * M * K, -1.0f, 1.0f, 1);
  const auto rv = test::randomValues(rhs.numElements(), -1.0f, 1.0f, 2);
  h.write("lhs", lhs, a);
  h.write("rhs", rhs, rv);
  const Tensor out = bs::bsMatMul(h.graph(), params, h.prog(), lhs, rhs, {}, "bsmm");
  REQUIRE(out.shape() == std::vector<std::size_t>{groups * M, N});
  CHECK(out.elementType() == type);
  h.read("out", out);
  h.run();
  std::vector<float> expected;
  std::size_t at = 0;
  for (unsigned g = 0; g < groups; ++g) {
    std::size_t nz = 0;
    for (auto m : masks[g])
      nz += m;
    const std::vector<float> blocks(rv.begin() + at * sbr * sbc,
                                    rv.begin() + (at + nz) * sbr * sbc);
    at += nz;
    auto dense = densify(blocks, masks[g], sr, sc, sbr, sbc);
    if (transposed) dense = transpose(dense, sr, sc);
    const std::vector<float> ag(a.begin() + g * M * K, a.begin() + (g + 1) * M * K);
    const auto c = test::hostMatMul(ag, dense, 1, M, K, N);
    expected.insert(expected.end(), c.begin(), c.end());
  }
  CHECK_THAT(h.result("out"), test::CloseTo(expected, type == HALF ? 1e-2f : 1e-5f, 1e-2f));
}

TEST_CASE("block-sparse: dense x dense into a sparse result with a sub-block mask",
          "[popsparse][blocksparse]") {
  const auto sub = GENERATE(bs::SubBlockMask::None, bs::SubBlockMask::ZeroUpperTriangle,
                            bs::SubBlockMask::ZeroLowerTriangle);
  const unsigned groups = GENERATE(1u, 2u);
  test::Harness h(8);
  popsparse::addCodelets(h.graph());
  const std::size_t M = 16, K = 8, N = 16, b0 = 8, b1 = 8, b2 = 8;
  // The diagonal blocks and one off it on the allowed side (none wholly masked out).
  const Mask one = sub == bs::SubBlockMask::ZeroLowerTriangle ? Mask{1, 1, 0, 1} : Mask{1, 0, 1, 1};
  Mask mask;
  for (unsigned g = 0; g < groups; ++g)
    mask.insert(mask.end(), one.begin(), one.end());
  const bs::BSMatMulParams params({int(M), int(K), int(N)}, {int(b0), int(b1), int(b2)}, mask,
                                  FLOAT, FLOAT, FLOAT, sub, groups);
  const Tensor lhs = bs::createBSMatMulInputLHS(h.graph(), params, "lhs");
  const Tensor rhs = bs::createBSMatMulInputRHS(h.graph(), params, "rhs");
  REQUIRE(rhs.shape() == std::vector<std::size_t>{groups * K, N});
  const auto a = test::randomValues(lhs.numElements(), -1.0f, 1.0f, 3);
  const auto b = test::randomValues(rhs.numElements(), -1.0f, 1.0f, 4);
  h.write("lhs", lhs, a);
  h.write("rhs", rhs, b);
  const Tensor out = bs::bsMatMul(h.graph(), params, h.prog(), lhs, rhs);
  REQUIRE(out.shape() == std::vector<std::size_t>{3 * groups, b0 * b2});
  h.read("out", out);
  h.run();
  std::vector<float> expected;
  for (unsigned g = 0; g < groups; ++g) {
    const std::vector<float> ag(a.begin() + g * M * K, a.begin() + (g + 1) * M * K);
    const std::vector<float> bg(b.begin() + g * K * N, b.begin() + (g + 1) * K * N);
    auto c = test::hostMatMul(ag, bg, 1, M, K, N);
    for (std::size_t r = 0; r < M; ++r)
      for (std::size_t col = 0; col < N; ++col)
        if (masked(sub, r, col)) c[r * N + col] = 0.0f;
    const auto blocks = sparsify(c, one, M, N, b0, b2);
    expected.insert(expected.end(), blocks.begin(), blocks.end());
  }
  CHECK_THAT(h.result("out"), test::CloseTo(expected, 1e-5f, 1e-5f));
}

TEST_CASE("block-sparse: numberOfPass serialises the product into passes",
          "[popsparse][blocksparse]") {
  test::Harness h(4);
  popsparse::addCodelets(h.graph());
  const Mask mask{1, 0, 1, 1};
  const bs::BSMatMulParams params({16, 16, 16}, {8, 8, 8}, mask, false, FLOAT, FLOAT, FLOAT);
  const Tensor lhs = bs::createBSMatMulInputLHS(h.graph(), params, "lhs");
  const Tensor rhs = bs::createBSMatMulInputRHS(h.graph(), params, "rhs");
  const auto a = test::randomValues(lhs.numElements(), -1.0f, 1.0f, 5);
  const auto b = test::randomValues(rhs.numElements(), -1.0f, 1.0f, 6);
  h.write("lhs", lhs, a);
  h.write("rhs", rhs, b);
  const Tensor out =
      bs::bsMatMul(h.graph(), params, h.prog(), lhs, rhs, {{"numberOfPass", "2"}}, "passes");
  h.read("out", out);
  h.run();
  const auto expected = test::hostMatMul(a, densify(b, mask, 16, 16, 8, 8), 1, 16, 16, 16);
  CHECK_THAT(h.result("out"), test::CloseTo(expected, 1e-5f, 1e-5f));
}

TEST_CASE("block-sparse: softmax over each row's non-zero blocks", "[popsparse][blocksparse]") {
  const auto sub = GENERATE(bs::SubBlockMask::None, bs::SubBlockMask::ZeroUpperTriangle,
                            bs::SubBlockMask::ZeroLowerTriangle);
  const bool inPlace = GENERATE(false, true);
  const Type type = GENERATE(FLOAT, HALF);
  test::Harness h(8);
  popsparse::addCodelets(h.graph());
  const unsigned groups = 2;
  const std::size_t rows = 8, cols = 8, br = 4, bc = 2;
  // Per group 2 x 4 blocks; no block wholly above (upper) or below (lower) the diagonal.
  const Mask upper{1, 1, 0, 0, 1, 0, 1, 1}, lower{1, 1, 1, 0, 0, 0, 1, 1};
  const Mask& g0 = sub == bs::SubBlockMask::ZeroLowerTriangle ? lower : upper;
  Mask mask(g0);
  mask.insert(mask.end(), g0.begin(), g0.end());
  std::size_t nz = 0;
  for (auto m : mask)
    nz += m;
  const auto v = test::randomValues(nz * br * bc, -3.0f, 3.0f, 7);
  const Tensor in = h.input("in", type, {nz, br * bc}, v);
  Tensor out;
  if (inPlace) {
    bs::bsSoftmaxInPlace(h.graph(), in, {int(rows), int(cols)}, {int(br), int(bc)}, mask, sub,
                         groups, h.prog(), "softmax");
    out = in;
  } else {
    out = bs::bsSoftmax(h.graph(), in, {int(rows), int(cols)}, {int(br), int(bc)}, mask, sub,
                        groups, h.prog(), "softmax");
    h.read("in", in);
  }
  h.read("out", out);
  h.run();
  const auto dense = densify(v, mask, groups * rows, cols, br, bc);
  const auto expected = sparsify(hostSoftmax(dense, mask, groups * rows, cols, br, bc, sub, rows),
                                 mask, groups * rows, cols, br, bc);
  CHECK_THAT(h.result("out"), test::CloseTo(expected, type == HALF ? 1e-2f : 1e-5f, 1e-3f));
  if (!inPlace) CHECK_THAT(h.result("in"), test::CloseTo(v, type == HALF ? 1e-3f : 0.0f));
}

TEST_CASE("block-sparse: softmax gradient matches the dense one", "[popsparse][blocksparse]") {
  test::Harness h(8);
  popsparse::addCodelets(h.graph());
  const std::size_t rows = 8, cols = 12, br = 4, bc = 4;
  const Mask mask{1, 0, 1, 0, 1, 1};
  const std::size_t nz = 4;
  // Activations from a softmax, so each row sums to 1.
  const auto x = test::randomValues(nz * br * bc, -2.0f, 2.0f, 8);
  const auto y = sparsify(hostSoftmax(densify(x, mask, rows, cols, br, bc), mask, rows, cols, br,
                                      bc, bs::SubBlockMask::None, rows),
                          mask, rows, cols, br, bc);
  const auto g = test::randomValues(nz * br * bc, -1.0f, 1.0f, 9);
  const Tensor out = h.input("y", FLOAT, {nz, br * bc}, y);
  const Tensor grad = h.input("g", FLOAT, {nz, br * bc}, g);
  const Tensor dx = bs::bsSoftmaxGrad(h.graph(), out, grad, {int(rows), int(cols)},
                                      {int(br), int(bc)}, mask, h.prog(), "softmaxGrad");
  h.read("dx", dx);
  h.run();
  const auto yd = densify(y, mask, rows, cols, br, bc), gd = densify(g, mask, rows, cols, br, bc);
  std::vector<float> dd(rows * cols, 0.0f);
  for (std::size_t r = 0; r < rows; ++r) {
    double s = 0;
    for (std::size_t c = 0; c < cols; ++c)
      s += double(yd[r * cols + c]) * gd[r * cols + c];
    for (std::size_t c = 0; c < cols; ++c)
      dd[r * cols + c] = float(yd[r * cols + c] * (gd[r * cols + c] - s));
  }
  CHECK_THAT(h.result("dx"), test::CloseTo(sparsify(dd, mask, rows, cols, br, bc), 1e-5f, 1e-6f));
}

TEST_CASE("block-sparse: bad parameters and operands are named errors",
          "[popsparse][blocksparse]") {
  test::Harness h(4);
  popsparse::addCodelets(h.graph());
  const Mask mask{1, 0, 1, 1};
  // 12 is not a multiple of the block size 8.
  CHECK_THROWS_MATCHES(
      bs::BSMatMulParams({16, 12, 16}, {8, 8, 8}, mask, false, FLOAT, FLOAT, FLOAT),
      poputil::poplibs_error, test::What(Catch::Contains("not divisible")));
  // A mask of the wrong size.
  CHECK_THROWS_MATCHES(
      bs::BSMatMulParams({16, 8, 16}, {8, 8, 8}, Mask{1, 1, 1}, false, FLOAT, FLOAT, FLOAT),
      poputil::poplibs_error, test::What(Catch::Contains("sparsity mask size")));
  // Float inputs with half partials.
  CHECK_THROWS_MATCHES(bs::BSMatMulParams({16, 8, 16}, {8, 8, 8}, mask, false, FLOAT, FLOAT, HALF),
                       poputil::poplibs_error, test::What(Catch::Contains("partial")));
  CHECK_THROWS_AS(bs::BSMatMulParams({16, 8, 16}, {8, 8, 8}, mask, false, INT, FLOAT, FLOAT),
                  poputil::poplibs_error);
  // A result block wholly above the diagonal under ZeroUpperTriangle.
  CHECK_THROWS_MATCHES(bs::BSMatMulParams({16, 8, 16}, {8, 8, 8}, Mask{1, 1, 0, 1}, FLOAT, FLOAT,
                                          FLOAT, bs::SubBlockMask::ZeroUpperTriangle),
                       poputil::poplibs_error, test::What(Catch::Contains("above the diagonal")));

  const bs::BSMatMulParams params({16, 16, 16}, {8, 8, 8}, mask, false, FLOAT, FLOAT, FLOAT);
  const Tensor lhs = bs::createBSMatMulInputLHS(h.graph(), params, "lhs");
  const Tensor rhs = bs::createBSMatMulInputRHS(h.graph(), params, "rhs");
  CHECK_THROWS_MATCHES(bs::bsMatMul(h.graph(), params, h.prog(), lhs, lhs), poputil::poplibs_error,
                       test::What(Catch::Contains("right-hand matrix")));
  CHECK_THROWS_MATCHES(bs::bsMatMul(h.graph(), params, h.prog(), lhs.flatten(), rhs),
                       poputil::poplibs_error, test::What(Catch::Contains("rank")));
  const Tensor halfLhs = h.graph().clone(HALF, lhs, "halfLhs");
  CHECK_THROWS_MATCHES(bs::bsMatMul(h.graph(), params, h.prog(), halfLhs, rhs),
                       poputil::poplibs_error, test::What(Catch::Contains("input data type")));
  CHECK_THROWS_AS(bs::bsMatMul(h.graph(), params, h.prog(), lhs, rhs, {{"numberOfPass", "0"}}),
                  poplar::invalid_option);
  CHECK_THROWS_AS(bs::bsMatMul(h.graph(), params, h.prog(), lhs, rhs, {{"partitionMethod", "x"}}),
                  poplar::invalid_option);
  CHECK_THROWS_AS(bs::createBSMatMulInputLHS(h.graph(), params, "x", {{"noSuchOption", "1"}}),
                  poplar::invalid_option);

  // Softmax: a tensor that does not match the mask, a mask of the wrong size.
  const Tensor t = h.graph().addVariable(FLOAT, {2, 64}, "t");
  h.graph().setTileMapping(t, 0);
  CHECK_THROWS_MATCHES(
      bs::bsSoftmax(h.graph(), t, {16, 16}, {8, 8}, mask, bs::SubBlockMask::None, 1, h.prog()),
      poputil::poplibs_error, test::What(Catch::Contains("[3,64]")));
  CHECK_THROWS_MATCHES(bs::bsSoftmax(h.graph(), t, {16, 16}, {8, 8}, Mask{1, 1},
                                     bs::SubBlockMask::None, 1, h.prog()),
                       poputil::poplibs_error, test::What(Catch::Contains("sparsity mask")));
  CHECK_THROWS_MATCHES(bs::bsSoftmaxGrad(h.graph(), t, h.graph().clone(HALF, t), {16, 8}, {8, 8},
                                         Mask{1, 1}, h.prog()),
                       poputil::poplibs_error, test::What(Catch::Contains("same type")));
}

TEST_CASE("block-sparse: a result block costs PopLibs' ConvPartial1x1Out estimate",
          "[popsparse][blocksparse]") {
  test::Harness h(4);
  const Target& target = h.graph().getTarget();
  namespace pd = popsparse::detail;
  // One 16 x 16 x 16 half product: the 1x1 estimator with one input group and one output
  // group of 16 channels over 16 field rows (3, 3, 3, 3, 2, 2 per context).
  poplibs_support::ConvGroups g;
  g.inChansPerGroup = 16, g.outChansPerGroup = 16;
  CHECK(pd::bsMatMulBlockCycles(target, HALF, HALF, 1, 16, 16, 16) ==
        poplibs_support::convPartial1x1OutCycles(target, HALF, HALF, g, {3, 3, 3, 3, 2, 2}));
  // Each further product is one more input channel group; more rows cost more.
  const auto one = pd::bsMatMulBlockCycles(target, FLOAT, FLOAT, 1, 8, 8, 8);
  const auto two = pd::bsMatMulBlockCycles(target, FLOAT, FLOAT, 2, 8, 8, 8);
  CHECK(two > one);
  CHECK(pd::bsMatMulBlockCycles(target, FLOAT, FLOAT, 1, 64, 8, 8) > one);
  // A block with no products is zeroed.
  CHECK(pd::bsMatMulBlockCycles(target, FLOAT, FLOAT, 0, 8, 8, 8) ==
        poplibs_support::convZeroCycles(target, true, 64, 1));
}

TEST_CASE("block-sparse: softmax rows masked out entirely are zero, others normalised",
          "[popsparse][blocksparse]") {
  test::Harness h(4);
  popsparse::addCodelets(h.graph());
  const std::size_t rows = 4, cols = 6, br = 4, bc = 2;
  const auto sub = bs::SubBlockMask::ZeroUpperTriangle;
  // Blocks (0,0) and (0,1) of 1 x 3: rows 0 and 1 keep only columns of block (0,0), which
  // PopLibs' empty-row rule would zero; row 3 keeps elements of both blocks.
  const Mask mask{1, 1, 0};
  const auto v = test::randomValues(2 * br * bc, -2.0f, 2.0f, 11);
  const Tensor in = h.input("in", FLOAT, {2, br * bc}, v);
  const Tensor out = bs::bsSoftmax(h.graph(), in, {int(rows), int(cols)}, {int(br), int(bc)}, mask,
                                   sub, 1, h.prog(), "softmax");
  // Only block (0,1): rows 0 and 1 have no element left and come out as zeros.
  const Mask onlyRight{0, 1, 0};
  const auto w = test::randomValues(br * bc, -2.0f, 2.0f, 12);
  const Tensor in2 = h.input("in2", FLOAT, {1, br * bc}, w);
  const Tensor out2 = bs::bsSoftmax(h.graph(), in2, {int(rows), int(cols)}, {int(br), int(bc)},
                                    onlyRight, sub, 1, h.prog(), "softmax2");
  h.read("out", out);
  h.read("out2", out2);
  h.run();
  const auto want = sparsify(
      hostSoftmax(densify(v, mask, rows, cols, br, bc), mask, rows, cols, br, bc, sub, rows), mask,
      rows, cols, br, bc);
  CHECK_THAT(h.result("out"), test::CloseTo(want, 1e-5f, 1e-6f));
  // Row 0 of block (0,0) (elements 0, 1): its one kept element is 1.
  CHECK(h.result("out")[0] == Approx(1.0f));
  CHECK(h.result("out")[1] == 0.0f);
  const auto want2 = sparsify(hostSoftmax(densify(w, onlyRight, rows, cols, br, bc), onlyRight,
                                          rows, cols, br, bc, sub, rows),
                              onlyRight, rows, cols, br, bc);
  CHECK_THAT(h.result("out2"), test::CloseTo(want2, 1e-5f, 1e-6f));
  // Rows 0 and 1 of the block: all masked, zeros; row 2: its one element, 1.
  CHECK(std::vector<float>(h.result("out2").begin(), h.result("out2").begin() + 5) ==
        std::vector<float>{0, 0, 0, 0, 1});
}
