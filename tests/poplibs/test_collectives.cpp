// gcl collectives across the replicas of a replicated graph: the replicas' real data combined
// (all-reduce with each operator, groups, in place, to a destination, reduce-scatter,
// all-gather, broadcast, all-to-all, CrossReplicaCopy), replicas whose control flow differs but
// meets at the collectives, the error when it does not, the global exchange in the profile, and
// argument errors.
#include "TestUtil.hpp"
#include "common/Devices.hpp"
#include "common/ScratchDir.hpp"

#include <gcl/Collectives.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Executable.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>
#include <pva/pva.hpp>
#include <sstream>

using namespace poplar;
using namespace poplar::program;
using Catch::Contains;

namespace {

constexpr unsigned kReplicas = 4;

/// A graph of 4 replicas (one 4-tile IPU each). in(r) is streamed into replica r's `in`; each
/// tensor given to output() is streamed back per replica after the program.
struct Replicated {
  Device device = test::smallDevice(4, kReplicas);
  Graph graph{device.getTarget(), kReplicas};
  Sequence prog;
  Tensor in;
  std::vector<std::vector<float>> inputs;
  std::vector<std::pair<std::string, Tensor>> outputs;
  std::map<std::string, std::vector<std::vector<float>>> results; // name -> [replica]

  explicit Replicated(std::size_t n, Type type = FLOAT) {
    popops::addCodelets(graph);
    in = graph.addVariable(type, {n}, "in");
    poputil::mapTensorLinearly(graph, in);
    prog.add(Copy(graph.addHostToDeviceFIFO("in", type, n), in));
    for (unsigned r = 0; r < kReplicas; ++r) {
      std::vector<float> v(n);
      for (std::size_t i = 0; i < n; ++i)
        v[i] = float(int(i % 7) - 3 + 2 * int(r)); // exact in half
      inputs.push_back(v);
    }
  }
  void output(const std::string& name, const Tensor& t) { outputs.push_back({name, t}); }

  void run(Sequence body, const OptionFlags& options = {}) {
    prog.add(body);
    for (const auto& [name, t] : outputs)
      prog.add(Copy(t, graph.addDeviceToHostFIFO(name, t.elementType(), t.numElements())));
    Engine engine(graph, prog, options);
    engine.load(device);
    const Type type = in.elementType();
    std::vector<std::vector<unsigned char>> inBytes(kReplicas);
    std::map<std::string, std::vector<std::vector<unsigned char>>> outBytes;
    for (unsigned r = 0; r < kReplicas; ++r) {
      for (float x : inputs[r]) {
        unsigned char b[4];
        if (type == FLOAT)
          std::memcpy(b, &x, 4);
        else {
          const int v = int(x);
          std::memcpy(b, &v, 4);
        }
        inBytes[r].insert(inBytes[r].end(), b, b + 4);
      }
      engine.connectStream("in", r, inBytes[r].data(), inBytes[r].data() + inBytes[r].size());
    }
    for (const auto& [name, t] : outputs) {
      auto& bufs = outBytes[name];
      bufs.assign(kReplicas, std::vector<unsigned char>(t.numElements() * 4));
      for (unsigned r = 0; r < kReplicas; ++r)
        engine.connectStream(name, r, bufs[r].data(), bufs[r].data() + bufs[r].size());
    }
    engine.run(0);
    for (const auto& [name, t] : outputs)
      for (unsigned r = 0; r < kReplicas; ++r) {
        std::vector<float> v(t.numElements());
        for (std::size_t i = 0; i < v.size(); ++i) {
          if (t.elementType() == FLOAT)
            std::memcpy(&v[i], &outBytes[name][r][i * 4], 4);
          else {
            int x;
            std::memcpy(&x, &outBytes[name][r][i * 4], 4);
            v[i] = float(x);
          }
        }
        results[name].push_back(v);
      }
  }

