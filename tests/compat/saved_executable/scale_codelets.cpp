// out[i] = in[i] * factor + offset, one vertex per row.
#include <poplar/Vertex.hpp>

using namespace poplar;

class ScaleRow : public Vertex {
public:
  Input<Vector<float>> in;
  Output<Vector<float>> out;
  float factor;
  float offset;

  bool compute() {
    for (unsigned i = 0; i < in.size(); ++i)
      out[i] = in[i] * factor + offset;
    return true;
  }

  static std::uint64_t getCycleEstimate(const VertexIntrospector &v, const Target &) {
    return 12 + 3 * v.getFieldInfo("in").size();
  }
};
