// Creating the output of an element-wise operation so that the work is balanced over the
// tiles and the operands need little exchange.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <vector>

namespace popops {

/// A new tensor of `outputType` with the inputs' (common) shape: mapped like the input whose
/// elements are spread over the most tiles without aliases, else linearly over all tiles.
poplar::Tensor createOutputForElementWiseOp(poplar::Graph& graph,
                                            const std::vector<poplar::Tensor>& inputs,
                                            const poplar::Type& outputType,
                                            const poplar::DebugContext& debugContext = {});

} // namespace popops
