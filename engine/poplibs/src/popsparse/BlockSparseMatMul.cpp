// Block-sparse products (popsparse/experimental/BlockSparseMatMul.hpp). The pattern is known
// when the graph is built, so each result block the product has becomes one
// popsparse::BSMatMulBlock vertex that sums the block's k-block products, on the tile holding
// the result block; result blocks are spread over the tiles in turn. Operand blocks are laid
// out contiguously (the create functions) so a vertex field binds a block without a copy.
#include "BlockSparseImpl.hpp"
#include "poplibs_support/TileWork.hpp"

#include <poplar/exceptions.hpp>
#include <popsparse/experimental/BlockSparseMatMul.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popsparse {
namespace experimental {

using namespace poplar;
using poputil::poplibs_error;

namespace {

const char* const kParamsOp = "popsparse::experimental::BSMatMulParams";

void checkType(const Type& t, const char* what) {
  if (t != HALF && t != FLOAT)
    throw poplibs_error(std::string(kParamsOp) + ": " + what +
                        " data type must be half or float, not " + t.toString());
}

/// PopLibs' checks of both constructors; sparseDims names the two dimensions the mask covers.
void checkParams(const BSMatMulImpl& p, std::array<int, 2> sparseDims) {
  checkType(p.inType, "input");
  checkType(p.outType, "output");
  checkType(p.partialType, "partial");
  if (p.inType == FLOAT && p.partialType == HALF)
    throw poplibs_error(std::string(kParamsOp) +
                        ": the partial data type (half) must be at least as precise as the "
                        "input data type (float)");
  if (p.numGroups == 0) throw poplibs_error(std::string(kParamsOp) + ": zero number of groups");
  for (int i = 0; i < 3; ++i) {
    if (p.dim[i] <= 0 || p.blockSize[i] <= 0)
      throw poplibs_error(std::string(kParamsOp) + ": dimension " + std::to_string(i) + " (" +
                          std::to_string(p.dim[i]) + ") and block size dimension " +
                          std::to_string(i) + " (" + std::to_string(p.blockSize[i]) +
                          ") must be positive");
    if (p.dim[i] % p.blockSize[i] != 0)
      throw poplibs_error(std::string(kParamsOp) + ": input dimension " + std::to_string(i) + ": " +
                          std::to_string(p.dim[i]) + " is not divisible by block size dimension " +
                          std::to_string(i) + ": " + std::to_string(p.blockSize[i]));
  }
  if (p.sparsity.size() % p.numGroups != 0)
    throw poplibs_error(std::string(kParamsOp) + ": sparsity mask size " +
                        std::to_string(p.sparsity.size()) +
                        " is not divisible by number of groups " + std::to_string(p.numGroups));
  const std::size_t blocks = std::size_t(p.dim[sparseDims[0]] / p.blockSize[sparseDims[0]]) *
                             std::size_t(p.dim[sparseDims[1]] / p.blockSize[sparseDims[1]]);
  if (p.masksPerGroup() != blocks)
    throw poplibs_error(std::string(kParamsOp) + ": sparsity mask size" +
                        (p.numGroups > 1 ? " per group " : " ") +
                        std::to_string(p.masksPerGroup()) +
                        " does not match total number of blocks: " + std::to_string(blocks));
}

struct Options {
  int numberOfPass = 1;
};

/// PopLibs' options; Tessera's plan does not depend on the partitioning ones (see the header).
Options parseOptions(const OptionFlags& options, unsigned numGroups, const std::string& op) {
  Options o;
  for (const auto& [key, value] : options) {
    if (key == "numberOfPass") {
      std::size_t used = 0;
      long n = 0;
      try {
        n = std::stol(value, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != value.size() || n < 1)
        throw invalid_option(op + ": option numberOfPass must be an integer >= 1, not '" + value +
                             "'");
      o.numberOfPass = int(n);
    } else if (key == "memoryCycleRatio") {
      std::size_t used = 0;
      try {
        (void)std::stod(value, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != value.size())
        throw invalid_option(op + ": option memoryCycleRatio must be a number, not '" + value +
                             "'");
    } else if (key == "partitionMethod") {
      if (value != "block" && value != "block-naive" && value != "block-group2" &&
          value != "strip" && value != "stripv0")
        throw invalid_option(op +
                             ": option partitionMethod must be one of block, block-naive, "
                             "block-group2, strip, stripv0, not '" +
                             value + "'");
    } else {
      throw invalid_option(op + ": unrecognised option '" + key + "'");
    }
  }
  if (o.numberOfPass > 1 && numGroups > 1)
    throw poplibs_error(op + ": for group operation the numberOfPass option must be 1");
  return o;
}

/// A dense [rows][cols] matrix whose [blockRow][blockCol] blocks are each contiguous, block b
/// (row-major) on tile (first + b) mod tiles.
Tensor denseBlocked(Graph& graph, const Type& type, std::size_t rows, std::size_t cols,
                    std::size_t blockRow, std::size_t blockCol, std::size_t& nextTile,
                    const DebugContext& dnai) {
  const std::size_t br = rows / blockRow, bc = cols / blockCol;
  const Tensor t = graph.addVariable(type, {br, bc, blockRow, blockCol}, dnai);
  const unsigned tiles = graph.getTarget().getNumTiles();
  for (std::size_t i = 0; i < br; ++i)
    for (std::size_t j = 0; j < bc; ++j)
      graph.setTileMapping(t[i][j], unsigned(nextTile++ % tiles));
  return t.dimShuffle({0, 2, 1, 3}).reshape({rows, cols});
}

/// Non-zero blocks [blocks][area], one block a tile in turn.
Tensor sparseBlocks(Graph& graph, const Type& type, std::size_t blocks, std::size_t area,
                    std::size_t& nextTile, const DebugContext& dnai) {
  const Tensor t = graph.addVariable(type, {blocks, area}, dnai);
  const unsigned tiles = graph.getTarget().getNumTiles();
  for (std::size_t b = 0; b < blocks; ++b)
    graph.setTileMapping(t[b], unsigned(nextTile++ % tiles));
  return t;
}

Tensor block(const Tensor& dense, std::size_t i, std::size_t j, std::size_t rows,
             std::size_t cols) {
  return dense.slice({i * rows, j * cols}, {(i + 1) * rows, (j + 1) * cols}).flatten();
}

void checkOperand(const Tensor& t, const BSMatMulImpl& p, std::vector<std::size_t> shape,
                  const std::string& op, const char* what) {
  poplibs_support::checkValid(t, op, what);
  if (t.rank() != 2)
    throw poplibs_error(op + ": the rank of both input matrices must be 2; the " + what +
                        " has shape " + t.shapeToString());
  if (t.shape() != shape)
    throw poplibs_error(op + ": the " + what + " has shape " + t.shapeToString() + "; expected [" +
                        std::to_string(shape[0]) + "," + std::to_string(shape[1]) + "]");
  if (t.elementType() != p.inType)
    throw poplibs_error(op + ": the " + what + " is " + t.elementType().toString() +
                        " but the parameters' input data type is " + p.inType.toString());
}

} // namespace

BSMatMulParams::BSMatMulParams(const std::array<int, 3>& dim, const std::array<int, 3>& blockSize,
                               const std::vector<unsigned char>& rhsSparsity, bool rhsNeedTranspose,
                               Type inDataType, Type outDataType, Type partialDataType,
                               unsigned numGroupsIn)
    : impl(std::make_unique<BSMatMulImpl>()) {
  auto& p = *impl;
  p.dim = dim, p.blockSize = blockSize, p.sparsity = rhsSparsity;
  p.resultSparse = false, p.rhsNeedTranspose = rhsNeedTranspose;
  p.inType = inDataType, p.outType = outDataType, p.partialType = partialDataType;
  p.numGroups = numGroupsIn;
  checkParams(p, {1, 2});
}

BSMatMulParams::BSMatMulParams(const std::array<int, 3>& dim, const std::array<int, 3>& blockSize,
                               const std::vector<unsigned char>& resSparsity, Type inDataType,
                               Type outDataType, Type partialDataType, SubBlockMask subBlockMask,
                               unsigned numGroupsIn)
    : impl(std::make_unique<BSMatMulImpl>()) {
  auto& p = *impl;
  p.dim = dim, p.blockSize = blockSize, p.sparsity = resSparsity;
  p.resultSparse = true;
  p.inType = inDataType, p.outType = outDataType, p.partialType = partialDataType;
  p.subBlockMask = subBlockMask, p.numGroups = numGroupsIn;
  checkParams(p, {0, 2});
  // A mask that zeroes a whole non-zero block is an error found now rather than in bsMatMul.
  if (subBlockMask != SubBlockMask::None) {
    const detail::BlockGrid grid{std::size_t(blockSize[0]), std::size_t(blockSize[2]),
                                 p.blockRowsM() * p.numGroups, p.blockColsN(), p.sparsity.data()};
    for (std::size_t br = 0; br < grid.blockRows; ++br)
      for (std::size_t bc = 0; bc < grid.blockCols; ++bc) {
        if (grid.at(br, bc) < 0) continue;
        const std::size_t top = (br * grid.blockRow) % std::size_t(dim[0]);
        const std::size_t left = bc * grid.blockCol;
        const bool wholly = subBlockMask == SubBlockMask::ZeroUpperTriangle
                                ? left >= top + grid.blockRow
                                : left + grid.blockCol <= top;
        if (wholly)
          throw poplibs_error(
              std::string(kParamsOp) + ": incorrect sparsity mask: the whole block [" +
              std::to_string(br) + "," + std::to_string(bc) + "] is " +
              (subBlockMask == SubBlockMask::ZeroUpperTriangle ? "above" : "below") +
              " the diagonal");
      }
  }
}

BSMatMulParams::BSMatMulParams(BSMatMulParams&& other) = default;

BSMatMulParams::~BSMatMulParams() = default;

static const BSMatMulImpl& implOf(const BSMatMulParams& params, const std::string& op) {
  if (!params.impl) throw poplibs_error(op + ": the BSMatMulParams was moved from");
  return *params.impl;
}

Tensor createBSMatMulInputLHS(Graph& graph, const BSMatMulParams& bsMatMul,
                              const DebugContext& debugContext, const OptionFlags& options) {
  const std::string op = "popsparse::experimental::createBSMatMulInputLHS";
  poputil::PoplibsOpDebugInfo di(debugContext, {}, "createBSMatMulInputLHS");
  const auto& p = implOf(bsMatMul, op);
  parseOptions(options, p.numGroups, op);
  std::size_t nextTile = 0;
  std::vector<Tensor> groups;
  for (unsigned g = 0; g < p.numGroups; ++g)
    groups.push_back(denseBlocked(graph, p.inType, std::size_t(p.dim[0]), std::size_t(p.dim[1]),
                                  std::size_t(p.blockSize[0]), std::size_t(p.blockSize[1]),
                                  nextTile, {di, "lhs"}));
  const Tensor t = concat(groups);
  di.addOutput(t);
  return t;
}

Tensor createBSMatMulInputRHS(Graph& graph, const BSMatMulParams& bsMatMul,
                              const DebugContext& debugContext, const OptionFlags& options) {
  const std::string op = "popsparse::experimental::createBSMatMulInputRHS";
  poputil::PoplibsOpDebugInfo di(debugContext, {}, "createBSMatMulInputRHS");
  const auto& p = implOf(bsMatMul, op);
  parseOptions(options, p.numGroups, op);
  std::size_t nextTile = 0;
  std::vector<Tensor> groups;
  for (unsigned g = 0; g < p.numGroups; ++g) {
    if (p.resultSparse)
      groups.push_back(denseBlocked(graph, p.inType, std::size_t(p.dim[1]), std::size_t(p.dim[2]),
                                    std::size_t(p.blockSize[1]), std::size_t(p.blockSize[2]),
                                    nextTile, {di, "rhs"}));
    else
      groups.push_back(sparseBlocks(graph, p.inType, p.nonZeroBlocks(g),
                                    std::size_t(p.blockSize[1]) * std::size_t(p.blockSize[2]),
                                    nextTile, {di, "rhs"}));
  }
  const Tensor t = concat(groups);
  di.addOutput(t);
  return t;
}

Tensor bsMatMul(Graph& graph, const BSMatMulParams& bsMatMulParams, program::Sequence& prog,
                const Tensor& lhsMatrix, const Tensor& rhsMatrix, const OptionFlags& options,
                const DebugContext& debugContext) {
  const std::string op = "popsparse::experimental::bsMatMul";
  poputil::PoplibsOpDebugInfo di(debugContext, {}, "bsMatMul");
  const auto& p = implOf(bsMatMulParams, op);
  const Options o = parseOptions(options, p.numGroups, op);
  const std::size_t G = p.numGroups, M = std::size_t(p.dim[0]), K = std::size_t(p.dim[1]),
                    N = std::size_t(p.dim[2]);
  const std::size_t b0 = std::size_t(p.blockSize[0]), b1 = std::size_t(p.blockSize[1]),
                    b2 = std::size_t(p.blockSize[2]);
  std::size_t rhsBlockCount = 0;
  for (unsigned g = 0; g < G; ++g)
    rhsBlockCount += p.nonZeroBlocks(g);
  checkOperand(lhsMatrix, p, {G * M, K}, op, "left-hand matrix");
  checkOperand(rhsMatrix, p,
               p.resultSparse ? std::vector<std::size_t>{G * K, N}
                              : std::vector<std::size_t>{rhsBlockCount, b1 * b2},
               op, "right-hand matrix");

  const std::string vertex = poputil::templateVertex("popsparse::BSMatMulBlock", p.inType,
                                                     p.partialType, p.outType, p.rhsNeedTranspose);
  const std::size_t passes = std::min<std::size_t>(std::size_t(o.numberOfPass), p.blockRowsM());
  std::vector<ComputeSet> css;
  for (std::size_t i = 0; i < passes; ++i)
    css.push_back(graph.addComputeSet(
        {di, passes > 1 ? "bsMatMul/pass" + std::to_string(i) : std::string("bsMatMul")}));
  const unsigned tiles = graph.getTarget().getNumTiles();
  std::size_t nextTile = 0;
  // One result block: its vertex on the block's tile, in the pass of its block row.
  const auto addBlock = [&](const Tensor& out, std::size_t i, const std::vector<Tensor>& lhs,
                            const std::vector<Tensor>& rhs) {
    const unsigned tile = unsigned(nextTile++ % tiles);
    graph.setTileMapping(out, tile);
    const auto v = graph.addVertex(css[i * passes / p.blockRowsM()], vertex);
    graph.connect(v["lhs"], lhs);
    graph.connect(v["rhs"], rhs);
    graph.connect(v["out"], out);
    graph.setInitialValue(v["rows"], unsigned(b0));
    graph.setInitialValue(v["depth"], unsigned(b1));
    graph.setTileMapping(v, tile);
  };

  Tensor result;
  if (!p.resultSparse) {
    // dense x sparse: every result block (i, j) sums lhs (i, k) x rhs (k, j) over rhs's
    // non-zero blocks in column j (row j of the stored matrix when transposed).
    std::vector<Tensor> groups;
    std::size_t firstBlock = 0;
    for (unsigned g = 0; g < G; ++g) {
      const unsigned char* mask = p.sparsity.data() + g * p.masksPerGroup();
      const detail::BlockGrid grid = p.rhsNeedTranspose
                                         ? detail::BlockGrid(b2, b1, N / b2, K / b1, mask)
                                         : detail::BlockGrid(b1, b2, K / b1, N / b2, mask);
      const Tensor lhs = lhsMatrix.slice(g * M, (g + 1) * M);
      const Tensor rhs = rhsMatrix.slice(firstBlock, firstBlock + grid.nonZero);
      firstBlock += grid.nonZero;
      const Tensor out = graph.addVariable(p.outType, {M / b0, N / b2, b0, b2}, {di, "result"});
      for (std::size_t i = 0; i < M / b0; ++i)
        for (std::size_t j = 0; j < N / b2; ++j) {
          std::vector<Tensor> lhsBlocks, rhsBlocks;
          for (std::size_t k = 0; k < K / b1; ++k) {
            const long idx = p.rhsNeedTranspose ? grid.at(j, k) : grid.at(k, j);
            if (idx < 0) continue;
            lhsBlocks.push_back(block(lhs, i, k, b0, b1));
            rhsBlocks.push_back(rhs[std::size_t(idx)]);
          }
          addBlock(out[i][j].flatten(), i, lhsBlocks, rhsBlocks);
        }
      groups.push_back(out.dimShuffle({0, 2, 1, 3}).reshape({M, N}));
    }
    for (const auto& cs : css)
      prog.add(program::Execute(cs, {di}));
    result = concat(groups);
  } else {
    // dense x dense = sparse: only the blocks the mask names, each summing all K's blocks.
    const detail::BlockGrid grid(b0, b2, G * M / b0, N / b2, p.sparsity.data());
    result = graph.addVariable(p.outType, {grid.nonZero, grid.area()}, {di, "result"});
    for (std::size_t bi = 0; bi < grid.blockRows; ++bi) {
      const std::size_t g = bi / (M / b0), i = bi % (M / b0);
      const Tensor lhs = lhsMatrix.slice(g * M, (g + 1) * M);
      const Tensor rhs = rhsMatrix.slice(g * K, (g + 1) * K);
      for (std::size_t j = 0; j < grid.blockCols; ++j) {
        const long idx = grid.at(bi, j);
        if (idx < 0) continue;
        std::vector<Tensor> lhsBlocks, rhsBlocks;
        for (std::size_t k = 0; k < K / b1; ++k) {
          lhsBlocks.push_back(block(lhs, i, k, b0, b1));
          rhsBlocks.push_back(block(rhs, k, j, b1, b2));
        }
        addBlock(result[std::size_t(idx)], i, lhsBlocks, rhsBlocks);
      }
    }
    for (const auto& cs : css)
      prog.add(program::Execute(cs, {di}));
    detail::applySubBlockMask(graph, result, grid, p.subBlockMask, M, 0.0f, prog, {di}, op);
  }
  di.addOutput(result);
  return result;
}

} // namespace experimental
} // namespace popsparse
