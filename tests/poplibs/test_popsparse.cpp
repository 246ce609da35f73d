// popsparse: host-side formats and partitioners, static and dynamic sparse * dense products and
// sparse fully connected layers, each against a dense product computed on the host.
#include "TestUtil.hpp"
#include "popsparse/SparseCycles.hpp"

#include <poplar/exceptions.hpp>
#include <popsparse/Embedding.hpp>
#include <popsparse/FullyConnected.hpp>
#include <popsparse/MatMul.hpp>
#include <popsparse/MatMulParams.hpp>
#include <popsparse/SparsePartitioner.hpp>
#include <popsparse/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>
#include <random>

using namespace poplar;
namespace ps = popsparse;

namespace {

/// A random CSR matrix [rows][cols] with about `density` of its elements non-zero.
ps::CSRMatrix<float> randomCSR(std::size_t rows, std::size_t cols, double density, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<float> values;
  std::vector<std::size_t> columns, offsets{0};
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c)
      if (u(rng) < density) {
        values.push_back(u(rng) * 2.0f - 1.0f);
        columns.push_back(c);
      }
    offsets.push_back(values.size());
  }
  return ps::CSRMatrix<float>(rows, cols, values, columns, offsets);
}

std::vector<float> dense(const ps::CSRMatrix<float>& m) {
  std::vector<float> d(m.numRows * m.numColumns, 0.0f);
  for (std::size_t r = 0; r < m.numRows; ++r)
    for (std::size_t i = m.rowIndices[r]; i < m.rowIndices[r + 1]; ++i)
      d[r * m.numColumns + m.columnIndices[i]] = m.nzValues[i];
  return d;
}

/// a [m][k] * b [k][n], or a's transpose [k][m] * b [m][n] when transposeA.
std::vector<float> matmul(const std::vector<float>& a, const std::vector<float>& b, std::size_t m,
                          std::size_t k, std::size_t n, bool transposeA = false) {
  const std::size_t rows = transposeA ? k : m, depth = transposeA ? m : k;
  std::vector<float> out(rows * n, 0.0f);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t d = 0; d < depth; ++d) {
      const float av = transposeA ? a[d * k + i] : a[i * k + d];
      for (std::size_t j = 0; j < n; ++j)
        out[i * n + j] += av * b[d * n + j];
    }
  return out;
}

std::vector<float> transpose(const std::vector<float>& a, std::size_t rows, std::size_t cols) {
  std::vector<float> t(a.size());
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      t[c * rows + r] = a[r * cols + c];
  return t;
}

template <typename V> std::vector<float> asFloats(const std::vector<V>& v) {
  return std::vector<float>(v.begin(), v.end());
}

} // namespace

TEST_CASE("popsparse: the dynamic partitioner round-trips CSR, CSC and COO", "[popsparse]") {
  test::Harness h(4);
  const auto csr = randomCSR(6, 9, 0.3, 1);
  const auto params = ps::dynamic::MatMulParams::createWithNumNonZeroValues(
      {}, csr.nzValues.size() + 4, 1, 6, 9, 5);
  ps::dynamic::Partitioner<float> part(params, FLOAT, h.graph().getTarget(), {});
  const auto data = part.createSparsityDataImpl(csr);
  CHECK(data.metaInfo.size() == part.getmetaInfoBucketElements());
  CHECK(data.nzValues.size() == csr.nzValues.size() + 4);
  const auto back = part.sparsityDataImplToCSRMatrix(data);
  CHECK(back.rowIndices == csr.rowIndices);
  CHECK(back.columnIndices == csr.columnIndices);
  CHECK(back.nzValues == csr.nzValues);
  // The same matrix as CSC and COO encodes to the same data.
  const auto csc = part.sparsityDataImplToCSCMatrix(data);
  CHECK(csc.columnIndices.size() == 10);
  const auto fromCsc = part.createSparsityDataImpl(csc);
  CHECK(fromCsc.metaInfo == data.metaInfo);
  CHECK(fromCsc.nzValues == data.nzValues);
  const auto coo = part.sparsityDataImplToCOOMatrix(data);
  CHECK(part.createSparsityDataImpl(coo).nzValues == data.nzValues);
  CHECK(part.getPlanPartitions()[0] == std::vector<std::size_t>{6});
}

