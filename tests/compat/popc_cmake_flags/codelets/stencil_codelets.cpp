// A 1-D three-point stencil over a tile's cells with one halo cell each side.
#include <poplar/Vertex.hpp>
#include <stencil.hpp>

using namespace poplar;

class Stencil3 : public Vertex {
public:
  Input<Vector<float, VectorLayout::ONE_PTR>> in; // n + 2 cells: halo, cells, halo
  Output<Vector<float>> out;                       // n cells

  bool compute() {
    for (unsigned i = 0; i < out.size(); ++i)
      out[i] = STENCIL_CENTRE * in[i + 1] + STENCIL_SIDE * (in[i] + in[i + 2]);
    return true;
  }
};
