// Reductions over any set of dimensions.
//
// The reduction runs in two stages, as on an IPU: every tile holding input reduces its own
// elements of each output element to partials (kept on that tile), then the tile holding each
// output element combines that element's partials. Reduced dimensions are removed from the
// output shape. Input types: FLOAT, HALF (partials in FLOAT), INT and UNSIGNED_INT; the output
// type is the input type unless given (a FLOAT or HALF input may produce FLOAT or HALF). No
// options are recognised; any option given is an error.
#pragma once

#include <cstddef>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/GraphElements.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <popops/Operation.hpp>
#include <string>
#include <utility>
#include <vector>

namespace popops {

/// What a reduction computes: out = reduce(in) or, with `update`, out += reduce(in); with a
/// `scale` (a FLOAT scalar tensor) the reduction is multiplied by it first. Update and scale are
/// only meaningful for ADD and SQUARE_ADD.
struct ReduceParams {
  ReduceParams() = default;
  ReduceParams(Operation operation, bool updateOutput = false) // NOLINT: implicit, as PopLibs
      : op(operation), update(updateOutput), useScale(false) {}
  /// Scaled by `scaleBy`, which must then be a valid FLOAT scalar tensor.
  ReduceParams(Operation operation, bool updateOutput, poplar::Tensor scaleBy)
      : op(operation), update(updateOutput), useScale(true), scale(std::move(scaleBy)) {}
  // A float scale is PopLibs' removed API; deleted (as there) so it cannot convert silently.
  ReduceParams(Operation operation, float constantScale, bool updateOutput = false) = delete;

  Operation op = Operation::ADD;
  bool update = false;
  bool useScale = false; ///< whether `scale` multiplies the reduction
  poplar::Tensor scale;
};

/// Reduces `in` over `dims` into a new tensor mapped linearly over the tiles.
poplar::Tensor reduce(poplar::Graph& graph, const poplar::Tensor& in,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {});
/// The same, with the output element type given.
poplar::Tensor reduce(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Type& outType,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {});
/// Reduces into the existing tensor `out`, whose shape is in's without the reduced dimensions.
void reduceWithOutput(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Tensor& out,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {});

// The compute-set forms: the reduction's two stages add their vertices to css[0] and css[1]
// (created and appended when css has fewer), so several reductions given the same css run in
// the same compute sets; the caller executes css in order.
poplar::Tensor reduce(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Type& outType,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      std::vector<poplar::ComputeSet>& css,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {});
poplar::Tensor reduce(poplar::Graph& graph, const poplar::Tensor& in,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      std::vector<poplar::ComputeSet>& css,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {});
void reduceWithOutput(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Tensor& out,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      std::vector<poplar::ComputeSet>& css,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {});

/// One reduction of a reduceMany: `in` over `dims` with `params`, optionally to `outType`.
struct SingleReduceOp {
  poplar::Tensor in;
  std::vector<std::size_t> dims;
  ReduceParams params;
  bool useOutType;
  poplar::Type outType;
  std::string debugName;

  SingleReduceOp(poplar::Tensor in_, std::vector<std::size_t> dims_, ReduceParams params_,
                 poplar::Type outType_, std::string debugName_ = "")
      : in(std::move(in_)), dims(std::move(dims_)), params(std::move(params_)), useOutType(true),
        outType(outType_), debugName(std::move(debugName_)) {}
  SingleReduceOp(poplar::Tensor in_, std::vector<std::size_t> dims_, ReduceParams params_,
                 std::string debugName_ = "")
      : in(std::move(in_)), dims(std::move(dims_)), params(std::move(params_)), useOutType(false),
        outType(poplar::FLOAT), debugName(std::move(debugName_)) {}
};

/// Several reductions in the same two compute sets. With `outputs` empty, a new output per
/// reduction is appended to it; otherwise it holds one existing output per reduction.
void reduceMany(poplar::Graph& graph, const std::vector<SingleReduceOp>& reductions,
                std::vector<poplar::Tensor>& outputs, poplar::program::Sequence& prog,
                const poplar::DebugContext& debugContext = {},
                const poplar::OptionFlags& options = {});

} // namespace popops
