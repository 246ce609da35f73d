#include "TestUtil.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <popnn/LogSoftmax.hpp>
#include <popnn/Pooling.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using Catch::Contains;
using popnn::PoolingType;
using popnn::pooling::PoolParams;

namespace {

/// Host pooling of planes [P][H][W]: windows listed as input indices per output.
struct HostPool {
  std::size_t planes, H, W, OH, OW;
  std::vector<std::vector<std::size_t>> windows; ///< per output of a plane: plane offsets

  HostPool(const PoolParams& p) : planes(p.batchSize * p.numChannels) {
    const bool oneD = p.getNumFieldDims() == 1;
    H = oneD ? 1 : p.inputFieldShape[0];
    W = p.inputFieldShape.back();
    const int kH = oneD ? 1 : int(p.kernelShape[0]), kW = int(p.kernelShape.back());
    const int sH = oneD ? 1 : int(p.stride[0]), sW = int(p.stride.back());
    const int pH = oneD ? 0 : p.inputTruncationOrPaddingLower[0];
    const int pW = p.inputTruncationOrPaddingLower.back();
    const int uH = oneD ? 0 : p.inputTruncationOrPaddingUpper[0];
    const int uW = p.inputTruncationOrPaddingUpper.back();
    OH = std::size_t((int(H) + pH + uH - kH) / sH + 1);
    OW = std::size_t((int(W) + pW + uW - kW) / sW + 1);
    for (std::size_t oy = 0; oy < OH; ++oy)
      for (std::size_t ox = 0; ox < OW; ++ox) {
        std::vector<std::size_t> w;
        for (int y = int(oy) * sH - pH; y < int(oy) * sH - pH + kH; ++y)
          for (int x = int(ox) * sW - pW; x < int(ox) * sW - pW + kW; ++x)
            if (y >= 0 && y < int(H) && x >= 0 && x < int(W)) w.push_back(y * W + x);
        windows.push_back(w);
      }
  }
  std::vector<float> forward(const std::vector<float>& in, PoolingType type) const {
    std::vector<float> out;
    for (std::size_t p = 0; p < planes; ++p)
      for (const auto& w : windows) {
        float acc = type == PoolingType::MAX ? -std::numeric_limits<float>::infinity() : 0.0f;
        for (auto i : w)
          acc =
              type == PoolingType::MAX ? std::max(acc, in[p * H * W + i]) : acc + in[p * H * W + i];
        if (type == PoolingType::AVG) acc /= float(w.size());
        out.push_back(acc);
      }
    return out;
  }
  std::vector<float> backward(const std::vector<float>& in, const std::vector<float>& out,
                              const std::vector<float>& dOut, PoolingType type) const {
    std::vector<float> dIn(in.size());
    for (std::size_t p = 0; p < planes; ++p)
      for (std::size_t o = 0; o < windows.size(); ++o) {
        const auto& w = windows[o];
        const float g = dOut[p * windows.size() + o];
        for (auto i : w) {
          if (type == PoolingType::MAX) {
            if (in[p * H * W + i] == out[p * windows.size() + o]) dIn[p * H * W + i] += g;
          } else {
            dIn[p * H * W + i] += type == PoolingType::AVG ? g / float(w.size()) : g;
          }
        }
      }
    return dIn;
  }
};

} // namespace

TEST_CASE("pooling: max, average and sum, forward and backward, against the host",
          "[popnn][pooling]") {
  const PoolingType type = GENERATE(PoolingType::MAX, PoolingType::AVG, PoolingType::SUM);
  const PoolParams p(type, {7, 6}, {3, 2}, {2, 2}, {1, 0}, {1, 0}, 3, 2, FLOAT);
  REQUIRE(p.getOutputFieldShape() == std::vector<std::size_t>{4, 3});
  const HostPool host(p);
  test::Harness h(8);
  const auto x = test::randomValues(2 * 3 * 7 * 6, -1.0f, 1.0f, 61);
  const auto dOut = test::randomValues(2 * 3 * 4 * 3, -1.0f, 1.0f, 62);
  const Tensor in = h.input("in", FLOAT, {2, 3, 7, 6}, x);
  const Tensor dy = h.input("dy", FLOAT, {2, 3, 4, 3}, dOut);
  const Tensor out = popnn::pooling::pool(h.graph(), p, in, h.prog(), "pool");
  const Tensor dIn =
      popnn::pooling::poolInputGradient(h.graph(), p, in, out, dy, false, h.prog(), "poolGrad");
  h.read("out", out);
  h.read("dIn", dIn);
  h.run();
  const auto expected = host.forward(x, type);
  CHECK_THAT(h.result("out"), test::CloseTo(expected, 1e-6f, 1e-6f));
  CHECK_THAT(h.result("dIn"), test::CloseTo(host.backward(x, expected, dOut, type), 1e-5f, 1e-6f));
}