  /// Element-wise combination of the inputs of `members`.
  std::vector<float> combine(const std::vector<unsigned>& members, float (*f)(float, float)) const {
    std::vector<float> acc = inputs[members[0]];
    for (std::size_t m = 1; m < members.size(); ++m)
      for (std::size_t i = 0; i < acc.size(); ++i)
        acc[i] = f(acc[i], inputs[members[m]][i]);
    return acc;
  }
};

float add(float a, float b) {
  return a + b;
}
float maxOf(float a, float b) {
  return std::max(a, b);
}
const std::vector<unsigned> kAll = {0, 1, 2, 3};

} // namespace

TEST_CASE("allReduceCrossReplica ADD gives every replica the sum of all replicas' data", "[gcl]") {
  Replicated t(50);
  Sequence body;
  const Tensor sum =
      gcl::allReduceCrossReplica(t.graph, t.in, gcl::CollectiveOperator::ADD, body, "sumGrads");
  CHECK(sum.shape() == t.in.shape());
  t.output("sum", sum);
  t.output("inAfter", t.in);
  t.run(body);
  const auto expected = t.combine(kAll, add);
  for (unsigned r = 0; r < kReplicas; ++r) {
    CHECK(t.results["sum"][r] == expected);
    CHECK(t.results["inAfter"][r] == t.inputs[r]); // the source is left as it was
  }
}

TEST_CASE("allReduce operators MEAN MAX SQUARE_ADD and LOCAL and INT data", "[gcl]") {
  Replicated t(12);
  Sequence body;
  t.output("mean", gcl::allReduceCrossReplica(t.graph, t.in, gcl::CollectiveOperator::MEAN, body));
  t.output("max", gcl::allReduceCrossReplica(t.graph, t.in, gcl::CollectiveOperator::MAX, body));
  t.output("sq",
           gcl::allReduceCrossReplica(t.graph, t.in, gcl::CollectiveOperator::SQUARE_ADD, body));
  t.output("local",
           gcl::allReduceCrossReplica(t.graph, t.in, gcl::CollectiveOperator::LOCAL, body));
  t.run(body);
  auto mean = t.combine(kAll, add);
  for (auto& x : mean)
    x /= 4;
  std::vector<float> sq(12, 0.0f);
  for (unsigned r = 0; r < kReplicas; ++r)
    for (std::size_t i = 0; i < 12; ++i)
      sq[i] += t.inputs[r][i] * t.inputs[r][i];
  for (unsigned r = 0; r < kReplicas; ++r) {
    CHECK(t.results["mean"][r] == mean);
    CHECK(t.results["max"][r] == t.combine(kAll, maxOf));
    CHECK(t.results["sq"][r] == sq);
    CHECK(t.results["local"][r] == t.inputs[r]);
  }

  Replicated ints(9, INT);
  Sequence intBody;
  ints.output("sum", gcl::allReduceCrossReplica(ints.graph, ints.in, gcl::CollectiveOperator::ADD,
                                                intBody));
  ints.run(intBody);
  CHECK(ints.results["sum"][2] == ints.combine(kAll, add));
}

TEST_CASE("consecutive and orthogonal groups reduce within each group", "[gcl]") {
  Replicated t(10);
  Sequence body;
  t.output("cons", gcl::allReduceCrossReplica(t.graph, t.in, gcl::CollectiveOperator::ADD, body,
                                              {gcl::CommGroupType::CONSECUTIVE, 2}));
  t.output("orth", gcl::allReduceCrossReplica(t.graph, t.in, gcl::CollectiveOperator::ADD, body,
                                              gcl::CommGroup(gcl::CommGroupType::ORTHOGONAL, 2)));
  t.run(body);
  // Consecutive pairs {0,1}, {2,3}; orthogonal pairs {0,2}, {1,3}.
  CHECK(t.results["cons"][0] == t.combine({0, 1}, add));
  CHECK(t.results["cons"][1] == t.combine({0, 1}, add));
  CHECK(t.results["cons"][3] == t.combine({2, 3}, add));
  CHECK(t.results["orth"][0] == t.combine({0, 2}, add));
  CHECK(t.results["orth"][3] == t.combine({1, 3}, add));
}

