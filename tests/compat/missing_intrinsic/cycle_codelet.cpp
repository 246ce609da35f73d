// A codelet that reads the tile's cycle counter with an IPU intrinsic: the host build of
// codelets has no such counter, so compiling it must fail with an error naming the intrinsic.
#include <poplar/Vertex.hpp>
#include <ipu_builtins.h>

using namespace poplar;

class Timed : public Vertex {
public:
  Output<unsigned> cycles;
  bool compute() {
    *cycles = __builtin_ipu_get_scount_l();
    return true;
  }
};
