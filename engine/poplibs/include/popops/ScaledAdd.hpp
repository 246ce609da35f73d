// Scaled accumulation into a tensor: A = scaleA * A + scaleB * B. Its own header, as in
// PopLibs; popops/ElementWise.hpp includes it, where Tessera declared these first.
//
// A and B have one shape (B may also broadcast to A's). B is converted to A's type first, as
// are tensor scales (one-element tensors, read on the device, so a program can change them
// between runs). With a float scale on FLOAT or HALF tensors of one type the work runs in
// PopLibs' popops::ScaledAdd vertices; the other forms run one fused expression vertex
// (popops::map::...). Options: "optimizeForSpeed" and "scaleFloatToHalfTolerance" are
// accepted (Tessera's result does not depend on them); any other option is an error.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// DEFAULT: A = scaleA * A + scaleB * B. X_MINUS_AX_PLUS_BY: A = A - scaleA * A + scaleB * B.
enum class ScaledAddSpecialisation { DEFAULT, X_MINUS_AX_PLUS_BY };

/// A += scaleB * B.
void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B, float scaleB,
                 poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {},
                 const poplar::OptionFlags& options = {});
/// A += scaleB * B with a one-element tensor scaleB.
void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B, poplar::Tensor scaleB,
                 poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {},
                 const poplar::OptionFlags& options = {});
/// A -= scaleB * B.
void scaledSubtractFrom(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B, float scaleB,
                        poplar::program::Sequence& prog,
                        const poplar::DebugContext& debugContext = {},
                        const poplar::OptionFlags& options = {});
void scaledSubtractFrom(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B,
                        poplar::Tensor scaleB, poplar::program::Sequence& prog,
                        const poplar::DebugContext& debugContext = {},
                        const poplar::OptionFlags& options = {});

/// A = scaleA * A + scaleB * B with one-element tensor scales.
void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor scaleA, poplar::Tensor B,
                 poplar::Tensor scaleB, poplar::program::Sequence& prog,
                 const poplar::DebugContext& debugContext = {},
                 const poplar::OptionFlags& options = {});
void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor scaleA, poplar::Tensor B,
                 poplar::Tensor scaleB, poplar::program::Sequence& prog,
                 const ScaledAddSpecialisation speciality,
                 const poplar::DebugContext& debugContext = {},
                 const poplar::OptionFlags& options = {});
/// A = scaleA * A + scaleB * B with constant scales.
void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, float scaleA, poplar::Tensor B,
                 float scaleB, poplar::program::Sequence& prog,
                 const poplar::DebugContext& debugContext = {},
                 const poplar::OptionFlags& options = {});
void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, float scaleA, poplar::Tensor B,
                 float scaleB, poplar::program::Sequence& prog,
                 const ScaledAddSpecialisation speciality,
                 const poplar::DebugContext& debugContext = {},
                 const poplar::OptionFlags& options = {});
/// A = scaleA * A - scaleB * B.
void scaledSubtractFrom(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor scaleA,
                        poplar::Tensor B, poplar::Tensor scaleB, poplar::program::Sequence& prog,
                        const poplar::DebugContext& debugContext = {},
                        const poplar::OptionFlags& options = {});
void scaledSubtractFrom(poplar::Graph& graph, poplar::Tensor A, float scaleA, poplar::Tensor B,
                        float scaleB, poplar::program::Sequence& prog,
                        const poplar::DebugContext& debugContext = {},
                        const poplar::OptionFlags& options = {});

} // namespace popops