TEST_CASE("in place and to a destination and reduce-scatter and all-gather", "[gcl]") {
  Replicated t(10);
  Sequence body;
  Tensor copy = t.graph.clone(t.in, "copy");
  body.add(Copy(t.in, copy));
  gcl::allReduceInPlaceCrossReplica(t.graph, copy, gcl::CollectiveOperator::ADD, body);
  Tensor dest = t.graph.clone(t.in, "dest");
  gcl::allReduceToDestinationCrossReplica(t.graph, t.in, dest, gcl::CollectiveOperator::MAX, body);
  const Tensor scattered =
      gcl::reduceScatterCrossReplica(t.graph, t.in, gcl::CollectiveOperator::ADD, body);
  CHECK(scattered.shape() == std::vector<std::size_t>{3}); // ceil(10 / 4)
  const Tensor gathered = gcl::allGatherCrossReplica(t.graph, t.in, body);
  CHECK(gathered.shape() == std::vector<std::size_t>{4, 10});
  t.output("copy", copy);
  t.output("dest", dest);
  t.output("scattered", scattered);
  t.output("gathered", gathered);
  t.run(body);
  const auto sum = t.combine(kAll, add);
  std::vector<float> all;
  for (unsigned r = 0; r < kReplicas; ++r)
    all.insert(all.end(), t.inputs[r].begin(), t.inputs[r].end());
  for (unsigned r = 0; r < kReplicas; ++r) {
    CHECK(t.results["copy"][r] == sum);
    CHECK(t.results["dest"][r] == t.combine(kAll, maxOf));
    std::vector<float> slice(3, 0.0f); // replica r's third of the sum, zero-padded past 10
    for (std::size_t i = 0; i < 3; ++i)
      if (3 * r + i < 10) slice[i] = sum[3 * r + i];
    CHECK(t.results["scattered"][r] == slice);
    CHECK(t.results["gathered"][r] == all);
  }
}

TEST_CASE("replicas may take different branches that meet at the same collectives", "[gcl]") {
  // inputs[r][1] = -2 + 2r is zero only on replica 1: it skips the copy, so its contribution to
  // the all-reduce is the zeros `out` starts with.
  Replicated t(6);
  const Tensor out = t.graph.clone(t.in, "out");
  const Tensor zeros = t.graph.addConstant(FLOAT, {6}, 0.0f, "zeros");
  t.graph.setTileMapping(zeros, 0);
  Sequence body;
  body.add(Copy(zeros, out));
  body.add(If(t.in[1], Sequence({Copy(t.in, out)}), Sequence()));
  t.output("sum", gcl::allReduceCrossReplica(t.graph, out, gcl::CollectiveOperator::ADD, body));
  t.run(body);
  CHECK(t.results["sum"][1] == t.combine({0, 2, 3}, add));
}

TEST_CASE("a collective inside control flow that differs between replicas is an error",
          "[gcl][errors]") {
  Replicated t(6);
  // inputs[r][1] = -2 + 2r: zero only on replica 1, so replica 1 skips the collective.
  Sequence reduce;
  gcl::allReduceInPlaceCrossReplica(t.graph, t.in, gcl::CollectiveOperator::ADD, reduce,
                                    "inBranch");
  Sequence body;
  body.add(If(t.in[1], reduce, Sequence()));
  CHECK_THROWS_MATCHES(t.run(body), poplar::application_runtime_error,
                       test::What(Contains("replicas diverged") && Contains("replica 1 finished") &&
                                  Contains("gcl::allReduceInPlaceCrossReplica")));
}

TEST_CASE("an error in one replica between collectives stops them all", "[gcl][errors]") {
  // After the first all-reduce, replica 0 aborts (inputs[0][1] = -2 is non-zero) while the other
  // replicas wait for their turn: run() rethrows the abort instead of waiting for ever.
  Replicated t(6);
  Sequence body;
  const Tensor first =
      gcl::allReduceCrossReplica(t.graph, t.in, gcl::CollectiveOperator::ADD, body, "first");
  body.add(AbortOnCondition(t.in[1], "replica check"));
  gcl::allReduceCrossReplica(t.graph, first, gcl::CollectiveOperator::ADD, body, "second");
  CHECK_THROWS_MATCHES(t.run(body), poplar::application_runtime_error,
                       test::What(Contains("replica check")));
}

