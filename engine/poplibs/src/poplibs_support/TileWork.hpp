// Helpers shared by the operations: argument checks and cutting a tensor's elements (or rows)
// into per-tile pieces of vertex work.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <string>
#include <utility>
#include <vector>

namespace poplibs_support {

/// Throws poplar::invalid_option naming `op` for any option whose name is not in `known`.
void checkOptions(const poplar::OptionFlags& options, std::initializer_list<const char*> known,
                  const std::string& op);

/// Throws poputil::poplibs_error naming `op` and `operand` unless `type` is in `supported`.
void checkType(const poplar::Type& type, std::initializer_list<poplar::Type> supported,
               const std::string& op, const std::string& operand);

/// Like Graph::getTileMapping, but unmapped elements, or elements on tiles outside this
/// (virtual) graph, are reported as an error of `op`.
poplar::Graph::TileToTensorMapping tileMapping(const poplar::Graph& graph, const poplar::Tensor& t,
                                               const std::string& op);

/// Per tile, the elements of the flattened `t` that tile holds, cut into pieces of vertex work.
/// Each piece is contiguous in memory, so a vertex field connected to it binds directly. A tile's
/// elements are cut into about one piece per worker context, no piece smaller than `minPiece`
/// unless its contiguous region is.
std::vector<std::vector<poplar::Interval>> splitTileWork(const poplar::Graph& graph,
                                                         const poplar::Tensor& t,
                                                         std::size_t minPiece,
                                                         const std::string& op);

/// For a matrix [rows, cols] with cols > 0: each row belongs to the tile holding its first
/// element. Per tile, its rows in ranges of consecutive rows, cut into about one range per worker
/// context.
std::vector<std::vector<poplar::Interval>>
splitRowsByTile(const poplar::Graph& graph, const poplar::Tensor& matrix, const std::string& op);

/// Adds to `cs` one vertex of `vertexType` per piece of splitTileWork(driver), on the piece's
/// tile. Each (field, tensor) pair connects the field to the piece's elements of the flattened
/// tensor; every tensor has driver's number of elements. Returns the vertices.
std::vector<poplar::VertexRef>
addElementWiseVertices(poplar::Graph& graph, const poplar::ComputeSet& cs,
                       const std::string& vertexType, const poplar::Tensor& driver,
                       const std::vector<std::pair<std::string, poplar::Tensor>>& fields,
                       const std::string& op);

/// Throws poputil::poplibs_error naming `op` and `operand` when `t` is default-constructed.
void checkValid(const poplar::Tensor& t, const std::string& op, const std::string& operand);

} // namespace poplibs_support
