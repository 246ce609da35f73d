// poplin::ReduceAdd: the sum of a convolution's (or matmul's) input-channel blocks' partials,
// named as PopLibs names its conv reduction vertex, <OutType, PartialsType, singleInput,
// constrainPartials>. Tessera runs it as a worker vertex with PopLibs' per-worker estimate.
#include "EvenRows.hpp"
#include "ReduceAddKernel.hpp"
#include "poplibs_support/ConvCycleEstimators.hpp"

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

/// out (rows, one after another) = the element-wise sum of the partials edges, each as long as
/// all of out's rows together.
template <typename Out, typename P> class ReduceAdd : public poplar::Vertex {
public:
  Vector<Input<Vector<P>>> partials;
  Vector<Output<Vector<Out>>> out;

  bool compute() {
    std::size_t total = 0;
    for (const auto& row : out)
      total += row.size();
    if (!checked_) { // the partials' sizes, once: an engine binds them when it loads
      for (const auto& p : partials)
        if (p.size() != total) return false;
      checked_ = true;
      if constexpr (std::is_same_v<Out, float> && std::is_same_v<P, float>)
        evenPartials_ = findEvenRows(partials, total, even_);
    }
    if constexpr (std::is_same_v<Out, float> && std::is_same_v<P, float>) {
      // float: one vectorised pass per row over every partial (ReduceAddKernel.hpp), same sums.
      // Equally spaced partials (one plane each, as PopLibs lays them out) give their addresses
      // without their edge descriptors being read (EvenRows.hpp).
      thread_local std::vector<const float*> rows;
      rows.resize(partials.size());
      std::size_t offset = 0;
      for (auto& row : out) {
        for (std::size_t p = 0; p < partials.size(); ++p)
          rows[p] = (evenPartials_ ? even_.row(p) : partials[p].data()) + offset;
        reduceAddFloat(rows.data(), rows.size(), row.data(), row.size());
        offset += row.size();
      }
      return true;
    }
    // Sum a stretch at a time in a float buffer so that every loop is a vectorisable sweep.
    constexpr std::size_t kStretch = 256;
    float acc[kStretch];
    std::size_t offset = 0;
    for (auto& row : out) {
      for (std::size_t base = 0; base < row.size(); base += kStretch) {
        const std::size_t n = std::min(kStretch, row.size() - base);
        std::fill(acc, acc + n, 0.0f);
        for (const auto& p : partials) {
          const P* src = p.data() + offset + base;
          for (std::size_t j = 0; j < n; ++j)
            acc[j] += float(src[j]);
        }
        std::copy(acc, acc + n, row.begin() + base);
      }
      offset += row.size();
    }
    return true;
  }

private:
  // Host state, not fields: set by the first run (EvenRows.hpp).
  bool checked_ = false;      ///< the partials' sizes were checked
  bool evenPartials_ = false; ///< float partials equally spaced
  EvenRows<const float> even_;

public:
  /// PopLibs' poplin::ReduceAdd estimator for one worker (ConvCycleEstimators.hpp), over all
  /// of out's elements.
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    return poplibs_support::reduceAddWorkerCycles(
        target, v.getFieldInfo("out").totalElements(), v.getFieldInfo("partials").size(),
        std::is_same_v<Out, float>, std::is_same_v<P, float>);
  }
};

#define POPLIN_REDUCE_ADD(Out, P)                                                                  \
  using ReduceAdd_##Out##_##P = ReduceAdd<Out, P>;                                                 \
  TESSERA_VERTEX_IN("poplin", "poplin::ReduceAdd<" #Out "," #P ",false,false>",                    \
                    ReduceAdd_##Out##_##P, partials, out)

POPLIN_REDUCE_ADD(float, float);
POPLIN_REDUCE_ADD(float, half);
POPLIN_REDUCE_ADD(half, float);
POPLIN_REDUCE_ADD(half, half);

} // namespace
} // namespace poplin
