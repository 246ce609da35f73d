// A codelet that counts its loop with `rptsize_t` having included only <poplar/Vertex.hpp> and
// the IPU builtins, as PopLibs' element-wise codelets and public research codelets do (no
// <poplar/Loops.hpp>). Compiling it is the test: the Makefile builds it with popc.
#include <ipu_builtins.h>
#include <poplar/Vertex.hpp>

using namespace poplar;

class CountDown : public Vertex {
public:
  InOut<Vector<int>> v;

  void compute() {
    for (rptsize_t i = 0; i < v.size(); ++i)
      v[i] -= 1;
  }
};
