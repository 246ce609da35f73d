#include <poplar/Vertex.hpp>

using namespace poplar;

// out[i] = in[i] * k + bias (k and bias connected to constants with Graph::connect).
class Affine : public Vertex {
public:
  Input<Vector<float>> in;
  Input<float> k;
  Input<float> bias;
  Output<Vector<float>> out;

  bool compute() {
    for (unsigned i = 0; i < in.size(); ++i)
      out[i] = in[i] * k + bias;
    return true;
  }
};

// out = log(in): a NaN for a negative input.
class Log : public Vertex {
public:
  Input<float> in;
  Output<float> out;

  bool compute() {
    *out = __builtin_logf(in);
    return true;
  }
};
