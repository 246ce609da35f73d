// Compiled ahead of time by popc (see the Makefile); the program loads codelets.gp.
#include <poplar/Vertex.hpp>

#include "clamp.h"

using namespace poplar;

#ifndef LIMIT
#error "popc -DLIMIT=... sets the clamp limit"
#endif

class Clamp : public Vertex {
public:
  InOut<Vector<float>> x;

  void compute() {
    for (auto &v : x)
      v = clampTo(v, LIMIT);
  }
};
