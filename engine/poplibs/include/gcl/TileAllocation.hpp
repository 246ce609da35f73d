// Which tiles of an IPU to give to collectives' I/O and which to compute, as GCL's
// TileAllocation.hpp offers them: programs reserve a few tiles per IPU for I/O and build two
// virtual graphs over the two sets.
//
//   auto io = gcl::perIPUTiles(graph, 0, gcl::getMinIoTiles(graph));
//   auto compute = gcl::perIPUTiles(graph, io.size(), tilesPerIPU - io.size());
//   poplar::Graph ioGraph = graph.createVirtualGraph(io);
//
// Differs from GCL: the simulated IPU's exchange is the same from every tile, so the tiles are
// simply consecutive ids from `offset` (GCL picks an order suited to the exchange fabric).
#pragma once

#include <poplar/Graph.hpp>
#include <vector>

namespace gcl {

/// The fewest I/O tiles per IPU collectives on separate I/O tiles need (32, as on the IPU).
unsigned getMinIoTiles(const poplar::Graph& graph);

/// `count` tile ids of one IPU (0 .. tiles per IPU - 1) after skipping `offset` of them, in
/// ascending order (`sorted` keeps GCL's parameter: the ids are always ascending here). With
/// `tilePairs`, tiles come in the pairs that share an exchange port (2k, 2k+1): `offset` and
/// `count` must then be even. Throws poplar::poplar_error naming the numbers when the range does
/// not fit the graph's IPU.
std::vector<unsigned> perIPUTiles(const poplar::Graph& graph, unsigned offset, unsigned count,
                                  bool sorted = true, bool tilePairs = false);

} // namespace gcl
