// STREAM-style kernels as research codelets write them for float and half: scalar inputs
// (Input<float>) assigned to half elements, half4 arithmetic with a half scalar
// ((half)alpha * v), non-const pointers taken through Input<Vector<T>> (&in[0]) and
// reinterpret_cast to the short vector types, and the old SDKs' <ipuvectormath>.
#include <ipudef.h>
#include <ipuvectormath>
#include <poplar/Vertex.hpp>

using namespace poplar;

template <typename T> class Init : public Vertex {
public:
  Output<Vector<T>> a, b, c;
  Input<float> initA, initB, initC;
  unsigned size;

  bool compute() {
    for (unsigned i = 0; i < size; i++) {
      a[i] = initA; // a half element from an Input<float>: one implicit conversion on the IPU
      b[i] = initB;
      c[i] = initC;
    }
    return true;
  }
};
template class Init<float>;
template class Init<half>;

// a = b + alpha * c, V elements at a time.
template <typename T, typename V> class Triad : public Vertex {
public:
  Input<Vector<T, VectorLayout::ONE_PTR, 8>> b, c;
  Output<Vector<T, VectorLayout::ONE_PTR, 8>> a;
  unsigned size;
  float alpha;

  bool compute() {
    V *dst = reinterpret_cast<V *>(&a[0]);
    V *src1 = reinterpret_cast<V *>(&b[0]);
    V *src2 = reinterpret_cast<V *>(&c[0]);
    for (unsigned i = 0; i < size * sizeof(T) / sizeof(V); i++)
      dst[i] = src1[i] + alpha * src2[i];
    return true;
  }
};
template class Triad<float, float>;
template class Triad<float, float2>;
template class Triad<half, half>;

template <> class Triad<half, half4> : public Vertex {
public:
  Input<Vector<half, VectorLayout::ONE_PTR, 8>> b, c;
  Output<Vector<half, VectorLayout::ONE_PTR, 8>> a;
  unsigned size;
  float alpha;

  bool compute() {
    half4 *dst = reinterpret_cast<half4 *>(&a[0]);
    const half4 *src1 = reinterpret_cast<half4 *>(&b[0]);
    const half4 *src2 = reinterpret_cast<half4 *>(&c[0]);
    for (unsigned i = 0; i < size / 4; i++)
      dst[i] = src1[i] + (half)alpha * src2[i];
    return true;
  }
};

// The largest magnitude, through ipuvectormath, and the sum, in float whatever T is.
template <typename T> class Norms : public Vertex {
public:
  Input<Vector<T>> in;
  Output<float> sum, maxAbs;

  bool compute() {
    float s = 0, m = 0;
    for (unsigned i = 0; i < in.size(); i++) {
      float x = in[i];
      s += x;
      m = ipu::fmax(m, ipu::fabs(x));
    }
    *sum = s;
    *maxAbs = m;
    return true;
  }
};
template class Norms<float>;
template class Norms<half>;