TEST_CASE("the all-reduce is a global exchange in the profile costed by the bytes moved",
          "[gcl][profile]") {
  // Build, run and read the report of one all-reduce of 4096 floats.
  auto device = test::smallDevice(4, kReplicas);
  Graph graph(device.getTarget(), kReplicas);
  popops::addCodelets(graph);
  Tensor data = graph.addVariable(FLOAT, {4096}, "grads");
  poputil::mapTensorLinearly(graph, data);
  Sequence prog;
  gcl::allReduceInPlaceCrossReplica(graph, data, gcl::CollectiveOperator::ADD, prog,
                                    "allReduceGrads");
  const test::ScratchDir dir;
  Engine engine(graph, prog,
                {{"autoReport.outputGraphProfile", "true"},
                 {"autoReport.outputExecutionProfile", "true"},
                 {"autoReport.directory", dir.path().string()}});
  engine.load(device);
  engine.run(0);
  const pva::Report report = engine.getReport();
  unsigned found = 0;
  for (const auto& run : report.execution().runs())
    for (const auto& step : run.steps()) {
      const auto p = step.program();
      if (p->type() != pva::Program::Type::GlobalExchange) continue;
      ++found;
      CHECK(p->name().find("allReduceGrads") != std::string::npos);
      for (const auto& ipu : step.ipus()) {
        // A ring moves 2 (k-1)/k of the 16 KiB in and out of each replica's IPU, at the
        // target's IPU-Link bandwidth (12 bytes per cycle here).
        CHECK(ipu.dataIn() == 2 * 3 * 4096 * 4 / 4);
        CHECK(ipu.dataOut() == 2 * 3 * 4096 * 4 / 4);
        CHECK(ipu.cycles() >= 2 * 3 * 4096 * 4 / 4 / 12);
      }
    }
  CHECK(found == 1);
}

TEST_CASE("gcl argument errors", "[gcl][errors]") {
  Replicated t(8);
  Sequence body;
  CHECK_THROWS_MATCHES(gcl::allReduceCrossReplica(t.graph, t.in, gcl::CollectiveOperator::ADD, body,
                                                  {gcl::CommGroupType::CONSECUTIVE, 3}),
                       poputil::poplibs_error, test::What(Contains("replicaGroupSize 3")));
  CHECK_THROWS_MATCHES(
      gcl::allReduceCrossReplica(t.graph, t.in, gcl::CollectiveOperator::LOGICAL_OR, body),
      poputil::poplibs_error, test::What(Contains("data") && Contains("bool")));
  CHECK_THROWS_MATCHES(
      gcl::allReduceCrossReplica(t.graph, Tensor(), gcl::CollectiveOperator::ADD, body),
      poputil::poplibs_error, test::What(Contains("data")));
  CHECK_THROWS_AS(gcl::allReduceCrossReplica(t.graph, t.in, gcl::CollectiveOperator::ADD, body, "x",
                                             {{"nonsense", "1"}}),
                  poplar::invalid_option);
  Tensor small = t.graph.addVariable(FLOAT, {3}, "small");
  t.graph.setTileMapping(small, 0);
  CHECK_THROWS_MATCHES(gcl::allReduceToDestinationCrossReplica(t.graph, t.in, small,
                                                               gcl::CollectiveOperator::ADD, body),
                       poputil::poplibs_error, test::What(Contains("destination")));
  std::stringstream ss("MEAN");
  gcl::CollectiveOperator op;
  ss >> op;
  CHECK(op == gcl::CollectiveOperator::MEAN);
  std::stringstream bad("AVERAGE");
  CHECK_THROWS_AS(bad >> op, poputil::poplibs_error);
}

