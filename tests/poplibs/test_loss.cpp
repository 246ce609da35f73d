#include "TestUtil.hpp"

#include <cmath>
#include <limits>
#include <popnn/Loss.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using Catch::Contains;

namespace {

/// Rows of probabilities (each sums to 1) and labels, with the largest probability at the label
/// in every third row.
struct Batch {
  std::size_t rows, classes;
  std::vector<float> probs, labels;
  unsigned correct = 0;
};

Batch makeBatch(std::size_t rows, std::size_t classes) {
  Batch b{rows, classes, test::randomValues(rows * classes, 0.1f, 1.0f, 60), {}, 0};
  for (std::size_t r = 0; r < rows; ++r) {
    const std::size_t label = (r * 7) % classes;
    if (r % 3 == 0) b.probs[r * classes + label] = 5.0f;
    float sum = 0;
    for (std::size_t c = 0; c < classes; ++c)
      sum += b.probs[r * classes + c];
    std::size_t best = 0;
    for (std::size_t c = 0; c < classes; ++c) {
      b.probs[r * classes + c] /= sum;
      if (b.probs[r * classes + c] > b.probs[r * classes + best]) best = c;
    }
    b.labels.push_back(float(label));
    b.correct += best == label;
  }
  return b;
}

struct LossTensors {
  Tensor probs, labels, loss, deltas, numCorrect;
};

LossTensors lossTensors(test::Harness& h, const Batch& b, Type labelType) {
  LossTensors t;
  t.probs = h.input("probs", FLOAT, {b.rows, b.classes}, b.probs);
  t.labels = h.input("labels", labelType, {b.rows}, b.labels);
  t.loss = h.graph().addVariable(FLOAT, {b.rows}, "loss");
  t.deltas = h.graph().clone(t.probs, "deltas");
  t.numCorrect = h.graph().addVariable(UNSIGNED_INT, {1}, "numCorrect");
  poputil::mapTensorLinearly(h.graph(), t.loss);
  h.graph().setTileMapping(t.numCorrect, 3);
  h.read("loss", t.loss);
  h.read("deltas", t.deltas);
  h.read("numCorrect", t.numCorrect);
  return t;
}

} // namespace

TEST_CASE("cross-entropy loss, deltas and numCorrect", "[popnn][loss]") {
  test::Harness h(16);
  const Batch b = makeBatch(40, 10);
  const LossTensors t = lossTensors(h, b, UNSIGNED_INT);
  h.write("numCorrect", t.numCorrect, {0.0f});
  h.prog().add(popnn::calcLoss(h.graph(), t.probs, t.labels, t.loss, t.deltas, t.numCorrect,
                               popnn::CROSS_ENTROPY_LOSS, "xent"));
  h.run();
  std::vector<float> loss(b.rows), deltas = b.probs;
  for (std::size_t r = 0; r < b.rows; ++r) {
    const std::size_t label = std::size_t(b.labels[r]);
    loss[r] = -std::log(b.probs[r * b.classes + label]);
    deltas[r * b.classes + label] -= 1.0f;
  }
  CHECK_THAT(h.result("loss"), test::CloseTo(loss, 1e-6f));
  CHECK_THAT(h.result("deltas"), test::CloseTo(deltas, 1e-6f));
  CHECK(b.correct > 0);
  CHECK(h.result("numCorrect") == std::vector<float>{float(b.correct)});
}

TEST_CASE("sum-squared loss with INT labels", "[popnn][loss]") {
  test::Harness h(16);
  const Batch b = makeBatch(25, 6);
  const LossTensors t = lossTensors(h, b, INT);
  h.prog().add(popnn::calcLoss(h.graph(), t.probs, t.labels, t.loss, t.deltas,
                               popnn::SUM_SQUARED_LOSS, "squared"));
  h.run();
  std::vector<float> loss(b.rows), deltas = b.probs;
  for (std::size_t r = 0; r < b.rows; ++r) {
    deltas[r * b.classes + std::size_t(b.labels[r])] -= 1.0f;
    for (std::size_t c = 0; c < b.classes; ++c)
      loss[r] += 0.5f * deltas[r * b.classes + c] * deltas[r * b.classes + c];
  }
  CHECK_THAT(h.result("loss"), test::CloseTo(loss, 1e-6f));
  CHECK_THAT(h.result("deltas"), test::CloseTo(deltas, 1e-6f));
}

