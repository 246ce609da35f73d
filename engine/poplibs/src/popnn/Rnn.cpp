// RnnParams: the shape of a recurrent layer, shared by LSTM and GRU.
#include <algorithm>
#include <popnn/Rnn.hpp>
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

} // namespace rnn
} // namespace popnn
