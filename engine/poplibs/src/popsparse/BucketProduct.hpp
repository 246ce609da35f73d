// Adding the sparse * dense vertices to a compute set (shared by the dynamic and static ops).
#pragma once

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <string>
#include <vector>

namespace popsparse {
namespace detail {

/// One SparseDenseMatMulBucket vertex on `tile`: the bucket (meta, nz) times the rows of rhs
/// into the rows of out (see SparseCodelets.cpp for `transposed`).
void addBucketVertex(poplar::Graph& graph, const poplar::ComputeSet& cs, const poplar::Type& type,
                     const poplar::Tensor& meta, const poplar::Tensor& nz,
                     const std::vector<poplar::Tensor>& rhsRows,
                     const std::vector<poplar::Tensor>& outRows, bool transposed, unsigned tile);

/// Rejects options popsparse does not know, and values out of range of those it does.
void checkSparseOptions(const poplar::OptionFlags& options, const std::string& op);

} // namespace detail
} // namespace popsparse
