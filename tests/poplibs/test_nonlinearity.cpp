#include "TestUtil.hpp"

#include <cmath>
#include <functional>
#include <popnn/NonLinearity.hpp>
#include <popnn/NonLinearityDefUtil.hpp>
#include <poputil/exceptions.hpp>
#include <sstream>

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
  case NonLinearityType::GELU_ERF:
    return float(0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))));
  case NonLinearityType::SWISH:
    return float(x / (1.0 + std::exp(-double(x))));
  case NonLinearityType::HARD_SIGMOID:
    return std::max(0.0f, std::min(1.0f, 0.2f * x + 0.5f));
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
  const auto type =
      GENERATE(NonLinearityType::SIGMOID, NonLinearityType::RELU, NonLinearityType::TANH,
               NonLinearityType::GELU, NonLinearityType::GELU_ERF, NonLinearityType::SWISH,
               NonLinearityType::HARD_SIGMOID);
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
  const auto type =
      GENERATE(NonLinearityType::RELU, NonLinearityType::SIGMOID, NonLinearityType::TANH,
               NonLinearityType::GELU, NonLinearityType::GELU_ERF, NonLinearityType::SWISH,
               NonLinearityType::HARD_SIGMOID);
  CAPTURE(popnn::asString(type));
  test::Harness h(16);
  const auto x = test::randomValues(9 * 11, -3, 3, 53), g = test::randomValues(9 * 11, -1, 1, 54);
  std::vector<float> act(x.size());
  // GELU's, GELU_ERF's and SWISH's gradients take the forward input; the others the output.
  const bool takesInput = type == NonLinearityType::GELU || type == NonLinearityType::GELU_ERF ||
                          type == NonLinearityType::SWISH;
  for (std::size_t i = 0; i < x.size(); ++i)
    act[i] = takesInput ? x[i] : hostForward(type, x[i]);
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
    if (type == NonLinearityType::HARD_SIGMOID)
      expect[i] = std::abs(x[i]) < 2.5f ? 0.2f * g[i] : 0.0f;
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

TEST_CASE("named non-linearity helpers and scalings", "[popnn]") {
  test::Harness h(8);
  const std::vector<float> x{1, 2, 3, -1, 0, 4};
  const Tensor A = h.input("A", FLOAT, {2, 3}, x), B = h.input("B", FLOAT, {2, 3}, x);
  const Tensor C = h.input("C", FLOAT, {2, 3}, x), D = h.input("D", FLOAT, {2, 3}, x);
  float scaling = 0;
  const Tensor relu = popnn::relu(h.graph(), A, scaling, h.prog(), "relu");
  CHECK(scaling == 1.0f);
  popnn::swishInPlace(h.graph(), B, h.prog());
  const Tensor scaled = popnn::scaledSoftmaxStable(h.graph(), C, scaling, h.prog());
  CHECK(scaling == 62000.0f);
  popnn::tanhInPlace(h.graph(), D, scaling, h.prog());
  CHECK(scaling == 1.0f);
  // The scaled softmax's gradient, given its scaled output, is the plain softmax's.
  const auto g = test::randomValues(6, -1, 1, 57);
  const Tensor G = h.input("G", FLOAT, {2, 3}, g);
  const Tensor dScaled = popnn::nonLinearityInputGradient(
      h.graph(), NonLinearityType::SOFTMAX_SCALED, scaled, G, h.prog());
  const Tensor plain = popnn::softmaxStable(h.graph(), A, h.prog());
  const Tensor dPlain =
      popnn::nonLinearityInputGradient(h.graph(), NonLinearityType::SOFTMAX, plain, G, h.prog());
  h.read("relu", relu);
  h.read("B", B);
  h.read("scaled", scaled);
  h.read("D", D);
  h.read("dScaled", dScaled);
  h.read("dPlain", dPlain);
  h.run();
  CHECK(h.result("relu") == std::vector<float>{1, 2, 3, 0, 0, 4});
  std::vector<float> swish(6), th(6), soft = hostSoftmax(x, 3);
  for (std::size_t i = 0; i < 6; ++i) {
    swish[i] = hostForward(NonLinearityType::SWISH, x[i]);
    th[i] = std::tanh(x[i]);
    soft[i] *= 62000.0f;
  }
  CHECK_THAT(h.result("B"), test::CloseTo(swish, 1e-5f, 1e-6f));
  CHECK_THAT(h.result("D"), test::CloseTo(th, 1e-5f, 1e-6f));
  CHECK_THAT(h.result("scaled"), test::CloseTo(soft, 1e-5f));
  CHECK_THAT(h.result("dScaled"), test::CloseTo(h.result("dPlain"), 1e-4f, 1e-6f));
}

TEST_CASE("non-linearities into a caller's compute set", "[popnn]") {
  test::Harness h(8);
  const std::vector<float> x{-2, -1, 0, 1, 2, 3};
  const Tensor A = h.input("A", FLOAT, {6}, x);
  const Tensor G = h.input("G", FLOAT, {6}, {1, 1, 1, 1, 1, 1});
  ComputeSet cs = h.graph().addComputeSet("acts");
  float scaling = 0;
  popnn::nonLinearityInPlace(h.graph(), NonLinearityType::RELU, A, scaling, cs);
  CHECK(scaling == 1.0f);
  h.prog().add(program::Execute(cs));
  ComputeSet gradCs = h.graph().addComputeSet("grads");
  const Tensor dA =
      popnn::nonLinearityInputGradient(h.graph(), NonLinearityType::RELU, A, G, gradCs);
  h.prog().add(program::Execute(gradCs));
  h.read("A", A);
  h.read("dA", dA);
  h.run();
  CHECK(h.result("A") == std::vector<float>{0, 0, 0, 1, 2, 3});
  CHECK(h.result("dA") == std::vector<float>{0, 0, 0, 1, 1, 1});
  ComputeSet other = h.graph().addComputeSet("softmax");
  CHECK_THROWS_MATCHES(popnn::nonLinearityInPlace(h.graph(), NonLinearityType::SOFTMAX, A, other),
                       poputil::poplibs_error, test::What(Contains("compute set")));
}

TEST_CASE("NonLinearityDefUtil names, prints and parses the types", "[popnn]") {
  CHECK(std::string(popnn::asString(NonLinearityType::SOFTMAX_STABLE)) == "softmax (stable)");
  std::ostringstream os;
  os << NonLinearityType::GELU_ERF;
  CHECK(os.str() == "gelu_erf");
  std::istringstream in("hard_sigmoid softmax_scaled bogus");
  NonLinearityType t = NonLinearityType::RELU;
  in >> t;
  CHECK(t == NonLinearityType::HARD_SIGMOID);
  in >> t;
  CHECK(t == NonLinearityType::SOFTMAX_SCALED);
  CHECK_THROWS_MATCHES(in >> t, poputil::poplibs_error, test::What(Contains("'bogus'")));
  CHECK(poputil::templateVertex("popnn::NonLinearity1D", FLOAT, NonLinearityType::SWISH) ==
        "popnn::NonLinearity1D<float,popnn::NonLinearityType::SWISH>");
  CHECK_THROWS_AS(poputil::templateVertex("v", NonLinearityType::SOFTMAX), poputil::poplibs_error);
}
