#include "CrossReplica.hpp"

#include "graph/ProgramNode.hpp"

#include <algorithm>
#include <poplar/exceptions.hpp>

namespace poplar {
namespace program {
namespace {
/// Program's node constructor is protected: this program type is how the engine makes the one
/// node kind with no public Poplar class of its own.
class CrossReplicaProgram : public Program {
public:
  CrossReplicaProgram(const detail::runtime::CollectiveSpec& spec, const Tensor& src,
                      const Tensor& dst, const DebugContext& dc)
      : Program(std::make_shared<detail::ProgramNode>()) {
    node_->kind = detail::ProgramNode::Kind::CrossReplica;
    node_->debug = dc;
    node_->src = src;
    node_->dst = dst;
    node_->collective = spec;
  }
};
} // namespace

CrossReplicaCopy::CrossReplicaCopy(Tensor src, Tensor dst, std::map<unsigned, unsigned> replicaMap,
                                   const DebugContext& debugContext)
    : Program(std::make_shared<detail::ProgramNode>()) {
  detail::runtime::CollectiveSpec spec;
  spec.kind = detail::runtime::CollectiveKind::Copy;
  spec.opName = "CrossReplicaCopy";
  // What can be checked without the graph; the replica count is checked when it is compiled.
  std::vector<bool> destination;
  for (const auto& [from, to] : replicaMap) {
    if (from == to)
      throw poplar_error("CrossReplicaCopy: replica " + std::to_string(from) +
                         " copies to itself (a replica may not copy to itself)");
    if (to >= destination.size()) destination.resize(to + 1);
    if (destination[to])
      throw poplar_error("CrossReplicaCopy: replica " + std::to_string(to) +
                         " is the destination of two replicas (each receives from exactly one)");
    destination[to] = true;
    if (from >= spec.copyTo.size()) spec.copyTo.resize(from + 1, ~0u);
    spec.copyTo[from] = to;
  }
  if (src.valid() && dst.valid() && src.numElements() != dst.numElements())
    throw poplar_error("CrossReplicaCopy: src has " + std::to_string(src.numElements()) +
                       " elements, dst " + std::to_string(dst.numElements()));
  node_->kind = detail::ProgramNode::Kind::CrossReplica;
  node_->debug = debugContext;
  node_->src = src.valid() ? src.flatten() : src;
  node_->dst = dst.valid() ? dst.flatten() : dst;
  node_->collective = spec;
}

} // namespace program

namespace detail::runtime {

std::vector<std::vector<unsigned>> replicaGroups(const CollectiveSpec& spec, unsigned replicas) {
  const unsigned k =
      spec.groupType == GroupType::All || spec.groupSize == 0 ? replicas : spec.groupSize;
  if (k == 0 || replicas % k != 0)
    throw poplar_error(spec.opName + ": a replica group of " + std::to_string(k) +
                       " does not divide the " + std::to_string(replicas) + " replicas");
  const unsigned groups = replicas / k;
  std::vector<std::vector<unsigned>> out(groups);
  for (unsigned g = 0; g < groups; ++g)
    for (unsigned j = 0; j < k; ++j)
      // Consecutive: {0..k-1}, {k..2k-1}, ...; orthogonal: {0, m, 2m, ...}, {1, m+1, ...}.
      out[g].push_back(spec.groupType == GroupType::Orthogonal ? g + j * groups : g * k + j);
  return out;
}

const char* collectiveKindName(CollectiveKind k) {
  switch (k) {
  case CollectiveKind::AllReduce:
    return "AllReduce";
  case CollectiveKind::ReduceScatter:
    return "ReduceScatter";
  case CollectiveKind::AllGather:
    return "AllGather";
  case CollectiveKind::Broadcast:
    return "Broadcast";
  case CollectiveKind::AllToAll:
    return "AllToAll";
  case CollectiveKind::Copy:
    return "CrossReplicaCopy";
  }
  return "?";
}

void checkCopyMap(const CollectiveSpec& spec, unsigned replicas, const std::string& where) {
  if (replicas < 2)
    throw poplar_error(where + ": copies between replicas need at least 2 replicas, the graph " +
                       "has " + std::to_string(replicas));
  std::vector<bool> seen(replicas, false);
  for (unsigned from = 0; from < spec.copyTo.size(); ++from) {
    const unsigned to = spec.copyTo[from];
    if (to == ~0u) continue;
    if (from >= replicas || to >= replicas)
      throw poplar_error(where + ": the replica map names replica " +
                         std::to_string(std::max(from, to)) + ", but there are " +
                         std::to_string(replicas) + " replicas");
    seen[to] = true;
  }
  for (unsigned r = 0; r < replicas; ++r)
    if (r >= spec.copyTo.size() || spec.copyTo[r] == ~0u || !seen[r])
      throw poplar_error(
          where + ": replica " + std::to_string(r) + " is not " +
          (r >= spec.copyTo.size() || spec.copyTo[r] == ~0u ? "a source" : "a destination") +
          " in the replica map: each of the " + std::to_string(replicas) +
          " replicas must be a source once and a destination once");
}

const char* collectiveOpName(CollectiveOp op) {
  static const char* const names[] = {"ADD",         "MEAN",       "MUL",        "MIN",  "MAX",
                                      "LOGICAL_AND", "LOGICAL_OR", "SQUARE_ADD", "LOCAL"};
  return names[static_cast<unsigned>(op)];
}

program::Program crossReplicaProgram(const CollectiveSpec& spec, const Tensor& src,
                                     const Tensor& dst, const DebugContext& debugContext) {
  return program::CrossReplicaProgram(spec, src, dst, debugContext);
}

} // namespace detail::runtime
} // namespace poplar
