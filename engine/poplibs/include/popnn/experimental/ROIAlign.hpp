// ROIAlign: average-pooling of bilinearly interpolated samples of a feature map over regions of
// interest, and the gradient of that with respect to the feature map.
#pragma once

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

namespace popnn {
namespace experimental {

/// Parameters of ROIAlign: samplingRatio x samplingRatio samples per output bin (> 0), an output
/// of alignedHeight_ x alignedWidth_ bins per region, aligned_ shifting region coordinates by
/// -0.5 pixel ('half_pixel'), and spatialScale_ (> 0) taking region coordinates from the image's
/// scale to the feature map's.
struct roiAlignParams {
  long unsigned int samplingRatio_, alignedHeight_, alignedWidth_;
  bool aligned_;
  float spatialScale_;
  roiAlignParams(long unsigned int samplingRatio, long unsigned int poolH, long unsigned int poolW,
                 bool aligned, float spatialScale)
      : samplingRatio_{samplingRatio}, alignedHeight_{poolH},
        alignedWidth_{poolW}, aligned_{aligned}, spatialScale_{spatialScale} {}
};

/// The pooled output [numRois, C, alignedHeight_, alignedWidth_] of bottomData [N, C, H, W]
/// (FLOAT or HALF) over bottomRois [numRois, 4] ([x1, y1, x2, y2], bottomData's type), each from
/// image bottomBatchIndex[r] (INT or UNSIGNED_INT, [numRois]). Each bin averages its samples;
/// as in PopLibs, a sample beyond the bottom or right edge counts as 0, one above or left of
/// the map is clamped to it, and a region narrower than a pixel is widened to one unless
/// aligned_. A batch index outside [0, N) stops the run naming the vertex.
poplar::Tensor roiAlignFwd(poplar::Graph& graph, poplar::program::Sequence& prog,
                           poplar::Tensor& bottomData, poplar::Tensor& bottomRois,
                           poplar::Tensor& bottomBatchIndex, const roiAlignParams& params,
                           const poplar::DebugContext& debugContext = {});

/// The gradient [N, C, H, W] of the loss with respect to bottomData, given topDataGrad
/// [numRois, C, alignedHeight_, alignedWidth_], the gradient at roiAlignFwd's output: each
/// output bin's gradient spread over the pixels its samples read, with their bilinear weights,
/// divided by the number of samples.
poplar::Tensor roiAlignInputGradient(poplar::Graph& graph, poplar::program::Sequence& prog,
                                     poplar::Tensor& bottomData, poplar::Tensor& bottomRois,
                                     poplar::Tensor& bottomBatchIndex, poplar::Tensor& topDataGrad,
                                     const roiAlignParams& params,
                                     const poplar::DebugContext& debugContext = {});

} // namespace experimental
} // namespace popnn