TEST_CASE("popsparse: partitioners reject bad matrices by name", "[popsparse]") {
  test::Harness h(4);
  const auto params = ps::dynamic::MatMulParams::createWithNumNonZeroValues({}, 3, 1, 4, 4, 4);
  ps::dynamic::Partitioner<float> part(params, FLOAT, h.graph().getTarget(), {});
  // Column 7 of a 4-column matrix.
  const ps::CSRMatrix<float> outside({1.0f}, {7}, {0, 1, 1, 1, 1});
  CHECK_THROWS_MATCHES(part.createSparsityDataImpl(outside), poputil::poplibs_error,
                       test::What(Catch::Contains("column 7")));
  // Four values where the capacity is three.
  const ps::CSRMatrix<float> full({1, 2, 3, 4}, {0, 1, 2, 3}, {0, 4, 4, 4, 4});
  CHECK_THROWS_MATCHES(part.createSparsityDataImpl(full), poputil::poplibs_error,
                       test::What(Catch::Contains("capacity")));
  // Row offsets that do not end at the number of values.
  const ps::CSRMatrix<float> offsets({1.0f}, {0}, {0, 1, 1, 1, 2});
  CHECK_THROWS_AS(part.createSparsityDataImpl(offsets), poputil::poplibs_error);
  // The same position twice.
  const ps::COOMatrix<float> twice({1.0f, 2.0f}, {1, 1}, {2, 2});
  CHECK_THROWS_MATCHES(part.createSparsityDataImpl(twice), poputil::poplibs_error,
                       test::What(Catch::Contains("more than one")));
  CHECK_THROWS_AS(ps::dynamic::MatMulParams::createWithNzRatio({}, 1.5, 1, 4, 4, 4),
                  poputil::poplibs_error);
}

TEST_CASE("popsparse: block CSR expands to the same elements", "[popsparse]") {
  test::Harness h(4);
  const ps::dynamic::SparsityParams blocks(ps::dynamic::SparsityType::Block,
                                           ps::dynamic::SparsityStructure::Unstructured, {2, 2});
  CHECK(blocks.type == ps::dynamic::SparsityType::Block);
  const auto params = ps::dynamic::MatMulParams::createWithNumNonZeroValues(blocks, 8, 1, 4, 4, 4);
  ps::dynamic::Partitioner<float> part(params, FLOAT, h.graph().getTarget(), {});
  // Blocks at (0, 2) and (2, 0), values row-major within each block.
  const ps::CSRMatrix<float> m(4, 4, {1, 2, 3, 4, 5, 6, 7, 8}, {2, 0}, {0, 4, 8}, {2, 2});
  const auto elems = part.sparsityDataImplToCOOMatrix(part.createSparsityDataImpl(m));
  CHECK(elems.rowIndices == std::vector<std::size_t>{0, 0, 1, 1, 2, 2, 3, 3});
  CHECK(elems.columnIndices == std::vector<std::size_t>{2, 3, 2, 3, 0, 1, 0, 1});
  CHECK(elems.nzValues == std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8});
}

