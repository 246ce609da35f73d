// Pooling vertices: each handles whole planes (the field of one batch element and channel) of
// its tile, one edge per plane. Geometry per dimension: input size, output size, kernel,
// stride and the lower padding (negative: truncation) of the input. Cycle estimates: PopLibs'
// pooling estimator, each plane a channel group (PoolCycleEstimators.hpp).
#include "poplibs_support/PoolCycleEstimators.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>
#include <vector>

namespace popnn {
namespace {

using poplar::half;
using poplar::Input;
using poplar::Output;
using poplar::Vector;

/// The window of output (oy, ox): input rows [y0, y1) and columns [x0, x1), padding excluded.
struct Window {
  int y0, y1, x0, x1;
  int count() const { return std::max(0, y1 - y0) * std::max(0, x1 - x0); }
};

#define POPNN_POOL_GEOMETRY                                                                        \
  int inH, inW, outH, outW, kernelH, kernelW, strideH, strideW, padH, padW;                        \
  Window window(int oy, int ox) const {                                                            \
    const int y = oy * strideH - padH, x = ox * strideW - padW;                                    \
    return {std::max(y, 0), std::min(y + kernelH, inH), std::max(x, 0),                            \
            std::min(x + kernelW, inW)};                                                           \
  }

/// PopLibs' pooling estimate (PoolCycleEstimators.hpp) for `planes` planes of this geometry,
/// initialising `initInfo` output positions per plane.
inline std::uint64_t poolCycles(const poplar::VertexIntrospector& v, const poplar::Target& t,
                                const char* planes, bool outputIsInput, bool isMax, bool isBwd) {
  const auto get = [&](const char* name) { return v.getInitialValue<int>(name); };
  const poplibs_support::PoolGeometry g{
      get("inH"),     get("inW"),     get("outH"),    get("outW"), get("kernelH"),
      get("kernelW"), get("strideH"), get("strideW"), get("padH"), get("padW")};
  const std::uint64_t initInfo =
      outputIsInput ? std::uint64_t(g.inH) * g.inW : std::uint64_t(g.outH) * g.outW;
  return poplibs_support::poolingCycles(t, poplibs_support::poolingWorkRows(g), initInfo,
                                        v.getFieldInfo(planes).size(), isMax, isBwd);
}

template <typename T> class MaxPooling : public poplar::Vertex {
public:
  Vector<Input<Vector<T>>> in;
  Vector<Output<Vector<T>>> out;
  POPNN_POOL_GEOMETRY
  bool compute() {
    if (in.size() != out.size()) return false;
    for (std::size_t p = 0; p < out.size(); ++p)
      for (int oy = 0; oy < outH; ++oy)
        for (int ox = 0; ox < outW; ++ox) {
          const Window w = window(oy, ox);
          float m = -std::numeric_limits<float>::infinity();
          for (int y = w.y0; y < w.y1; ++y)
            for (int x = w.x0; x < w.x1; ++x)
              m = std::max(m, float(in[p][y * inW + x]));
          out[p][oy * outW + ox] = T(w.count() ? m : 0.0f);
        }
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& t) {
    return poolCycles(v, t, "out", false, true, false);
  }
};

/// AVG (avg = 1: divided by the window's count of input elements) or SUM pooling.
template <typename T> class SumPooling : public poplar::Vertex {
public:
  Vector<Input<Vector<T>>> in;
  Vector<Output<Vector<T>>> out;
  POPNN_POOL_GEOMETRY
  unsigned avg;
  bool compute() {
    if (in.size() != out.size()) return false;
    for (std::size_t p = 0; p < out.size(); ++p)
      for (int oy = 0; oy < outH; ++oy)
        for (int ox = 0; ox < outW; ++ox) {
          const Window w = window(oy, ox);
          float s = 0.0f;
          for (int y = w.y0; y < w.y1; ++y)
            for (int x = w.x0; x < w.x1; ++x)
              s += float(in[p][y * inW + x]);
          if (avg && w.count()) s /= float(w.count());
          out[p][oy * outW + ox] = T(s);
        }
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& t) {
    return poolCycles(v, t, "out", false, false, false);
  }
};

/// The input gradient of max pooling: each output's gradient to the window positions equal
/// to the output (shared equally among them when `scaled`).
template <typename T> class MaxPoolingGrad : public poplar::Vertex {
public:
  Vector<Input<Vector<T>>> in;
  Vector<Input<Vector<T>>> pooled;
  Vector<Input<Vector<T>>> pooledGrad;
  Vector<Output<Vector<T>>> inGrad;
  POPNN_POOL_GEOMETRY
  unsigned scaled;
  bool compute() {
    const std::size_t planes = inGrad.size();
    if (in.size() != planes || pooled.size() != planes || pooledGrad.size() != planes) return false;
    std::vector<float> acc;
    for (std::size_t p = 0; p < planes; ++p) {
      acc.assign(std::size_t(inH) * inW, 0.0f);
      for (int oy = 0; oy < outH; ++oy)
        for (int ox = 0; ox < outW; ++ox) {
          const Window w = window(oy, ox);
          const T m = pooled[p][oy * outW + ox];
          int matches = 0;
          for (int y = w.y0; y < w.y1; ++y)
            for (int x = w.x0; x < w.x1; ++x)
              matches += in[p][y * inW + x] == m;
          if (matches == 0) continue;
          const float g = float(pooledGrad[p][oy * outW + ox]) / (scaled ? float(matches) : 1.0f);
          for (int y = w.y0; y < w.y1; ++y)
            for (int x = w.x0; x < w.x1; ++x)
              if (in[p][y * inW + x] == m) acc[y * inW + x] += g;
        }
      std::copy(acc.begin(), acc.end(), inGrad[p].begin());
    }
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& t) {
    return poolCycles(v, t, "inGrad", true, true, true);
  }
};

/// The input gradient of AVG or SUM pooling: each output's gradient spread over its window.
template <typename T> class SumPoolingGrad : public poplar::Vertex {
public:
  Vector<Input<Vector<T>>> pooledGrad;
  Vector<Output<Vector<T>>> inGrad;
  POPNN_POOL_GEOMETRY
  unsigned avg;
  bool compute() {
    if (pooledGrad.size() != inGrad.size()) return false;
    std::vector<float> acc;
    for (std::size_t p = 0; p < inGrad.size(); ++p) {
      acc.assign(std::size_t(inH) * inW, 0.0f);
      for (int oy = 0; oy < outH; ++oy)
        for (int ox = 0; ox < outW; ++ox) {
          const Window w = window(oy, ox);
          if (w.count() == 0) continue;
          const float g = float(pooledGrad[p][oy * outW + ox]) / (avg ? float(w.count()) : 1.0f);
          for (int y = w.y0; y < w.y1; ++y)
            for (int x = w.x0; x < w.x1; ++x)
              acc[y * inW + x] += g;
        }
      std::copy(acc.begin(), acc.end(), inGrad[p].begin());
    }
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& t) {
    // PopLibs runs SumPooling on the output gradient for this: costed as that, same pairs.
    return poolCycles(v, t, "inGrad", true, false, false);
  }
};

#define POPNN_GEOMETRY_FIELDS inH, inW, outH, outW, kernelH, kernelW, strideH, strideW, padH, padW
#define POPNN_POOLING(T)                                                                           \
  using MaxPooling_##T = MaxPooling<T>;                                                            \
  TESSERA_VERTEX_IN("popnn", "popnn::MaxPooling<" #T ">", MaxPooling_##T, in, out,                 \
                    POPNN_GEOMETRY_FIELDS);                                                        \
  using SumPooling_##T = SumPooling<T>;                                                            \
  TESSERA_VERTEX_IN("popnn", "popnn::SumPooling<" #T ">", SumPooling_##T, in, out,                 \
                    POPNN_GEOMETRY_FIELDS, avg);                                                   \
  using MaxPoolingGrad_##T = MaxPoolingGrad<T>;                                                    \
  TESSERA_VERTEX_IN("popnn", "popnn::MaxPoolingGrad<" #T ">", MaxPoolingGrad_##T, in, pooled,      \
                    pooledGrad, inGrad, POPNN_GEOMETRY_FIELDS, scaled);                            \
  using SumPoolingGrad_##T = SumPoolingGrad<T>;                                                    \
  TESSERA_VERTEX_IN("popnn", "popnn::SumPoolingGrad<" #T ">", SumPoolingGrad_##T, pooledGrad,      \
                    inGrad, POPNN_GEOMETRY_FIELDS, avg)

POPNN_POOLING(float);
POPNN_POOLING(half);

} // namespace
} // namespace popnn
