// Activations written with the IPU's builtins and C++ intrinsics, included unconditionally as
// codelets written for hardware include them.
#include <ipu_builtins.h>
#include <ipu_intrinsics>
#include <ipu_memory_intrinsics>
#include <ipu_vector_math>
#include <ipudef.h>
#include <poplar/HalfFloat.hpp>
#include <poplar/Vertex.hpp>

using namespace poplar;

// Reads half inputs, works in float: sigmoid, softplus and a clamped value per element.
class HalfActivations : public MultiVertex {
public:
  Input<Vector<half, VectorLayout::SPAN, 8>> in;
  Output<Vector<float>> sigmoid;
  Output<Vector<float>> softplus;
  Output<Vector<float>> clamped;

  bool compute(unsigned workerId) {
    for (unsigned i = workerId; i < in.size(); i += numWorkers()) {
      const float x = __builtin_ipu_f16tof32(in[i]);
      sigmoid[i] = __builtin_ipu_sigm(x);
      softplus[i] = __builtin_ipu_ln(1.0f + __builtin_ipu_exp(x));
      clamped[i] = ipu::clamp(x, float2{-1.0f, 1.0f});
    }
    return true;
  }
};

// |x| of float pairs by clearing the sign bits with andc, read with post-incrementing loads.
class AbsPairs : public Vertex {
public:
  Input<Vector<float, VectorLayout::SPAN, 8>> in;
  Output<Vector<float, VectorLayout::ONE_PTR, 8>> out;

  bool compute() {
    const float2 signs = {-0.0f, -0.0f};
    const float2 *src = reinterpret_cast<const float2 *>(&in[0]);
    float2 *dst = reinterpret_cast<float2 *>(&out[0]);
    for (unsigned i = 0; i < in.size() / 2; ++i) {
      const float2 v = ipu::load_postinc(&src, 1);
      ipu::store_postinc(&dst, ipu::andc(v, signs), 1);
    }
    return true;
  }
};
