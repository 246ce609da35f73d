// Cross-replica collectives: the one program node that moves data between the replicas of a
// replicated graph. libgcl (engine/poplibs/src/gcl) builds these nodes; the runtime executes
// one for all replicas at once when every replica has reached it (see Runtime.cpp), and the
// program model costs it as a global exchange over the IPU-Links (models/ProgramModel.cpp).
//
// Engine-internal: not installed. libgcl, built in this project, includes it.
#pragma once

#include <cstdint>
#include <poplar/DebugContext.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <string>
#include <vector>

namespace poplar::detail::runtime {

enum class CollectiveKind : std::uint8_t {
  AllReduce,     ///< dst[i] = op over the group of src[i]            (dst: src's shape)
  ReduceScatter, ///< member j of the group gets slice j of AllReduce (dst: ceil(n / k) elements)
  AllGather,     ///< dst = the members' src, in group order          (dst: k × n elements)
  Broadcast,     ///< dst = the src of the group's member `root`        (dst: src's shape)
  AllToAll,      ///< src cut in k slices: member j's slice i = member i's slice j (dst: src's)
  Copy,          ///< CrossReplicaCopy: replica copyTo[r] gets replica r's src (dst: src's)
};

/// The reductions gcl::CollectiveOperator names, in its order.
enum class CollectiveOp : std::uint8_t {
  Add,
  Mean,
  Mul,
  Min,
  Max,
  LogicalAnd,
  LogicalOr,
  SquareAdd,
  Local
};

/// gcl::CommGroupType, in its order.
enum class GroupType : std::uint8_t { All, Consecutive, Orthogonal };

struct CollectiveSpec {
  CollectiveKind kind = CollectiveKind::AllReduce;
  CollectiveOp op = CollectiveOp::Add;
  GroupType groupType = GroupType::All;
  unsigned groupSize = 0; ///< 0 (or with All): every replica
  std::string opName;     ///< the API call, for messages ("gcl::allReduceCrossReplica")
  unsigned root = 0;      ///< Broadcast: the member of each group whose data every member gets
  /// Copy: the replica each replica's source goes to (a permutation without fixed points over
  /// the job's replicas; index: the source replica).
  std::vector<unsigned> copyTo;
};

/// The replica groups a spec forms over `replicas` replicas: each group lists its members in
/// group order. Throws poplar_error when the group size does not divide the replicas.
std::vector<std::vector<unsigned>> replicaGroups(const CollectiveSpec& spec, unsigned replicas);

const char* collectiveKindName(CollectiveKind k);
const char* collectiveOpName(CollectiveOp op);

/// Checks a Copy spec's map against the `replicas` it runs over: every replica exactly once as a
/// source and once as a destination, none to itself. Throws poplar_error naming `where`.
void checkCopyMap(const CollectiveSpec& spec, unsigned replicas, const std::string& where);

/// A program running the collective `spec` from `src` into `dst` (both of one type, dst's size
/// following the kind) across the replicas of their graph.
program::Program crossReplicaProgram(const CollectiveSpec& spec, const Tensor& src,
                                     const Tensor& dst, const DebugContext& debugContext);

} // namespace poplar::detail::runtime
