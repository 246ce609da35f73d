#include "TestUtil.hpp"

#include <cmath>
#include <functional>
#include <popnn/NonLinearity.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using Catch::Contains;
using popnn::NonLinearityType;

namespace {

float hostGelu(float x) {
  return 0.5f * x * (1.0f + std::tanh(0.7978845608f * (x + 0.044715f * x * x * x)));
}

float hostForward(NonLinearityType t, float x) {
  switch (t) {
  case NonLinearityType::SIGMOID:
    return 1.0f / (1.0f + std::exp(-x));
  case NonLinearityType::RELU:
    return x > 0 ? x : 0;
  case NonLinearityType::TANH:
    return std::tanh(x);
  case NonLinearityType::GELU:
    return hostGelu(x);
  default:
    break;
  }
  FAIL("not an element-wise non-linearity");
  return 0;
}

/// Softmax of each row of [rows, cols].
std::vector<float> hostSoftmax(const std::vector<float>& x, std::size_t cols) {
  std::vector<float> y(x.size());
  for (std::size_t r = 0; r < x.size() / cols; ++r) {
    double max = -1e300, sum = 0;
    for (std::size_t c = 0; c < cols; ++c)
      max = std::max(max, double(x[r * cols + c]));
    for (std::size_t c = 0; c < cols; ++c)
      sum += std::exp(double(x[r * cols + c]) - max);
    for (std::size_t c = 0; c < cols; ++c)
      y[r * cols + c] = float(std::exp(double(x[r * cols + c]) - max) / sum);
  }
  return y;
}

} // namespace

