// Planning a matrix product [M,K] x [K,N] over the tiles: block sizes, the K split, and which
// tile computes each block-chunk product.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <poplar/Interval.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>
#include <string>

namespace poplin {

struct MatMulOptions {
  poplar::Type partialsType = poplar::FLOAT;
};

/// Reads the options matMul understands; throws poplar::invalid_option naming `op` otherwise.
MatMulOptions parseMatMulOptions(const poplar::OptionFlags& options, const std::string& op);

/// C [M,N] is cut into rowBlocks x colBlocks blocks of rowsPerBlock x colsPerBlock (the last
/// ones smaller), and K into kChunks chunks of kPerChunk. One stage 1 vertex per (block, chunk).
struct MatMulPlan {
  poplar::Type inputType = poplar::FLOAT, partialsType = poplar::FLOAT;
  std::size_t M = 0, K = 0, N = 0;
  std::size_t rowsPerBlock = 1, colsPerBlock = 1, kPerChunk = 1;
  std::size_t rowBlocks = 1, colBlocks = 1, kChunks = 1;
  unsigned numTiles = 1;
  /// The first of the numTiles consecutive tiles the product uses (a grouped product's groups
  /// each have their own range).
  unsigned tileBase = 0;
  std::uint64_t stage1Cycles = 0, stage2Cycles = 0; ///< modelled, including exchange and sync

  std::size_t numVertices() const { return rowBlocks * colBlocks * kChunks; }
  poplar::Interval rows(std::size_t rowBlock) const { return range(rowBlock, rowsPerBlock, M); }
  poplar::Interval cols(std::size_t colBlock) const { return range(colBlock, colsPerBlock, N); }
  poplar::Interval ks(std::size_t chunk) const { return range(chunk, kPerChunk, K); }
  /// The tile of the vertex computing block (rowBlock, colBlock) over K chunk `chunk`. Vertices
  /// are spread evenly over the tiles; those sharing a piece of A are neighbours.
  unsigned tileOf(std::size_t rowBlock, std::size_t colBlock, std::size_t chunk) const {
    const std::size_t v = (chunk * rowBlocks + rowBlock) * colBlocks + colBlock;
    return tileBase + static_cast<unsigned>(std::uint64_t(v) * numTiles / numVertices());
  }

private:
  static poplar::Interval range(std::size_t i, std::size_t size, std::size_t total) {
    return {i * size, i * size + size < total ? i * size + size : total};
  }
};

/// The plan with the fewest modelled cycles for this product on `numTiles` tiles from
/// `tileBase` (0: all of `target`'s tiles).
MatMulPlan planMatMul(const poplar::Target& target, poplar::Type inputType,
                      poplar::Type partialsType, std::size_t M, std::size_t K, std::size_t N,
                      unsigned numTiles = 0, unsigned tileBase = 0);

std::ostream& operator<<(std::ostream& os, const MatMulPlan& plan);

} // namespace poplin
