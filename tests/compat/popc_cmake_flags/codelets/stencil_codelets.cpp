// A 1-D three-point stencil over a tile's cells with one halo cell each side.
#include <poplar/Vertex.hpp>
#include <stencil.hpp>

using namespace poplar;

class Stencil3 : public Vertex {
public:
  Input<Vector<float, VectorLayout::ONE_PTR>> in; // n + 2 cells: halo, cells, halo
  Output<Vector<float>> out;                       // n cells

  bool compute() {
    const float *cells = &in[1];
    for (unsigned i = 0; i < out.size(); ++i)
      out[i] = STENCIL_CENTRE * cells[i] + STENCIL_SIDE * (cells[i - 1] + cells[i + 1]);
    return true;
  }
};
