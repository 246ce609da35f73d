// gcl collectives: argument checks, the result tensors, and the engine's cross-replica program
// node (engine/src/runtime/CrossReplica.hpp), which moves and combines the replicas' data at run
// time.
#include "poplibs_support/TileWork.hpp"
#include "runtime/CrossReplica.hpp"
#include "runtime/Instances.hpp"

#include <gcl/Collectives.hpp>
#include <istream>
#include <ostream>
#include <poputil/DebugInfo.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

namespace gcl {
namespace {

using namespace poplar;
using poplar::program::Sequence;
namespace pd = poplar::detail::runtime;

const char* const kOperatorNames[] = {"ADD",         "MEAN",       "MUL",        "MIN",  "MAX",
                                      "LOGICAL_AND", "LOGICAL_OR", "SQUARE_ADD", "LOCAL"};

pd::CollectiveSpec specOf(Graph& graph, pd::CollectiveKind kind, CollectiveOperator op,
                          const CommGroup& group, const std::string& name,
                          const OptionFlags& options) {
  poplibs_support::checkOptions(options, {"method", "useReplicatedImplementation"}, name);
  for (const auto& [key, value] : options) {
    if (key == "method" && value != "auto" && value != "clockwise_ring" &&
        value != "anticlockwise_ring" && value != "bidirectional_ring_pair" &&
        value != "meet_in_middle_ring" && value != "quad_directional_ring")
      throw invalid_option(name + ": option method='" + value +
                           "' is not one of auto, clockwise_ring, anticlockwise_ring, "
                           "bidirectional_ring_pair, meet_in_middle_ring, quad_directional_ring");
    if (key == "useReplicatedImplementation" && value != "true" && value != "false")
      throw invalid_option(name + ": option useReplicatedImplementation='" + value +
                           "' must be true or false");
  }
  const unsigned opIndex = static_cast<unsigned>(op);
  if (opIndex > static_cast<unsigned>(CollectiveOperator::LOCAL))
    throw poputil::poplibs_error(name + ": op is not a gcl::CollectiveOperator (" +
                                 std::to_string(opIndex) + ")");
  const unsigned typeIndex = static_cast<unsigned>(group.type);
  if (typeIndex > static_cast<unsigned>(CommGroupType::ORTHOGONAL))
    throw poputil::poplibs_error(name + ": group.type is not a gcl::CommGroupType (" +
                                 std::to_string(typeIndex) + ")");
  pd::CollectiveSpec spec;
  spec.kind = kind;
  spec.op = static_cast<pd::CollectiveOp>(opIndex);
  spec.groupType = static_cast<pd::GroupType>(typeIndex);
  spec.groupSize = group.type == CommGroupType::ALL ? 0 : group.replicaGroupSize;
  spec.opName = name;
  // Under poprun, a graph of this instance's replicas is a slice of the job's: groups count
  // every replica of every instance (runtime/Instances.hpp).
  const unsigned replicas = pd::globalReplicationFactor(graph.getReplicationFactor());
  if (spec.groupSize != 0 && replicas % spec.groupSize != 0)
    throw poputil::poplibs_error(
        name + ": group.replicaGroupSize " + std::to_string(spec.groupSize) +
        " does not divide the " + std::to_string(replicas) + " replicas" +
        (replicas != graph.getReplicationFactor() ? " of the poprun job" : " of the graph"));
  return spec;
}

unsigned groupSizeOf(const Graph& graph, const pd::CollectiveSpec& spec) {
  return spec.groupSize ? spec.groupSize
                        : pd::globalReplicationFactor(graph.getReplicationFactor());
}

void checkData(const Tensor& data, CollectiveOperator op, const std::string& name,
               const char* operand) {
  poplibs_support::checkValid(data, name, operand);
  if (op == CollectiveOperator::LOGICAL_AND || op == CollectiveOperator::LOGICAL_OR)
    poplibs_support::checkType(data.elementType(), {BOOL}, name, operand);
  else
    poplibs_support::checkType(data.elementType(), {FLOAT, HALF, INT, UNSIGNED_INT}, name, operand);
}

void addCollective(const pd::CollectiveSpec& spec, const Tensor& src, const Tensor& dst,
                   Sequence& prog, const DebugContext& di) {
  prog.add(pd::crossReplicaProgram(spec, src.flatten(), dst.flatten(), di));
}

Tensor allReduce(Graph& graph, const Tensor& data, CollectiveOperator op, Sequence& prog,
                 const CommGroup& group, const DebugContext& debugContext,
                 const OptionFlags& options) {
  const std::string name = "gcl::allReduceCrossReplica";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "allReduceCrossReplica");
  checkData(data, op, name, "data");
  const auto spec = specOf(graph, pd::CollectiveKind::AllReduce, op, group, name, options);
  poplibs_support::tileMapping(graph, data, name); // the result is mapped like data
  const Tensor out = graph.clone(data, {di, "out"});
  addCollective(spec, data, out, prog, di);
  return out;
}

void allReduceInPlace(Graph& graph, Tensor& data, CollectiveOperator op, Sequence& prog,
                      const CommGroup& group, const DebugContext& debugContext,
                      const OptionFlags& options) {
  const std::string name = "gcl::allReduceInPlaceCrossReplica";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "allReduceInPlaceCrossReplica");
  checkData(data, op, name, "data");
  if (data.containsAliases())
    throw poputil::poplibs_error(
        name + ": data contains aliased elements, so it cannot be written in place");
  const auto spec = specOf(graph, pd::CollectiveKind::AllReduce, op, group, name, options);
  addCollective(spec, data, data, prog, di);
}

} // namespace

