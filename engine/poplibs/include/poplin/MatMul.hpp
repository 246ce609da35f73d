// Matrix multiplication C[M,N] = A[M,K] . B[K,N] spread over the tiles.
//
// As in PopLibs, a product is a 1x1 convolution planned by the convolution planner: batch = M
// (A's rows), input channels = K, output channels = N, a field and kernel of one element, and a
// grouped product A [G,M,K] x B [G,K,N] -> [G,M,N] has G conv groups. The plan splits the batch,
// K and N over the tiles; each piece runs as a poplin::ConvPartial1x1Out vertex (or
// ConvPartialHorizontalMac when its K block is not whole AMP input groups), and when K is split,
// poplin::ReduceAdd vertices sum the pieces' partials where the output lives. matMulReportPlan
// prints the plan with the compute sets' cycles the profile will show. Inputs whose rows are not
// contiguous in memory (a transposed weight, say) are first rearranged into the layout
// createMatMulInputLHS/RHS would give.
//
// Types: A and B are both FLOAT or both HALF; the output is FLOAT or HALF. Options:
//   "partialsType": "float" (default) or "half" -- the type partial sums are accumulated in;
//   "fullyConnectedPass": the convolution's FC_ pass; "availableMemoryProportion".
// Differs from PopLibs: the other PopLibs matmul options ("inputRHSIsPreArranged",
// "use128BitConvUnitLoad", "enableMultiStageReduce", "enableFastReduce", "remapOutputTensor",
// "gatherOutput", "planConstraints", ...) are checked and change nothing. Operands keep their
// row-major layouts (channels innermost) rather than PopLibs' grouped AMP layouts.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <map>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <poplin/Convolution.hpp>
#include <set>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace poplin {

/// The planning cache is poplin::PlanningCache (poplin/Convolution.hpp), as in SDK 3; older
/// SDKs' poplin::matmul::PlanningCache (below) derives from it, so either is accepted. It holds
/// the products' convolution plans.
namespace matmul {
class PlanningCache;
} // namespace matmul

/// A . B as a new tensor of A's element type.
poplar::Tensor matMul(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);
/// A . B as a new tensor of `outputType`.
poplar::Tensor matMul(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,
                      poplar::program::Sequence& prog, const poplar::Type& outputType,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);
/// A . B written into the existing [M,N] tensor `out` (PopLibs' spelling takes `Tensor&`; the
/// const overload also takes views and temporaries).
void matMulWithOutput(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,
                      poplar::Tensor& out, poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);
void matMulWithOutput(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,
                      const poplar::Tensor& out, poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);

/// C += k . A . B (C [M,N]); `k` a float or a one-element tensor. The product is made in C's
/// element type and added by popops::scaledAddTo.
void matMulAcc(poplar::Graph& graph, const poplar::Tensor& C, float k, const poplar::Tensor& A,
               const poplar::Tensor& B, poplar::program::Sequence& prog,
               const poplar::DebugContext& debugContext = {},
               const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);
void matMulAcc(poplar::Graph& graph, const poplar::Tensor& C, const poplar::Tensor& k,
               const poplar::Tensor& A, const poplar::Tensor& B, poplar::program::Sequence& prog,
               const poplar::DebugContext& debugContext = {},
               const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);

/// The grouped product A [G,M,K] . B [G,K,N] as a new [G,M,N] tensor of `outputType`.
poplar::Tensor matMulGrouped(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,
                             poplar::program::Sequence& prog, const poplar::Type& outputType,
                             const poplar::DebugContext& debugContext = {},
                             const poplar::OptionFlags& options = {},
                             PlanningCache* cache = nullptr);
/// The grouped product written into the existing [G,M,N] tensor `out`.
void matMulGroupedWithOutput(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,
                             poplar::Tensor& out, poplar::program::Sequence& prog,
                             const poplar::DebugContext& debugContext = {},
                             const poplar::OptionFlags& options_ = {},
                             PlanningCache* cache = nullptr);