TEST_CASE("popsparse: dynamic sparse * dense matches the dense product", "[popsparse]") {
  const bool transposeLHS = GENERATE(false, true);
  const std::size_t groups = GENERATE(1, 2);
  const Type type = GENERATE(FLOAT, HALF);
  const std::size_t m = 10, k = 14, n = 20;
  test::Harness h(8);
  ps::addCodelets(h.graph());
  std::vector<ps::CSRMatrix<float>> mats;
  std::size_t maxNz = 0;
  for (std::size_t g = 0; g < groups; ++g) {
    mats.push_back(randomCSR(m, k, 0.3, 10 + g));
    maxNz = std::max(maxNz, mats.back().nzValues.size());
  }
  const auto params =
      ps::dynamic::MatMulParams::createWithNumNonZeroValues({}, maxNz * groups, groups, m, k, n);
  const auto lhs = ps::dynamic::createSparseDenseMatMulLHS(h.graph(), type, params, {"lhs"});
  const std::size_t inRows = transposeLHS ? m : k, outRows = transposeLHS ? k : m;
  const Tensor rhs = h.graph().addVariable(type, {groups, inRows, n}, "rhs");
  poputil::mapTensorLinearly(h.graph(), rhs);
  const auto rhsValues = test::randomValues(groups * inRows * n, -1.0f, 1.0f, 3);
  h.write("rhs", rhs, rhsValues);
  const Tensor out = ps::dynamic::sparseDenseMatMul(h.graph(), lhs, rhs, h.prog(), transposeLHS);
  REQUIRE(out.shape() == std::vector<std::size_t>{groups, outRows, n});
  h.read("out", out);

  // Groups stacked by row in one CSR for the partitioner.
  std::vector<float> values;
  std::vector<std::size_t> columns, offsets{0};
  for (const auto& mat : mats) {
    for (std::size_t r = 0; r < m; ++r)
      offsets.push_back(offsets.back() + mat.rowIndices[r + 1] - mat.rowIndices[r]);
    values.insert(values.end(), mat.nzValues.begin(), mat.nzValues.end());
    columns.insert(columns.end(), mat.columnIndices.begin(), mat.columnIndices.end());
  }
  ps::dynamic::Partitioner<float> part(params, type, h.graph().getTarget(), {});
  const auto data = part.createSparsityDataImpl(ps::CSRMatrix<float>(values, columns, offsets));
  h.write("meta", lhs.getMetaInfoTensor(), asFloats(data.metaInfo));
  h.write("nz", lhs.getNzValuesTensor(), data.nzValues);
  h.run();

  std::vector<float> expected;
  for (std::size_t g = 0; g < groups; ++g) {
    const std::vector<float> b(rhsValues.begin() + g * inRows * n,
                               rhsValues.begin() + (g + 1) * inRows * n);
    const auto e = matmul(dense(mats[g]), b, m, k, n, transposeLHS);
    expected.insert(expected.end(), e.begin(), e.end());
  }
  CHECK_THAT(h.result("out"), test::CloseTo(expected, type == HALF ? 1e-2f : 1e-5f, 1e-2f));
}

TEST_CASE("popsparse: one dynamic graph serves two sparsity patterns", "[popsparse]") {
  const std::size_t m = 8, k = 8, n = 12;
  const auto params = ps::dynamic::MatMulParams::createWithNzRatio({}, 0.5, 1, m, k, n);
  const auto rhsValues = test::randomValues(k * n, -1.0f, 1.0f, 4);
  for (unsigned seed : {21u, 22u}) {
    test::Harness h(4);
    ps::addCodelets(h.graph());
    const auto lhs = ps::dynamic::createSparseDenseMatMulLHS(h.graph(), FLOAT, params);
    const Tensor rhs = ps::dynamic::createSparseDenseMatMulRHS(h.graph(), FLOAT, params);
    h.write("rhs", rhs, rhsValues);
    h.read("out", ps::dynamic::sparseDenseMatMul(h.graph(), lhs, rhs, h.prog()));
    const auto csr = randomCSR(m, k, 0.25, seed);
    ps::dynamic::Partitioner<float> part(params, FLOAT, h.graph().getTarget(), {});
    const auto data = part.createSparsityDataImpl(csr);
    h.write("meta", lhs.getMetaInfoTensor(), asFloats(data.metaInfo));
    h.write("nz", lhs.getNzValuesTensor(), data.nzValues);
    h.run();
    CHECK_THAT(h.result("out"), test::CloseTo(matmul(dense(csr), rhsValues, m, k, n), 1e-5f));
  }
}

