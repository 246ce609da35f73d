// Codelets as stencil and particle codes write them: plain values in the connection list,
// lists of edges fed a 2-D tensor row by row, an unsigned state member set from an int, and a
// vertex without getCycleEstimate whose cost the graph sets with setCycleEstimate.
#include <poplar/Vertex.hpp>

using namespace poplar;

// out = factor * in + offset; factor and offset are constants connected as plain values.
class Axpb : public Vertex {
public:
  Input<Vector<float>> in;
  Input<float> factor;
  Input<float> offset;
  Output<Vector<float>> out;

  bool compute() {
    for (unsigned i = 0; i < out.size(); ++i)
      out[i] = factor * in[i] + offset;
    return true;
  }
};

// A 3-point stencil over each row of a grid, rows given as the edges of one field; `steps`
// smoothing passes (state) are applied.
class RowStencil : public Vertex {
public:
  Vector<Input<Vector<float>>> rows;
  Vector<Output<Vector<float>>> smoothed;
  unsigned steps;

  bool compute() {
    for (unsigned r = 0; r < rows.size(); ++r) {
      const unsigned n = rows[r].size();
      for (unsigned c = 0; c < n; ++c) {
        const float left = rows[r][c == 0 ? 0 : c - 1];
        const float right = rows[r][c + 1 == n ? c : c + 1];
        smoothed[r][c] = steps * (left + 2 * rows[r][c] + right) / 4;
      }
    }
    return true;
  }
};