std::istream& operator>>(std::istream& is, CollectiveOperator& op) {
  std::string token;
  is >> token;
  for (unsigned i = 0; i < sizeof(kOperatorNames) / sizeof(kOperatorNames[0]); ++i)
    if (token == kOperatorNames[i]) {
      op = static_cast<CollectiveOperator>(i);
      return is;
    }
  throw poputil::poplibs_error(
      "gcl::CollectiveOperator: unknown operator '" + token +
      "' (ADD, MEAN, MUL, MIN, MAX, LOGICAL_AND, LOGICAL_OR, SQUARE_ADD, LOCAL)");
}

std::ostream& operator<<(std::ostream& os, const CollectiveOperator& op) {
  const unsigned i = static_cast<unsigned>(op);
  return os << (i < sizeof(kOperatorNames) / sizeof(kOperatorNames[0]) ? kOperatorNames[i]
                                                                       : "<invalid>");
}

Tensor allReduceCrossReplica(Graph& graph, const Tensor& data, CollectiveOperator op,
                             Sequence& prog, const CommGroup& group,
                             const DebugContext& debugContext, const OptionFlags& options) {
  return allReduce(graph, data, op, prog, group, debugContext, options);
}

Tensor allReduceCrossReplica(Graph& graph, const Tensor& data, CollectiveOperator op,
                             Sequence& prog, const DebugContext& debugContext,
                             const OptionFlags& options) {
  return allReduce(graph, data, op, prog, CommGroup(), debugContext, options);
}

std::vector<Tensor> allReduceCrossReplica(Graph& graph, const std::vector<Tensor>& datas,
                                          CollectiveOperator op, Sequence& prog,
                                          const CommGroup& group, const DebugContext& debugContext,
                                          const OptionFlags& options) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "allReduceCrossReplica");
  std::vector<Tensor> out;
  for (std::size_t i = 0; i < datas.size(); ++i)
    out.push_back(allReduce(graph, datas[i], op, prog, group, {di, std::to_string(i)}, options));
  return out;
}

std::vector<Tensor> allReduceCrossReplica(Graph& graph, const std::vector<Tensor>& datas,
                                          CollectiveOperator op, Sequence& prog,
                                          const DebugContext& debugContext,
                                          const OptionFlags& options) {
  return allReduceCrossReplica(graph, datas, op, prog, CommGroup(), debugContext, options);
}

void allReduceInPlaceCrossReplica(Graph& graph, Tensor& data, CollectiveOperator op, Sequence& prog,
                                  const CommGroup& group, const DebugContext& debugContext,
                                  const OptionFlags& options) {
  allReduceInPlace(graph, data, op, prog, group, debugContext, options);
}