TEST_CASE("popsparse: corrupt meta-information fails the run, not the process", "[popsparse]") {
  const auto params = ps::dynamic::MatMulParams::createWithNumNonZeroValues({}, 4, 1, 4, 4, 4);
  test::Harness h(2);
  ps::addCodelets(h.graph());
  const auto lhs = ps::dynamic::createSparseDenseMatMulLHS(h.graph(), FLOAT, params);
  const Tensor rhs = ps::dynamic::createSparseDenseMatMulRHS(h.graph(), FLOAT, params);
  h.write("rhs", rhs, std::vector<float>(16, 1.0f));
  h.read("out", ps::dynamic::sparseDenseMatMul(h.graph(), lhs, rhs, h.prog()));
  // Row 0 claims 9 values in a bucket of 4.
  h.write("meta", lhs.getMetaInfoTensor(), {9, 0, 0, 0, 0, 0, 0, 0});
  h.write("nz", lhs.getNzValuesTensor(), {1, 1, 1, 1});
  CHECK_THROWS_AS(h.run(), poplar::poplar_error);
}

TEST_CASE("popsparse: dynamic ops reject bad operands and options", "[popsparse]") {
  test::Harness h(2);
  ps::addCodelets(h.graph());
  const auto params = ps::dynamic::MatMulParams::createWithNzRatio({}, 0.5, 1, 4, 6, 8);
  const auto lhs = ps::dynamic::createSparseDenseMatMulLHS(h.graph(), FLOAT, params);
  const Tensor wrong = h.graph().addVariable(FLOAT, {1, 5, 8}, "wrong");
  CHECK_THROWS_MATCHES(ps::dynamic::sparseDenseMatMul(h.graph(), lhs, wrong, h.prog()),
                       poputil::poplibs_error, test::What(Catch::Contains("[1][6][n]")));
  CHECK_THROWS_AS(
      ps::dynamic::sparseDenseMatMul(h.graph(), ps::dynamic::SparseTensor(), wrong, h.prog()),
      poputil::poplibs_error);
  CHECK_THROWS_AS(ps::dynamic::createSparseDenseMatMulLHS(h.graph(), FLOAT, params, {},
                                                          {{"noSuchOption", "1"}}),
                  poplar::invalid_option);
  CHECK_THROWS_AS(ps::dynamic::createSparseDenseMatMulLHS(h.graph(), FLOAT, params, {},
                                                          {{"availableMemoryProportion", "2"}}),
                  poplar::invalid_option);
  CHECK_THROWS_AS(ps::dynamic::createSparseDenseMatMulLHS(h.graph(), INT, params),
                  poputil::poplibs_error);
}

TEST_CASE("popsparse: static sparse * dense and dense * sparse match the dense product",
          "[popsparse]") {
  const bool denseSparse = GENERATE(false, true);
  const std::size_t m = 40, k = 30, n = 9;
  test::Harness h(8);
  ps::addCodelets(h.graph());
  // The sparse operand is [m][k] for sparse * dense, [k][m] for dense * sparse.
  const auto csr = denseSparse ? randomCSR(k, m, 0.2, 5) : randomCSR(m, k, 0.2, 5);
  Tensor out, denseT;
  std::vector<float> denseValues, expected;
  ps::static_::SparseTensor sparse;
  if (!denseSparse) {
    const auto params = ps::static_::MatMulParams::createForSparseDense(1, m, k, n);
    sparse = ps::static_::createSparseDenseMatMulLHS(h.graph(), FLOAT, params, csr);
    denseT = ps::static_::createSparseDenseMatMulRHS(h.graph(), FLOAT, params, csr);
    REQUIRE(denseT.shape() == std::vector<std::size_t>{1, k, n});
    denseValues = test::randomValues(k * n, -1.0f, 1.0f, 6);
    out = ps::static_::sparseDenseMatMul(h.graph(), sparse, denseT, h.prog());
    REQUIRE(out.shape() == std::vector<std::size_t>{1, m, n});
    expected = matmul(dense(csr), denseValues, m, k, n);
  } else {
    const auto params = ps::static_::MatMulParams::createForDenseSparse(1, n, k, m);
    sparse = ps::static_::createDenseSparseMatMulRHS(h.graph(), FLOAT, params, csr);
    denseT = ps::static_::createDenseSparseMatMulLHS(h.graph(), FLOAT, params, csr);
    REQUIRE(denseT.shape() == std::vector<std::size_t>{1, n, k});
    denseValues = test::randomValues(n * k, -1.0f, 1.0f, 6);
    out = ps::static_::denseSparseMatMul(h.graph(), denseT, sparse, h.prog());
    REQUIRE(out.shape() == std::vector<std::size_t>{1, n, m});
    expected = matmul(denseValues, dense(csr), n, k, m);
  }
  h.write("dense", denseT, denseValues);
  h.read("out", out);
  const auto params = denseSparse ? ps::static_::MatMulParams::createForDenseSparse(1, n, k, m)
                                  : ps::static_::MatMulParams::createForSparseDense(1, m, k, n);
  ps::static_::Partitioner<float> part(params, FLOAT, h.graph().getTarget(), {});
  const auto data = part.createSparsityDataImpl(csr);
  REQUIRE(data.nzValues.size() == sparse.getNzValuesTensor().numElements());
  h.write("nz", sparse.getNzValuesTensor(), data.nzValues);
  h.run();
  CHECK_THAT(h.result("out"), test::CloseTo(expected, 1e-5f, 1e-6f));
  // The conversion back gives the user's matrix.
  const auto back = part.sparsityDataImplToCSRMatrix(data);
  CHECK(back.rowIndices == csr.rowIndices);
  CHECK(back.columnIndices == csr.columnIndices);
  CHECK(back.nzValues == csr.nzValues);
}

