// Block-sparse softmax and its gradient (popsparse/experimental/BlockSparse.hpp), built from
// popops operations over views of the non-zero blocks, as PopLibs builds them: the blocks of
// one block row, side by side, are that row's dense rows ([blockRow][blocks x blockCol]), so the
// row maxima and sums are reductions of those views; no element is copied to get there.
#include "BlockSparseImpl.hpp"
#include "poplibs_support/TileWork.hpp"

#include <limits>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>

namespace popsparse {
namespace experimental {

using namespace poplar;
using poputil::poplibs_error;

namespace {

/// The grid of a [numGroups * dim[0]][dim[1]] block-sparse matrix, after PopLibs' checks.
detail::BlockGrid gridOf(const std::array<int, 2>& dim, const std::array<int, 2>& blockSize,
                         const std::vector<unsigned char>& sparsity, unsigned numGroups,
                         const std::string& op) {
  if (numGroups == 0) throw poplibs_error(op + ": zero number of groups");
  for (int i = 0; i < 2; ++i) {
    if (dim[i] <= 0 || blockSize[i] <= 0)
      throw poplibs_error(op + ": dimension " + std::to_string(i) + " (" + std::to_string(dim[i]) +
                          ") and block size dimension " + std::to_string(i) + " (" +
                          std::to_string(blockSize[i]) + ") must be positive");
    if (dim[i] % blockSize[i] != 0)
      throw poplibs_error(op + ": input dimension " + std::to_string(i) + ": " +
                          std::to_string(dim[i]) + " is not divisible by block size dimension " +
                          std::to_string(i) + ": " + std::to_string(blockSize[i]));
  }
  const std::size_t rows = std::size_t(dim[0] / blockSize[0]) * numGroups;
  const std::size_t cols = std::size_t(dim[1] / blockSize[1]);
  if (sparsity.size() != rows * cols)
    throw poplibs_error(op + ": the sparsity mask has " + std::to_string(sparsity.size()) +
                        " entries; " + std::to_string(rows) + " x " + std::to_string(cols) +
                        " blocks need as many");
  return detail::BlockGrid(std::size_t(blockSize[0]), std::size_t(blockSize[1]), rows, cols,
                           sparsity.data());
}

Tensor softmax(Graph& graph, const Tensor& sparse, bool inPlace, const std::array<int, 2>& dim,
               const std::array<int, 2>& blockSize, const std::vector<unsigned char>& sparsity,
               SubBlockMask mask, unsigned numGroups, program::Sequence& prog,
               const poputil::PoplibsOpDebugInfo& di, const std::string& op) {
  const detail::BlockGrid grid = gridOf(dim, blockSize, sparsity, numGroups, op);
  detail::checkSparseTensor(sparse, grid, op, "sparse tensor");
  const Type type = sparse.elementType();
  Tensor target = sparse;
  if (!inPlace) {
    target = graph.clone(sparse, {di, "BSSoftMax/source_copy"});
    prog.add(program::Copy(sparse, target, false, {di}));
  }
  // Masked elements become the type's lowest value, so exp() makes them 0.
  const float lowest =
      type == FLOAT ? std::numeric_limits<float>::lowest() : -65504.0f; // half's lowest
  const std::size_t groupRows = std::size_t(dim[0]);
  detail::applySubBlockMask(graph, target, grid, mask, groupRows, lowest, prog, {di, "BSSoftMax"},
                            op);

  // Each block row's rows that keep at least one element (the others stay lowest -> 0).
  std::vector<Tensor> rows;
  for (std::size_t br = 0; br < grid.blockRows; ++br) {
    const Tensor view = detail::blockRowView(target, grid, br);
    if (!view.valid()) continue;
    std::vector<Tensor> kept;
    for (std::size_t i = 0; i < grid.blockRow; ++i) {
      const std::size_t r = br * grid.blockRow + i;
      bool any = mask == SubBlockMask::None;
      for (std::size_t bc = 0; bc < grid.blockCols && !any; ++bc)
        if (grid.at(br, bc) >= 0)
          for (std::size_t j = 0; j < grid.blockCol && !any; ++j)
            any = !detail::maskedOut(mask, r, bc * grid.blockCol + j, groupRows);
      if (any) kept.push_back(view[i].expand({0}));
    }
    if (!kept.empty()) rows.push_back(concat(kept));
  }
  if (rows.empty()) { // every element masked: all zeros
    popops::expInPlace(graph, target, prog, {di, "BSSoftMax"});
    return target;
  }
  // The rows' maxima, all block rows' reductions in the same compute sets.
  std::vector<ComputeSet> css;
  std::vector<Tensor> maxima;
  for (const auto& r : rows)
    maxima.push_back(
        popops::reduce(graph, r, {1}, popops::Operation::MAX, css, {di, "BSSoftMax/max"}));
  for (const auto& cs : css)
    prog.add(program::Execute(cs, {di}));
  std::vector<Tensor> flatRows, flatMax;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    flatRows.push_back(rows[i].flatten());
    flatMax.push_back(maxima[i].expand({1}).broadcast(unsigned(rows[i].dim(1)), 1).flatten());
  }
  const Tensor allRows = concat(flatRows);
  popops::subInPlace(graph, allRows, concat(flatMax), prog, {di, "BSSoftMax/sub"});
  popops::expInPlace(graph, target, prog, {di, "BSSoftMax/exp"});
  css.clear();
  std::vector<Tensor> sums;
  for (const auto& r : rows)
    sums.push_back(
        popops::reduce(graph, r, FLOAT, {1}, popops::Operation::ADD, css, {di, "BSSoftMax/sum"}));
  for (const auto& cs : css)
    prog.add(program::Execute(cs, {di}));
  std::vector<Tensor> flatSums;
  for (const auto& s : sums)
    flatSums.push_back(s.flatten());
  Tensor inverse = concat(flatSums);
  popops::invInPlace(graph, inverse, prog, {di, "BSSoftMax/inv"});
  if (type == HALF) inverse = popops::cast(graph, inverse, HALF, prog, {di, "BSSoftMax/cast"});
  std::vector<Tensor> flatInv;
  std::size_t at = 0;
  for (const auto& r : rows) {
    flatInv.push_back(
        inverse.slice(at, at + r.dim(0)).expand({1}).broadcast(unsigned(r.dim(1)), 1).flatten());
    at += r.dim(0);
  }
  popops::mulInPlace(graph, allRows, concat(flatInv), prog, {di, "BSSoftMax/scale"});
  return target;
}

} // namespace

Tensor bsSoftmax(Graph& graph, Tensor sparseTensor, const std::array<int, 2>& dim,
                 const std::array<int, 2>& blockSize, const std::vector<unsigned char>& sparsity,
                 SubBlockMask subBlockMaskType, unsigned numGroups, program::Sequence& prog,
                 const DebugContext& debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, {}, "bsSoftmax");
  const Tensor out = softmax(graph, sparseTensor, false, dim, blockSize, sparsity, subBlockMaskType,
                             numGroups, prog, di, "popsparse::experimental::bsSoftmax");
  di.addOutput(out);
  return out;
}

