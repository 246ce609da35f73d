// Always-live and not-always-live variables, and the liveness of each program step.
#include "common/RemoteSum.hpp"
#include "common/ReportFiles.hpp"
#include "common/ScratchDir.hpp"

#include <catch2/catch.hpp>
#include <poplar/Engine.hpp>

using namespace poplar;
using test::Report;

TEST_CASE("Liveness per step follows first write to last use", "[liveness]") {
  test::ScratchDir dir;
  test::RemoteSum s;
  Engine engine(s.graph, s.program, test::reportOptions(dir.path()));
  Report r(dir / "profile.pop");
  // a has an initial value: always live. The message buffer lives from the exchange (step 1)
  // to the compute step (2); out is written at step 2.
  CHECK(r.integer("SELECT always_live FROM variables WHERE name = 'a'") == 1);
  CHECK(r.rows("SELECT live_from, live_to FROM variables WHERE name = 'a'")[0][0].type ==
        test::Value::Null);
  CHECK(r.integers(
            "SELECT live_from FROM variables WHERE name IN ('sum/message', 'out') ORDER BY name") ==
        std::vector<long long>{2, 1});
  CHECK(r.integers(
            "SELECT live_to FROM variables WHERE name IN ('sum/message', 'out') ORDER BY name") ==
        std::vector<long long>{3, 3});
  CHECK(r.text("SELECT category FROM variables WHERE name = 'sum/message'") == "message");
  CHECK(r.integers("SELECT not_always_live_bytes FROM liveness_steps ORDER BY id") ==
        std::vector<long long>{0, 16, 20});
  CHECK(r.tileValues("SELECT bytes_by_tile FROM liveness_steps WHERE id = 2") ==
        std::vector<std::uint64_t>{20, 0, 0, 0});
  CHECK(r.tileValues("SELECT bytes_by_ipu FROM liveness_steps WHERE id = 2") ==
        std::vector<std::uint64_t>{20});
}

TEST_CASE("What the host or a later run can see is always live", "[liveness]") {
  test::ScratchDir dir;
  auto device = test::tinyDevice();
  auto graph = test::makeGraph(device);
  auto var = [&](const char* name, unsigned n = 4) {
    Tensor t = graph.addVariable(FLOAT, {n}, name);
    graph.setTileMapping(t, 0);
    return t;
  };
  Tensor hostIn = var("hostIn"), readFirst = var("readFirst"), temp = var("temp"),
         twoPrograms = var("twoPrograms");
  Tensor loopCarried = var("loopCarried"), result = var("result", 1);
  Tensor counter = graph.addVariable(UNSIGNED_INT, {}, "counter");
  graph.setTileMapping(counter, 0);
  graph.createHostWrite("hostIn", hostIn);
  graph.createHostRead("result", result);
  auto cs = [&](const char* name, const char* type, std::map<std::string, Tensor> fields) {
    ComputeSet c = graph.addComputeSet(name);
    VertexRef v = graph.addVertex(c, type);
    for (auto& [f, t] : fields)
      graph.connect(v[f], t);
    graph.setTileMapping(v, 0);
    return program::Execute(c);
  };
  program::Sequence first({
      cs("useHostIn", "SumVertex", {{"in", hostIn}, {"out", result[0]}}),
      cs("sumReadFirst", "SumVertex",
         {{"in", readFirst}, {"out", result[0]}}),          // read before any write
      cs("inc", "IncrementVertex", {{"counter", counter}}), // InOut: read first
      cs("makeTemp", "IotaVertex", {{"out", temp}}),
      cs("sumTemp", "SumVertex", {{"in", temp}, {"out", result[0]}}),
      cs("makeTwo", "IotaVertex", {{"out", twoPrograms}}),
      cs("makeLoop", "IotaVertex", {{"out", loopCarried}}),
      program::Repeat(2, program::Sequence(
                             {cs("sumLoop", "SumVertex", {{"in", loopCarried}, {"out", result[0]}}),
                              cs("incInLoop", "IncrementVertex", {{"counter", counter}})})),
      cs("makeTempAgain", "IotaVertex", {{"out", temp}}),
  });
  program::Sequence second({cs("sumTwo", "SumVertex", {{"in", twoPrograms}, {"out", result[0]}})});
  Engine engine(graph, {first, second}, test::reportOptions(dir.path()));
  Report r(dir / "profile.pop");
  auto alwaysLive = [&](const char* name) {
    return r.integer(std::string("SELECT always_live FROM variables WHERE name = '") + name +
                     "'") == 1;
  };
  CHECK(alwaysLive("hostIn"));
  CHECK(alwaysLive("result"));
  CHECK(alwaysLive("readFirst"));
  CHECK(alwaysLive("counter"));
  CHECK(alwaysLive("twoPrograms"));
  CHECK_FALSE(alwaysLive("temp"));
  CHECK_FALSE(alwaysLive("loopCarried"));
  // Steps: each Execute is Sync + OnTileExecute. makeLoop writes at step 13; the loop body is
  // steps 14-17 and reads loopCarried at 15 only, yet the next iteration needs it again, so it
  // stays live to the end of the body.
  CHECK(r.integer("SELECT live_from FROM variables WHERE name = 'loopCarried'") == 13);
  CHECK(r.integer("SELECT live_to FROM variables WHERE name = 'loopCarried'") == 18);
  // temp: first written at step 7, last touched at step 19 (written again, not read: a missing
  // WriteUndef keeps it live in between but never makes it always live).
  CHECK(r.integer("SELECT live_from FROM variables WHERE name = 'temp'") == 7);
  CHECK(r.integer("SELECT live_to FROM variables WHERE name = 'temp'") == 20);
  CHECK(r.integer("SELECT count(*) FROM liveness_steps") == 22);
  CHECK(r.integers("SELECT program_index FROM entry_points ORDER BY program_index") ==
        std::vector<long long>{0, 1});
}
