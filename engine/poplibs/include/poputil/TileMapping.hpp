// Spreading tensors over tiles.
#pragma once

#include <cstddef>
#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Tensor.hpp>
#include <vector>

namespace poputil {

/// Per tile, the intervals of a flattened tensor of `shape` in a linear mapping: the elements are
/// cut into grains of `grainSize`, and consecutive tiles take an equal number of whole grains,
/// at least `minElementsPerTile` elements each, so the last tiles may hold nothing.
std::vector<std::vector<poplar::Interval>>
calcLinearTileMapping(const poplar::Graph& graph, const std::vector<std::size_t>& shape,
                      unsigned minElementsPerTile, unsigned grainSize);
std::vector<std::vector<poplar::Interval>> calcLinearTileMapping(const poplar::Graph& graph,
                                                                 const poplar::Tensor& t,
                                                                 unsigned minElementsPerTile,
                                                                 unsigned grainSize);
/// The linear mapping with one-element grains and no minimum per tile.
std::vector<std::vector<poplar::Interval>> calcLinearTileMapping(const poplar::Graph& graph,
                                                                 const poplar::Tensor& t);

/// Maps `t` with calcLinearTileMapping.
void mapTensorLinearly(poplar::Graph& graph, const poplar::Tensor& t,
                       unsigned minElementsPerTile = 0, unsigned grainSize = 1);

/// How many more elements the fullest tile holds than it would in a balanced mapping (one that
/// respects `minElementsPerTile` and `grainSize`); 0 for a balanced mapping.
unsigned getTileImbalance(const poplar::Graph::TileToTensorMapping& mapping,
                          unsigned minElementsPerTile = 0, unsigned grainSize = 1);
unsigned getTileImbalance(const poplar::Graph& graph, const poplar::Tensor& t,
                          unsigned minElementsPerTile = 0, unsigned grainSize = 1);

} // namespace poputil