TEST_CASE("calcAccuracy counts rows whose largest output is the label", "[popnn][loss]") {
  test::Harness h(16);
  const Batch b = makeBatch(50, 4);
  const Tensor probs = h.input("probs", FLOAT, {b.rows, b.classes}, b.probs);
  const Tensor labels = h.input("labels", UNSIGNED_INT, {b.rows}, b.labels);
  const Tensor numCorrect = h.graph().addVariable(UNSIGNED_INT, {}, "numCorrect");
  h.graph().setTileMapping(numCorrect, 0);
  h.write("numCorrect", numCorrect, {0.0f});
  h.prog().add(popnn::calcAccuracy(h.graph(), probs, labels, numCorrect, "accuracy"));
  h.read("numCorrect", numCorrect);
  h.run();
  CHECK(h.result("numCorrect") == std::vector<float>{float(b.correct)});
}

TEST_CASE("calcLoss adds to numCorrect, counting over several batches", "[popnn][loss]") {
  // A training loop zeroes numCorrect once and runs calcLoss per batch (as PopLibs' accuracy
  // vertex, which updates numCorrect in place): the count must be the running total.
  test::Harness h(16);
  const Batch b = makeBatch(30, 5);
  const LossTensors t = lossTensors(h, b, UNSIGNED_INT);
  h.write("numCorrect", t.numCorrect, {7.0f});
  const program::Program loss = popnn::calcLoss(h.graph(), t.probs, t.labels, t.loss, t.deltas,
                                                t.numCorrect, popnn::CROSS_ENTROPY_LOSS, "xent");
  h.prog().add(program::Repeat(3, loss));
  h.run();
  CHECK(b.correct > 0);
  CHECK(h.result("numCorrect") == std::vector<float>{float(7 + 3 * b.correct)});
}

TEST_CASE("a label out of range stops the run naming the loss compute set", "[popnn][loss]") {
  test::Harness h(8);
  Batch b = makeBatch(8, 5);
  b.labels[5] = 5; // classes are 0..4
  const LossTensors t = lossTensors(h, b, UNSIGNED_INT);
  h.prog().add(popnn::calcLoss(h.graph(), t.probs, t.labels, t.loss, t.deltas,
                               popnn::CROSS_ENTROPY_LOSS, {DebugContext("train"), "loss"}));
  CHECK_THROWS_MATCHES(h.run(), poplar::application_runtime_error,
                       test::What(Contains("popnn::LossCrossEntropy") &&
                                  Contains("compute set 'train/loss/CalcLoss'")));
}

TEST_CASE("loss argument errors", "[popnn][loss][errors]") {
  test::Harness h(4);
  const Batch b = makeBatch(6, 3);
  const LossTensors t = lossTensors(h, b, UNSIGNED_INT);
  const Tensor shortLabels = h.input("short", UNSIGNED_INT, {5}, std::vector<float>(5));
  const Tensor floatLabels = h.input("floatLabels", FLOAT, {6}, std::vector<float>(6));
  const Tensor intCount = h.input("intCount", INT, {1}, {0.0f});
  CHECK_THROWS_MATCHES(
      popnn::calcLoss(h.graph(), t.probs, shortLabels, t.loss, t.deltas, popnn::CROSS_ENTROPY_LOSS),
      poputil::poplibs_error, test::What(Contains("popnn::calcLoss") && Contains("{5}")));
  CHECK_THROWS_MATCHES(
      popnn::calcLoss(h.graph(), t.probs, floatLabels, t.loss, t.deltas, popnn::CROSS_ENTROPY_LOSS),
      poputil::poplibs_error, test::What(Contains("expected")));
  CHECK_THROWS_MATCHES(popnn::calcLoss(h.graph(), t.probs, t.labels, t.loss, t.probs.transpose(),
                                       popnn::SUM_SQUARED_LOSS),
                       poputil::poplibs_error, test::What(Contains("deltas")));
  CHECK_THROWS_MATCHES(popnn::calcLoss(h.graph(), t.probs, t.labels, t.loss, t.deltas, intCount,
                                       popnn::CROSS_ENTROPY_LOSS),
                       poputil::poplibs_error, test::What(Contains("numCorrect")));
}

