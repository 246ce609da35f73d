// Host-exchange layouts (popops/HostSliceTensor.hpp). A packet never spans two rows, since
// each row is the target of a different index; each tile takes an equal share of the packets
// in order, and the remainder goes one packet each to evenly spaced tiles.
#include <numeric>
#include <poplar/Graph.hpp>
#include <popops/HostSliceTensor.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>
#include <string>

namespace popops {

namespace {

constexpr std::size_t kPacketBytes = 1024; // the host exchange's packet

struct Packet {
  std::size_t row, begin, end; ///< elements [begin, end) of the flattened tensor
};

std::vector<Packet> packetsOf(std::size_t rows, std::size_t cols, std::size_t perPacket) {
  std::vector<Packet> packets;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; c += perPacket)
      packets.push_back({r, r * cols + c, r * cols + std::min(cols, c + perPacket)});
  return packets;
}

/// Packets per tile: numPackets / numTiles each, and one more for `extra` evenly spaced tiles
/// starting at `first`.
std::vector<std::size_t> shares(std::size_t numPackets, unsigned numTiles, std::size_t first) {
  std::vector<std::size_t> share(numTiles, numPackets / numTiles);
  const std::size_t extra = numPackets % numTiles;
  for (std::size_t i = 0; i < extra; ++i)
    ++share[(first + i * numTiles / extra) % numTiles];
  return share;
}

} // namespace

IndicesAndTensor createHostSliceableTensor(poplar::Graph& graph, const poplar::Type& type,
                                           const std::vector<size_t>& shape, const bool isRead,
                                           const size_t offset,
                                           const poplar::DebugContext& debugContext) {
  const std::string op = "popops::createHostSliceableTensor";
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(type, shape, isRead, offset),
                                 "createHostSliceableTensor");
  if (shape.size() != 2)
    throw poputil::poplibs_error(op + ": the shape must have rank 2 ([slices][elements]), not " +
                                 std::to_string(shape.size()));
  const poplar::Target& target = graph.getTarget();
  if (target.getNumIPUs() != 1)
    throw poputil::poplibs_error(op + ": the graph spans " + std::to_string(target.getNumIPUs()) +
                                 " IPUs; host-sliceable tensors are made on one IPU (use a "
                                 "virtual graph of one IPU)");
  const std::size_t elemBytes = target.getTypeSize(type);
  if (elemBytes == 0 || elemBytes > kPacketBytes)
    throw poputil::poplibs_error(op + ": element type " + type.toString() +
                                 " cannot be packetised");
  const poplar::Tensor t = graph.addVariable(type, shape, {di, "HostSliceAble"});
  const poplar::Tensor indices =
      graph.addVariable(poplar::UNSIGNED_INT, {shape[0]}, {di, "HostSliceIndices"});
  const unsigned numTiles = target.getNumTiles();
  const std::vector<Packet> packets = packetsOf(shape[0], shape[1], kPacketBytes / elemBytes);
  const std::vector<std::size_t> share =
      shares(packets.size(), numTiles, (offset + kPacketBytes - 1) / kPacketBytes % numTiles);
  const poplar::Tensor flat = t.flatten();
  std::vector<bool> indexMapped(shape[0], false);
  std::size_t p = 0;
  for (unsigned tile = 0; tile < numTiles; ++tile)
    for (std::size_t k = 0; k < share[tile]; ++k, ++p) {
      graph.setTileMapping(flat.slice(packets[p].begin, packets[p].end), tile);
      if (!indexMapped[packets[p].row]) {
        graph.setTileMapping(indices[packets[p].row], tile);
        indexMapped[packets[p].row] = true;
      }
    }
  // A row with no elements has no packet: its index goes to tile 0.
  for (std::size_t r = 0; r < shape[0]; ++r)
    if (!indexMapped[r]) graph.setTileMapping(indices[r], 0);
  di.addOutputs(DI_ARGS(indices, t));
  return {indices, t};
}

IndicesAndTensor createHostSliceableTensor(poplar::Graph& graph, const poplar::Type& type,
                                           const std::vector<size_t>& shape, const bool isRead,
                                           const poplar::DebugContext& debugContext) {
  return createHostSliceableTensor(graph, type, shape, isRead, 0, debugContext);
}

poplar::Tensor createHostTransferableTensor(poplar::Graph& graph, const poplar::Type& type,
                                            const std::vector<size_t>& shape, bool isRead,
                                            const size_t offset,
                                            const poplar::DebugContext& debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(type, shape, isRead, offset),
                                 "createHostTransferableTensor");
  const std::size_t n =
      std::accumulate(shape.begin(), shape.end(), std::size_t(1), std::multiplies<>());
  const IndicesAndTensor it = createHostSliceableTensor(graph, type, {1, n}, isRead, offset, {di});
  const poplar::Tensor out = it.tensor.reshape(shape);
  di.addOutput(out);
  return out;
}

poplar::Tensor createHostTransferableTensor(poplar::Graph& graph, const poplar::Type& type,
                                            const std::vector<size_t>& shape, bool isRead,
                                            const poplar::DebugContext& debugContext) {
  return createHostTransferableTensor(graph, type, shape, isRead, 0, debugContext);
}

} // namespace popops