/// C [G,M,N] += k . A . B, group by group.
void matMulGroupedAcc(poplar::Graph& graph, const poplar::Tensor& C, float k,
                      const poplar::Tensor& A, const poplar::Tensor& B,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);
void matMulGroupedAcc(poplar::Graph& graph, const poplar::Tensor& C, const poplar::Tensor& k,
                      const poplar::Tensor& A, const poplar::Tensor& B,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);

/// A new [M,K] left operand of `inputType` for a product with shapes aShape x bShape, mapped
/// so that each piece lives on a tile that multiplies it. `outputType` is the product's.
poplar::Tensor createMatMulInputLHS(poplar::Graph& graph, const poplar::Type& inputType,
                                    const poplar::Type& outputType,
                                    const std::vector<std::size_t>& aShape,
                                    const std::vector<std::size_t>& bShape,
                                    const poplar::DebugContext& debugContext,
                                    const poplar::OptionFlags& options = {},
                                    PlanningCache* cache = nullptr);
poplar::Tensor createMatMulInputLHS(poplar::Graph& graph, const poplar::Type& inputType,
                                    const std::vector<std::size_t>& aShape,
                                    const std::vector<std::size_t>& bShape,
                                    const poplar::DebugContext& debugContext = {},
                                    const poplar::OptionFlags& options = {},
                                    PlanningCache* cache = nullptr);
/// A new [K,N] right operand, mapped likewise.
poplar::Tensor createMatMulInputRHS(poplar::Graph& graph, const poplar::Type& inputType,
                                    const poplar::Type& outputType,
                                    const std::vector<std::size_t>& aShape,
                                    const std::vector<std::size_t>& bShape,
                                    const poplar::DebugContext& debugContext,
                                    const poplar::OptionFlags& options = {},
                                    PlanningCache* cache = nullptr);
poplar::Tensor createMatMulInputRHS(poplar::Graph& graph, const poplar::Type& inputType,
                                    const std::vector<std::size_t>& aShape,
                                    const std::vector<std::size_t>& bShape,
                                    const poplar::DebugContext& debugContext = {},
                                    const poplar::OptionFlags& options = {},
                                    PlanningCache* cache = nullptr);

/// A new [M,N] output of the product, mapped where matMul writes it.
poplar::Tensor
createMatMulOutput(poplar::Graph& graph, const poplar::Type& inputType,
                   const poplar::Type& outputType, const std::vector<std::size_t>& aShape,
                   const std::vector<std::size_t>& bShape, const poplar::DebugContext& debugContext,
                   const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);
poplar::Tensor createMatMulOutput(poplar::Graph& graph, const poplar::Type& dataType,
                                  const std::vector<std::size_t>& aShape,
                                  const std::vector<std::size_t>& bShape,
                                  const poplar::DebugContext& debugContext,
                                  const poplar::OptionFlags& options = {},
                                  PlanningCache* cache = nullptr);

/// The grouped operands and output: aShape [G,M,K], bShape [G,K,N]; each group on its tiles.
poplar::Tensor createMatMulGroupedInputLHS(poplar::Graph& graph, const poplar::Type& inputType,
                                           const poplar::Type& outputType,
                                           const std::vector<std::size_t>& aShape,
                                           const std::vector<std::size_t>& bShape,
                                           const poplar::DebugContext& debugContext,
                                           const poplar::OptionFlags& options = {},
                                           PlanningCache* cache = nullptr);
poplar::Tensor createMatMulGroupedInputRHS(poplar::Graph& graph, const poplar::Type& inputType,
                                           const poplar::Type& outputType,
                                           const std::vector<std::size_t>& aShape,
                                           const std::vector<std::size_t>& bShape,
                                           const poplar::DebugContext& debugContext,
                                           const poplar::OptionFlags& options = {},
                                           PlanningCache* cache = nullptr);
poplar::Tensor createMatMulGroupedOutput(poplar::Graph& graph, const poplar::Type& inputType,
                                         const poplar::Type& outputType,
                                         const std::vector<std::size_t>& aShape,
                                         const std::vector<std::size_t>& bShape,
                                         const poplar::DebugContext& debugContext,
                                         const poplar::OptionFlags& options = {},
                                         PlanningCache* cache = nullptr);

