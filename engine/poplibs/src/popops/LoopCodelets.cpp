// The loop counter vertex: count += increment, then comparisonResult = (count != limit).
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
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector&,
                                        const poplar::Target&) {
    // Load count and limit, add, compare, two stores and the worker's entry and exit.
    return 9;
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
