#include "CrossReplica.hpp"

#include "graph/ProgramNode.hpp"

#include <poplar/exceptions.hpp>

namespace poplar {
namespace program {
namespace {
/// Program's node constructor is protected: this program type is how the engine makes the one
/// node kind with no public Poplar class of its own.
class CrossReplicaProgram : public Program {
public:
  CrossReplicaProgram(const detail::CollectiveSpec& spec, const Tensor& src, const Tensor& dst,
                      const DebugContext& dc)
      : Program(std::make_shared<detail::ProgramNode>()) {
    node_->kind = detail::ProgramNode::Kind::CrossReplica;
    node_->debug = dc;
    node_->src = src;
    node_->dst = dst;
    node_->collective = spec;
  }
};
} // namespace
} // namespace program

namespace detail {

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
  }
  return "?";
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

} // namespace detail
} // namespace poplar
