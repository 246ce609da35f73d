// A codelet written as for the IPU: device headers included unconditionally, `half` without a
// namespace, fields used like pointers, printf from a vertex, IPU intrinsics and vector maths.
#include <poplar/Vertex.hpp>
#include <print.h>
#include <ipudef.h>
#include <ipu_builtins.h>
#include <ipu_memory_intrinsics>
#include <ipu_vector_math>

using namespace poplar;

// out[i] = |in[i]| * scale, in half precision; prints what it did.
class ScaleAbsHalf : public Vertex {
public:
  Input<Vector<half>> in;
  Output<Vector<half>> out;
  Input<float> scale;

  bool compute() {
    const half* src = in->data();
    for (unsigned i = 0; i < out->size(); ++i) {
      const half x = ipu::load_postinc(&src, 1);
      const float magnitude = __builtin_ipu_max(float(x), -float(x));
      (*out)[i] = half(magnitude * *scale);
    }
    printf("ScaleAbsHalf on tile %u: %u elements\n", __builtin_ipu_get_tile_id(), unsigned(in->size()));
    return true;
  }
};

// sums[0] = sum of sqrt over pairs of elements (float2 maths).
class SqrtPairs : public Vertex {
public:
  Input<Vector<float>> in;
  Output<float> sum;

  bool compute() {
    float total = 0;
    for (unsigned i = 0; i + 1 < in.size(); i += 2) {
      float2 v = {in[i], in[i + 1]};
      float2 r = ipu::sqrt(v);
      total += r[0] + r[1];
    }
    *sum = total;
    printf("SqrtPairs: %.3f\n", total);
    return true;
  }
};
