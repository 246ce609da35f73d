// Collectives across the replicas of a replicated graph (Graph(target, replicationFactor)):
// all-reduce, reduce-scatter, all-gather, broadcast and all-to-all over all replicas or over
// groups of them (poplar::program::CrossReplicaCopy copies between pairs of replicas).
//
// Each call adds to `prog` one cross-replica exchange: when every replica's program reaches it,
// the data of the replicas of each group are combined and written back to each of them. The
// profile shows it as a GlobalExchange step on every IPU of a replica, costed as a ring over
// the IPU-Links (docs/engine.md). All replicas must run the same collectives in the same order;
// replicas whose control flow diverges around a collective stop the run with
// poplar::application_runtime_error naming where each replica stands.
#pragma once

#include <iosfwd>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <string>
#include <vector>

namespace gcl {

/// How the replicas' values of an element are combined.
enum class CollectiveOperator {
  ADD,
  MEAN, ///< the sum divided by the group size
  MUL,
  MIN,
  MAX,
  LOGICAL_AND, ///< BOOL only
  LOGICAL_OR,  ///< BOOL only
  SQUARE_ADD,  ///< the sum of the squares
  LOCAL,       ///< no combination: each replica keeps its own value
};

/// Parses "ADD", "MEAN", ... (as printed); throws poputil::poplibs_error for anything else.
std::istream& operator>>(std::istream& is, CollectiveOperator& op);
std::ostream& operator<<(std::ostream& os, const CollectiveOperator& op);

/// Which replicas form the groups a collective combines.
enum class CommGroupType {
  ALL,         ///< every replica in one group (the group size is ignored)
  CONSECUTIVE, ///< groups of replicaGroupSize consecutive replicas: {0..k-1}, {k..2k-1}, ...
  ORTHOGONAL,  ///< m = replicas / k groups, strided: {0, m, 2m, ...}, {1, m+1, ...}, ...
};

/// A kind of group and its size (0: all replicas). The size must divide the replication factor.
struct CommGroup {
  CommGroupType type = CommGroupType::ALL;
  unsigned replicaGroupSize = 0;

  CommGroup() = default;
  CommGroup(const CommGroupType& groupType, unsigned groupSize)
      : type(groupType), replicaGroupSize(groupSize) {}
};

// Options (all optional; others are an error): "method" (auto, clockwise_ring,
// anticlockwise_ring, bidirectional_ring_pair, meet_in_middle_ring, quad_directional_ring),
// "useReplicatedImplementation" (true/false). They are accepted for compatibility; the
// simulated exchange is always costed as one ring.

/// A new tensor (a clone of `data`) holding `op` over the group of each element of `data`.
/// Types: FLOAT, HALF, INT, UNSIGNED_INT (BOOL for the logical operators).
poplar::Tensor allReduceCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                     CollectiveOperator op, poplar::program::Sequence& prog,
                                     const CommGroup& group,
                                     const poplar::DebugContext& debugContext = {},
                                     const poplar::OptionFlags& options = {});
/// The same over all replicas.
poplar::Tensor allReduceCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                     CollectiveOperator op, poplar::program::Sequence& prog,
                                     const poplar::DebugContext& debugContext = {},
                                     const poplar::OptionFlags& options = {});
/// Several tensors at once (any types): one result per tensor.
std::vector<poplar::Tensor>
allReduceCrossReplica(poplar::Graph& graph, const std::vector<poplar::Tensor>& datas,
                      CollectiveOperator op, poplar::program::Sequence& prog,
                      const CommGroup& group, const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {});
std::vector<poplar::Tensor> allReduceCrossReplica(poplar::Graph& graph,
                                                  const std::vector<poplar::Tensor>& datas,
                                                  CollectiveOperator op,
                                                  poplar::program::Sequence& prog,
                                                  const poplar::DebugContext& debugContext = {},
                                                  const poplar::OptionFlags& options = {});

