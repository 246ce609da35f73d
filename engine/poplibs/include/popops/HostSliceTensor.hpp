// Tensors laid out for copies to and from the host (PopLibs' popops/HostSliceTensor.hpp): the
// data is cut into packets of 1024 bytes (the host exchange's packet), row by row, and the
// packets are spread evenly over the tiles in order, so that every tile moves about the same
// number of packets.
//
// Differs from PopLibs: PopLibs gives the packets left over after the even share to tiles in
// the order of their exchange blocks nearest the chip's edge; Tessera gives them to evenly
// spaced tiles from the first tile the offset selects. One IPU only, as in PopLibs.
#pragma once

#include <cstddef>
#include <poplar/DebugContext.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <vector>

namespace poplar {

class Graph;

}

namespace popops {

/// The pair of values returned by createHostSliceableTensor().
struct IndicesAndTensor {
  poplar::Tensor indices;
  poplar::Tensor tensor;
};

/// A tensor of `shape` [slices][streamElements] laid out for host exchange, and the UNSIGNED_INT
/// indices [slices] of a copy through it (each index on the first tile holding its row). shape
/// must have rank 2; `isRead` is accepted (it does not change the layout, as in PopLibs).
IndicesAndTensor createHostSliceableTensor(poplar::Graph& graph, const poplar::Type& type,
                                           const std::vector<size_t>& shape, const bool isRead,
                                           const poplar::DebugContext& debugContext = {});

/// The same, with `offset` bytes assumed already packetised: the first tile to receive a
/// leftover packet is (offset / 1024, rounded up) modulo the number of tiles.
IndicesAndTensor createHostSliceableTensor(poplar::Graph& graph, const poplar::Type& type,
                                           const std::vector<size_t>& shape, const bool isRead,
                                           const size_t offset,
                                           const poplar::DebugContext& debugContext = {});

/// A tensor of any `shape` laid out for host exchange: createHostSliceableTensor's tensor of
/// one row of all the elements, reshaped.
poplar::Tensor createHostTransferableTensor(poplar::Graph& graph, const poplar::Type& type,
                                            const std::vector<size_t>& shape, bool isRead,
                                            const poplar::DebugContext& debugContext = {});

/// The same, with `offset` bytes assumed already packetised.
poplar::Tensor createHostTransferableTensor(poplar::Graph& graph, const poplar::Type& type,
                                            const std::vector<size_t>& shape, bool isRead,
                                            const size_t offset,
                                            const poplar::DebugContext& debugContext = {});

} // namespace popops
