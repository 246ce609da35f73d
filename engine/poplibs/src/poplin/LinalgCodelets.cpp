// The vertices of poplin's Cholesky factorisation and triangular solve, with PopLibs' names,
// fields and published cycle estimates (poplibs_support/LinalgCycleEstimators.hpp). Sums are
// accumulated in float whatever the element type.
#include "poplibs_support/LinalgCycleEstimators.hpp"

#include <cmath>
#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>
#include <type_traits>

namespace poplin {
namespace {

using poplar::half;
using poplar::InOut;
using poplar::Input;
using poplar::Output;
using poplar::Vector;

/// Factorises the dim x dim row-major block `in` in place: lower, the lower triangle becomes L
/// with in = L L^T; upper, the upper triangle becomes U with in = U^T U. The other triangle is
/// left as it was (the caller masks it).
template <typename T, bool lower> class Cholesky : public poplar::Vertex {
public:
  unsigned dim;
  InOut<Vector<T>> in;

  // Element (row i, column j) of L: in lower form itself, in upper form U's (j, i).
  T& l(std::size_t i, std::size_t j) { return lower ? in[i * dim + j] : in[j * dim + i]; }

  bool compute() {
    if (std::size_t(dim) * dim != in.size()) return false;
    for (std::size_t i = 0; i < dim; ++i)
      for (std::size_t k = 0; k <= i; ++k) {
        float s = float(l(i, k));
        for (std::size_t j = 0; j < k; ++j)
          s -= float(l(i, j)) * float(l(k, j));
        l(i, k) = T(i == k ? std::sqrt(s) : s / float(l(k, k)));
      }
    return true;
  }

  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    return poplibs_support::choleskyCycles(v.getInitialValue<unsigned>("dim"),
                                           std::is_same<T, half>::value);
  }
};

/// Columns [colBegin, colBegin + colCnt) of the inverse of the lower triangular dim x dim block
/// `in`, each written as a row of `out`: out = (L^-1)^T restricted to those rows. Each worker
/// takes every sixth column.
template <typename T> class TriangularInverseWithTranspose : public poplar::MultiVertex {
public:
  unsigned dim;
  unsigned colBegin;
  unsigned colCnt;
  Input<Vector<T>> in;
  InOut<Vector<T>> out;

  bool compute(unsigned wid) {
    if (std::size_t(dim) * dim != in.size() || std::size_t(colCnt) * dim != out.size() ||
        colBegin + colCnt > dim)
      return false;
    for (std::size_t col = colBegin + wid; col < colBegin + colCnt; col += numWorkers()) {
      T* x = &out[(col - colBegin) * dim]; // column `col` of L^-1: zero above the diagonal
      for (std::size_t i = 0; i < col; ++i)
        x[i] = T(0);
      for (std::size_t i = col; i < dim; ++i) {
        float s = i == col ? 1.0f : 0.0f;
        for (std::size_t j = col; j < i; ++j)
          s -= float(in[i * dim + j]) * float(x[j]);
        x[i] = T(s / float(in[i * dim + i]));
      }
    }
    return true;
  }

  /// PopLibs' figure is the whole vertex's tile cycles; the engine runs a MultiVertex's estimate
  /// on each of the 6 contexts (6 tile cycles per context cycle), so each context gets a sixth.
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    const std::uint64_t total = poplibs_support::triangularInverseCycles(
        v.getInitialValue<unsigned>("dim"), std::is_same<T, half>::value);
    return (total + 5) / 6;
  }
};

/// x with a x = b for the unit-diagonal an x an triangular block `a` (its diagonal not read):
/// forward substitution (lower) or backward (upper).
template <typename T, bool lower> class TriangularSolve : public poplar::Vertex {
public:
  unsigned an;
  Input<Vector<T>> a;
  Input<Vector<T>> b;
  Output<Vector<T>> x;

  bool compute() {
    if (!an || std::size_t(an) * an != a.size() || b.size() != an || x.size() != an) return false;
    for (std::size_t step = 0; step < an; ++step) {
      const std::size_t i = lower ? step : an - 1 - step;
      float s = float(b[i]);
      const std::size_t jBegin = lower ? 0 : i + 1, jEnd = lower ? i : an;
      for (std::size_t j = jBegin; j < jEnd; ++j)
        s -= float(a[i * an + j]) * float(x[j]);
      x[i] = T(s);
    }
    return true;
  }

  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    return poplibs_support::triangularSolveCycles(v.getInitialValue<unsigned>("an"),
                                                  std::is_same<T, half>::value, lower);
  }
};

#define POPLIN_LINALG(T, L, LName)                                                                 \
  using Cholesky_##T##_##L = Cholesky<T, L>;                                                       \
  TESSERA_VERTEX_IN("poplin", "poplin::Cholesky<" #T "," LName ">", Cholesky_##T##_##L, dim, in);  \
  using TriangularSolve_##T##_##L = TriangularSolve<T, L>;                                         \
  TESSERA_VERTEX_IN("poplin", "poplin::TriangularSolve<" #T "," LName ">",                         \
                    TriangularSolve_##T##_##L, an, a, b, x)

POPLIN_LINALG(float, true, "true");
POPLIN_LINALG(float, false, "false");
POPLIN_LINALG(half, true, "true");
POPLIN_LINALG(half, false, "false");

using TriangularInverseWithTranspose_float = TriangularInverseWithTranspose<float>;
TESSERA_VERTEX_IN("poplin", "poplin::TriangularInverseWithTranspose<float>",
                  TriangularInverseWithTranspose_float, dim, colBegin, colCnt, in, out);
using TriangularInverseWithTranspose_half = TriangularInverseWithTranspose<half>;
TESSERA_VERTEX_IN("poplin", "poplin::TriangularInverseWithTranspose<half>",
                  TriangularInverseWithTranspose_half, dim, colBegin, colCnt, in, out);

} // namespace
} // namespace poplin
