// Broadcasting tensors to each other's shape with numpy's rules: shapes are aligned at their
// trailing dimensions, missing leading dimensions count as 1, and a dimension of 1 stretches
// to the other size. The results are views (Tensor::broadcast); nothing is copied.
#pragma once

#include <cstddef>
#include <poplar/Tensor.hpp>
#include <vector>

namespace poputil {

/// Inserts leading dimensions of size 1 into the tensor of lower rank so that ranks match.
void expandToMatchRanks(poplar::Tensor& a, poplar::Tensor& b);

/// Views `a` with `shape`; throws poputil::poplibs_error when a cannot broadcast to it.
void broadcastToMatch(poplar::Tensor& a, const std::vector<std::size_t>& shape);
/// Views a and b with their common broadcast shape.
void broadcastToMatch(poplar::Tensor& a, poplar::Tensor& b);
/// Views a, b and c with their common broadcast shape.
void broadcastToMatch(poplar::Tensor& a, poplar::Tensor& b, poplar::Tensor& c);

/// Whether broadcastToMatch(a, b) would succeed.
bool canBroadcastToMatch(const poplar::Tensor& a, const poplar::Tensor& b);

} // namespace poputil
