// A circular buffer of tensors on the device (PopLibs' popops::CircBuf): `size` entries of one
// shape, written with add() and read back with prev(), the position kept in a device tensor so
// that a loop body (a Repeat) can add and read without the host.
#pragma once

#include <cstddef>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <vector>

namespace popops {

class CircBuf {
public:
  /// `size` entries of `shape` and `dataType`, all zero, laid out to be sliced by entry. The
  /// buffer and its index are graph variables; `size` must be at least 1.
  CircBuf(poplar::Graph& graph, const poplar::Type& dataType, unsigned size,
          const std::vector<std::size_t>& shape, const poplar::DebugContext& debugContext = {});

  /// The entry added `i` additions ago (prev(0) is the last one added), read by `seq` at run
  /// time. `i` must be less than size(); entries never written read as zero.
  poplar::Tensor prev(unsigned i, poplar::program::Sequence& seq,
                      const poplar::DebugContext& debugContext = {});

  /// Makes `t` (of the buffer's shape, or any shape with as many elements) the newest entry,
  /// replacing the oldest: `seq` advances the index and writes `t` there.
  void add(poplar::Tensor t, poplar::program::Sequence& seq,
           const poplar::DebugContext& debugContext = {});

  /// The position of the newest entry: an UNSIGNED_INT tensor of one element, 0 before any add.
  poplar::Tensor getIndex() const { return index; }

  unsigned size() const { return size_; }

  /// The buffer's mapping over the tiles ([size, elements per entry]).
  poplar::Graph::TileToTensorMapping getTileMapping();

private:
  poplar::Graph& graph;
  unsigned size_;
  std::vector<std::size_t> shape;
  poplar::Tensor hist;  ///< [size, elements per entry]
  poplar::Tensor index; ///< UNSIGNED_INT [1]
};

} // namespace popops