TEST_CASE("popsparse: static ops reject what PopLibs rejects", "[popsparse]") {
  test::Harness h(2);
  ps::addCodelets(h.graph());
  const auto csr = randomCSR(6, 5, 0.5, 7);
  const auto params = ps::static_::MatMulParams::createForSparseDense(1, 6, 5, 3);
  const auto lhs = ps::static_::createSparseDenseMatMulLHS(h.graph(), FLOAT, params, csr);
  const Tensor rhs = ps::static_::createSparseDenseMatMulRHS(h.graph(), FLOAT, params, csr);
  CHECK_THROWS_MATCHES(ps::static_::sparseDenseMatMul(h.graph(), lhs, rhs, h.prog(), true),
                       poputil::poplibs_error, test::What(Catch::Contains("not supported")));
  // A dense * sparse operand in a sparse * dense product.
  const auto dsParams = ps::static_::MatMulParams::createForDenseSparse(1, 3, 6, 5);
  CHECK_THROWS_AS(ps::static_::createSparseDenseMatMulLHS(h.graph(), FLOAT, dsParams, csr),
                  poputil::poplibs_error);
  // A matrix of other dimensions than the parameters'.
  CHECK_THROWS_MATCHES(
      ps::static_::createSparseDenseMatMulLHS(
          h.graph(), FLOAT, ps::static_::MatMulParams::createForSparseDense(1, 6, 4, 3), csr),
      poputil::poplibs_error, test::What(Catch::Contains("6 x 5")));
  ps::static_::Partitioner<float> part(params, FLOAT, h.graph().getTarget(), {});
  CHECK_THROWS_MATCHES(part.sparsityDataImplToCSRMatrix(ps::static_::SparsityDataImpl<float>({})),
                       poputil::poplibs_error,
                       test::What(Catch::Contains("createSparsityDataImpl")));
}

