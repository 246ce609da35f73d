// Parameters shared by PopLibs' recurrent layers (LSTM, GRU): element type, batch, time steps
// and layer sizes {input size, output size}.
// Differs from PopLibs: only RnnParams so far; the generic rnn::Rnn loop, its state and slice
// helpers are not provided yet (docs/compatibility.md), and a variable number of time steps
// (varTimeSteps) is refused by the layers.
#pragma once

#include <cstddef>
#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <vector>

namespace popnn {
namespace rnn {

struct RnnParams {
  poplar::Type dataType;
  std::size_t batchSize;
  /// The largest number of time steps (equal to timeSteps unless varTimeSteps is given).
  std::size_t maxTimeSteps;
  std::size_t timeSteps;
  /// Per batch entry, the number of steps to run (unset when all run timeSteps).
  poplar::Tensor varTimeSteps;
  /// {input size, output size}.
  std::vector<std::size_t> layerSizes;

  RnnParams(poplar::Type dataType, std::size_t batchSize, std::size_t timeSteps,
            std::vector<std::size_t> layerSizes);
  RnnParams(poplar::Type dataType, std::size_t batchSize, std::size_t maxTimeSteps,
            const poplar::Tensor& varTimeSteps, std::vector<std::size_t> layerSizes);

  /// The most pieces the time loop may be split into (1: Tessera does not shard the loop).
  std::size_t getMaxShards(const poplar::Graph& graph) const;
  /// Bytes of one step's input and output that land on each tile when spread over all tiles.
  std::size_t getInputBytesPerTile(const poplar::Graph& graph) const;
  std::size_t getOutputBytesPerTile(const poplar::Graph& graph) const;
  /// Whether varTimeSteps was given.
  bool variableTimeSteps() const;
  /// Whether varTimeSteps has one entry per batch element.
  bool batchVariableTimeSteps() const;
};

} // namespace rnn
} // namespace popnn
