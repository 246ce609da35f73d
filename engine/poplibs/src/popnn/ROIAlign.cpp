// ROIAlign: the forward pass runs one ROIAlignForward vertex per (region, channel), the input
// gradient one ROIAlignBackward vertex per channel (gathering every region's gradient for that
// channel, so no two vertices write one pixel), spread over the tiles.
#include <popnn/experimental/ROIAlign.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popnn::experimental {
namespace {

using namespace poplar;

std::string shapeOf(const Tensor& t) {
  return t.valid() ? t.shapeToString() : std::string("(invalid)");
}

/// PopLibs' checks and the shapes and types against each other.
void checkArgs(const Tensor& data, const Tensor& rois, const Tensor& index, const roiAlignParams& p,
               const std::string& op) {
  if (!data.valid() || data.rank() != 4)
    throw poputil::poplibs_error(op + ": bottomData must be a 4-dimensional tensor, not " +
                                 shapeOf(data));
  if (!rois.valid() || rois.rank() != 2)
    throw poputil::poplibs_error(op + ": bottomRois must be a 2-dimensional tensor, not " +
                                 shapeOf(rois));
  if (rois.dim(1) != 4)
    throw poputil::poplibs_error(op + ": bottomRois.dim(1) must have 4 elements, not " +
                                 std::to_string(rois.dim(1)));
  if (!index.valid() || index.rank() != 1 || index.dim(0) != rois.dim(0))
    throw poputil::poplibs_error(op + ": bottomBatchIndex must be a 1-dimensional tensor of " +
                                 std::to_string(rois.dim(0)) + " elements, not " + shapeOf(index));
  if (p.samplingRatio_ == 0)
    throw poputil::poplibs_error(op + ": samplingRatio must be greater than 0");
  if (!(p.spatialScale_ > 0.0f))
    throw poputil::poplibs_error(op + ": spatialScale must be greater than 0");
  if (p.alignedHeight_ == 0 || p.alignedWidth_ == 0)
    throw poputil::poplibs_error(op + ": the pooled height and width must be greater than 0");
  const Type type = data.elementType();
  if (type != FLOAT && type != HALF)
    throw poputil::poplibs_error(op + ": bottomData must be FLOAT or HALF, not " + type.toString());
  if (rois.elementType() != type)
    throw poputil::poplibs_error(op + ": bottomRois is " + rois.elementType().toString() +
                                 " but must be bottomData's type " + type.toString());
  if (index.elementType() != INT && index.elementType() != UNSIGNED_INT)
    throw poputil::poplibs_error(op + ": bottomBatchIndex must be INT or UNSIGNED_INT, not " +
                                 index.elementType().toString());
  if (data.dim(2) == 0 || data.dim(3) == 0)
    throw poputil::poplibs_error(op + ": bottomData " + data.shapeToString() +
                                 " has an empty feature map");
}

void setState(Graph& graph, const VertexRef& v, const Tensor& data, const roiAlignParams& p) {
  graph.setInitialValue(v["spatialScale"], p.spatialScale_);
  graph.setInitialValue(v["height"], unsigned(data.dim(2)));
  graph.setInitialValue(v["width"], unsigned(data.dim(3)));
  graph.setInitialValue(v["alignedHeight"], unsigned(p.alignedHeight_));
  graph.setInitialValue(v["alignedWidth"], unsigned(p.alignedWidth_));
  graph.setInitialValue(v["samplingRatio"], unsigned(p.samplingRatio_));
  graph.setInitialValue(v["aligned"], p.aligned_);
}

/// Channel c of every image: [N][H * W].
std::vector<Tensor> channelPlanes(const Tensor& t, std::size_t c) {
  std::vector<Tensor> planes;
  for (std::size_t n = 0; n < t.dim(0); ++n)
    planes.push_back(t[n][c].flatten());
  return planes;
}

} // namespace

