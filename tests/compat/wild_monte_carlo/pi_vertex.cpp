// A Monte Carlo codelet as benchmark suites and Graphcore's own HPC examples write it: it
// includes only <ipudef.h> and calls the IPU's random-number intrinsic, which on the IPU is the
// compiler's own and needs no header of its own. Each worker throws `iterations` darts at the
// unit square and counts those inside the quarter circle.
#include <climits>
#include <ipudef.h>
#include <poplar/Vertex.hpp>

using namespace poplar;

class PiVertex : public MultiVertex {
public:
  Output<Vector<unsigned int>> hits;
  int iterations;

  auto compute(unsigned i) -> bool {
    int count = 0;
    for (auto k = 0; k < iterations; k++) {
      auto x = (float)__builtin_ipu_urand32() / (float)UINT_MAX;
      auto y = (float)__builtin_ipu_urand32() / (float)UINT_MAX;
      count += x * x + y * y < 1.f;
    }
    hits[i] = count;
    return true;
  }
};

// Which tile each vertex ran on, from the other intrinsic such codelets use.
class WhereAmI : public Vertex {
public:
  Output<unsigned> tile;
  bool compute() {
    *tile = __builtin_ipu_get_tile_id();
    return true;
  }
};
