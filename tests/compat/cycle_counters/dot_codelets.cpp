// One dot product per vertex.
#include <poplar/Vertex.hpp>

using namespace poplar;

class Dot : public Vertex {
public:
  Input<Vector<float>> a;
  Input<Vector<float>> b;
  Output<float> out;

  bool compute() {
    float sum = 0;
    for (unsigned i = 0; i < a.size(); ++i)
      sum += a[i] * b[i];
    *out = sum;
    return true;
  }

  static std::uint64_t getCycleEstimate(const VertexIntrospector &v, const Target &) {
    return 20 + 2 * v.getFieldInfo("a").size();
  }
};