void bsSoftmaxInPlace(Graph& graph, Tensor sparseTensor, const std::array<int, 2>& dim,
                      const std::array<int, 2>& blockSize,
                      const std::vector<unsigned char>& sparsity, SubBlockMask subBlockMaskType,
                      unsigned numGroups, program::Sequence& prog,
                      const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "bsSoftmaxInPlace");
  softmax(graph, sparseTensor, true, dim, blockSize, sparsity, subBlockMaskType, numGroups, prog,
          di, "popsparse::experimental::bsSoftmaxInPlace");
}

Tensor bsSoftmaxGrad(Graph& graph, Tensor sparseOut, Tensor sparseOutGrad,
                     const std::array<int, 2>& dim, const std::array<int, 2>& blockSize,
                     const std::vector<unsigned char>& sparsity, program::Sequence& prog,
                     const DebugContext& debugContext) {
  const std::string op = "popsparse::experimental::bsSoftmaxGrad";
  poputil::PoplibsOpDebugInfo di(debugContext, {}, "bsSoftmaxGrad");
  const detail::BlockGrid grid = gridOf(dim, blockSize, sparsity, 1, op);
  detail::checkSparseTensor(sparseOut, grid, op, "activations (sparseOut)");
  detail::checkSparseTensor(sparseOutGrad, grid, op, "gradients (sparseOutGrad)");
  if (sparseOut.elementType() != sparseOutGrad.elementType())
    throw poplibs_error(op + ": activation and gradient tensors must be of the same type, not " +
                        sparseOut.elementType().toString() + " and " +
                        sparseOutGrad.elementType().toString());
  // out * g, then each row's sum of it broadcast over the row's blocks.
  const Tensor product = popops::mul(graph, sparseOut, sparseOutGrad, prog, {di, "BSSoftMaxGrad"});
  std::vector<ComputeSet> css;
  std::vector<Tensor> rowSums(grid.blockRows);
  for (std::size_t br = 0; br < grid.blockRows; ++br) {
    const Tensor view = detail::blockRowView(product, grid, br);
    if (view.valid())
      rowSums[br] =
          popops::reduce(graph, view, {1}, popops::Operation::ADD, css, {di, "BSSoftMaxGrad/sum"});
  }
  for (const auto& cs : css)
    prog.add(program::Execute(cs, {di}));
  std::vector<Tensor> broadcast;
  for (std::size_t br = 0; br < grid.blockRows; ++br)
    for (std::size_t bc = 0; bc < grid.blockCols; ++bc)
      if (grid.at(br, bc) >= 0)
        broadcast.push_back(
            rowSums[br].expand({1}).broadcast(unsigned(grid.blockCol), 1).flatten().expand({0}));
  const Tensor scaled =
      popops::mul(graph, sparseOut, concat(broadcast), prog, {di, "BSSoftMaxGrad/scale"});
  popops::subInPlace(graph, product, scaled, prog, {di, "BSSoftMaxGrad/sub"});
  di.addOutput(product);
  return product;
}

} // namespace experimental
} // namespace popsparse
