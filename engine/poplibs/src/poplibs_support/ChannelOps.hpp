// Per-channel operations on activations [B][C][field...], as PopLibs builds them for biases and
// normalisation: each tile's rows (one row = the field of one batch element and channel) are
// cut into runs of consecutive channels, and one popops::AddToChannel, ScaledAddToChannel or
// ChannelMulInPlace vertex updates a run with the run's slice of the per-channel values.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <string>

namespace poplibs_support {

enum class ChannelOp {
  ADD,        ///< acts += param[c]           (popops::AddToChannel)
  SCALED_ADD, ///< acts += scale * param[c]   (popops::ScaledAddToChannel)
  MUL,        ///< acts *= param[c]           (popops::ChannelMulInPlace)
};

/// Applies `kind` in place to `acts` (rank >= 2, channels in dimension 1, no aliases) with the
/// per-channel `param` [C] of acts' element type. Errors name `op`.
void channelOpInPlace(poplar::Graph& graph, ChannelOp kind, const poplar::Tensor& acts,
                      const poplar::Tensor& param, float scale, poplar::program::Sequence& prog,
                      const poplar::DebugContext& dc, const std::string& op);

} // namespace poplibs_support
