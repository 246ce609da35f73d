// Padding a tensor: with a constant (new constant tensors joined to it), or numpy-style by
// repeating its edge or reflecting it (views of the tensor itself, no copies). Negative padding
// truncates.
#pragma once

#include <cstddef>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <vector>

namespace popops {

namespace padding {

/// numpy.pad's modes for padding without a value.
enum class Type {
  EDGE,   ///< each pad element is the nearest element of the tensor (on its edge)
  REFLECT ///< the tensor mirrored about its edge element (which is not repeated)
};

/// Where constant padding is mapped.
enum class MappingMethod {
  NONE, ///< not mapped (the caller maps it)
  ZERO, ///< tile 0
  EDGE  ///< the tile of the nearest element of the tensor
};

} // namespace padding

/// `t` with paddingLower[d] elements of `val` before and paddingUpper[d] after it in each
/// dimension d.
poplar::Tensor pad(poplar::Graph& graph, const poplar::Tensor& t,
                   const std::vector<std::ptrdiff_t>& paddingLower,
                   const std::vector<std::ptrdiff_t>& paddingUpper, float val = 0.0f,
                   padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);
poplar::Tensor pad(poplar::Graph& graph, const poplar::Tensor& t,
                   const std::vector<std::ptrdiff_t>& paddingLower,
                   const std::vector<std::ptrdiff_t>& paddingUpper, int val,
                   padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);
/// Padding with the value of the scalar tensor `val` (broadcast, not copied).
poplar::Tensor pad(poplar::Graph& graph, const poplar::Tensor& t,
                   const std::vector<std::ptrdiff_t>& paddingLower,
                   const std::vector<std::ptrdiff_t>& paddingUpper, const poplar::Tensor& val,
                   padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);

/// Constant padding of one dimension.
poplar::Tensor pad(poplar::Graph& graph, const poplar::Tensor& t, std::ptrdiff_t paddingLower,
                   std::ptrdiff_t paddingUpper, unsigned dim, float val = 0.0f,
                   padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);
poplar::Tensor pad(poplar::Graph& graph, const poplar::Tensor& t, std::ptrdiff_t paddingLower,
                   std::ptrdiff_t paddingUpper, unsigned dim, int val,
                   padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);
poplar::Tensor pad(poplar::Graph& graph, const poplar::Tensor& t, std::ptrdiff_t paddingLower,
                   std::ptrdiff_t paddingUpper, unsigned dim, const poplar::Tensor& val,
                   padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);

/// Edge or reflect padding of every dimension.
poplar::Tensor pad(const poplar::Tensor& t, const std::vector<std::ptrdiff_t>& paddingLower,
                   const std::vector<std::ptrdiff_t>& paddingUpper, padding::Type type);

/// Edge or reflect padding of one dimension.
poplar::Tensor pad(const poplar::Tensor& t, std::ptrdiff_t paddingLower,
                   std::ptrdiff_t paddingUpper, unsigned dim, padding::Type type);

} // namespace popops