TEST_CASE("popsparse: sparse fully connected forward, grad-A and grad-W", "[popsparse]") {
  const std::size_t batch = 6, in = 12, outCh = 10;
  test::Harness h(8);
  ps::addCodelets(h.graph());
  const auto w = randomCSR(outCh, in, 0.3, 8);
  const auto params = ps::dynamic::FullyConnectedParams::createWithNumNonZeroValues(
      {}, w.nzValues.size(), batch, 1, in, outCh);
  const auto weights = ps::dynamic::createFullyConnectedWeights(h.graph(), FLOAT, params, {"w"});
  const Tensor act = ps::dynamic::createFullyConnectedInput(h.graph(), FLOAT, params, {"act"});
  REQUIRE(act.shape() == std::vector<std::size_t>{batch, in});
  const auto actValues = test::randomValues(batch * in, -1.0f, 1.0f, 9);
  h.write("act", act, actValues);
  const Tensor grad = h.graph().addVariable(FLOAT, {batch, outCh}, "grad");
  poputil::mapTensorLinearly(h.graph(), grad);
  const auto gradValues = test::randomValues(batch * outCh, -1.0f, 1.0f, 10);
  h.write("grad", grad, gradValues);
  const Tensor fwd = ps::dynamic::fullyConnectedFwd(h.graph(), weights, act, params, h.prog());
  const Tensor gradA = ps::dynamic::fullyConnectedGradA(h.graph(), weights, grad, params, h.prog());
  const Tensor gradW = ps::dynamic::fullyConnectedSparseGradW(
      h.graph(), weights.getMetaInfoTensor(), grad, act, params, h.prog());
  REQUIRE(fwd.shape() == std::vector<std::size_t>{batch, outCh});
  REQUIRE(gradA.shape() == std::vector<std::size_t>{batch, in});
  REQUIRE(gradW.numElements() == weights.getNzValuesTensor().numElements());
  h.read("fwd", fwd);
  h.read("gradA", gradA);
  h.read("gradW", gradW);
  ps::dynamic::Partitioner<float> part(params, FLOAT, h.graph().getTarget(), {});
  const auto data = part.createSparsityDataImpl(w);
  h.write("meta", weights.getMetaInfoTensor(), asFloats(data.metaInfo));
  h.write("nz", weights.getNzValuesTensor(), data.nzValues);
  h.run();

  const auto W = dense(w);
  // fwd = act * W^T; gradA = grad * W.
  CHECK_THAT(
      h.result("fwd"),
      test::CloseTo(matmul(actValues, transpose(W, outCh, in), batch, in, outCh), 1e-5f, 1e-6f));
  CHECK_THAT(h.result("gradA"),
             test::CloseTo(matmul(gradValues, W, batch, outCh, in), 1e-5f, 1e-6f));
  // gradW at (r, c) = sum over the batch of grad[b][r] * act[b][c], in the weights' order.
  const auto dW = matmul(transpose(gradValues, batch, outCh), actValues, outCh, batch, in);
  ps::dynamic::SparsityDataImpl<float> gradData{data.metaInfo, {}};
  for (float v : h.result("gradW"))
    gradData.nzValues.push_back(v);
  const auto gradCsr = part.sparsityDataImplToCSRMatrix(gradData);
  REQUIRE(gradCsr.columnIndices == w.columnIndices);
  std::vector<float> expectedW;
  for (std::size_t r = 0; r < outCh; ++r)
    for (std::size_t i = w.rowIndices[r]; i < w.rowIndices[r + 1]; ++i)
      expectedW.push_back(dW[r * in + w.columnIndices[i]]);
  CHECK_THAT(gradCsr.nzValues, test::CloseTo(expectedW, 1e-5f, 1e-6f));
  CHECK(ps::dynamic::fullyConnectedDenseGradWSerialSplits(h.graph(), FLOAT, params) ==
        std::make_tuple(1u, 1u, 1u));
}

TEST_CASE("popsparse: vertex cycles follow PopLibs' element-wise estimator", "[popsparse]") {
  // float, 4 columns: 123 supervisor cycles, a worker's 25 + rows * (13 + 3 per value).
  CHECK(ps::detail::sparseDenseVertexCycles(true, 6, 12, 4, 6) == (25 + 13 + 3 * 2) * 6 + 123);
  CHECK(ps::detail::sparseDenseVertexCycles(true, 12, 12, 4, 6) == (25 + 2 * (13 + 3)) * 6 + 123);
  // half, 8 columns: 28 + rows * (15 + 3 per value).
  CHECK(ps::detail::sparseDenseVertexCycles(false, 6, 30, 8, 6) == (28 + 15 + 3 * 5) * 6 + 123);
  // More values cost more; more columns cost more.
  CHECK(ps::detail::sparseDenseVertexCycles(true, 6, 60, 16, 6) >
        ps::detail::sparseDenseVertexCycles(true, 6, 30, 16, 6));
  CHECK(ps::detail::sparseDenseVertexCycles(true, 6, 30, 32, 6) >
        ps::detail::sparseDenseVertexCycles(true, 6, 30, 16, 6));
}