void allReduceInPlaceCrossReplica(Graph& graph, Tensor& data, CollectiveOperator op, Sequence& prog,
                                  const DebugContext& debugContext, const OptionFlags& options) {
  allReduceInPlace(graph, data, op, prog, CommGroup(), debugContext, options);
}

void allReduceInPlaceCrossReplica(Graph& graph, std::vector<Tensor>& datas, CollectiveOperator op,
                                  Sequence& prog, const CommGroup& group,
                                  const DebugContext& debugContext, const OptionFlags& options) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "allReduceInPlaceCrossReplica");
  for (std::size_t i = 0; i < datas.size(); ++i)
    allReduceInPlace(graph, datas[i], op, prog, group, {di, std::to_string(i)}, options);
}

void allReduceInPlaceCrossReplica(Graph& graph, std::vector<Tensor>& datas, CollectiveOperator op,
                                  Sequence& prog, const DebugContext& debugContext,
                                  const OptionFlags& options) {
  allReduceInPlaceCrossReplica(graph, datas, op, prog, CommGroup(), debugContext, options);
}

void allReduceToDestinationCrossReplica(Graph& graph, const Tensor& data, Tensor& destination,
                                        CollectiveOperator op, Sequence& prog,
                                        const CommGroup& group, const DebugContext& debugContext,
                                        const OptionFlags& options) {
  const std::string name = "gcl::allReduceToDestinationCrossReplica";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "allReduceToDestinationCrossReplica");
  checkData(data, op, name, "data");
  poplibs_support::checkValid(destination, name, "destination");
  if (destination.elementType() != data.elementType() ||
      destination.numElements() != data.numElements())
    throw poputil::poplibs_error(name + ": destination is " + destination.elementType().toString() +
                                 " " + destination.shapeToString() + " but data is " +
                                 data.elementType().toString() + " " + data.shapeToString() +
                                 "; type and number of elements must match");
  if (destination.containsAliases())
    throw poputil::poplibs_error(name + ": destination contains aliased elements");
  const auto spec = specOf(graph, pd::CollectiveKind::AllReduce, op, group, name, options);
  addCollective(spec, data, destination, prog, di);
}

void allReduceToDestinationCrossReplica(Graph& graph, const Tensor& data, Tensor& destination,
                                        CollectiveOperator op, Sequence& prog,
                                        const DebugContext& debugContext,
                                        const OptionFlags& options) {
  allReduceToDestinationCrossReplica(graph, data, destination, op, prog, CommGroup(), debugContext,
                                     options);
}

Tensor reduceScatterCrossReplica(Graph& graph, const Tensor& data, CollectiveOperator op,
                                 Sequence& prog, const CommGroup& group,
                                 const DebugContext& debugContext, const OptionFlags& options) {
  const std::string name = "gcl::reduceScatterCrossReplica";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "reduceScatterCrossReplica");
  checkData(data, op, name, "data");
  const auto spec = specOf(graph, pd::CollectiveKind::ReduceScatter, op, group, name, options);
  const auto mapping = poplibs_support::tileMapping(graph, data, name);
  const std::size_t k = groupSizeOf(graph, spec), n = data.numElements();
  const Tensor out = graph.addVariable(data.elementType(), {(n + k - 1) / k}, {di, "out"});
  // Spread over the tiles holding data, so the slice lands where the data came from.
  std::vector<unsigned> tiles;
  for (unsigned t = 0; t < mapping.size(); ++t)
    if (!mapping[t].empty()) tiles.push_back(t);
  const std::size_t m = out.numElements();
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    const std::size_t begin = m * i / tiles.size(), end = m * (i + 1) / tiles.size();
    if (begin < end) graph.setTileMapping(out.slice(begin, end), tiles[i]);
  }
  if (tiles.empty()) graph.setTileMapping(out, 0);
  addCollective(spec, data, out, prog, di);
  return out;
}

