// Codelets written as lattice and particle codes write them: a cell struct read through an
// Input by reinterpret_cast, const and protected parameters, a constructor declared for
// documentation and never defined, a parameter the program never sets, and a data-dependent
// vertex that counts its own runs in a private InOut field.
#include <poplar/Vertex.hpp>
#include <cstddef>
#include <print.h>
#include <ipudef.h>

using namespace poplar;

struct Cell {
  float speeds[3]; // left, rest, right
};

// One streaming step of a 1-D three-speed lattice: each cell takes its left speed from the cell
// on its right and its right speed from the cell on its left.
class StreamStep : public Vertex {
public:
  StreamStep(); // never defined: the IPU never constructs a vertex

  Input<Vector<float, VectorLayout::ONE_PTR>> cellsIn; // numCells + 2 cells (halo each side)
  Output<Vector<float, VectorLayout::ONE_PTR>> cellsOut;
  const unsigned numCells;
  float relaxation; // a parameter this program never sets: it reads as zero

  bool compute() {
    auto in = reinterpret_cast<Cell *>(&cellsIn[0]);
    auto out = reinterpret_cast<Cell *>(&cellsOut[0]);
    for (unsigned i = 0; i < numCells; ++i) {
      const Cell &here = in[i + 1];
      out[i].speeds[0] = in[i + 2].speeds[0];
      out[i].speeds[1] = here.speeds[1] * (1.0f - relaxation);
      out[i].speeds[2] = in[i].speeds[2];
    }
    return true;
  }
};

// Sums the density of each row of cells given as a list of edges.
class RowDensity : public Vertex {
protected:
  unsigned cellsPerRow;

public:
  Vector<Input<Vector<float>>> rows;
  Output<Vector<float>> density;

  bool compute() {
    for (unsigned r = 0; r < rows.size(); ++r) {
      const Cell *cells = reinterpret_cast<Cell *>(&rows[r][0]);
      float sum = 0;
      for (unsigned c = 0; c < cellsPerRow; ++c)
        sum += cells[c].speeds[0] + cells[c].speeds[1] + cells[c].speeds[2];
      density[r] = sum;
    }
    return true;
  }
};

// Data-dependent: counts the cells above a threshold, and how often it ran, in private fields.
class CountAbove : public Vertex {
  InOut<unsigned> timesRun;
  float threshold;

public:
  Input<Vector<float>> values;
  Output<unsigned> above;

  bool compute() {
    unsigned n = 0;
    for (unsigned i = 0; i < values.size(); ++i)
      if (values[i] > threshold) ++n;
    *above = n;
    *timesRun += 1;
    return true;
  }
};
