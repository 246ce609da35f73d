// The vertex of updateScalarInRows, as PopLibs names it.
#include "poplibs_support/UpdateScalarCycleEstimators.hpp"

#include <cmath>
#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>
#include <type_traits>

namespace popops {
namespace {

/// One interval of the flattened params matrix [*, paramsWidth], contiguous in memory: it
/// starts at column firstStartCol of its first row and ends before column lastEndCol of its
/// last, covering rowCount rows (indices holds their rows' indices). In each row's segment
/// the indexed element is decremented; an index outside the row sets the segment to NaN (every
/// segment of the row does, so the whole row becomes NaN); MASKED_LABEL_CODE leaves it alone.
template <typename T> class UpdateIntervalDEC : public poplar::Vertex {
public:
  poplar::InOut<poplar::Vector<T>> params;
  poplar::Input<poplar::Vector<unsigned>> indices;
  unsigned paramsWidth;
  unsigned firstStartCol;
  unsigned lastEndCol;
  unsigned rowCount;
  bool compute() {
    if (rowCount == 0 || indices.size() != rowCount) return false;
    std::size_t offset = 0; // of the current row's segment within params
    for (unsigned r = 0; r < rowCount; ++r) {
      const unsigned begin = r == 0 ? firstStartCol : 0;
      const unsigned end = r + 1 == rowCount ? lastEndCol : paramsWidth;
      if (end < begin || offset + (end - begin) > params.size()) return false;
      const unsigned index = indices[r];
      if (index == 0xFFFFFFFFu) {
        // MASKED_LABEL_CODE: no update.
      } else if (index >= paramsWidth) {
        for (unsigned c = begin; c < end; ++c)
          params[offset + (c - begin)] = T(std::nanf(""));
      } else if (index >= begin && index < end) {
        T& x = params[offset + (index - begin)];
        x = T(float(x) - 1.0f);
      }
      offset += end - begin;
    }
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    return poplibs_support::updateIntervalDecCycles(v.getInitialValue<unsigned>("rowCount"),
                                                    std::is_same<T, poplar::half>::value);
  }
};

using UpdateIntervalDEC_float = UpdateIntervalDEC<float>;
using UpdateIntervalDEC_half = UpdateIntervalDEC<poplar::half>;
TESSERA_VERTEX_IN("popops", "popops::UpdateIntervalDEC<float>", UpdateIntervalDEC_float, params,
                  indices, paramsWidth, firstStartCol, lastEndCol, rowCount);
TESSERA_VERTEX_IN("popops", "popops::UpdateIntervalDEC<half>", UpdateIntervalDEC_half, params,
                  indices, paramsWidth, firstStartCol, lastEndCol, rowCount);

} // namespace
} // namespace popops
