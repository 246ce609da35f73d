#include <poplar/Vertex.hpp>

#include "common.h"

using namespace poplar;

class Scale : public Vertex {
public:
  InOut<Vector<float>> data;
  float factor;
  bool compute() {
    for (unsigned i = 0; i < data.size(); ++i)
      data[i] *= factor;
    return true;
  }
};

#if !USE_ASM_SCALE
// The C++ version of the assembly vertex, for targets without it.
class ScaleFast : public Vertex {
public:
  InOut<Vector<float>> data;
  bool compute() {
    for (unsigned i = 0; i < data.size(); ++i)
      data[i] += data[i];
    return true;
  }
};
#endif