TEST_CASE("broadcastCrossReplica gives every member the root member's data", "[gcl]") {
  Replicated t(12);
  Sequence body;
  t.output("all", gcl::broadcastCrossReplica(t.graph, t.in, body, gcl::CommGroup(), 2, "bcast"));
  t.output("pairs", gcl::broadcastCrossReplica(
                        t.graph, t.in, body, gcl::CommGroup(gcl::CommGroupType::ORTHOGONAL, 2), 1));
  t.run(body);
  for (unsigned r = 0; r < kReplicas; ++r) {
    CHECK(t.results["all"][r] == t.inputs[2]);
    // Orthogonal pairs {0, 2} and {1, 3}: member 1 of each is replica 2 or 3.
    CHECK(t.results["pairs"][r] == t.inputs[2 + r % 2]);
  }
}

TEST_CASE("allToAllCrossReplica sends row i of each member to member i", "[gcl]") {
  Replicated t(12);
  Sequence body;
  const Tensor rows = t.in.reshape({kReplicas, 3});
  t.output("a2a", gcl::allToAllCrossReplica(t.graph, rows, body, "a2a"));
  t.output("pairs", gcl::allToAllCrossReplica(t.graph, t.in.reshape({2, 6}), body,
                                              gcl::CommGroup(gcl::CommGroupType::CONSECUTIVE, 2)));
  t.run(body);
  for (unsigned r = 0; r < kReplicas; ++r)
    for (unsigned i = 0; i < kReplicas; ++i)
      for (unsigned e = 0; e < 3; ++e)
        CHECK(t.results["a2a"][r][i * 3 + e] == t.inputs[i][r * 3 + e]);
  // Pairs {0, 1} and {2, 3}: member j's row i is member i's row j.
  for (unsigned r = 0; r < kReplicas; ++r)
    for (unsigned i = 0; i < 2; ++i)
      for (unsigned e = 0; e < 6; ++e)
        CHECK(t.results["pairs"][r][i * 6 + e] == t.inputs[(r / 2) * 2 + i][(r % 2) * 6 + e]);
}

TEST_CASE("CrossReplicaCopy copies each replica's tensor to the replica the map names", "[gcl]") {
  Replicated t(5);
  Sequence body;
  const Tensor dst = t.graph.clone(t.in, "dst");
  body.add(CrossReplicaCopy(t.in, dst, {{0, 2}, {2, 3}, {3, 1}, {1, 0}}, "ring"));
  t.output("dst", dst);
  t.run(body);
  CHECK(t.results["dst"][2] == t.inputs[0]);
  CHECK(t.results["dst"][3] == t.inputs[2]);
  CHECK(t.results["dst"][1] == t.inputs[3]);
  CHECK(t.results["dst"][0] == t.inputs[1]);
}

TEST_CASE("broadcast, all-to-all and cross-replica copy argument errors", "[gcl][errors]") {
  Replicated t(8);
  Sequence body;
  CHECK_THROWS_MATCHES(gcl::broadcastCrossReplica(t.graph, t.in, body, gcl::CommGroup(), 4),
                       poputil::poplibs_error, test::What(Contains("rootReplica 4")));
  CHECK_THROWS_MATCHES(gcl::allToAllCrossReplica(t.graph, t.in, body), poputil::poplibs_error,
                       test::What(Contains("first dimension must be the group size 4")));
  CHECK_THROWS_MATCHES(CrossReplicaCopy(t.in, t.in, {{1, 1}}), poplar_error,
                       test::What(Contains("replica 1 copies to itself")));
  CHECK_THROWS_MATCHES(CrossReplicaCopy(t.in, t.in, {{0, 1}, {2, 1}}), poplar_error,
                       test::What(Contains("destination of two replicas")));
  // A map that leaves out a replica is found when the graph is compiled.
  const Tensor dst = t.graph.clone(t.in, "dst");
  body.add(CrossReplicaCopy(t.in, dst, {{0, 1}, {1, 0}}));
  t.prog.add(body);
  CHECK_THROWS_MATCHES(Engine(t.graph, t.prog), poplar_error,
                       test::What(Contains("replica 2 is not a source")));
}

