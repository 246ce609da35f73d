// Activation functions and their gradients, for FLOAT and HALF tensors of any shape.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popnn/NonLinearityDef.hpp>

namespace popnn {

/// f(t) as a new tensor mapped like t.
poplar::Tensor nonLinearity(poplar::Graph& graph, NonLinearityType nonLinearityType,
                            poplar::Tensor t, poplar::program::Sequence& prog,
                            const poplar::DebugContext& debugContext = {});
/// t = f(t); t must not contain aliased elements.
void nonLinearityInPlace(poplar::Graph& graph, NonLinearityType nonLinearityType, poplar::Tensor t,
                         poplar::program::Sequence& prog,
                         const poplar::DebugContext& debugContext = {});

/// The gradient with respect to the non-linearity's input, given the gradient with respect to
/// its output. As in PopLibs, `act` is the forward output f(x), except for GELU, whose gradient
/// cannot be expressed in its output: there `act` is the forward input x.
poplar::Tensor nonLinearityInputGradient(poplar::Graph& graph, NonLinearityType nonLinearityType,
                                         poplar::Tensor act, poplar::Tensor outGradient,
                                         poplar::program::Sequence& prog,
                                         const poplar::DebugContext& debugContext = {});

} // namespace popnn
