// popsparse's vertex: a block of rows of a sparse matrix times a dense matrix, the sparse rows
// encoded as a bucket (SparseLayout.hpp):
//   meta  [rows] non-zero counts per row, then each value's column, row after row;
//   nz    the values, in the same order.
// Not transposed: out[r] = sum over row r's values v at column c of v * rhs[c] (out has the
// bucket's rows, rhs one row per column of the sparse matrix). Transposed: the bucket's matrix
// transposed, so each value scatters, out[c] += v * rhs[r] (rhs has the bucket's rows).
// Rows of out and rhs are slices of the dense operands' rows (a chunk of their columns).
// SparseGradWBucket gives the gradients of a bucket's values (fully connected grad-W). Bad
// meta-information (counts beyond the bucket, columns out of range) fails the vertex.
#include "SparseCycles.hpp"

#include <algorithm>
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

template <typename T, bool Transposed>
class SparseDenseMatMulBucket : public poplar::SupervisorVertex {
public:
  Input<Vector<unsigned short>> meta;
  Input<Vector<T>> nz;
  Vector<Input<Vector<T>>> rhs;
  Vector<Output<Vector<T>>> out;

  bool compute() {
    const std::size_t rows = Transposed ? rhs.size() : out.size();
    const std::size_t cols = Transposed ? out.size() : rhs.size();
    if (meta.size() < rows) return false;
    const std::size_t width = out.size() ? out[0].size() : 0;
    for (std::size_t i = 0; i < out.size(); ++i)
      if (out[i].size() != width) return false;
    for (std::size_t i = 0; i < rhs.size(); ++i)
      if (rhs[i].size() != width) return false;
    // Accumulate in float, as PopLibs' partials default to float.
    thread_local std::vector<float> acc;
    acc.assign(out.size() * width, 0.0f);
    std::size_t next = 0; // index of the row's first value in nz and (after the counts) meta
    for (std::size_t r = 0; r < rows; ++r) {
      const std::size_t count = meta[r];
      if (next + count > nz.size() || rows + next + count > meta.size()) return false;
      for (std::size_t i = next; i < next + count; ++i) {
        const std::size_t c = meta[rows + i];
        if (c >= cols) return false;
        const float v = float(nz[i]);
        const T* src = Transposed ? rhs[r].data() : rhs[c].data();
        float* dst = acc.data() + (Transposed ? c : r) * width;
        for (std::size_t j = 0; j < width; ++j)
          dst[j] += v * float(src[j]);
      }
      next += count;
    }
    for (std::size_t i = 0; i < out.size(); ++i)
      std::copy(acc.begin() + i * width, acc.begin() + (i + 1) * width, out[i].begin());
    return true;
  }

  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    const auto outField = v.getFieldInfo("out");
    const auto rhsField = v.getFieldInfo("rhs");
    const std::size_t width = outField.size() ? outField.getSizeAtIndex(0) : 0;
    // The bucket's rows: out's, or rhs's when transposed (each value then scatters into out,
    // which PopLibs' transposed kernel does with the same inner loops per value).
    const std::size_t rows = Transposed ? rhsField.size() : outField.size();
    return detail::sparseDenseVertexCycles(sizeof(T) == 4, rows, v.getFieldInfo("nz").size(), width,
                                           target.getNumWorkerContexts());
  }
};

/// The gradients of a bucket's values: for the value at (r, c), the dot product of rows r of
/// gradA and c of act (both [rows][batch] slices); entries past the bucket's values are zero.
template <typename T> class SparseGradWBucket : public poplar::SupervisorVertex {
public:
  Input<Vector<unsigned short>> meta;
  Vector<Input<Vector<T>>> gradA;
  Vector<Input<Vector<T>>> act;
  Output<Vector<T>> out;

  bool compute() {
    const std::size_t rows = gradA.size();
    if (meta.size() < rows) return false;
    std::fill(out.begin(), out.end(), T(0.0f));
    std::size_t next = 0;
    for (std::size_t r = 0; r < rows; ++r) {
      const std::size_t count = meta[r];
      if (next + count > out.size() || rows + next + count > meta.size()) return false;
      for (std::size_t i = next; i < next + count; ++i) {
        const std::size_t c = meta[rows + i];
        if (c >= act.size() || act[c].size() != gradA[r].size()) return false;
        float sum = 0.0f;
        for (std::size_t b = 0; b < gradA[r].size(); ++b)
          sum += float(gradA[r][b]) * float(act[c][b]);
        out[i] = T(sum);
      }
      next += count;
    }
    return true;
  }

  /// The forward kernel's loops with the batch as the dense columns: each value costs one
  /// pass over the batch (see SparseCycles.hpp).
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    const auto g = v.getFieldInfo("gradA");
    const std::size_t batch = g.size() ? g.getSizeAtIndex(0) : 0;
    return detail::sparseDenseVertexCycles(sizeof(T) == 4, g.size(), v.getFieldInfo("out").size(),
                                           batch, target.getNumWorkerContexts());
  }
};

#define POPSPARSE_BUCKET(T)                                                                        \
  using Bucket_##T = SparseDenseMatMulBucket<T, false>;                                            \
  TESSERA_VERTEX_IN("popsparse", "popsparse::SparseDenseMatMulBucket<" #T ",false>", Bucket_##T,   \
                    meta, nz, rhs, out);                                                           \
  using BucketT_##T = SparseDenseMatMulBucket<T, true>;                                            \
  TESSERA_VERTEX_IN("popsparse", "popsparse::SparseDenseMatMulBucket<" #T ",true>", BucketT_##T,   \
                    meta, nz, rhs, out)

POPSPARSE_BUCKET(float);
POPSPARSE_BUCKET(half);
using GradW_float = SparseGradWBucket<float>;
using GradW_half = SparseGradWBucket<half>;
TESSERA_VERTEX_IN("popsparse", "popsparse::SparseGradWBucket<float>", GradW_float, meta, gradA, act,
                  out);
TESSERA_VERTEX_IN("popsparse", "popsparse::SparseGradWBucket<half>", GradW_half, meta, gradA, act,
                  out);

} // namespace
} // namespace popsparse
