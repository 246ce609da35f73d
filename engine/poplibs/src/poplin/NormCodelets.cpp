// The inverse standard deviation of normalisation statistics, per channel, from the mean and
// the mean of squares (or, for the stable algorithm, the mean of squared centred values).
#include "poplibs_support/ChannelCycleEstimators.hpp"

#include <cmath>
#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>

namespace poplin {
namespace {

using poplar::half;
using poplar::Input;
using poplar::Output;
using poplar::Vector;

template <typename MeanT, typename PowerT, typename OutT, bool Stable>
class InverseStdDeviation : public poplar::Vertex {
public:
  Input<Vector<MeanT>> mean;
  Input<Vector<PowerT>> power;
  Output<Vector<OutT>> iStdDev;
  float scaleVar; ///< 1, or n / (n - 1) for the unbiased estimate
  float eps;
  bool compute() {
    if (mean.size() != iStdDev.size() || power.size() != iStdDev.size()) return false;
    for (std::size_t i = 0; i < iStdDev.size(); ++i) {
      const float m = float(mean[i]);
      float var = Stable ? float(power[i]) : float(power[i]) - m * m;
      var = var < 0.0f ? 0.0f : var * scaleVar; // rounding can make E[x^2] - E[x]^2 negative
      iStdDev[i] = OutT(1.0f / std::sqrt(var + eps));
    }
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& t) {
    // PopLibs' estimator for one region of channels (ChannelCycleEstimators.hpp).
    return poplibs_support::inverseStdDeviationCycles(t, 1, v.getFieldInfo("iStdDev").size());
  }
};

#define POPLIN_INV_STD(Out, Stable)                                                                \
  using InverseStdDeviation_##Out##_##Stable = InverseStdDeviation<float, float, Out, Stable>;     \
  TESSERA_VERTEX_IN("poplin", "poplin::InverseStdDeviation<float,float," #Out "," #Stable ">",     \
                    InverseStdDeviation_##Out##_##Stable, mean, power, iStdDev, scaleVar, eps)

POPLIN_INV_STD(float, false);
POPLIN_INV_STD(float, true);
POPLIN_INV_STD(half, false);
POPLIN_INV_STD(half, true);

} // namespace
} // namespace poplin
