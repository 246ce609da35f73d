// The vertex of selectScalarFromRows.
#include <cmath>
#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>
#include <type_traits>

namespace popops {
namespace {

/// One element per row: params[row][indices[row]]; NaN for an index outside the row, 0 for
/// MASKED_LABEL_CODE. Estimated as PopLibs' SelectFromRows family: entry, state loading, then
/// 8 cycles per row (12 for half, whose store is a read-modify-write).
template <typename T> class SelectFromRows : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<T>> params;
  poplar::Input<poplar::Vector<unsigned>> indices;
  poplar::Output<poplar::Vector<T>> out;
  unsigned rowLength;
  void compute() {
    for (std::size_t r = 0; r < indices.size(); ++r) {
      const unsigned i = indices[r];
      if (i == 0xFFFFFFFFu)
        out[r] = T(0.0f);
      else if (i >= rowLength)
        out[r] = T(std::nanf(""));
      else
        out[r] = params[r * rowLength + i];
    }
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    const bool isHalf = std::is_same<T, poplar::half>::value;
    return 27 + (isHalf ? 12 : 8) * v.getFieldInfo("indices").size();
  }
};

using SelectFromRows_float = SelectFromRows<float>;
using SelectFromRows_half = SelectFromRows<poplar::half>;
TESSERA_VERTEX_IN("popops", "popops::SelectFromRows<float>", SelectFromRows_float, params, indices,
                  out, rowLength);
TESSERA_VERTEX_IN("popops", "popops::SelectFromRows<half>", SelectFromRows_half, params, indices,
                  out, rowLength);

} // namespace
} // namespace popops
