// Runs every gcl collective over a replicated graph and prints each replica's results in hex, one
// line per global replica and result, so that a job under poprun can be compared byte for byte
// with the same replicas in one process (test_distributed.py).
//
//   collectives_probe REPLICAS        one process holding REPLICAS replicas
//   poprun ... collectives_probe      this instance's replicas of the job (PopDist)
//
// It also prints PopDist's figures ("popdist ...") and, with a report directory in
// POPLAR_ENGINE_OPTIONS, leaves each instance's profile. TESSERA_PROBE_SLOW_INSTANCE=i gives
// instance i extra compute (outside the collectives), so its profile is the job's slowest.
// TESSERA_PROBE_ELEMENTS=n gives each replica n elements instead of 7 (the collectives' cost
// grows with it); TESSERA_PROBE_NO_COLLECTIVES=1 leaves the collectives out (a job whose
// profile has no collective cost).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <gcl/Collectives.hpp>
#include <map>
#include <popdist/backend.hpp>
#include <popdist/context.hpp>
#include <popdist/popdist_poplar.hpp>
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

unsigned kElements = 7; // odd: reduce-scatter pads its last slice

struct Result {
  std::string name;
  Tensor tensor;
};

// A replica's input: values that differ per global replica and round differently when summed
// in another order, so any change of order would show.
std::vector<float> inputOf(unsigned globalReplica) {
  std::vector<float> v(kElements);
  for (unsigned i = 0; i < kElements; ++i)
    v[i] = 0.1f * float(i + 1) + 1.0f / float(3 + globalReplica) - float(globalReplica % 3);
  return v;
}

