// ROIAlign vertices. ROIAlignForward pools one region over one channel: for each output bin,
// the mean of samplingRatio^2 bilinear samples. ROIAlignBackward spreads one channel's output
// gradients of every region back over the pixels of that channel in every image. Both sample
// where PopLibs' vertices do (see sampleOf).
#include "poplibs_support/RoiAlignCycleEstimators.hpp"

#include <cmath>
#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>

namespace popnn {
namespace {

using poplar::half;
using poplar::Input;
using poplar::Output;
using poplar::Vector;

/// Where a region's bins and samples fall on the map.
struct RegionGeometry {
  float startY, startX, binH, binW;
};

template <typename Rois>
RegionGeometry regionOf(const Rois& roi, float scale, bool aligned, unsigned outH, unsigned outW) {
  const float shift = aligned ? 0.5f : 0.0f, minSize = aligned ? 0.0f : 1.0f;
  const float x1 = float(roi[0]) * scale - shift, y1 = float(roi[1]) * scale - shift;
  const float x2 = float(roi[2]) * scale - shift, y2 = float(roi[3]) * scale - shift;
  return {y1, x1, std::fmax(y2 - y1, minSize) / float(outH),
          std::fmax(x2 - x1, minSize) / float(outW)};
}

/// The four pixels and bilinear weights of a sample at (y, x), or false when it lies beyond the
/// bottom or right edge (it then counts as 0). Negative coordinates clamp to 0; at the last row
/// or column both neighbours are that row or column.
struct Sample {
  unsigned at[4];
  float w[4];
};
bool sampleOf(float y, float x, unsigned height, unsigned width, Sample& s) {
  if (y > float(height) || x > float(width)) return false;
  y = std::fmax(y, 0.0f);
  x = std::fmax(x, 0.0f);
  unsigned yLow = unsigned(std::floor(y)), xLow = unsigned(std::floor(x));
  if (yLow >= height - 1) yLow = height - 1;
  if (xLow >= width - 1) xLow = width - 1;
  const unsigned yHigh = yLow + 1 < height ? yLow + 1 : yLow;
  const unsigned xHigh = xLow + 1 < width ? xLow + 1 : xLow;
  const float hy = std::fmin(y - float(yLow), 1.0f), hx = std::fmin(x - float(xLow), 1.0f);
  s = {{yLow * width + xLow, yLow * width + xHigh, yHigh * width + xLow, yHigh * width + xHigh},
       {(1 - hy) * (1 - hx), (1 - hy) * hx, hy * (1 - hx), hy * hx}};
  return true;
}

/// Calls f(bin index, sample) for every sample of every bin of a region.
template <typename F>
void forEachSample(const RegionGeometry& g, unsigned outH, unsigned outW, unsigned ratio,
                   unsigned height, unsigned width, F f) {
  for (unsigned ph = 0; ph < outH; ++ph)
    for (unsigned pw = 0; pw < outW; ++pw)
      for (unsigned iy = 0; iy < ratio; ++iy)
        for (unsigned ix = 0; ix < ratio; ++ix) {
          const float y =
              g.startY + float(ph) * g.binH + (0.5f + float(iy)) * g.binH / float(ratio);
          const float x =
              g.startX + float(pw) * g.binW + (0.5f + float(ix)) * g.binW / float(ratio);
          Sample s;
          if (sampleOf(y, x, height, width, s)) f(ph * outW + pw, s);
        }
}

template <typename I> bool validIndex(I index, std::size_t images) {
  return index >= 0 && std::size_t(index) < images;
}

template <typename T, typename I> class ROIAlignForward : public poplar::Vertex {
public:
  Vector<Input<Vector<T>>> bottomData; ///< [N][H * W]: this channel of every image
  Input<Vector<T>> bottomRois;         ///< [4]
  Input<I> batchIndex;
  Output<Vector<T>> topData; ///< [alignedHeight * alignedWidth]
  float spatialScale;
  unsigned height, width, alignedHeight, alignedWidth, samplingRatio;
  bool aligned;

  bool compute() {
    const I index = batchIndex;
    if (!validIndex(index, bottomData.size())) return false;
    const auto& image = bottomData[std::size_t(index)];
    std::vector<float> sums(topData.size(), 0.0f);
    const RegionGeometry g =
        regionOf(bottomRois, spatialScale, aligned, alignedHeight, alignedWidth);
    forEachSample(g, alignedHeight, alignedWidth, samplingRatio, height, width,
                  [&](unsigned bin, const Sample& s) {
                    for (unsigned k = 0; k < 4; ++k)
                      sums[bin] += float(image[s.at[k]]) * s.w[k];
                  });
    const float count = float(samplingRatio * samplingRatio);
    for (std::size_t i = 0; i < sums.size(); ++i)
      topData[i] = T(sums[i] / count);
    return true;
  }

  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    return poplibs_support::roiAlignForwardCycles(v.getInitialValue<unsigned>("samplingRatio"));
  }
};

template <typename T, typename I> class ROIAlignBackward : public poplar::Vertex {
public:
  Vector<Input<Vector<T>>> topDiff;     ///< [numRois][alignedHeight * alignedWidth], this channel
  Input<Vector<T>> bottomRois;          ///< [numRois * 4]
  Input<Vector<I>> batchIndex;          ///< [numRois]
  Vector<Output<Vector<T>>> bottomDiff; ///< [N][H * W], this channel
  float spatialScale;
  unsigned height, width, alignedHeight, alignedWidth, samplingRatio;
  bool aligned;

  bool compute() {
    const std::size_t images = bottomDiff.size();
    std::vector<std::vector<float>> grad(images, std::vector<float>(height * width, 0.0f));
    const float count = float(samplingRatio * samplingRatio);
    for (std::size_t r = 0; r < topDiff.size(); ++r) {
      if (!validIndex(batchIndex[r], images)) return false;
      auto& image = grad[std::size_t(batchIndex[r])];
      const auto& top = topDiff[r];
      const float roi[4] = {float(bottomRois[4 * r]), float(bottomRois[4 * r + 1]),
                            float(bottomRois[4 * r + 2]), float(bottomRois[4 * r + 3])};
      const RegionGeometry g = regionOf(roi, spatialScale, aligned, alignedHeight, alignedWidth);
      forEachSample(g, alignedHeight, alignedWidth, samplingRatio, height, width,
                    [&](unsigned bin, const Sample& s) {
                      for (unsigned k = 0; k < 4; ++k)
                        image[s.at[k]] += float(top[bin]) * s.w[k] / count;
                    });
    }
    for (std::size_t n = 0; n < images; ++n)
      for (std::size_t i = 0; i < grad[n].size(); ++i)
        bottomDiff[n][i] = T(grad[n][i]);
    return true;
  }

  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    return poplibs_support::roiAlignBackwardCycles(v.getInitialValue<unsigned>("samplingRatio"),
                                                   v.getFieldInfo("topDiff").size());
  }
};

#define POPNN_ROI_ALIGN(T, I, IName)                                                               \
  using ROIAlignForward_##T##_##I = ROIAlignForward<T, I>;                                         \
  TESSERA_VERTEX_IN("popnn", "popnn::ROIAlignForward<" #T "," IName ">",                           \
                    ROIAlignForward_##T##_##I, bottomData, bottomRois, batchIndex, topData,        \
                    spatialScale, height, width, alignedHeight, alignedWidth, samplingRatio,       \
                    aligned);                                                                      \
  using ROIAlignBackward_##T##_##I = ROIAlignBackward<T, I>;                                       \
  TESSERA_VERTEX_IN("popnn", "popnn::ROIAlignBackward<" #T "," IName ">",                          \
                    ROIAlignBackward_##T##_##I, topDiff, bottomRois, batchIndex, bottomDiff,       \
                    spatialScale, height, width, alignedHeight, alignedWidth, samplingRatio,       \
                    aligned)

using uint = unsigned;
POPNN_ROI_ALIGN(float, int, "int");
POPNN_ROI_ALIGN(float, uint, "unsigned int");
POPNN_ROI_ALIGN(half, int, "int");
POPNN_ROI_ALIGN(half, uint, "unsigned int");

} // namespace
} // namespace popnn
