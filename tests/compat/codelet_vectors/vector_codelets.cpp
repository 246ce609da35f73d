// Codelets with vector fields, written as for Poplar: plain vertex classes, no registration.
// Graph::addCodelets("vector_codelets.cpp") compiles this file at run time.
#include <poplar/Vertex.hpp>

using namespace poplar;

// Sums each row of a matrix; each row is its own edge of the field.
class RowSums : public Vertex {
public:
  Vector<Input<Vector<float>>> rows;
  Output<Vector<float>> sums;

  bool compute() {
    for (unsigned r = 0; r < rows.size(); ++r) {
      float sum = 0;
      for (unsigned c = 0; c < rows[r].size(); ++c)
        sum += rows[r][c];
      sums[r] = sum;
    }
    return true;
  }
};

// Scales a vector in place by a constant held in the vertex state.
template <typename T> class Scale : public Vertex {
public:
  InOut<Vector<T>> data;
  T factor;

  bool compute() {
    for (auto &x : data)
      x *= factor;
    return true;
  }
};
template class Scale<float>;
template class Scale<int>;

// A dot product shared by the tile's workers: worker w takes elements w, w + 6, ...
class PartialDot : public MultiVertex {
public:
  Input<Vector<float>> a;
  Input<Vector<float>> b;
  Output<Vector<float>> partials; // one per worker

  bool compute(unsigned workerId) {
    float sum = 0;
    for (unsigned i = workerId; i < a.size(); i += numWorkers())
      sum += a[i] * b[i];
    partials[workerId] = sum;
    return true;
  }
};

// How long each vector of a list is.
class Lengths : public Vertex {
public:
  Input<VectorList<float, VectorListLayout::DELTANELEMENTS>> in;
  Output<Vector<unsigned>> lengths;

  bool compute() {
    for (unsigned i = 0; i < in.size(); ++i)
      lengths[i] = in[i].size();
    return true;
  }
};