TEST_CASE("element-wise non-linearities, out of place and in place", "[popnn]") {
  const auto type = GENERATE(NonLinearityType::SIGMOID, NonLinearityType::RELU,
                             NonLinearityType::TANH, NonLinearityType::GELU);
  CAPTURE(popnn::asString(type));
  test::Harness h(16);
  const auto x = test::randomValues(20 * 15, -4, 4, 50);
  const Tensor X = h.input("X", FLOAT, {20, 15}, x);
  const Tensor Y = h.input("Y", FLOAT, {20, 15}, x);
  const Tensor out = popnn::nonLinearity(h.graph(), type, X, h.prog(), "act");
  popnn::nonLinearityInPlace(h.graph(), type, Y, h.prog(), "actInPlace");
  CHECK(h.graph().getTileMapping(out) == h.graph().getTileMapping(X));
  h.read("out", out);
  h.read("X", X);
  h.read("Y", Y);
  h.run();
  std::vector<float> expect(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    expect[i] = hostForward(type, x[i]);
  CHECK_THAT(h.result("out"), test::CloseTo(expect, 1e-5f, 1e-6f));
  CHECK_THAT(h.result("Y"), test::CloseTo(expect, 1e-5f, 1e-6f));
  CHECK(h.result("X") == x); // untouched
}

TEST_CASE("softmax rows sum to one and match the host", "[popnn]") {
  const auto type = GENERATE(NonLinearityType::SOFTMAX, NonLinearityType::SOFTMAX_STABLE);
  CAPTURE(popnn::asString(type));
  test::Harness h(16);
  const std::size_t rows = 12, cols = 10;
  const auto x = test::randomValues(rows * cols, -5, 5, 51);
  const Tensor X = h.input("X", FLOAT, {3, 4, cols}, x); // softmax over the innermost dimension
  const Tensor Y = popnn::nonLinearity(h.graph(), type, X, h.prog(), "softmax");
  CHECK(Y.shape() == X.shape());
  h.read("Y", Y);
  h.run();
  const auto& y = h.result("Y");
  CHECK_THAT(y, test::CloseTo(hostSoftmax(x, cols), 1e-5f, 1e-7f));
  for (std::size_t r = 0; r < rows; ++r) {
    float sum = 0;
    for (std::size_t c = 0; c < cols; ++c)
      sum += y[r * cols + c];
    CHECK(sum == Approx(1.0f).epsilon(1e-5));
  }
}

TEST_CASE("stable softmax does not overflow on large inputs", "[popnn]") {
  test::Harness h(8);
  const std::vector<float> x{1000, 1001, 1002, -1000, 0, 1000};
  const Tensor X = h.input("X", FLOAT, {2, 3}, x);
  popnn::nonLinearityInPlace(h.graph(), NonLinearityType::SOFTMAX_STABLE, X, h.prog());
  h.read("X", X);
  h.run();
  CHECK_THAT(h.result("X"), test::CloseTo(hostSoftmax(x, 3), 1e-5f, 1e-7f));
}

TEST_CASE("non-linearities on HALF tensors", "[popnn]") {
  test::Harness h(8);
  auto x = test::randomValues(64, -3, 3, 52);
  for (auto& v : x)
    v = half(v);
  const Tensor X = h.input("X", HALF, {8, 8}, x);
  const Tensor relu = popnn::nonLinearity(h.graph(), NonLinearityType::RELU, X, h.prog());
  const Tensor soft = popnn::nonLinearity(h.graph(), NonLinearityType::SOFTMAX_STABLE, X, h.prog());
  h.read("relu", relu);
  h.read("soft", soft);
  h.run();
  std::vector<float> expectRelu(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    expectRelu[i] = std::max(x[i], 0.0f);
  CHECK(h.result("relu") == expectRelu);
  CHECK_THAT(h.result("soft"), test::CloseTo(hostSoftmax(x, 8), 2e-3f, 1e-4f));
}

TEST_CASE("non-linearity gradients in terms of the forward output", "[popnn]") {
  const auto type = GENERATE(NonLinearityType::RELU, NonLinearityType::SIGMOID,
                             NonLinearityType::TANH, NonLinearityType::GELU);
  CAPTURE(popnn::asString(type));
  test::Harness h(16);
  const auto x = test::randomValues(9 * 11, -3, 3, 53), g = test::randomValues(9 * 11, -1, 1, 54);
  std::vector<float> act(x.size());
  // GELU's gradient takes the forward input; the others the forward output.
  for (std::size_t i = 0; i < x.size(); ++i)
    act[i] = type == NonLinearityType::GELU ? x[i] : hostForward(type, x[i]);
  const Tensor Act = h.input("act", FLOAT, {9, 11}, act), G = h.input("g", FLOAT, {9, 11}, g);
  const Tensor dx = popnn::nonLinearityInputGradient(h.graph(), type, Act, G, h.prog(), "grad");
  h.read("dx", dx);
  h.run();
  // Against a central difference of the forward function.
  std::vector<float> expect(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double eps = 1e-3;
    const double slope =
        (hostForward(type, float(x[i] + eps)) - hostForward(type, float(x[i] - eps))) / (2 * eps);
    expect[i] = float(g[i] * slope);
    if (type == NonLinearityType::RELU) expect[i] = x[i] > 0 ? g[i] : 0.0f;
  }
  CHECK_THAT(h.result("dx"), test::CloseTo(expect, 2e-3f, 2e-3f));
}

TEST_CASE("softmax gradient matches the Jacobian product", "[popnn]") {
  test::Harness h(16);
  const std::size_t rows = 6, cols = 7;
  const auto x = test::randomValues(rows * cols, -2, 2, 55);
  const auto g = test::randomValues(rows * cols, -1, 1, 56);
  const auto y = hostSoftmax(x, cols);
  const Tensor Y = h.input("y", FLOAT, {rows, cols}, y), G = h.input("g", FLOAT, {rows, cols}, g);
  const Tensor dx =
      popnn::nonLinearityInputGradient(h.graph(), NonLinearityType::SOFTMAX, Y, G, h.prog());
  h.read("dx", dx);
  h.run();
  std::vector<float> expect(x.size());
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t i = 0; i < cols; ++i) {
      double d = 0; // sum over j of dy_j/dx_i * g_j = y_i (g_i - sum_j g_j y_j)
      for (std::size_t j = 0; j < cols; ++j)
        d += double(y[r * cols + j]) * ((i == j) - y[r * cols + i]) * g[r * cols + j];
      expect[r * cols + i] = float(d);
    }
  CHECK_THAT(h.result("dx"), test::CloseTo(expect, 1e-4f, 1e-6f));
}

TEST_CASE("non-linearity argument errors", "[popnn][errors]") {
  test::Harness h(4);
  const Tensor I = h.input("I", INT, {4}, std::vector<float>(4));
  const Tensor A = h.input("A", FLOAT, {2, 3}, std::vector<float>(6));
  const Tensor B = h.input("B", FLOAT, {3, 2}, std::vector<float>(6));
  const Tensor S = h.input("S", FLOAT, {}, {1.0f});
  CHECK_THROWS_MATCHES(popnn::nonLinearity(h.graph(), NonLinearityType::RELU, I, h.prog()),
                       poputil::poplibs_error,
                       test::What(Contains("popnn::nonLinearity") && Contains("int")));
  CHECK_THROWS_MATCHES(
      popnn::nonLinearityInputGradient(h.graph(), NonLinearityType::RELU, A, B, h.prog()),
      poputil::poplibs_error, test::What(Contains("{2,3}") && Contains("{3,2}")));
  CHECK_THROWS_MATCHES(popnn::nonLinearity(h.graph(), NonLinearityType::SOFTMAX, S, h.prog()),
                       poputil::poplibs_error, test::What(Contains("innermost")));
  CHECK_THROWS_MATCHES(popnn::nonLinearityInPlace(h.graph(), NonLinearityType::TANH,
                                                  A.slice(0, 1).broadcast(2, 0), h.prog()),
                       poputil::poplibs_error, test::What(Contains("aliased")));
}