Tensor reduceScatterCrossReplica(Graph& graph, const Tensor& data, CollectiveOperator op,
                                 Sequence& prog, const DebugContext& debugContext,
                                 const OptionFlags& options) {
  return reduceScatterCrossReplica(graph, data, op, prog, CommGroup(), debugContext, options);
}

Tensor allGatherCrossReplica(Graph& graph, const Tensor& data, Sequence& prog,
                             const CommGroup& group, const DebugContext& debugContext,
                             const OptionFlags& options) {
  const std::string name = "gcl::allGatherCrossReplica";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "allGatherCrossReplica");
  poplibs_support::checkValid(data, name, "data");
  poplibs_support::checkType(data.elementType(), {FLOAT, HALF, INT, UNSIGNED_INT, BOOL}, name,
                             "data");
  const auto spec =
      specOf(graph, pd::CollectiveKind::AllGather, CollectiveOperator::LOCAL, group, name, options);
  poplibs_support::tileMapping(graph, data, name);
  const std::size_t k = groupSizeOf(graph, spec);
  std::vector<Tensor> slices;
  for (std::size_t j = 0; j < k; ++j)
    slices.push_back(graph.clone(data, {di, "out" + std::to_string(j)}).expand({0}));
  const Tensor out = concat(slices, 0);
  addCollective(spec, data, out, prog, di);
  return out;
}

Tensor allGatherCrossReplica(Graph& graph, const Tensor& data, Sequence& prog,
                             const DebugContext& debugContext, const OptionFlags& options) {
  return allGatherCrossReplica(graph, data, prog, CommGroup(), debugContext, options);
}

Tensor broadcastCrossReplica(Graph& graph, const Tensor& data, Sequence& prog,
                             const CommGroup& group, unsigned rootReplica,
                             const DebugContext& debugContext, const OptionFlags& options) {
  const std::string name = "gcl::broadcastCrossReplica";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "broadcastCrossReplica");
  poplibs_support::checkValid(data, name, "data");
  poplibs_support::checkType(data.elementType(), {FLOAT, HALF, INT, UNSIGNED_INT, BOOL}, name,
                             "data");
  auto spec =
      specOf(graph, pd::CollectiveKind::Broadcast, CollectiveOperator::ADD, group, name, options);
  const unsigned k = groupSizeOf(graph, spec);
  if (rootReplica >= k)
    throw poputil::poplibs_error(name + ": rootReplica " + std::to_string(rootReplica) +
                                 " is not a member of a group of " + std::to_string(k) +
                                 " replicas (it indexes the group's members)");
  spec.root = rootReplica;
  poplibs_support::tileMapping(graph, data, name);
  const Tensor out = graph.clone(data, {di, "out"});
  addCollective(spec, data, out, prog, di);
  return out;
}

Tensor allToAllCrossReplica(Graph& graph, const Tensor& data, Sequence& prog,
                            const CommGroup& group, const DebugContext& debugContext,
                            const OptionFlags& options) {
  const std::string name = "gcl::allToAllCrossReplica";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "allToAllCrossReplica");
  poplibs_support::checkValid(data, name, "data");
  poplibs_support::checkType(data.elementType(), {FLOAT, HALF, INT, UNSIGNED_INT, BOOL}, name,
                             "data");
  const auto spec =
      specOf(graph, pd::CollectiveKind::AllToAll, CollectiveOperator::ADD, group, name, options);
  const unsigned k = groupSizeOf(graph, spec);
  if (data.rank() == 0 || data.dim(0) != k)
    throw poputil::poplibs_error(name + ": data is " + data.shapeToString() +
                                 "; its first dimension must be the group size " +
                                 std::to_string(k) + " (one row for each member)");
  poplibs_support::tileMapping(graph, data, name);
  const Tensor out = graph.clone(data, {di, "out"});
  addCollective(spec, data, out, prog, di);
  return out;
}

Tensor allToAllCrossReplica(Graph& graph, const Tensor& data, Sequence& prog,
                            const DebugContext& debugContext, const OptionFlags& options) {
  return allToAllCrossReplica(graph, data, prog, CommGroup(), debugContext, options);
}

} // namespace gcl