/// `data` replaced by `op` over the group (no new tensor).
void allReduceInPlaceCrossReplica(poplar::Graph& graph, poplar::Tensor& data, CollectiveOperator op,
                                  poplar::program::Sequence& prog, const CommGroup& group,
                                  const poplar::DebugContext& debugContext = {},
                                  const poplar::OptionFlags& options = {});
void allReduceInPlaceCrossReplica(poplar::Graph& graph, poplar::Tensor& data, CollectiveOperator op,
                                  poplar::program::Sequence& prog,
                                  const poplar::DebugContext& debugContext = {},
                                  const poplar::OptionFlags& options = {});
void allReduceInPlaceCrossReplica(poplar::Graph& graph, std::vector<poplar::Tensor>& datas,
                                  CollectiveOperator op, poplar::program::Sequence& prog,
                                  const CommGroup& group,
                                  const poplar::DebugContext& debugContext = {},
                                  const poplar::OptionFlags& options = {});
void allReduceInPlaceCrossReplica(poplar::Graph& graph, std::vector<poplar::Tensor>& datas,
                                  CollectiveOperator op, poplar::program::Sequence& prog,
                                  const poplar::DebugContext& debugContext = {},
                                  const poplar::OptionFlags& options = {});

/// `op` over the group of `data`, written into `destination` (same type and number of elements).
void allReduceToDestinationCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                        poplar::Tensor& destination, CollectiveOperator op,
                                        poplar::program::Sequence& prog, const CommGroup& group,
                                        const poplar::DebugContext& debugContext = {},
                                        const poplar::OptionFlags& options = {});
void allReduceToDestinationCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                        poplar::Tensor& destination, CollectiveOperator op,
                                        poplar::program::Sequence& prog,
                                        const poplar::DebugContext& debugContext = {},
                                        const poplar::OptionFlags& options = {});

/// `op` over the group of the flattened `data`, cut into k equal slices (the last padded with
/// zeros): the j-th replica of each group gets slice j, a 1-D tensor of ceil(n / k) elements
/// mapped over the tiles holding `data`.
poplar::Tensor reduceScatterCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                         CollectiveOperator op, poplar::program::Sequence& prog,
                                         const CommGroup& group,
                                         const poplar::DebugContext& debugContext = {},
                                         const poplar::OptionFlags& options = {});
poplar::Tensor reduceScatterCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                         CollectiveOperator op, poplar::program::Sequence& prog,
                                         const poplar::DebugContext& debugContext = {},
                                         const poplar::OptionFlags& options = {});

/// Every member's `data`, in group order: shape {k, data's shape...}, each slice mapped as
/// `data` is.
poplar::Tensor allGatherCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                     poplar::program::Sequence& prog, const CommGroup& group,
                                     const poplar::DebugContext& debugContext = {},
                                     const poplar::OptionFlags& options = {});
poplar::Tensor allGatherCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                     poplar::program::Sequence& prog,
                                     const poplar::DebugContext& debugContext = {},
                                     const poplar::OptionFlags& options = {});

/// The data of the group's member `rootReplica` (its index in the group: the replica itself
/// with the default group of all replicas), for every member: a new tensor mapped as `data`.
poplar::Tensor broadcastCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                     poplar::program::Sequence& prog, const CommGroup& group = {},
                                     unsigned rootReplica = 0,
                                     const poplar::DebugContext& debugContext = {},
                                     const poplar::OptionFlags& options = {});

/// All-to-all over the group: `data`'s first dimension is the group size k, and row i of member
/// j's result is row j of member i's `data` (each member sends row i to member i). A new tensor
/// mapped as `data`.
poplar::Tensor allToAllCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                    poplar::program::Sequence& prog, const CommGroup& group,
                                    const poplar::DebugContext& debugContext = {},
                                    const poplar::OptionFlags& options = {});
poplar::Tensor allToAllCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                    poplar::program::Sequence& prog,
                                    const poplar::DebugContext& debugContext = {},
                                    const poplar::OptionFlags& options = {});

} // namespace gcl
