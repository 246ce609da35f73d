// Non-linearity vertices: f applied in place to a piece of elements, and the gradient
// inGrad = outGrad * f'(x) expressed in terms of the forward activation.
#include "poplibs_support/NnCycleEstimators.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>

namespace popnn {
namespace {

using poplar::half;
using poplar::InOut;
using poplar::Input;
using poplar::Output;
using poplar::Vector;

// fwd(x) = f(x); grad(act, g) = g * f'(x), `act` being f(x) (GELU: x itself). `nl` is PopLibs'
// NonLinearityType name, which picks the op cycles in the estimates.
struct Sigmoid {
  static constexpr const char* nl = "SIGMOID";
  static float fwd(float x) { return 1.0f / (1.0f + std::exp(-x)); }
  static float grad(float out, float g) { return g * out * (1.0f - out); }
};
struct Relu {
  static constexpr const char* nl = "RELU";
  static float fwd(float x) { return x > 0.0f ? x : 0.0f; }
  static float grad(float out, float g) { return out > 0.0f ? g : 0.0f; }
};
struct Tanh {
  static constexpr const char* nl = "TANH";
  static float fwd(float x) { return std::tanh(x); }
  static float grad(float out, float g) { return g * (1.0f - out * out); }
};
struct Gelu {
  static constexpr const char* nl = "GELU";
  static constexpr float kAlpha = 0.7978845608f; // sqrt(2 / pi)
  static constexpr float kBeta = 0.044715f;
  static float fwd(float x) {
    return 0.5f * x * (1.0f + std::tanh(kAlpha * (x + kBeta * x * x * x)));
  }
  static float grad(float x, float g) {
    const float t = std::tanh(kAlpha * (x + kBeta * x * x * x));
    const float dInner = kAlpha * (1.0f + 3.0f * kBeta * x * x);
    return g * (0.5f * (1.0f + t) + 0.5f * x * (1.0f - t * t) * dInner);
  }
};

struct GeluErf {
  static constexpr const char* nl = "GELU_ERF";
  static float fwd(float x) { return 0.5f * x * (1.0f + std::erf(x * 0.7071067812f)); }
  static float grad(float x, float g) {
    // d/dx: Phi(x) + x phi(x), Phi and phi the normal distribution and density.
    const float cdf = 0.5f * (1.0f + std::erf(x * 0.7071067812f));
    const float pdf = 0.3989422804f * std::exp(-0.5f * x * x);
    return g * (cdf + x * pdf);
  }
};
struct Swish {
  static constexpr const char* nl = "SWISH";
  static float fwd(float x) { return x / (1.0f + std::exp(-x)); }
  static float grad(float x, float g) {
    const float s = 1.0f / (1.0f + std::exp(-x));
    return g * (s + x * s * (1.0f - s));
  }
};
struct HardSigmoid {
  static constexpr const char* nl = "HARD_SIGMOID";
  static float fwd(float x) { return std::max(0.0f, std::min(1.0f, 0.2f * x + 0.5f)); }
  // From the output: slope 0.2 where it is strictly between its limits.
  static float grad(float out, float g) { return out > 0.0f && out < 1.0f ? 0.2f * g : 0.0f; }
};

template <typename F, typename T> class NonLinearity : public poplar::Vertex {
public:
  InOut<Vector<T>> data;
  void compute() {
    for (std::size_t i = 0; i < data.size(); ++i)
      data[i] = T(F::fwd(float(data[i])));
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& t) {
    return poplibs_support::nonLinearityCycles(t, poplar::TypeOf<T>::value, F::nl,
                                               v.getFieldInfo("data").size());
  }
};

template <typename F, typename T> class NonLinearityGrad : public poplar::Vertex {
public:
  Input<Vector<T>> outGrad;
  Input<Vector<T>> act;
  Output<Vector<T>> inGrad;
  void compute() {
    for (std::size_t i = 0; i < inGrad.size(); ++i)
      inGrad[i] = T(F::grad(float(act[i]), float(outGrad[i])));
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& t) {
    return poplibs_support::nonLinearityGradCycles(t, poplar::TypeOf<T>::value,
                                                   v.getFieldInfo("inGrad").size(), F::nl);
  }
};

#define POPNN_NONLINEARITY(F, Name, T)                                                             \
  using F##_##T = NonLinearity<F, T>;                                                              \
  TESSERA_VERTEX_IN("popnn", "popnn::NonLinearity<" Name "," #T ">", F##_##T, data);               \
  using F##Grad_##T = NonLinearityGrad<F, T>;                                                      \
  TESSERA_VERTEX_IN("popnn", "popnn::NonLinearityGrad<" Name "," #T ">", F##Grad_##T, outGrad,     \
                    act, inGrad)

POPNN_NONLINEARITY(Sigmoid, "SIGMOID", float);
POPNN_NONLINEARITY(Sigmoid, "SIGMOID", half);
POPNN_NONLINEARITY(Relu, "RELU", float);
POPNN_NONLINEARITY(Relu, "RELU", half);
POPNN_NONLINEARITY(Tanh, "TANH", float);
POPNN_NONLINEARITY(Tanh, "TANH", half);
POPNN_NONLINEARITY(Gelu, "GELU", float);
POPNN_NONLINEARITY(Gelu, "GELU", half);
POPNN_NONLINEARITY(GeluErf, "GELU_ERF", float);
POPNN_NONLINEARITY(GeluErf, "GELU_ERF", half);
POPNN_NONLINEARITY(Swish, "SWISH", float);
POPNN_NONLINEARITY(Swish, "SWISH", half);
POPNN_NONLINEARITY(HardSigmoid, "HARD_SIGMOID", float);
POPNN_NONLINEARITY(HardSigmoid, "HARD_SIGMOID", half);

} // namespace
} // namespace popnn