std::string hex(const std::vector<unsigned char>& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (unsigned char b : bytes) {
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

} // namespace

int main(int argc, char** argv) {
  // Whole lines to mpirun, so that no result line reaches poprun's output in pieces.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  if (const char* n = std::getenv("TESSERA_PROBE_ELEMENTS")) kElements = unsigned(std::atoi(n));
  const bool collectives = !std::getenv("TESSERA_PROBE_NO_COLLECTIVES");
  const bool distributed = popdist::isPopdistEnvSet();
  unsigned local = argc > 1 ? unsigned(std::atoi(argv[1])) : 1;
  unsigned offset = 0;
  Device device;
  if (distributed) {
    std::printf("popdist instance %u of %u, replicas %u local of %u total, offset %u, "
                "ipus per replica %u, device %u\n",
                popdist::getInstanceIndex(), popdist::getNumInstances(),
                popdist::getNumLocalReplicas(), popdist::getNumTotalReplicas(),
                popdist::getReplicaIndexOffset(), popdist::getNumIpusPerReplica(),
                popdist::getDeviceId());
    device = popdist::poplar::getDevice();
    local = popdist::poplar::getReplicationFactor();
    offset = popdist::getReplicaIndexOffset();
  } else {
    auto manager = DeviceManager::createDeviceManager();
    for (auto& d : manager.getDevices(TargetType::IPU, local))
      if (d.attach()) {
        device = std::move(d);
        break;
      }
  }
  const unsigned global = distributed ? popdist::getNumTotalReplicas() : local;
  Graph graph(device.getTarget(), replication_factor(local));
  popops::addCodelets(graph);
  Sequence prog;
  Tensor in = graph.addVariable(FLOAT, {kElements}, "in");
  for (unsigned i = 0; i < kElements; ++i)
    graph.setTileMapping(in[i], i % 3);
  auto feed = graph.addHostToDeviceFIFO("in", FLOAT, kElements);
  prog.add(Copy(feed, in));
  std::vector<Result> results;
  using gcl::CollectiveOperator;
  const std::pair<CollectiveOperator, const char*> ops[] = {
      {CollectiveOperator::ADD, "add"},    {CollectiveOperator::MEAN, "mean"},
      {CollectiveOperator::MAX, "max"},    {CollectiveOperator::MIN, "min"},
      {CollectiveOperator::MUL, "mul"},    {CollectiveOperator::SQUARE_ADD, "square_add"},
      {CollectiveOperator::LOCAL, "local"}};
  for (const auto& [op, name] : ops)
    if (collectives)
      results.push_back({std::string("allReduce_") + name,
                         gcl::allReduceCrossReplica(graph, in, op, prog, name)});
  if (!collectives) {
    Tensor copy = graph.clone(in, "copy");
    prog.add(Copy(in, copy));
    results.push_back({"copy", copy});
  }
  if (collectives && global % 2 == 0) {
    results.push_back({"allReduce_add_consecutive2",
                       gcl::allReduceCrossReplica(
                           graph, in, CollectiveOperator::ADD, prog,
                           gcl::CommGroup(gcl::CommGroupType::CONSECUTIVE, 2), "consecutive")});
    results.push_back({"allReduce_max_orthogonal2",
                       gcl::allReduceCrossReplica(graph, in, CollectiveOperator::MAX, prog,
                                                  gcl::CommGroup(gcl::CommGroupType::ORTHOGONAL, 2),
                                                  "orthogonal")});
  }
  if (collectives) {
    results.push_back({"reduceScatter_add", gcl::reduceScatterCrossReplica(
                                                graph, in, CollectiveOperator::ADD, prog, "rs")});
    results.push_back({"allGather", gcl::allGatherCrossReplica(graph, in, prog, "ag")});
    Tensor destination = graph.clone(in, "destination");
    gcl::allReduceToDestinationCrossReplica(graph, in, destination, CollectiveOperator::MEAN, prog,
                                            "toDestination");
    results.push_back({"allReduceToDestination_mean", destination});
    Tensor inPlace = graph.clone(in, "inPlace");
    prog.add(Copy(in, inPlace));
    gcl::allReduceInPlaceCrossReplica(graph, inPlace, CollectiveOperator::ADD, prog, "inPlace");
    results.push_back({"allReduceInPlace_add", inPlace});
    // Broadcast from the last replica, and within consecutive pairs from the second of each.
    results.push_back(
        {"broadcast_last",
         gcl::broadcastCrossReplica(graph, in, prog, gcl::CommGroup(), global - 1, "bcast")});
    if (global % 2 == 0)
      results.push_back({"broadcast_consecutive2",
                         gcl::broadcastCrossReplica(
                             graph, in, prog, gcl::CommGroup(gcl::CommGroupType::CONSECUTIVE, 2), 1,
                             "bcastPairs")});
    // All-to-all of one row per replica (rows differ by replica and by row).
    Tensor rows = graph.addVariable(FLOAT, {global, kElements}, "rows");
    for (unsigned i = 0; i < global; ++i)
      graph.setTileMapping(rows[i], i % 3);
    prog.add(Copy(graph.addHostToDeviceFIFO("rows", FLOAT, global * kElements), rows));
    results.push_back({"allToAll", gcl::allToAllCrossReplica(graph, rows, prog, "a2a")});
    if (global % 2 == 0)
      results.push_back({"allToAll_orthogonal2",
                         gcl::allToAllCrossReplica(
                             graph, rows.slice(0, 2, 0), prog,
                             gcl::CommGroup(gcl::CommGroupType::ORTHOGONAL, 2), "a2aPairs")});
    // A ring of copies: replica r's data goes to replica r + 1 (the last to the first).
    if (global > 1) {
      std::map<unsigned, unsigned> ring;
      for (unsigned r = 0; r < global; ++r)
        ring[r] = (r + 1) % global;
      Tensor copied = graph.clone(in, "copied");
      prog.add(CrossReplicaCopy(in, copied, ring, "ring"));
      results.push_back({"crossReplicaCopy_ring", copied});
    }
  }
  if (const char* slow = std::getenv("TESSERA_PROBE_SLOW_INSTANCE"))
    if (distributed && unsigned(std::atoi(slow)) == popdist::getInstanceIndex()) {
      Tensor scratch = graph.addVariable(FLOAT, {4096}, "scratch");
      for (unsigned t = 0; t < 4; ++t)
        graph.setTileMapping(scratch.slice(t * 1024, (t + 1) * 1024), t);
      Sequence extra;
      popops::addInPlace(graph, scratch, scratch, extra, "extra");
      prog.add(Repeat(200, extra));
    }
  for (const auto& r : results)
    prog.add(Copy(r.tensor, graph.addDeviceToHostFIFO(r.name, FLOAT, r.tensor.numElements())));

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<std::vector<float>> inputs(local);
  for (unsigned r = 0; r < local; ++r) {
    inputs[r] = inputOf(offset + r);
    engine.connectStream("in", r, inputs[r].data(), inputs[r].data() + kElements);
  }
  std::vector<std::vector<float>> rowInputs(local);
  if (collectives)
    for (unsigned r = 0; r < local; ++r) {
      for (unsigned i = 0; i < global; ++i)
        for (float v : inputOf(offset + r))
          rowInputs[r].push_back(v + 10.0f * float(i));
      engine.connectStream("rows", r, rowInputs[r].data(),
                           rowInputs[r].data() + rowInputs[r].size());
    }
  std::vector<std::vector<std::vector<float>>> outputs(results.size(),
                                                       std::vector<std::vector<float>>(local));
  for (std::size_t i = 0; i < results.size(); ++i)
    for (unsigned r = 0; r < local; ++r) {
      outputs[i][r].resize(results[i].tensor.numElements());
      engine.connectStream(results[i].name, r, outputs[i][r].data(),
                           outputs[i][r].data() + outputs[i][r].size());
    }
  popdist::run(engine, 0);
  // The results go to stdout, and also to TESSERA_PROBE_OUT/results_<instance>.txt when set:
  // mpirun's forwarding of output is not something the tests' comparison should depend on.
  std::FILE* file = nullptr;
  if (const char* dir = std::getenv("TESSERA_PROBE_OUT"))
    file = std::fopen((std::string(dir) + "/results_" +
                       std::to_string(distributed ? popdist::getInstanceIndex() : 0) + ".txt")
                          .c_str(),
                      "w");
  for (std::size_t i = 0; i < results.size(); ++i)
    for (unsigned r = 0; r < local; ++r) {
      std::vector<unsigned char> bytes(outputs[i][r].size() * sizeof(float));
      std::memcpy(bytes.data(), outputs[i][r].data(), bytes.size());
      std::printf("result %s replica %u %s\n", results[i].name.c_str(), offset + r,
                  hex(bytes).c_str());
      if (file)
        std::fprintf(file, "result %s replica %u %s\n", results[i].name.c_str(), offset + r,
                     hex(bytes).c_str());
    }
  if (file) std::fclose(file);
  return 0;
}
