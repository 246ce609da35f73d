// Two small codelets without cycle estimates: Tessera gives them its default estimate.
#include <poplar/Vertex.hpp>

using namespace poplar;

class AddOne : public Vertex {
public:
  InOut<Vector<int>> data;
  void compute() {
    for (auto &v : data)
      v += 1;
  }
};

class Square : public Vertex {
public:
  InOut<Vector<int>> data;
  void compute() {
    for (auto &v : data)
      v = v * v;
  }
};