Tensor roiAlignFwd(Graph& graph, program::Sequence& prog, Tensor& bottomData, Tensor& bottomRois,
                   Tensor& bottomBatchIndex, const roiAlignParams& params,
                   const DebugContext& debugContext) {
  const std::string op = "popnn::experimental::roiAlignFwd";
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(bottomData, bottomRois, bottomBatchIndex),
                                 "ROIAlignFwd");
  checkArgs(bottomData, bottomRois, bottomBatchIndex, params, op);
  const std::size_t R = bottomRois.dim(0), C = bottomData.dim(1);
  const Type type = bottomData.elementType();
  const Tensor top =
      graph.addVariable(type, {R, C, params.alignedHeight_, params.alignedWidth_}, {di, "topData"});
  const ComputeSet cs = graph.addComputeSet({di, "roiAlign"});
  const std::string name =
      poputil::templateVertex("popnn::ROIAlignForward", type, bottomBatchIndex.elementType());
  const unsigned tiles = graph.getTarget().getNumTiles();
  for (std::size_t r = 0; r < R; ++r)
    for (std::size_t c = 0; c < C; ++c) {
      const unsigned tile = unsigned((r * C + c) % tiles);
      const VertexRef v = graph.addVertex(cs, name);
      graph.connect(v["bottomData"], channelPlanes(bottomData, c));
      graph.connect(v["bottomRois"], bottomRois[r]);
      graph.connect(v["batchIndex"], bottomBatchIndex[r]);
      graph.connect(v["topData"], top[r][c].flatten());
      setState(graph, v, bottomData, params);
      graph.setTileMapping(top[r][c], tile);
      graph.setTileMapping(v, tile);
    }
  prog.add(program::Execute(cs, {di, "roiAlign"}));
  di.addOutputs({{"forwardResult", poputil::toProfileValue(top)}});
  return top;
}

Tensor roiAlignInputGradient(Graph& graph, program::Sequence& prog, Tensor& bottomData,
                             Tensor& bottomRois, Tensor& bottomBatchIndex, Tensor& topDataGrad,
                             const roiAlignParams& params, const DebugContext& debugContext) {
  const std::string op = "popnn::experimental::roiAlignInputGradient";
  poputil::PoplibsOpDebugInfo di(debugContext,
                                 DI_ARGS(bottomData, bottomRois, bottomBatchIndex, topDataGrad),
                                 "ROIAlignInputGradient");
  checkArgs(bottomData, bottomRois, bottomBatchIndex, params, op);
  const std::size_t R = bottomRois.dim(0), C = bottomData.dim(1);
  const std::vector<std::size_t> topShape{R, C, params.alignedHeight_, params.alignedWidth_};
  if (!topDataGrad.valid() || topDataGrad.shape() != topShape ||
      topDataGrad.elementType() != bottomData.elementType())
    throw poputil::poplibs_error(op + ": topDataGrad is " +
                                 (topDataGrad.valid() ? topDataGrad.elementType().toString() + " " +
                                                            topDataGrad.shapeToString()
                                                      : std::string("invalid")) +
                                 " but must be " + bottomData.elementType().toString() +
                                 " [numRois, C, alignedHeight, alignedWidth]");
  const Type type = bottomData.elementType();
  const Tensor grad = graph.addVariable(type, bottomData.shape(), {di, "bottomDiff"});
  const ComputeSet cs = graph.addComputeSet({di, "roiAlignGrad"});
  const std::string name =
      poputil::templateVertex("popnn::ROIAlignBackward", type, bottomBatchIndex.elementType());
  const unsigned tiles = graph.getTarget().getNumTiles();
  for (std::size_t c = 0; c < C; ++c) {
    const unsigned tile = unsigned(c % tiles);
    std::vector<Tensor> tops;
    for (std::size_t r = 0; r < R; ++r)
      tops.push_back(topDataGrad[r][c].flatten());
    const VertexRef v = graph.addVertex(cs, name);
    graph.connect(v["topDiff"], tops);
    graph.connect(v["bottomRois"], bottomRois.flatten());
    graph.connect(v["batchIndex"], bottomBatchIndex);
    graph.connect(v["bottomDiff"], channelPlanes(grad, c));
    setState(graph, v, bottomData, params);
    for (std::size_t n = 0; n < bottomData.dim(0); ++n)
      graph.setTileMapping(grad[n][c], tile);
    graph.setTileMapping(v, tile);
  }
  prog.add(program::Execute(cs, {di, "roiAlignGrad"}));
  di.addOutputs({{"backwardResult", poputil::toProfileValue(grad)}});
  return grad;
}

} // namespace popnn::experimental
