#include <poplar/Vertex.hpp>

using namespace poplar;

template <typename T> class Total : public Vertex {
public:
  Input<Vector<T>> in;
  Output<T> out;
  bool compute() {
    T sum = 0;
    for (unsigned i = 0; i < in.size(); ++i)
      sum += in[i];
    *out = sum;
    return true;
  }
};
template class Total<float>;
template class Total<int>;