TEST_CASE("cross-entropy loss of scaled outputs with scaled deltas", "[popnn][loss]") {
  test::Harness h(16);
  const Batch b = makeBatch(12, 5);
  Batch scaled = b;
  for (auto& p : scaled.probs)
    p *= 1000.0f; // as a SOFTMAX_SCALED layer with scaling 1000 would give
  const LossTensors t = lossTensors(h, scaled, UNSIGNED_INT);
  const Tensor outScale = h.input("outScale", FLOAT, {}, {1000.0f});
  const Tensor dScale = h.input("dScale", FLOAT, {1}, {0.5f});
  h.write("numCorrect", t.numCorrect, {0.0f});
  h.prog().add(popnn::calcLoss(h.graph(), t.probs, t.labels, t.loss, t.deltas, dScale, outScale,
                               t.numCorrect, popnn::CROSS_ENTROPY_LOSS, "scaledXent"));
  h.run();
  std::vector<float> loss(b.rows), deltas = b.probs;
  for (std::size_t r = 0; r < b.rows; ++r) {
    const std::size_t label = std::size_t(b.labels[r]);
    loss[r] = -std::log(b.probs[r * b.classes + label]);
    deltas[r * b.classes + label] -= 1.0f;
  }
  for (auto& d : deltas)
    d *= 0.5f;
  CHECK_THAT(h.result("loss"), test::CloseTo(loss, 1e-5f));
  CHECK_THAT(h.result("deltas"), test::CloseTo(deltas, 1e-5f, 1e-7f));
  CHECK(h.result("numCorrect") == std::vector<float>{float(b.correct)});
}

TEST_CASE("popnn's argMax, argMin and topK", "[popnn][loss]") {
  test::Harness h(8);
  const std::vector<float> x{3, 9, 1, 7, /**/ -1, -5, 2, 0, /**/ 4, 4, 8, 8};
  const Tensor X = h.input("X", FLOAT, {3, 4}, x);
  const Tensor amax = popnn::argMax(h.graph(), X, h.prog());
  const Tensor amin = popnn::argMin(h.graph(), X, h.prog());
  const auto [maxV, maxI] = popnn::maxAndArgMax(h.graph(), X, h.prog());
  const auto [minV, minI] = popnn::minAndArgMin(h.graph(), X, h.prog());
  Tensor topIdx;
  const Tensor top = popnn::topK(h.graph(), X, topIdx, 2, true, h.prog());
  REQUIRE(topIdx.valid());
  CHECK(top.shape() == std::vector<std::size_t>{3, 2});
  h.read("amax", amax);
  h.read("amin", amin);
  h.read("maxV", maxV);
  h.read("minI", minI);
  h.read("top", top);
  h.read("topIdx", topIdx);
  h.run();
  CHECK(h.result("amax") == std::vector<float>{1, 2, 2});
  CHECK(h.result("amin") == std::vector<float>{2, 1, 0});
  CHECK(h.result("maxV") == std::vector<float>{9, 2, 8});
  CHECK(h.result("minI") == std::vector<float>{2, 1, 0});
  CHECK(h.result("top") == std::vector<float>{9, 7, 2, 0, 8, 8});
  const auto& idx = h.result("topIdx");
  CHECK(idx[0] == 1);
  CHECK(idx[1] == 3);
  CHECK(idx[2] == 2);
  CHECK(idx[3] == 3);
  CHECK(((idx[4] == 2 && idx[5] == 3) || (idx[4] == 3 && idx[5] == 2)));
  Tensor unused;
  const Tensor v = h.graph().addVariable(FLOAT, {4}, "v");
  CHECK_THROWS_MATCHES(popnn::topK(h.graph(), v, unused, 1, true, h.prog()), poputil::poplibs_error,
                       test::What(Contains("2-D")));
}
