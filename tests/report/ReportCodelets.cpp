// Vertices for the report tests, with simple cycle estimates the expectations are computed from.
#include <poplar/Vertex.hpp>

using namespace poplar;

/// out = sum(in); estimate 10 + |in|.
class RSum : public Vertex {
public:
  Input<Vector<float>> in;
  Output<float> out;
  bool compute() {
    float s = 0;
    for (float x : in) s += x;
    *out = s;
    return true;
  }
  static std::uint64_t getCycleEstimate(const VertexIntrospector& v, const Target&) {
    return 10 + v.getFieldInfo("in").size();
  }
};
TESSERA_VERTEX(RSum, in, out);

/// out[i] = i; estimate 10 + |out|.
class RIota : public Vertex {
public:
  Output<Vector<float>> out;
  bool compute() {
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = float(i);
    return true;
  }
  static std::uint64_t getCycleEstimate(const VertexIntrospector& v, const Target&) {
    return 10 + v.getFieldInfo("out").size();
  }
};
TESSERA_VERTEX(RIota, out);

/// counter += 1; estimate 5.
class RIncrement : public Vertex {
public:
  InOut<unsigned> counter;
  bool compute() {
    *counter += 1;
    return true;
  }
  static std::uint64_t getCycleEstimate(const VertexIntrospector&, const Target&) { return 5; }
};
TESSERA_VERTEX(RIncrement, counter);