/// `B` laid out as createMatMulInputRHS lays it out (a copy added to `prog`, or `B` itself when
/// its rows are already contiguous), for reuse across several products.
poplar::Tensor preArrangeMatMulInputRHS(poplar::Graph& graph,
                                        const std::vector<std::size_t>& aShape,
                                        const poplar::Tensor& B, poplar::program::Sequence& prog,
                                        const poplar::Type& outputType,
                                        const poplar::DebugContext& debugContext = {},
                                        const poplar::OptionFlags& options = {},
                                        PlanningCache* cache = nullptr);
poplar::Tensor preArrangeMatMulInputRHS(poplar::Graph& graph,
                                        const std::vector<std::size_t>& aShape,
                                        const poplar::Tensor& B, poplar::program::Sequence& prog,
                                        const poplar::DebugContext& debugContext = {},
                                        const poplar::OptionFlags& options = {},
                                        PlanningCache* cache = nullptr);
poplar::Tensor preArrangeMatMulGroupedInputRHS(
    poplar::Graph& graph, const std::vector<std::size_t>& aShape, const poplar::Tensor& B,
    poplar::program::Sequence& prog, const poplar::Type& outputType,
    const poplar::DebugContext& debugContext = {}, const poplar::OptionFlags& options = {},
    PlanningCache* cache = nullptr);

/// [G,M,N] -> [G,N,M] (a view).
poplar::Tensor transposeGroupedMatrix(const poplar::Tensor& A);

/// Writes the plan matMul would use for these shapes on `graph`'s tiles: block sizes, how K is
/// split, the number of vertices and the modelled cycles of each stage.
void matMulReportPlan(std::ostream& out, const poplar::Graph& graph, const poplar::Type& inputType,
                      const poplar::Type& outputType, const std::vector<std::size_t>& aShape,
                      const std::vector<std::size_t>& bShape,
                      const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);

/// As matMulReportPlan, for a grouped product (shapes [G,M,K], [G,K,N]): the number of groups,
/// the tiles each gets, and one group's plan.
void matMulGroupedReportPlan(std::ostream& out, const poplar::Graph& graph,
                             const poplar::Type& inputType, const poplar::Type& outputType,
                             const std::vector<std::size_t>& aShape,
                             const std::vector<std::size_t>& bShape,
                             const poplar::OptionFlags& options = {},
                             PlanningCache* cache = nullptr);

/// A product to plan ahead of time.
struct MatMulParams {
  /// Type of A and B.
  poplar::Type inputType;
  /// Type of the product.
  poplar::Type outputType;
  std::vector<std::size_t> aShape;
  std::vector<std::size_t> bShape;
  friend bool operator<(const MatMulParams& a, const MatMulParams& b);
};

using MatMulPlanParams =
    std::tuple<const poplar::Target*, const MatMulParams, const poplar::OptionFlags*>;
using MatMulToConvOptions = std::unordered_map<const poplar::OptionFlags*, poplar::OptionFlags>;

/// Each product as the convolution PopLibs would run it (a 1-D field of M, kernel 1, K input and
/// N output channels per group; a grouped product's groups as conv groups), with the
/// convolution options derived from its options in `matmulToConvOpts`.
std::set<ConvPlanParams> matMulGetConvPlanParams(const std::set<MatMulPlanParams>& matmuls,
                                                 MatMulToConvOptions& matmulToConvOpts);
/// Checks each product's shapes, types and options (plans are made when the products are).
void preplanMatMuls(const std::set<MatMulPlanParams>& matmuls, matmul::PlanningCache& cache);
/// Throws poplar::invalid_option for an option matMul does not know or a bad value.
void matmulValidateOptions(const poplar::OptionFlags& options);

namespace matmul {
/// SDK 2's name of the planning cache.
class PlanningCache : public poplin::PlanningCache {
public:
  poplin::PlanningCache& getImpl();
};
} // namespace matmul

} // namespace poplin
