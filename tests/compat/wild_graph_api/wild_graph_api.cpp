// The Poplar API as research and HPC code outside Graphcore uses it: 64-bit host integers as
// initial values, equivalent_device_type, half constants from bit patterns, replication index
// constants, debug strings, partial dim shuffles, IPU system targets, virtual
// devices and the standard library through Poplar's headers (std::optional, std::iota,
// std::accumulate without including <optional> or <numeric>).
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

std::string sliceError(Graph &graph); // errors_from_graph.cpp

std::optional<Device> getDevice(unsigned tiles) {
  IPUModel model;
  model.tilesPerIPU = tiles;
  return model.createDevice();
}

int main() {
  std::cout << "version string has a hash: "
            << (versionString().find('(') != std::string::npos) << "\n";

  auto target = Target::createIPUTarget(2, "IPU-POD16", {});
  std::cout << "IPU-POD16 target: " << target.getNumIPUs() << " IPUs of "
            << target.getTilesPerIPU() << " tiles\n";

  std::optional<Device> full = getDevice(8);
  std::cout << "remote buffers: " << full->supportsRemoteBuffers() << "\n";
  Device device = full->createVirtualDevice(4);
  std::cout << "virtual device: " << device.getTarget().getNumTiles() << " tiles\n";

  Graph graph(device.getTarget());
  std::cout << "slice past the end: " << sliceError(graph) << "\n";

  const std::size_t n = 6;
  std::vector<std::size_t> idx(n);
  std::iota(idx.begin(), idx.end(), std::size_t(10));
  Tensor ids = graph.addVariable(equivalent_device_type<unsigned>().value, {n}, "ids");
  graph.setTileMapping(ids, 0);
  graph.setInitialValue(ids, idx); // std::size_t values into an UNSIGNED_INT tensor
  Tensor count = graph.addVariable(INT, {}, "count");
  graph.setTileMapping(count, 1);
  graph.setInitialValue(count, long(-7));
  Tensor total = graph.addConstant(UNSIGNED_INT, {}, std::accumulate(idx.begin(), idx.end(),
                                                                     std::size_t(0)));
  graph.setTileMapping(total, 1);

  Tensor halves = graph.addConstantHalf(HALF, {3}, std::vector<std::uint16_t>{0x3c00, 0x4000,
                                                                             0xc200}.data());
  graph.setTileMapping(halves, 2);
  Tensor one = graph.addConstantHalf(HALF, {}, std::uint16_t(0x3c00));
  graph.setTileMapping(one, 2);

  Tensor m = graph.addVariable(FLOAT, {2, 3, 4}, "m");
  graph.setTileMapping(m, 3);
  Tensor moved = m.dimShufflePartial({2}, {0});
  std::cout << "dimShufflePartial({2}, {0}) of {2,3,4}: " << moved.shapeToString() << "\n";
  std::cout << "debug string: " << m.slice(1, 3, 2).getDebugStr() << "\n";
  Tensor joined = concat(std::vector<Tensor>{ids, ids});
  std::cout << "concat of a vector: " << joined.shapeToString() << "\n";

  DataStream out = graph.addDeviceToHostFIFO("out", FLOAT, 3);
  std::cout << "FIFO type is DeviceToHostFIFO: "
            << (out.type() == DataStreamType::DeviceToHostFIFO) << "\n";

  DebugInfo di({"myLayer"}, "myFramework");
  di.setValue("kind", ProfileValue("research"));
  Tensor copyOfIds = graph.addVariable(UNSIGNED_INT, {n}, {di, "copy"});
  graph.setTileMapping(copyOfIds, 1);
  Tensor asFloat = graph.addVariable(FLOAT, {3}, "asFloat");
  graph.setTileMapping(asFloat, 2);

  Sequence prog;
  prog.add(Copy(ids, copyOfIds));
  graph.createHostRead("ids", copyOfIds);
  graph.createHostRead("count", count);
  graph.createHostRead("total", total);
  graph.createHostRead("halves", halves);
  graph.createHostRead("one", one);

  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0);
  std::vector<unsigned> hostIds(n);
  int hostCount = 0;
  unsigned hostTotal = 0;
  std::vector<std::uint16_t> hostHalves(3);
  std::uint16_t hostOne = 0;
  engine.readTensor("ids", hostIds.data(), hostIds.data() + n);
  engine.readTensor("count", &hostCount, &hostCount + 1);
  engine.readTensor("total", &hostTotal, &hostTotal + 1);
  engine.readTensor("halves", hostHalves.data(), hostHalves.data() + 3);
  engine.readTensor("one", &hostOne, &hostOne + 1);
  std::cout << "ids:";
  for (auto v : hostIds)
    std::cout << " " << v;
  std::cout << "\ncount: " << hostCount << "\ntotal: " << hostTotal << "\nhalves:" << std::hex;
  for (auto h : hostHalves)
    std::cout << " 0x" << h;
  std::cout << "\none: 0x" << hostOne << std::dec << "\n";

  // Each replica reads its own index.
  IPUModel two;
  two.numIPUs = 2;
  two.tilesPerIPU = 4;
  Device pair = two.createDevice();
  Graph replicated(pair.getTarget(), replication_factor(2));
  Tensor replica = replicated.addReplicationIndexConstant("replica");
  replicated.setTileMapping(replica, 0);
  Tensor seen = replicated.addVariable(UNSIGNED_INT, {}, "seen");
  replicated.setTileMapping(seen, 1);
  DataStream seenStream = replicated.addDeviceToHostFIFO("seen", UNSIGNED_INT, 1);
  Sequence readIndex{Copy(replica, seen), Copy(seen, seenStream)};
  Engine repEngine(replicated, readIndex);
  repEngine.load(pair);
  unsigned seenBy[2] = {99, 99};
  repEngine.connectStream("seen", 0, &seenBy[0], &seenBy[0] + 1);
  repEngine.connectStream("seen", 1, &seenBy[1], &seenBy[1] + 1);
  repEngine.run(0);
  std::cout << "replication index in replica 0: " << seenBy[0] << ", replica 1: " << seenBy[1]
            << "\n";
  return 0;
}
