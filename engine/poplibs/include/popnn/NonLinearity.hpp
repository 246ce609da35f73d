// Activation functions and their gradients, for FLOAT and HALF tensors of any shape.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/GraphElements.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popnn/NonLinearityDef.hpp>

namespace popnn {

// fnInPlace(graph, t, prog) and fnInPlace(graph, t, scaling, prog) for one non-linearity.
#define DEF_NONLINEARITY_INPLACE(fn, nlType)                                                       \
  inline void fn##InPlace(poplar::Graph& graph, poplar::Tensor t, poplar::program::Sequence& prog, \
                          const poplar::DebugContext& debugContext = {}) {                         \
    nonLinearityInPlace(graph, nlType, t, prog, debugContext);                                     \
  }                                                                                                \
  inline void fn##InPlace(poplar::Graph& graph, poplar::Tensor t, float& nonLinearityScaling,      \
                          poplar::program::Sequence& prog,                                         \
                          const poplar::DebugContext& debugContext = {}) {                         \
    nonLinearityInPlace(graph, nlType, t, nonLinearityScaling, prog, debugContext);                \
  }

// fn(graph, t, prog) and fn(graph, t, scaling, prog), returning a new tensor.
#define DEF_NONLINEARITY_(fn, nlType)                                                              \
  inline poplar::Tensor fn(poplar::Graph& graph, poplar::Tensor t,                                 \
                           poplar::program::Sequence& prog,                                        \
                           const poplar::DebugContext& debugContext = {}) {                        \
    return nonLinearity(graph, nlType, t, prog, debugContext);                                     \
  }                                                                                                \
  inline poplar::Tensor fn(poplar::Graph& graph, poplar::Tensor t, float& nonLinearityScaling,     \
                           poplar::program::Sequence& prog,                                        \
                           const poplar::DebugContext& debugContext = {}) {                        \
    return nonLinearity(graph, nlType, t, nonLinearityScaling, prog, debugContext);                \
  }

#define DEF_NONLINEARITY(fn, nlType)                                                               \
  DEF_NONLINEARITY_INPLACE(fn, nlType)                                                             \
  DEF_NONLINEARITY_(fn, nlType)

/// t = f(t); t must not contain aliased elements.
void nonLinearityInPlace(poplar::Graph& graph, NonLinearityType nonLinearityType, poplar::Tensor t,
                         poplar::program::Sequence& prog,
                         const poplar::DebugContext& debugContext = {});
/// The same, adding the vertices to `cs` (not for the softmaxes, which take several steps).
void nonLinearityInPlace(poplar::Graph& graph, NonLinearityType nonLinearityType, poplar::Tensor t,
                         poplar::ComputeSet& cs, const poplar::DebugContext& debugContext = {});
/// The same, setting nonLinearityScaling to the factor the outputs are multiplied by (1 except
/// for SOFTMAX_SCALED).
void nonLinearityInPlace(poplar::Graph& graph, NonLinearityType nonLinearityType, poplar::Tensor t,
                         float& nonLinearityScaling, poplar::program::Sequence& prog,
                         const poplar::DebugContext& debugContext = {});
void nonLinearityInPlace(poplar::Graph& graph, NonLinearityType nonLinearityType, poplar::Tensor t,
                         float& nonLinearityScaling, poplar::ComputeSet& cs,
                         const poplar::DebugContext& debugContext = {});

/// f(t) as a new tensor mapped like t.
poplar::Tensor nonLinearity(poplar::Graph& graph, NonLinearityType nonLinearityType,
                            poplar::Tensor t, poplar::program::Sequence& prog,
                            const poplar::DebugContext& debugContext = {});
poplar::Tensor nonLinearity(poplar::Graph& graph, NonLinearityType nonLinearityType,
                            poplar::Tensor t, float& nonLinearityScaling,
                            poplar::program::Sequence& prog,
                            const poplar::DebugContext& debugContext = {});

DEF_NONLINEARITY(sigmoid, NonLinearityType::SIGMOID)
DEF_NONLINEARITY(relu, NonLinearityType::RELU)
DEF_NONLINEARITY(tanh, NonLinearityType::TANH)
DEF_NONLINEARITY(gelu, NonLinearityType::GELU)
DEF_NONLINEARITY(geluErf, NonLinearityType::GELU_ERF)
DEF_NONLINEARITY(swish, NonLinearityType::SWISH)
DEF_NONLINEARITY(softmax, NonLinearityType::SOFTMAX)
DEF_NONLINEARITY(softmaxStable, NonLinearityType::SOFTMAX_STABLE)
DEF_NONLINEARITY(scaledSoftmaxStable, NonLinearityType::SOFTMAX_SCALED)

/// The gradient with respect to the non-linearity's input, given the gradient with respect to
/// its output. As in PopLibs, `act` is the forward output f(x), except for GELU, GELU_ERF and
/// SWISH, whose gradients cannot be expressed in their outputs: there `act` is the input x.
poplar::Tensor nonLinearityInputGradient(poplar::Graph& graph, NonLinearityType nonLinearityType,
                                         poplar::Tensor act, poplar::Tensor outGradient,
                                         poplar::ComputeSet& cs,
                                         const poplar::DebugContext& debugContext = {});
poplar::Tensor nonLinearityInputGradient(poplar::Graph& graph, NonLinearityType nonLinearityType,
                                         poplar::Tensor act, poplar::Tensor outGradient,
                                         poplar::program::Sequence& prog,
                                         const poplar::DebugContext& debugContext = {});

} // namespace popnn
