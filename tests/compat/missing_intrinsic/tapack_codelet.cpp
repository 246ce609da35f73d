// A codelet that packs three addresses for IPU assembly, as hand-tuned stencil and STREAM
// codelets do before an inline `ld2x64pace` loop: the host has no such addressing, so compiling
// it must fail with an error naming the intrinsic.
#include <poplar/Vertex.hpp>
#include <ipudef.h>

using namespace poplar;

class Triad : public Vertex {
public:
  Output<Vector<float>> a;
  Input<Vector<float>> b;
  Input<Vector<float>> c;

  bool compute() {
    uint2 packed = __builtin_ipu_tapack(&c[0], &b[0], &a[0]);
    a[0] = packed[0];
    return true;
  }
};
