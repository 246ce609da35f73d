// RnnParams: the shape of a recurrent layer, shared by LSTM and GRU.
#include <algorithm>
#include <popnn/Rnn.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

namespace popnn {
namespace rnn {

namespace {
std::size_t bytesPerTile(const poplar::Graph& graph, const poplar::Type& type, std::size_t batch,
                         std::size_t size) {
  const std::size_t tiles = std::max(1u, graph.getTarget().getNumTiles());
  const std::size_t bytes = batch * size * graph.getTarget().getTypeSize(type);
  return (bytes + tiles - 1) / tiles;
}
} // namespace

RnnParams::RnnParams(poplar::Type dataType_, std::size_t batchSize_, std::size_t timeSteps_,
                     std::vector<std::size_t> layerSizes_)
    : dataType(dataType_), batchSize(batchSize_), maxTimeSteps(timeSteps_), timeSteps(timeSteps_),
      layerSizes(std::move(layerSizes_)) {}

RnnParams::RnnParams(poplar::Type dataType_, std::size_t batchSize_, std::size_t maxTimeSteps_,
                     const poplar::Tensor& varTimeSteps_, std::vector<std::size_t> layerSizes_)
    : dataType(dataType_), batchSize(batchSize_), maxTimeSteps(maxTimeSteps_),
      timeSteps(maxTimeSteps_), varTimeSteps(varTimeSteps_), layerSizes(std::move(layerSizes_)) {
  if (varTimeSteps.valid() && varTimeSteps.rank() != 1)
    throw poputil::poplibs_error("popnn::rnn::RnnParams: varTimeSteps must have rank 1 (one "
                                 "entry, or one per batch element), not " +
                                 std::to_string(varTimeSteps.rank()));
  if (varTimeSteps.valid() && varTimeSteps.dim(0) != 1 && varTimeSteps.dim(0) != batchSize)
    throw poputil::poplibs_error("popnn::rnn::RnnParams: varTimeSteps must have 1 or batchSize (" +
                                 std::to_string(batchSize) + ") entries, not " +
                                 std::to_string(varTimeSteps.dim(0)));
}

std::size_t RnnParams::getMaxShards(const poplar::Graph&) const {
  return 1;
}

std::size_t RnnParams::getInputBytesPerTile(const poplar::Graph& graph) const {
  return bytesPerTile(graph, dataType, batchSize, layerSizes.empty() ? 0 : layerSizes[0]);
}

std::size_t RnnParams::getOutputBytesPerTile(const poplar::Graph& graph) const {
  return bytesPerTile(graph, dataType, batchSize, layerSizes.size() < 2 ? 0 : layerSizes[1]);
}

bool RnnParams::variableTimeSteps() const {
  return varTimeSteps.valid();
}

bool RnnParams::batchVariableTimeSteps() const {
  return varTimeSteps.valid() && varTimeSteps.numElements() > 1;
}

namespace {

void checkParams(const RnnParams& params, unsigned numShards, const std::string& op) {
  if (params.layerSizes.size() != 2)
    throw poputil::poplibs_error(op + ": layerSizes must be {input size, output size}, not " +
                                 std::to_string(params.layerSizes.size()) + " sizes");
  if (!numShards) throw poputil::poplibs_error(op + ": numShards must be at least 1");
  if (!params.maxTimeSteps || !params.batchSize)
    throw poputil::poplibs_error(op + ": maxTimeSteps and batchSize must be non-zero");
}

/// A new [steps, batch, size] tensor, each step spread linearly over the tiles, so slicing a
/// step reads from every tile.
poplar::Tensor sequence(poplar::Graph& graph, const RnnParams& params, std::size_t steps,
                        std::size_t size, const poplar::DebugContext& dc) {
  poplar::Tensor t = graph.addVariable(params.dataType, {steps, params.batchSize, size}, dc);
  for (std::size_t s = 0; s < steps; ++s)
    poputil::mapTensorLinearly(graph, t[s]);
  return t;
}

} // namespace

poplar::Tensor createInitialState(poplar::Graph& graph, const RnnParams& params, bool isOutput,
                                  unsigned multiple, unsigned numShards,
                                  const poplar::DebugContext& debugContext) {
  checkParams(params, numShards, "popnn::rnn::createInitialState");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "RnnCreateInitialState");
  return sequence(graph, params, multiple, params.layerSizes[isOutput ? 1 : 0], {di, "state"});
}

poplar::Tensor createRecurrentTensor(poplar::Graph& graph, const RnnParams& params, unsigned size,
                                     unsigned numShards, const poplar::DebugContext& debugContext) {
  checkParams(params, numShards, "popnn::rnn::createRecurrentTensor");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "RnnCreateRecurrentTensor");
  return sequence(graph, params, params.maxTimeSteps, size, {di, "recurrent"});
}

poplar::Tensor createInputTensor(poplar::Graph& graph, const RnnParams& params, unsigned numShards,
                                 const poplar::DebugContext& debugContext) {
  checkParams(params, numShards, "popnn::rnn::createInputTensor");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "RnnCreateInputTensor");
  return sequence(graph, params, params.maxTimeSteps, params.layerSizes[0], {di, "input"});
}

poplar::Tensor createOutputTensor(poplar::Graph& graph, const RnnParams& params, unsigned numShards,
                                  const poplar::DebugContext& debugContext) {
  return createOutputTensor(graph, params, 1, numShards, debugContext);
}

poplar::Tensor createOutputTensor(poplar::Graph& graph, const RnnParams& params, unsigned multiple,
                                  unsigned numShards, const poplar::DebugContext& debugContext) {
  checkParams(params, numShards, "popnn::rnn::createOutputTensor");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "RnnCreateOutputTensor");
  return sequence(graph, params, std::size_t(multiple) * params.maxTimeSteps, params.layerSizes[1],
                  {di, "output"});
}

poplar::Tensor shiftRnnTensor(poplar::Graph& graph, const RnnParams& params,
                              const poplar::Tensor& tBase, const poplar::Tensor& tSingle,
                              poplar::program::Sequence& prog, unsigned numShards,
                              const poplar::DebugContext& debugContext) {
  const std::string op = "popnn::rnn::shiftRnnTensor";
  checkParams(params, numShards, op);
  if (!tBase.valid() || !tSingle.valid() || tBase.rank() < 1 || tBase.dim(0) == 0)
    throw poputil::poplibs_error(op + ": tBase and tSingle must be non-empty tensors");
  const poplar::Tensor first = tSingle.rank() == tBase.rank() ? tSingle : tSingle.expand({0});
  std::vector<std::size_t> stepShape = tBase.shape();
  stepShape[0] = 1;
  if (first.shape() != stepShape)
    throw poputil::poplibs_error(op + ": tSingle " + tSingle.shapeToString() +
                                 " is not one step of tBase " + tBase.shapeToString());
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "RnnShiftTensor");
  const poplar::Tensor copy = graph.clone(first, {di, "first"});
  prog.add(poplar::program::Copy(first, copy, false, {di, "first"}));
  return poplar::concat(copy, tBase.slice(0, tBase.dim(0) - 1));
}

} // namespace rnn
} // namespace popnn
