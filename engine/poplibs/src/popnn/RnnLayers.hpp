// What popnn's recurrent layers (LSTM, GRU) share: the argument checks, how a layer's tensors
// are made and viewed, and the parsing of PopLibs' layer options. Private to popnn.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Tensor.hpp>
#include <popnn/Rnn.hpp>
#include <string>
#include <vector>

namespace popnn {
namespace rnn_layers {

/// T time steps, B batch, I input size, H output size.
struct Dims {
  std::size_t T, B, I, H;
};

/// Checks the shape of a layer (two layer sizes, all non-zero, float or half, a fixed number
/// of time steps); errors name `op`. Takes the layer params' own (deprecated in PopLibs) copies
/// of the fields, which code written for older SDKs still sets, and `rnn` for varTimeSteps.
Dims dimsOf(const rnn::RnnParams& rnn, const poplar::Type& dataType, std::size_t batchSize,
            std::size_t timeSteps, const std::vector<std::size_t>& layerSizes,
            const std::string& op);

/// Same, from a layer's params struct (LstmParams, GruParams).
template <class Params> Dims dimsOf(const Params& p, const std::string& op) {
  return dimsOf(p.rnn, p.dataType, p.batchSize, p.timeSteps, p.layerSizes, op);
}

/// Throws poputil::poplibs_error naming `op` and `what` unless `t` is valid with shape `want`.
void checkShape(const poplar::Tensor& t, const std::vector<std::size_t>& want,
                const std::string& op, const std::string& what);

/// A new variable spread linearly over the tiles.
poplar::Tensor newTensor(poplar::Graph& graph, const poplar::Type& type,
                         const std::vector<std::size_t>& shape, const poplar::DebugContext& dc);

/// [U,X,H] per-unit weights as the [X,U*H] matrix the matmuls take (a view).
poplar::Tensor unitsAsMatrix(const poplar::Tensor& w);

/// [X,U*H] matrix back to [U,X,H] per-unit weights (a view).
poplar::Tensor matrixAsUnits(const poplar::Tensor& m, std::size_t units);

/// The tensors stacked along a new dimension `dim` (views, no copies).
poplar::Tensor stack(const std::vector<poplar::Tensor>& ts, unsigned dim);

/// Where each unit lies along the weights' first dimension: pos[unit] = index in `order`.
/// Each of the `numUnits` units must appear exactly once.
std::vector<unsigned> unitPositions(const std::vector<unsigned>& order, unsigned numUnits,
                                    const std::string& op);

/// Checks PopLibs' layer options (`known` lists the layer's option names; values of the shared
/// ones are checked) and returns the options the layer's matmuls take.
poplar::OptionFlags checkLayerOptions(const poplar::OptionFlags& options,
                                      std::initializer_list<const char*> known,
                                      const std::string& op);

} // namespace rnn_layers
} // namespace popnn
