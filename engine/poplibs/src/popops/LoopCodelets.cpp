// Loop counter and index vertices: the scalar control values of popops (loop counters,
// scatter window checks, gather start-index clamping).
#include "poplibs_support/SortCycleEstimators.hpp"

#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>

namespace popops {
namespace {

template <typename T> class ForLoopCounter : public poplar::Vertex {
public:
  poplar::InOut<T> count;
  poplar::Input<T> limit;
  poplar::Output<unsigned> comparisonResult;
  int increment;
  void compute() {
    // Wrapping arithmetic, as the IPU's integer add.
    *count = T(static_cast<unsigned>(*count) + static_cast<unsigned>(increment));
    *comparisonResult = *count != *limit ? 1u : 0u;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector&, const poplar::Target&) {
    // PopLibs' published estimate for popops::ForLoopCounter: a constant 43 cycles.
    return poplibs_support::forLoopCounterCycles();
  }
};

using ForLoopCounter_int = ForLoopCounter<int>;
using ForLoopCounter_uint = ForLoopCounter<unsigned>;
TESSERA_VERTEX_IN("popops", "popops::ForLoopCounter<int>", ForLoopCounter_int, count, limit,
                  comparisonResult, increment);
TESSERA_VERTEX_IN("popops", "popops::ForLoopCounter<unsigned int>", ForLoopCounter_uint, count,
                  limit, comparisonResult, increment);

} // namespace
} // namespace popops

namespace popops {
namespace {

/// Whether a scatter's start index leaves its window inside the operand: every element at most
/// its limit (the operand's size less the window's in that dimension).
class CheckScatterIndex : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<unsigned>> index;
  poplar::Input<poplar::Vector<unsigned>> limit;
  poplar::Output<unsigned> valid;
  void compute() {
    unsigned ok = 1;
    for (std::size_t i = 0; i < index.size(); ++i)
      if (index[i] > limit[i]) ok = 0;
    *valid = ok;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    // Two loads, a compare and an and per element, and the entry, exit and store.
    return 8 + 4 * v.getFieldInfo("index").size();
  }
};
TESSERA_VERTEX_IN("popops", "popops::CheckScatterIndex", CheckScatterIndex, index, limit, valid);

} // namespace
} // namespace popops

namespace popops {
namespace {

/// XLA gather's start indices: each element clamped to [0, limit] (limit: the input's size less
/// the slice's in that dimension; a negative INT index clamps to 0).
template <typename I> class ClampGatherIndices : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<I>> indices;
  poplar::Input<poplar::Vector<unsigned>> limit;
  poplar::Output<poplar::Vector<unsigned>> out;
  void compute() {
    const std::size_t k = limit.size();
    for (std::size_t i = 0; i < indices.size(); ++i) {
      const I x = indices[i];
      const unsigned lim = limit[i % k];
      out[i] = x < I(0) ? 0u : (static_cast<unsigned>(x) > lim ? lim : static_cast<unsigned>(x));
    }
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    // A load, two compares and selects and a store per index, plus entry and exit.
    return 8 + 5 * v.getFieldInfo("indices").size();
  }
};
using ClampGatherIndices_int = ClampGatherIndices<int>;
using ClampGatherIndices_uint = ClampGatherIndices<unsigned>;
TESSERA_VERTEX_IN("popops", "popops::ClampGatherIndices<int>", ClampGatherIndices_int, indices,
                  limit, out);
TESSERA_VERTEX_IN("popops", "popops::ClampGatherIndices<unsigned int>", ClampGatherIndices_uint,
                  indices, limit, out);

} // namespace
} // namespace popops