TEST_CASE("popsparse: embedding slices and updates rows of sparse weights", "[popsparse]") {
  const std::size_t rows = 9, cols = 7, batch = 4;
  test::Harness h(4);
  ps::addCodelets(h.graph());
  const auto w = randomCSR(rows, cols, 0.4, 12);
  const auto params = ps::dynamic::FullyConnectedParams::createWithNumNonZeroValues(
      {}, w.nzValues.size(), batch, 1, cols, rows);
  const auto weights = ps::dynamic::createFullyConnectedWeights(h.graph(), FLOAT, params);
  const Tensor indices = ps::dynamic::createIndicesTensor(h.graph(), params, 3);
  h.write("indices", indices, {4, 0, 4});
  const Tensor slices = ps::dynamic::embeddingSlice(h.graph(), weights, indices, h.prog(), params);
  REQUIRE(slices.shape() == std::vector<std::size_t>{3, cols});
  h.read("slices", slices);
  // Then add 0.5 * updates at rows 4, 0, 4 (row 4 twice) and read the values back.
  const Tensor updates = ps::dynamic::createSliceTensor(h.graph(), FLOAT, params, 3);
  const auto updateValues = test::randomValues(3 * cols, -1.0f, 1.0f, 13);
  h.write("updates", updates, updateValues);
  const Tensor scale = h.graph().addConstant(FLOAT, {}, 0.5f);
  h.graph().setTileMapping(scale, 0);
  ps::dynamic::embeddingUpdateAdd(h.graph(), weights, updates, indices, scale, h.prog(), params);
  h.read("nz", weights.getNzValuesTensor());
  ps::dynamic::Partitioner<float> part(params, FLOAT, h.graph().getTarget(), {});
  const auto data = part.createSparsityDataImpl(w);
  h.write("meta", weights.getMetaInfoTensor(), asFloats(data.metaInfo));
  h.write("nzIn", weights.getNzValuesTensor(), data.nzValues);
  h.run();

  const auto W = dense(w);
  std::vector<float> expected;
  for (std::size_t r : {4, 0, 4})
    expected.insert(expected.end(), W.begin() + r * cols, W.begin() + (r + 1) * cols);
  CHECK_THAT(h.result("slices"), test::CloseTo(expected, 0.0f));
  auto updatedW = W;
  const std::size_t at[] = {4, 0, 4};
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t c = 0; c < cols; ++c)
      if (W[at[i] * cols + c] != 0.0f)
        updatedW[at[i] * cols + c] += 0.5f * updateValues[i * cols + c];
  ps::dynamic::SparsityDataImpl<float> back{data.metaInfo, h.result("nz")};
  CHECK_THAT(dense(part.sparsityDataImplToCSRMatrix(back)), test::CloseTo(updatedW, 1e-6f, 1e-6f));
  // A tensor that is not popsparse's weights is refused.
  CHECK_THROWS_AS(ps::dynamic::embeddingSlice(h.graph(), ps::dynamic::SparseTensor(), indices,
                                              h.prog(), params),
                  poputil::poplibs_error);
}

TEST_CASE("popsparse: an embedding index past the last row fails the run", "[popsparse]") {
  test::Harness h(2);
  ps::addCodelets(h.graph());
  const auto params =
      ps::dynamic::FullyConnectedParams::createWithNumNonZeroValues({}, 4, 2, 1, 4, 3);
  const auto weights = ps::dynamic::createFullyConnectedWeights(h.graph(), FLOAT, params);
  const Tensor indices = ps::dynamic::createIndicesTensor(h.graph(), params, 1);
  h.write("indices", indices, {3}); // rows 0 to 2
  h.read("slices", ps::dynamic::embeddingSlice(h.graph(), weights, indices, h.prog(), params));
  h.write("meta", weights.getMetaInfoTensor(), std::vector<float>(3 + 4, 0.0f));
  h.write("nz", weights.getNzValuesTensor(), std::vector<float>(4, 0.0f));
  CHECK_THROWS_AS(h.run(), poplar::poplar_error);
}
