// Matrix multiplication C[M,N] = A[M,K] . B[K,N] spread over the tiles.
//
// The planner cuts C into blocks of rows x columns and K into chunks so that about every tile
// gets one block-chunk product (a "partial"). Stage 1 computes the partials, each on its own
// tile; when K is split, stage 2 sums each element's partials on the tile holding it. Inputs
// whose rows are not contiguous in memory (a transposed weight, say) are first rearranged into
// the layout createMatMulInputLHS/RHS would give, as PopLibs does.
//
// Types: A and B are both FLOAT or both HALF; the output is FLOAT or HALF. Options:
//   "partialsType": "float" (default) or "half" -- the type partial sums are accumulated in.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <poplin/Convolution.hpp>
#include <vector>

namespace poplin {

/// The planning cache is poplin::PlanningCache (poplin/Convolution.hpp), as in SDK 3; older
/// SDKs name it poplin::matmul::PlanningCache, which stays an alias. MatMul plans are cheap to
/// compute here and are not cached.
namespace matmul {
using PlanningCache = poplin::PlanningCache;
} // namespace matmul

/// A . B as a new tensor of A's element type.
poplar::Tensor matMul(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {},
                      matmul::PlanningCache* cache = nullptr);
/// A . B as a new tensor of `outputType`.
poplar::Tensor matMul(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,
                      poplar::program::Sequence& prog, const poplar::Type& outputType,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {},
                      matmul::PlanningCache* cache = nullptr);
/// A . B written into the existing [M,N] tensor `out`.
void matMulWithOutput(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,
                      const poplar::Tensor& out, poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {},
                      matmul::PlanningCache* cache = nullptr);

/// A new [M,K] left operand of `inputType` for a product with shapes aShape x bShape, mapped
/// so that each piece lives on a tile that multiplies it.
poplar::Tensor createMatMulInputLHS(poplar::Graph& graph, const poplar::Type& inputType,
                                    const std::vector<std::size_t>& aShape,
                                    const std::vector<std::size_t>& bShape,
                                    const poplar::DebugContext& debugContext = {},
                                    const poplar::OptionFlags& options = {},
                                    matmul::PlanningCache* cache = nullptr);
/// A new [K,N] right operand, mapped likewise.
poplar::Tensor createMatMulInputRHS(poplar::Graph& graph, const poplar::Type& inputType,
                                    const std::vector<std::size_t>& aShape,
                                    const std::vector<std::size_t>& bShape,
                                    const poplar::DebugContext& debugContext = {},
                                    const poplar::OptionFlags& options = {},
                                    matmul::PlanningCache* cache = nullptr);

/// Writes the plan matMul would use for these shapes on `graph`'s tiles: block sizes, how K is
/// split, the number of vertices and the modelled cycles of each stage.
void matMulReportPlan(std::ostream& out, const poplar::Graph& graph, const poplar::Type& inputType,
                      const poplar::Type& outputType, const std::vector<std::size_t>& aShape,
                      const std::vector<std::size_t>& bShape,
                      const poplar::OptionFlags& options = {},
                      matmul::PlanningCache* cache = nullptr);

} // namespace poplin
