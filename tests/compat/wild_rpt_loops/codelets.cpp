// A breadth-first-search step as graph-algorithm codelets write it: the loop counter is the
// SDK's `rptsize_t` from <poplar/Loops.hpp>. Vertices reached this step (vec >= 1) get the
// step's distance and stay in the frontier; the others leave it. `stop` says none was new.
#include <climits>
#include <poplar/Loops.hpp>
#include <poplar/Vertex.hpp>

using namespace poplar;

class Normalize : public Vertex {
public:
  InOut<Vector<unsigned int>> dist;
  InOut<Vector<float>> vec;
  Input<unsigned int> iteration;
  Output<bool> stop;

  auto compute() -> bool {
    *stop = true;
    for (rptsize_t i = 0; i < vec.size(); i += 1) {
      if (vec[i] >= 1.0f && dist[i] == UINT_MAX) {
        dist[i] = *iteration;
        vec[i] = 1.0f;
        *stop = false;
      } else {
        vec[i] = 0.0f;
      }
    }
    return true;
  }
};
