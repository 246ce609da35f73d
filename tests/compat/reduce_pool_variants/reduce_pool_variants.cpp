// Reductions and pooling the way solver and CNN codes on Poplar write them: popops::reduce with
// every ReduceParams form (an operation alone, braced {op}, a scale tensor, update=true through
// reduceWithOutput), BOOL convergence checks with LOGICAL_AND / LOGICAL_OR, norms (SQUARE_ADD,
// MAX of a magnitude), reduceMany, pooling with PoolParams built field by field and its input
// gradient, and non-linearities out of place and in place. Every result is checked on the host.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/codelets.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/Pooling.hpp>
#include <popnn/codelets.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

using namespace poplar;
using namespace poplar::program;

namespace {
int failures = 0;
void check(bool ok, const std::string& what) {
  std::cout << (ok ? "ok: " : "FAILED: ") << what << "\n";
  if (!ok) ++failures;
}
bool near(float a, float b) { return std::fabs(a - b) <= 1e-4f * std::max(1.0f, std::fabs(b)); }
bool near(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!near(a[i], b[i])) return false;
  return true;
}
} // namespace

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 8;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);
  Sequence prog;

  // A residual matrix [4][6] spread over the tiles.
  const std::size_t rows = 4, cols = 6;
  std::vector<float> r(rows * cols);
  for (std::size_t i = 0; i < r.size(); ++i)
    r[i] = 0.25f * float(int(i % 7) - 3) + 0.125f * float(i / 7);
  Tensor residual = graph.addVariable(FLOAT, {rows, cols}, "residual");
  poputil::mapTensorLinearly(graph, residual);
  graph.setInitialValue(residual, r);

  // Norms: L2 squared per row, infinity norm of the whole, as solvers compute them.
  Tensor sq = popops::reduce(graph, residual, {1}, {popops::Operation::SQUARE_ADD}, prog, "l2sq");
  Tensor inf = popops::reduce(graph, popops::abs(graph, residual, prog, "abs"), FLOAT, {0, 1},
                              popops::Operation::MAX, prog, "linf");
  Tensor colMin = popops::reduce(graph, residual, {0}, popops::ReduceParams(popops::Operation::MIN),
                                 prog, "colMin");
  // A mean: the sum scaled by a tensor holding 1 / n.
  Tensor invN = graph.addConstant(FLOAT, {}, 1.0f / cols, "invN");
  graph.setTileMapping(invN, 0);
  Tensor rowMean = popops::reduce(graph, residual, {1}, {popops::Operation::ADD, false, invN},
                                  prog, "rowMean");
  // An accumulation into an existing tensor (update = true).
  Tensor acc = graph.addVariable(FLOAT, {cols}, "acc");
  poputil::mapTensorLinearly(graph, acc);
  graph.setInitialValue(acc, std::vector<float>(cols, 10.0f));
  popops::reduceWithOutput(graph, residual, acc, {0}, {popops::Operation::ADD, true}, prog,
                           "accumulate");
  // A product over rows, of integers.
  Tensor ints = graph.addVariable(INT, {3, 4}, "ints");
  poputil::mapTensorLinearly(graph, ints);
  graph.setInitialValue(ints, std::vector<int>{1, 2, 3, -1, 2, 2, 2, 5, 3, 1, -2, 2});
  Tensor prod = popops::reduce(graph, ints, {0}, popops::Operation::MUL, prog, "prod");

  // Convergence checks on BOOL: are all rows below a tolerance, is any element negative.
  Tensor tol = graph.addConstant(FLOAT, {}, 2.0f, "tol");
  graph.setTileMapping(tol, 0);
  Tensor small = popops::lt(graph, sq, tol, prog, "small");
  Tensor allSmall = popops::reduce(graph, small, {0}, popops::Operation::LOGICAL_AND, prog,
                                   "allSmall");
  Tensor zero = graph.addConstant(FLOAT, {}, 0.0f, "zero");
  graph.setTileMapping(zero, 0);
  Tensor anyNegative =
      popops::reduce(graph, popops::lt(graph, residual, zero, prog, "negative"), {0, 1},
                     popops::Operation::LOGICAL_OR, prog, "anyNegative");

  // Several reductions in one call.
  std::vector<popops::SingleReduceOp> many = {
      popops::SingleReduceOp(residual, {0}, {popops::Operation::MAX}, "colMax"),
      popops::SingleReduceOp(ints, {1}, {popops::Operation::ADD}, "rowSums")};
  std::vector<Tensor> manyOut;
  popops::reduceMany(graph, many, manyOut, prog, "many");

  // Pooling: activations [batch 1][channels 2][4][4], 2x2 windows, stride 2, no padding.
  Tensor act = graph.addVariable(FLOAT, {1, 2, 4, 4}, "act");
  poputil::mapTensorLinearly(graph, act);
  std::vector<float> a(32);
  for (std::size_t i = 0; i < a.size(); ++i)
    a[i] = float((i * 5) % 11) - 4.0f;
  graph.setInitialValue(act, a);
  popnn::pooling::PoolParams maxParams(popnn::PoolingType::MAX, {4, 4}, {2, 2}, {2, 2}, {0, 0},
                                       {0, 0}, 2, 1, FLOAT);
  Tensor maxPooled = popnn::pooling::pool(graph, maxParams, act, prog, "maxPool");
  popnn::pooling::PoolParams avgParams = maxParams;
  avgParams.poolingType = popnn::PoolingType::AVG;
  avgParams.kernelShape = {3, 3};
  avgParams.stride = {1, 1};
  avgParams.inputTruncationOrPaddingLower = {1, 1};
  avgParams.inputTruncationOrPaddingUpper = {1, 1};
  Tensor avgPooled = popnn::pooling::pool(graph, avgParams, act, prog, "avgPool");
  Tensor ones = graph.clone(maxPooled, "ones");
  graph.setInitialValue(ones, std::vector<float>(ones.numElements(), 1.0f));
  Tensor maxGrad = popnn::pooling::poolInputGradient(graph, maxParams, act, maxPooled, ones,
                                                     false, prog, "maxPoolGrad");

  // Non-linearities: a new tensor, and in place.
  Tensor logits = graph.addVariable(FLOAT, {2, 3}, "logits");
  poputil::mapTensorLinearly(graph, logits);
  graph.setInitialValue(logits, std::vector<float>{1, 2, 3, -1, 0, 1000});
  Tensor probs = popnn::nonLinearity(graph, popnn::NonLinearityType::SOFTMAX_STABLE, logits, prog,
                                     "softmax");
  Tensor relu = graph.clone(logits, "relu");
  prog.add(Copy(logits, relu));
  popnn::nonLinearityInPlace(graph, popnn::NonLinearityType::RELU, relu, prog, "relu");

  const std::vector<std::pair<std::string, Tensor>> reads = {
      {"sq", sq},           {"inf", inf},           {"colMin", colMin},
      {"rowMean", rowMean}, {"acc", acc},           {"prod", prod},
      {"allSmall", allSmall}, {"anyNegative", anyNegative}, {"colMax", manyOut[0]},
      {"rowSums", manyOut[1]}, {"maxPooled", maxPooled}, {"avgPooled", avgPooled},
      {"maxGrad", maxGrad}, {"probs", probs},       {"relu", relu}};
  for (const auto& read : reads)
    graph.createHostRead(read.first, read.second);

  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0);

  auto readFloats = [&](const std::string& name, std::size_t n) {
    std::vector<float> v(n);
    engine.readTensor(name, v.data(), v.data() + n);
    return v;
  };
  auto readInts = [&](const std::string& name, std::size_t n) {
    std::vector<int> v(n);
    engine.readTensor(name, v.data(), v.data() + n);
    return v;
  };
  auto readBool = [&](const std::string& name) {
    bool b = false;
    engine.readTensor(name, &b, &b + 1);
    return b;
  };

  std::vector<float> expectSq(rows), expectMin(cols, 1e30f), expectMean(rows),
      expectAcc(cols, 10.0f), expectColMax(cols, -1e30f);
  float expectInf = 0;
  bool expectAnyNeg = false;
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) {
      const float v = r[i * cols + j];
      expectSq[i] += v * v;
      expectMean[i] += v / cols;
      expectMin[j] = std::min(expectMin[j], v);
      expectColMax[j] = std::max(expectColMax[j], v);
      expectAcc[j] += v;
      expectInf = std::max(expectInf, std::fabs(v));
      expectAnyNeg = expectAnyNeg || v < 0;
    }
  bool expectAllSmall = true;
  for (float s : expectSq)
    expectAllSmall = expectAllSmall && s < 2.0f;
  check(near(readFloats("sq", rows), expectSq), "SQUARE_ADD along rows, braced {op}");
  check(near(readFloats("inf", 1)[0], expectInf), "MAX of |x| over both dimensions, FLOAT out");
  check(near(readFloats("colMin", cols), expectMin), "MIN through ReduceParams(op)");
  check(near(readFloats("rowMean", rows), expectMean), "ADD scaled by a tensor");
  check(near(readFloats("acc", cols), expectAcc), "reduceWithOutput with update = true");
  check(readInts("prod", 4) == std::vector<int>({6, 4, -12, -10}), "MUL of INT columns");
  check(readBool("allSmall") == expectAllSmall, "LOGICAL_AND of a BOOL comparison");
  check(readBool("anyNegative") == expectAnyNeg, "LOGICAL_OR over a whole BOOL tensor");
  check(near(readFloats("colMax", cols), expectColMax), "reduceMany: MAX");
  check(readInts("rowSums", 3) == std::vector<int>({5, 11, 4}), "reduceMany: INT sums");

  // Pooling on the host: [c][y][x].
  std::vector<float> expectMax(8), expectAvg(32), expectGrad(32, 0.0f);
  for (int c = 0; c < 2; ++c) {
    for (int oy = 0; oy < 2; ++oy)
      for (int ox = 0; ox < 2; ++ox) {
        float m = -1e30f;
        int where = 0;
        for (int ky = 0; ky < 2; ++ky)
          for (int kx = 0; kx < 2; ++kx) {
            const int idx = c * 16 + (oy * 2 + ky) * 4 + (ox * 2 + kx);
            if (a[idx] > m) {
              m = a[idx];
              where = idx;
            }
          }
        expectMax[c * 4 + oy * 2 + ox] = m;
        expectGrad[where] += 1.0f;
      }
    // Average over the window's elements inside the input, as PopLibs counts them.
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x) {
        float sum = 0;
        int count = 0;
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx)
            if (y + dy >= 0 && y + dy < 4 && x + dx >= 0 && x + dx < 4) {
              sum += a[c * 16 + (y + dy) * 4 + (x + dx)];
              ++count;
            }
        expectAvg[c * 16 + y * 4 + x] = sum / float(count);
      }
  }
  check(readFloats("maxPooled", 8) == expectMax, "MAX pooling, PoolParams built by its constructor");
  // PopLibs divides by the window's elements inside the input, not by the padded window.
  check(near(readFloats("avgPooled", 32), expectAvg),
        "AVG pooling with padding, PoolParams fields set one by one");
  check(readFloats("maxGrad", 32) == expectGrad, "MAX pooling's input gradient");

  const std::vector<float> p = readFloats("probs", 6);
  const float e1 = std::exp(1.0f), e2 = std::exp(2.0f), e3 = std::exp(3.0f);
  check(near(p[0], e1 / (e1 + e2 + e3)) && near(p[2], e3 / (e1 + e2 + e3)) && near(p[5], 1.0f) &&
            near(p[4], 0.0f),
        "SOFTMAX_STABLE per row, a large logit included");
  check(readFloats("relu", 6) == std::vector<float>({1, 2, 3, 0, 0, 1000}), "RELU in place");

  if (failures) {
    std::cout << failures << " check(s) failed\n";
    return 1;
  }
  std::cout << "all checks passed\n";
  return 0;
}