TEST_CASE("pooling: 1-D, truncation, half, and the AVG gradient overload", "[popnn][pooling]") {
  const PoolParams p(PoolingType::AVG, {9}, {3}, {2}, {-1}, {1}, 2, 2, HALF);
  const HostPool host(p);
  test::Harness h(4);
  const auto x = test::randomValues(2 * 2 * 9, -1.0f, 1.0f, 63);
  const Tensor in = h.input("in", HALF, {2, 2, 9}, x);
  const Tensor out = popnn::pooling::pool(h.graph(), p, in, h.prog());
  const Tensor dIn = popnn::pooling::poolInputGradient(h.graph(), p, 1, out, h.prog());
  h.read("out", out);
  h.read("dIn", dIn);
  h.run();
  const auto expected = host.forward(x, PoolingType::AVG);
  CHECK_THAT(h.result("out"), test::CloseTo(expected, 1e-2f, 1e-2f));
  CHECK_THAT(h.result("dIn"),
             test::CloseTo(host.backward(x, expected, expected, PoolingType::AVG), 2e-2f, 2e-2f));
}

TEST_CASE("pooling: bad arguments name the argument", "[popnn][pooling]") {
  test::Harness h(4);
  const Tensor in = h.input("in", FLOAT, {1, 2, 4, 4}, std::vector<float>(32, 0.0f));
  const PoolParams badStride(PoolingType::MAX, {4, 4}, {2, 2}, {0, 1}, {0, 0}, {0, 0}, 2, 1, FLOAT);
  CHECK_THROWS_MATCHES(popnn::pooling::pool(h.graph(), badStride, in, h.prog()),
                       poputil::poplibs_error, test::What(Contains("params.stride[0] is 0")));
  const PoolParams wrongChans(PoolingType::MAX, {4, 4}, {2, 2}, {2, 2}, {0, 0}, {0, 0}, 3, 1,
                              FLOAT);
  CHECK_THROWS_MATCHES(popnn::pooling::pool(h.graph(), wrongChans, in, h.prog()),
                       poputil::poplibs_error, test::What(Contains("in has shape {1,2,4,4}")));
  const PoolParams max(PoolingType::MAX, {4, 4}, {2, 2}, {2, 2}, {0, 0}, {0, 0}, 2, 1, FLOAT);
  CHECK_THROWS_MATCHES(popnn::pooling::poolInputGradient(h.graph(), max, 1, in, h.prog()),
                       poputil::poplibs_error, test::What(Contains("poolingType is MAX")));
}

TEST_CASE("log-softmax against the host", "[popnn][logsoftmax]") {
  test::Harness h(4);
  auto x = test::randomValues(5 * 7, -3.0f, 3.0f, 64);
  x[3] = 80.0f; // large: exp would overflow without subtracting the maximum
  const Tensor t = h.input("t", FLOAT, {5, 7}, x);
  const Tensor out = popnn::logSoftmax(h.graph(), t, h.prog(), "logSoftmax");
  popnn::logSoftmaxInPlace(h.graph(), t, h.prog());
  h.read("out", out);
  h.read("t", t);
  h.run();
  std::vector<float> expected(x.size());
  for (std::size_t r = 0; r < 5; ++r) {
    const float m = *std::max_element(x.begin() + r * 7, x.begin() + r * 7 + 7);
    double s = 0;
    for (std::size_t c = 0; c < 7; ++c)
      s += std::exp(double(x[r * 7 + c]) - m);
    for (std::size_t c = 0; c < 7; ++c)
      expected[r * 7 + c] = float(x[r * 7 + c] - m - std::log(s));
  }
  CHECK_THAT(h.result("out"), test::CloseTo(expected, 1e-5f, 1e-5f));
  CHECK_THAT(h.result("t"), test::CloseTo(expected, 1e-5f, 1e-5f));
  const Tensor empty = h.graph().addVariable(FLOAT, {3, 0}, "empty");
  CHECK_THROWS_MATCHES(popnn::logSoftmax(h.graph(), empty, h.prog()), poputil::poplibs_error,
                       test::What(Contains("non-empty innermost dimension")));
}

TEST_CASE("max pooling gradient: ties share the gradient when scaled", "[popnn][pooling]") {
  const PoolParams p(PoolingType::MAX, {4, 4}, {2, 2}, {2, 2}, {0, 0}, {0, 0}, 1, 1, FLOAT);
  test::Harness h(4);
  const Tensor in = h.input("in", FLOAT, {1, 1, 4, 4}, std::vector<float>(16, 3.0f));
  const Tensor dy = h.input("dy", FLOAT, {1, 1, 2, 2}, {1.0f, 2.0f, 3.0f, 4.0f});
  const Tensor out = popnn::pooling::pool(h.graph(), p, in, h.prog());
  const Tensor shared =
      popnn::pooling::poolInputGradient(h.graph(), p, in, out, dy, true, h.prog());
  const Tensor each = popnn::pooling::poolInputGradient(h.graph(), p, in, out, dy, false, h.prog());
  h.read("shared", shared);
  h.read("each", each);
  h.run();
  std::vector<float> expectShared(16), expectEach(16);
  for (std::size_t y = 0; y < 4; ++y)
    for (std::size_t x = 0; x < 4; ++x) {
      const float g = float((y / 2) * 2 + x / 2 + 1);
      expectShared[y * 4 + x] = g / 4.0f;
      expectEach[y * 4 + x] = g;
    }
  CHECK_THAT(h.result("shared"), test::CloseTo(expectShared, 1e-6f));
  CHECK_THAT(h.result("each"), test::CloseTo(expectEach, 1e-6f));
}
