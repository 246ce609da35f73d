// popsparse::BSMatMulBlock<In, Partials, Out, RhsTransposed>: one result block of a
// block-sparse product, out [rows][cols] = sum over pairs p of lhs[p] [rows][depth] times
// rhs[p] [depth][cols] (or rhs[p] stored [cols][depth] and transposed). Blocks are row-major.
// The sum is kept in float and rounded to Out once (Partials chooses the cycle estimate's AMP
// figures: PopLibs accumulates half partials in the AMP at half precision). With no pairs the
// block is zero. Mismatched field sizes fail the vertex.
#include "BlockSparseCycles.hpp"

#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>
#include <vector>

namespace popsparse {
namespace {

using poplar::half;
using poplar::Input;
using poplar::Output;
using poplar::Vector;

template <typename In, typename Partials, typename Out, bool RhsTransposed>
class BSMatMulBlock : public poplar::SupervisorVertex {
public:
  Vector<Input<Vector<In>>> lhs;
  Vector<Input<Vector<In>>> rhs;
  Output<Vector<Out>> out;
  unsigned rows;
  unsigned depth;

  bool compute() {
    if (lhs.size() != rhs.size() || rows == 0 || out.size() % rows != 0) return false;
    const std::size_t cols = out.size() / rows;
    thread_local std::vector<float> acc;
    acc.assign(out.size(), 0.0f);
    for (std::size_t p = 0; p < lhs.size(); ++p) {
      if (lhs[p].size() != std::size_t(rows) * depth || rhs[p].size() != cols * depth) return false;
      for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t k = 0; k < depth; ++k) {
          const float a = float(lhs[p][i * depth + k]);
          float* dst = acc.data() + i * cols;
          if (RhsTransposed) {
            for (std::size_t j = 0; j < cols; ++j)
              dst[j] += a * float(rhs[p][j * depth + k]);
          } else {
            const In* src = rhs[p].data() + k * cols;
            for (std::size_t j = 0; j < cols; ++j)
              dst[j] += a * float(src[j]);
          }
        }
    }
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = Out(acc[i]);
    return true;
  }

  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    const std::uint64_t rowsV = v.getInitialValue<unsigned>("rows");
    const std::uint64_t depthV = v.getInitialValue<unsigned>("depth");
    const std::uint64_t size = v.getFieldInfo("out").size();
    const std::uint64_t cols = rowsV ? size / rowsV : 0;
    return detail::bsMatMulBlockCycles(target, poplar::TypeOf<In>::value,
                                       poplar::TypeOf<Partials>::value,
                                       v.getFieldInfo("lhs").size(), rowsV, depthV, cols);
  }
};

#define POPSPARSE_BS_BLOCK(In, P, Out)                                                             \
  using BSBlock_##In##_##P##_##Out = BSMatMulBlock<In, P, Out, false>;                             \
  TESSERA_VERTEX_IN("popsparse", "popsparse::BSMatMulBlock<" #In "," #P "," #Out ",false>",        \
                    BSBlock_##In##_##P##_##Out, lhs, rhs, out, rows, depth);                       \
  using BSBlockT_##In##_##P##_##Out = BSMatMulBlock<In, P, Out, true>;                             \
  TESSERA_VERTEX_IN("popsparse", "popsparse::BSMatMulBlock<" #In "," #P "," #Out ",true>",         \
                    BSBlockT_##In##_##P##_##Out, lhs, rhs, out, rows, depth)

POPSPARSE_BS_BLOCK(float, float, float);
POPSPARSE_BS_BLOCK(float, float, half);
POPSPARSE_BS_BLOCK(half, float, float);
POPSPARSE_BS_BLOCK(half, float, half);
POPSPARSE_BS_BLOCK(half, half, float);
POPSPARSE_BS_BLOCK(half, half, half);

} // namespace
} // namespace popsparse
