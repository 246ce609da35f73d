// The parameter update shared by the batch, group and layer norms:
// gamma += scale * gammaDelta, beta += scale * betaDelta.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <string>

namespace popnn {

void normParamUpdate(poplar::Graph& graph, const poplar::Tensor& gammaDelta,
                     const poplar::Tensor& betaDelta, float scale, const poplar::Tensor& gamma,
                     const poplar::Tensor& beta, poplar::program::Sequence& prog,
                     const poplar::DebugContext& di, const std::string& op);
void normParamUpdate(poplar::Graph& graph, const poplar::Tensor& gammaDelta,
                     const poplar::Tensor& betaDelta, const poplar::Tensor& scale,
                     const poplar::Tensor& gamma, const poplar::Tensor& beta,
                     poplar::program::Sequence& prog, const poplar::DebugContext& di,
                     const std::string& op);

} // namespace popnn
