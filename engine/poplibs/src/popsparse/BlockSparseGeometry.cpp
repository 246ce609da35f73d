// Block geometry shared by block-sparse matmul and softmax (BlockSparseImpl.hpp).
#include "BlockSparseImpl.hpp"

#include <map>
#include <popops/ElementWise.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

namespace popsparse {
namespace experimental {

std::size_t BSMatMulImpl::nonZeroBlocks(unsigned g) const {
  std::size_t n = 0;
  const std::size_t per = masksPerGroup();
  for (std::size_t i = g * per; i < (g + 1) * per; ++i)
    n += sparsity[i] ? 1 : 0;
  return n;
}

namespace detail {

using poputil::poplibs_error;

BlockGrid::BlockGrid(std::size_t blockRow_, std::size_t blockCol_, std::size_t blockRows_,
                     std::size_t blockCols_, const unsigned char* mask)
    : blockRow(blockRow_), blockCol(blockCol_), blockRows(blockRows_), blockCols(blockCols_),
      index(blockRows_ * blockCols_, -1) {
  for (std::size_t i = 0; i < index.size(); ++i)
    if (mask[i]) index[i] = long(nonZero++);
}

void checkSparseTensor(const poplar::Tensor& t, const BlockGrid& grid, const std::string& op,
                       const std::string& what) {
  if (!t.valid()) throw poplibs_error(op + ": the " + what + " is not a valid tensor");
  const auto type = t.elementType();
  if (type != poplar::FLOAT && type != poplar::HALF)
    throw poplibs_error(op + ": the " + what + " must be half or float, not " + type.toString());
  if (t.rank() != 2 || t.dim(0) != grid.nonZero || t.dim(1) != grid.area())
    throw poplibs_error(op + ": the " + what + " has shape " + t.shapeToString() +
                        "; the sparsity mask needs [non-zero blocks x block area] = [" +
                        std::to_string(grid.nonZero) + "," + std::to_string(grid.area()) + "]");
}

bool maskedOut(SubBlockMask mask, std::size_t r, std::size_t c, std::size_t groupRows) {
  const std::size_t rr = r % groupRows;
  switch (mask) {
  case SubBlockMask::ZeroUpperTriangle:
    return c > rr;
  case SubBlockMask::ZeroLowerTriangle:
    return c < rr;
  case SubBlockMask::None:
    break;
  }
  return false;
}

poplar::Tensor blockRowView(const poplar::Tensor& sparse, const BlockGrid& grid, std::size_t br) {
  std::vector<poplar::Tensor> blocks;
  for (std::size_t bc = 0; bc < grid.blockCols; ++bc)
    if (grid.at(br, bc) >= 0)
      blocks.push_back(
          sparse[std::size_t(grid.at(br, bc))].reshape({grid.blockRow, grid.blockCol}));
  return blocks.empty() ? poplar::Tensor() : poplar::concat(blocks, 1);
}

void applySubBlockMask(poplar::Graph& graph, const poplar::Tensor& sparse, const BlockGrid& grid,
                       SubBlockMask mask, std::size_t groupRows, float value,
                       poplar::program::Sequence& prog, const poplar::DebugContext& dnai,
                       const std::string& op) {
  if (mask == SubBlockMask::None) return;
  const auto type = sparse.elementType();
  std::vector<poplar::Tensor> diagonal, scales, offsets;
  // One constant pair per distance of a block from the diagonal, shared by the blocks at it.
  std::map<long, std::pair<poplar::Tensor, poplar::Tensor>> pool;
  for (std::size_t br = 0; br < grid.blockRows; ++br)
    for (std::size_t bc = 0; bc < grid.blockCols; ++bc) {
      const long idx = grid.at(br, bc);
      if (idx < 0) continue;
      const std::size_t top = (br * grid.blockRow) % groupRows, bottom = top + grid.blockRow;
      const std::size_t left = bc * grid.blockCol, right = left + grid.blockCol;
      const bool wholly = mask == SubBlockMask::ZeroUpperTriangle ? left >= bottom : right <= top;
      if (wholly)
        throw poplibs_error(
            op + ": incorrect sparsity mask: the whole block #" + std::to_string(idx) + " [" +
            std::to_string(br) + "," + std::to_string(bc) + "] is " +
            (mask == SubBlockMask::ZeroUpperTriangle ? "above" : "below") + " the diagonal");
      if (!(left < bottom && right > top)) continue; // no element of it is on either side
      const long offset = long(top) - long(left);
      auto it = pool.find(offset);
      if (it == pool.end()) {
        std::vector<float> keep(grid.area()), add(grid.area());
        for (std::size_t i = 0; i < grid.blockRow; ++i)
          for (std::size_t j = 0; j < grid.blockCol; ++j) {
            const bool out = maskedOut(mask, top + i, left + j, groupRows);
            keep[i * grid.blockCol + j] = out ? 0.0f : 1.0f;
            add[i * grid.blockCol + j] = out ? value : 0.0f;
          }
        const auto k = graph.addConstant(type, {1, grid.area()}, keep.data(), {dnai, "maskBlock"});
        const auto a = graph.addConstant(type, {1, grid.area()}, add.data(), {dnai, "maskValue"});
        poputil::mapTensorLinearly(graph, k);
        poputil::mapTensorLinearly(graph, a);
        it = pool.emplace(offset, std::make_pair(k, a)).first;
      }
      diagonal.push_back(sparse[std::size_t(idx)].expand({0}));
      scales.push_back(it->second.first);
      offsets.push_back(it->second.second);
    }
  if (diagonal.empty()) return;
  const auto blocks = poplar::concat(diagonal);
  popops::mulInPlace(graph, blocks, poplar::concat(scales), prog, {dnai, "subBlockZeroMasked"});
  if (value != 0.0f)
    popops::addInPlace(graph, blocks, poplar::concat(offsets), prog,
                       {dnai, "subBlockMinValueMasked"});
}

} // namespace detail
} // namespace experimental
} // namespace popsparse
