// Matrix product vertices. MatMulPartial multiplies a block of A's rows (restricted to a K chunk)
// by the chunk's rows of B; ReducePartials sums the partial products of the K chunks.
#include "ConvVertexEstimates.hpp"
#include "MatMulCycles.hpp"
#include "MatMulKernel.hpp"

#include <algorithm>
#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>
#include <type_traits>
#include <vector>

namespace poplin {
namespace {

using poplar::half;
using poplar::Input;
using poplar::Output;
using poplar::Vector;

/// out[i][j] = sum over k of aRows[i][k] * bRows[k][j], accumulated in float. The loops run
/// i-k-j so the innermost loop streams rows of B into one accumulator row, and vectorises; four
/// rows of B go into each sweep of the accumulator to quarter its loads and stores.
template <typename In, typename Out> class MatMulPartial : public poplar::SupervisorVertex {
public:
  Vector<Input<Vector<In>>> aRows; ///< A[i, k0:k1] for the block's rows i
  Vector<Input<Vector<In>>> bRows; ///< B[k, j0:j1] for the chunk's k
  Vector<Output<Vector<Out>>> out; ///< [i, j0:j1] for the block's rows i

  bool compute() {
    const std::size_t depth = bRows.size();
    if constexpr (std::is_same_v<In, float> && std::is_same_v<Out, float>) {
      if (computeFloatBlock()) return true;
    }
    for (std::size_t i = 0; i < out.size(); ++i) {
      auto& row = out[i];
      const std::size_t cols = row.size();
      if (cols > kMaxBlockCols || aRows[i].size() != depth) return false;
      float acc[kMaxBlockCols];
      std::fill(acc, acc + cols, 0.0f);
      const In* a = aRows[i].data();
      std::size_t k = 0;
      for (; k + 4 <= depth; k += 4) {
        const float a0 = float(a[k]), a1 = float(a[k + 1]), a2 = float(a[k + 2]),
                    a3 = float(a[k + 3]);
        const In* b0 = bRows[k].data();
        const In* b1 = bRows[k + 1].data();
        const In* b2 = bRows[k + 2].data();
        const In* b3 = bRows[k + 3].data();
        for (std::size_t j = 0; j < cols; ++j)
          acc[j] += a0 * float(b0[j]) + a1 * float(b1[j]) + a2 * float(b2[j]) + a3 * float(b3[j]);
      }
      for (; k < depth; ++k) {
        const float aik = float(a[k]);
        const In* b = bRows[k].data();
        for (std::size_t j = 0; j < cols; ++j)
          acc[j] += aik * float(b[j]);
      }
      std::copy(acc, acc + cols, row.begin());
    }
    return true;
  }

  /// float x float with every row of the block the same width: the register-blocked host
  /// kernel (MatMulKernel.hpp). False, having written nothing, when the shapes do not allow it
  /// (compute() then takes the general loops, which also report bad shapes).
  bool computeFloatBlock() {
    const std::size_t rows = out.size(), depth = bRows.size();
    const std::size_t cols = rows ? out[0].size() : 0;
    if (cols > kMaxBlockCols) return false;
    thread_local std::vector<const float*> aPtr, bPtr;
    thread_local std::vector<float*> outPtr;
    aPtr.resize(rows), outPtr.resize(rows), bPtr.resize(depth);
    for (std::size_t i = 0; i < rows; ++i) {
      if (out[i].size() != cols || aRows[i].size() != depth) return false;
      aPtr[i] = aRows[i].data();
      outPtr[i] = out[i].data();
    }
    for (std::size_t k = 0; k < depth; ++k) {
      if (bRows[k].size() < cols) return false;
      bPtr[k] = bRows[k].data();
    }
    matMulBlockFloat(aPtr.data(), bPtr.data(), outPtr.data(), rows, depth, cols);
    return true;
  }

  /// As PopLibs computes a matmul block: its ConvPartial1x1Out estimator (ConvVertexEstimates.hpp).
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    const auto out = v.getFieldInfo("out");
    const std::size_t cols = out.size() ? out.getSizeAtIndex(0) : 0;
    return matMulPartialVertexCycles(target, poplar::TypeOf<In>::value, poplar::TypeOf<Out>::value,
                                     out.size(), v.getFieldInfo("bRows").size(), cols);
  }
};

/// out = the element-wise sum of the partials edges, each as long as out.
template <typename P, typename Out> class ReducePartials : public poplar::Vertex {
public:
  Vector<Input<Vector<P>>> partials;
  Output<Vector<Out>> out;

  void compute() {
    // Sum a stretch at a time in a float buffer so that every loop is a vectorisable sweep.
    constexpr std::size_t kStretch = 256;
    float acc[kStretch];
    for (std::size_t base = 0; base < out.size(); base += kStretch) {
      const std::size_t n = std::min(kStretch, out.size() - base);
      std::fill(acc, acc + n, 0.0f);
      for (const auto& p : partials) {
        const P* src = p.data() + base;
        for (std::size_t j = 0; j < n; ++j)
          acc[j] += float(src[j]);
      }
      std::copy(acc, acc + n, out.begin() + base);
    }
  }

  /// PopLibs' poplin::ReduceAdd estimator for one worker (ConvCycleEstimators.hpp).
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    return poplibs_support::reduceAddWorkerCycles(
        target, v.getFieldInfo("out").size(), v.getFieldInfo("partials").size(),
        std::is_same_v<Out, float>, std::is_same_v<P, float>);
  }
};

#define POPLIN_MATMUL(In, Out)                                                                     \
  using MatMulPartial_##In##_##Out = MatMulPartial<In, Out>;                                       \
  TESSERA_VERTEX_IN("poplin", "poplin::MatMulPartial<" #In "," #Out ">",                           \
                    MatMulPartial_##In##_##Out, aRows, bRows, out);                                \
  using ReducePartials_##In##_##Out = ReducePartials<In, Out>;                                     \
  TESSERA_VERTEX_IN("poplin", "poplin::ReducePartials<" #In "," #Out ">",                          \
                    ReducePartials_##In##_##Out, partials, out)

POPLIN_MATMUL(float, float);
POPLIN_MATMUL(float, half);
POPLIN_MATMUL(half, float);
POPLIN_MATMUL(half, half);

} // namespace
} // namespace poplin
