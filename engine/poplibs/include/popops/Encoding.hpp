// One-hot encoding of indices, and ranges of integers.
#pragma once

#include "EncodingConstants.hpp"
#include "poplar/Graph.hpp"
#include "poplar/Program.hpp"
#include "poplar/Tensor.hpp"
#include "poplar/Type.hpp"

#include <poplar/DebugContext.hpp>
#include <string>

namespace popops {

/// Row i of `encoded` ([N, C]: FLOAT, HALF, INT or UNSIGNED_INT) becomes 1 at column indices[i]
/// and 0 elsewhere (`indices`: [N], UNSIGNED_INT or INT). An index of MASKED_LABEL_CODE, or any
/// index outside [0, C), leaves its row all 0.
void encodeOneHot(poplar::Graph& graph, const poplar::Tensor& indices,
                  const poplar::Tensor& encoded, poplar::program::Sequence& prog,
                  const poplar::DebugContext& debugContext = {});

/// As above with `on` and `off` (scalars of encoded's type) for the hot and the other elements.
void encodeOneHot(poplar::Graph& graph, const poplar::Tensor& indices,
                  const poplar::Tensor& encoded, poplar::program::Sequence& prog,
                  const poplar::Tensor& on, const poplar::Tensor& off,
                  const poplar::DebugContext& debugContext = {});

/// Writes startInteger, startInteger + 1, ... into the mapped 1-D tensor `t` (UNSIGNED_INT).
void iota(poplar::Graph& graph, const poplar::Tensor& t, unsigned startInteger,
          poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {});

/// Writes startInteger, startInteger + 1, ... into the mapped 1-D tensor `t` (INT).
void iota(poplar::Graph& graph, const poplar::Tensor& t, int startInteger,
          poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {});

} // namespace popops