TEST_CASE("the new collectives are global exchanges in the profile", "[gcl][profile]") {
  auto device = test::smallDevice(4, kReplicas);
  Graph graph(device.getTarget(), kReplicas);
  Tensor data = graph.addVariable(FLOAT, {kReplicas, 1024}, "data");
  poputil::mapTensorLinearly(graph, data);
  Sequence prog;
  gcl::broadcastCrossReplica(graph, data, prog, gcl::CommGroup(), 0, "bcast");
  gcl::allToAllCrossReplica(graph, data, prog, "a2a");
  prog.add(CrossReplicaCopy(data, graph.clone(data), {{0, 1}, {1, 2}, {2, 3}, {3, 0}}, "copy"));
  const test::ScratchDir dir;
  Engine engine(graph, prog,
                {{"autoReport.outputExecutionProfile", "true"},
                 {"autoReport.directory", dir.path().string()}});
  engine.load(device);
  engine.run(0);
  const pva::Report report = engine.getReport();
  std::map<std::string, std::uint64_t> bytesIn;
  for (const auto& run : report.execution().runs())
    for (const auto& step : run.steps())
      if (step.program()->type() == pva::Program::Type::GlobalExchange)
        for (const auto& ipu : step.ipus())
          bytesIn[step.program()->name()] += ipu.dataIn();
  REQUIRE(bytesIn.size() == 3);
  const std::uint64_t bytes = kReplicas * 1024 * 4;
  for (const auto& [name, in] : bytesIn) {
    if (name.find("bcast") != std::string::npos) CHECK(in == bytes);       // forwarded
    if (name.find("a2a") != std::string::npos) CHECK(in == bytes * 3 / 4); // all but its row
    if (name.find("copy") != std::string::npos) CHECK(in == bytes);        // one hop
  }
}

TEST_CASE("a serialized executable keeps a broadcast's root and a cross-replica copy's map",
          "[gcl]") {
  auto device = test::smallDevice(4, kReplicas);
  Graph graph(device.getTarget(), kReplicas);
  Tensor in = graph.addVariable(FLOAT, {3}, "in");
  graph.setTileMapping(in, 0);
  Sequence prog;
  prog.add(Copy(graph.addHostToDeviceFIFO("in", FLOAT, 3), in));
  const Tensor root = gcl::broadcastCrossReplica(graph, in, prog, gcl::CommGroup(), 3, "bcast");
  const Tensor copied = graph.clone(in, "copied");
  prog.add(CrossReplicaCopy(in, copied, {{0, 3}, {3, 1}, {1, 2}, {2, 0}}, "copy"));
  prog.add(Copy(root, graph.addDeviceToHostFIFO("root", FLOAT, 3)));
  prog.add(Copy(copied, graph.addDeviceToHostFIFO("copied", FLOAT, 3)));
  std::stringstream bytes;
  compileGraph(graph, {prog}).serialize(bytes);
  Engine engine(Executable::deserialize(bytes));
  engine.load(device);
  std::vector<std::vector<float>> inputs(kReplicas), roots(kReplicas, std::vector<float>(3)),
      copies(kReplicas, std::vector<float>(3));
  for (unsigned r = 0; r < kReplicas; ++r) {
    inputs[r] = {float(r), float(10 * r), float(100 * r)};
    engine.connectStream("in", r, inputs[r].data(), inputs[r].data() + 3);
    engine.connectStream("root", r, roots[r].data(), roots[r].data() + 3);
    engine.connectStream("copied", r, copies[r].data(), copies[r].data() + 3);
  }
  engine.run(0);
  const unsigned from[kReplicas] = {2, 3, 1, 0}; // the map's source of each destination
  for (unsigned r = 0; r < kReplicas; ++r) {
    CHECK(roots[r] == inputs[3]);
    CHECK(copies[r] == inputs[from[r]]);
  }
}
