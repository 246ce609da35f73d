// Codelets of a matrix-vector product: partial dot products of row segments, then a reduction
// of each row's partials.
#include <poplar/Vertex.hpp>

using namespace poplar;

class PartialSum : public Vertex {
public:
  Input<Vector<float>> row; // a segment of one matrix row
  Input<Vector<float>> x;   // the matching segment of the vector
  Output<float> partial;

  bool compute() {
    float sum = 0;
    for (unsigned i = 0; i < x.size(); ++i)
      sum += row[i] * x[i];
    *partial = sum;
    return true;
  }

  static std::uint64_t getCycleEstimate(const VertexIntrospector &v, const Target &) {
    return 15 + 2 * v.getFieldInfo("x").size();
  }
};

class ReduceRow : public Vertex {
public:
  Input<Vector<float>> partials;
  Output<float> out;

  bool compute() {
    float sum = 0;
    for (float p : partials)
      sum += p;
    *out = sum;
    return true;
  }
};
