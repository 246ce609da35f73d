// Embedding vertices over one bucket of a dynamic sparse matrix (SparseLayout.hpp): the bucket
// holds `rows` row counts and then one column per value, so rows = meta.size() - nz.size().
//   SparseEmbeddingSlice      out[i] = dense row indices[i] (zero where the row has no value);
//   SparseEmbeddingUpdateAdd  nz of row indices[i] += scale * slices[i][its column].
// An index past the last row, or meta-information that is not a valid pattern, fails the vertex.
#include "SparseCycles.hpp"

#include <algorithm>
#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>
#include <vector>

namespace popsparse {
namespace {

using poplar::half;
using poplar::InOut;
using poplar::Input;
using poplar::Output;
using poplar::Vector;

/// Where each row's values start; false when the counts overrun the bucket.
template <typename Meta>
bool rowStarts(const Meta& meta, std::size_t rows, std::size_t capacity,
               std::vector<std::size_t>& start) {
  start.assign(rows + 1, 0);
  for (std::size_t r = 0; r < rows; ++r)
    start[r + 1] = start[r] + meta[r];
  return start[rows] <= capacity;
}

template <typename T> class SparseEmbeddingSlice : public poplar::SupervisorVertex {
public:
  Input<Vector<unsigned short>> meta;
  Input<Vector<T>> nz;
  Input<Vector<unsigned>> indices;
  Vector<Output<Vector<T>>> out;

  bool compute() {
    if (meta.size() < nz.size() || indices.size() != out.size()) return false;
    const std::size_t rows = meta.size() - nz.size();
    thread_local std::vector<std::size_t> start;
    if (!rowStarts(meta, rows, nz.size(), start)) return false;
    for (std::size_t i = 0; i < out.size(); ++i) {
      const std::size_t r = indices[i];
      if (r >= rows) return false;
      std::fill(out[i].begin(), out[i].end(), T(0.0f));
      for (std::size_t j = start[r]; j < start[r + 1]; ++j) {
        const std::size_t c = meta[rows + j];
        if (c >= out[i].size()) return false;
        out[i][c] = nz[j];
      }
    }
    return true;
  }

  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    const std::size_t nz = v.getFieldInfo("nz").size();
    const auto out = v.getFieldInfo("out");
    return detail::sparseEmbeddingCycles(sizeof(T) == 4, v.getFieldInfo("meta").size() - nz, nz,
                                         out.size(), out.size() ? out.getSizeAtIndex(0) : 0);
  }
};

template <typename T> class SparseEmbeddingUpdateAdd : public poplar::SupervisorVertex {
public:
  Input<Vector<unsigned short>> meta;
  InOut<Vector<T>> nz;
  Input<Vector<unsigned>> indices;
  Vector<Input<Vector<T>>> slices;
  Input<Vector<T>> scale;

  bool compute() {
    if (meta.size() < nz.size() || indices.size() != slices.size() || scale.size() != 1)
      return false;
    const std::size_t rows = meta.size() - nz.size();
    thread_local std::vector<std::size_t> start;
    if (!rowStarts(meta, rows, nz.size(), start)) return false;
    const float s = float(scale[0]);
    for (std::size_t i = 0; i < slices.size(); ++i) {
      const std::size_t r = indices[i];
      if (r >= rows) return false;
      for (std::size_t j = start[r]; j < start[r + 1]; ++j) {
        const std::size_t c = meta[rows + j];
        if (c >= slices[i].size()) return false;
        nz[j] = T(float(nz[j]) + s * float(slices[i][c]));
      }
    }
    return true;
  }

  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    const std::size_t nz = v.getFieldInfo("nz").size();
    const auto slices = v.getFieldInfo("slices");
    return detail::sparseEmbeddingCycles(sizeof(T) == 4, v.getFieldInfo("meta").size() - nz, nz,
                                         slices.size(),
                                         slices.size() ? slices.getSizeAtIndex(0) : 0);
  }
};

using Slice_float = SparseEmbeddingSlice<float>;
using Slice_half = SparseEmbeddingSlice<half>;
using Update_float = SparseEmbeddingUpdateAdd<float>;
using Update_half = SparseEmbeddingUpdateAdd<half>;
TESSERA_VERTEX_IN("popsparse", "popsparse::SparseEmbeddingSlice<float>", Slice_float, meta, nz,
                  indices, out);
TESSERA_VERTEX_IN("popsparse", "popsparse::SparseEmbeddingSlice<half>", Slice_half, meta, nz,
                  indices, out);
TESSERA_VERTEX_IN("popsparse", "popsparse::SparseEmbeddingUpdateAdd<float>", Update_float, meta, nz,
                  indices, slices, scale);
TESSERA_VERTEX_IN("popsparse", "popsparse::SparseEmbeddingUpdateAdd<half>", Update_half, meta, nz,
                  indices, slices, scale);

} // namespace
} // namespace popsparse
