// compare(): a report against itself, and against a bigger version of the same program.
#include "PvaTestUtil.hpp"

namespace {
/// RemoteSum with `n` floats in a, half on tile 0 and half on tile 1.
pva::Report sumReport(const test::ScratchDir& dir, std::size_t n) {
  using namespace poplar;
  auto device = test::tinyDevice();
  auto graph = test::makeGraph(device);
  Tensor a = graph.addVariable(FLOAT, {n}, "a");
  graph.setTileMapping(a.slice(0, n / 2), 0);
  graph.setTileMapping(a.slice(n / 2, n), 1);
  graph.setInitialValue(a, std::vector<float>(n, 1.0f));
  Tensor out = graph.addVariable(FLOAT, {1}, "out");
  graph.setTileMapping(out, 0);
  ComputeSet cs = graph.addComputeSet("sum");
  graph.setTileMapping(graph.addVertex(cs, "SumVertex", {{"in", a}, {"out", out[0]}}), 0);
  {
    Engine engine(graph, program::Execute(cs), test::reportOptions(dir.path()));
    engine.load(device);
    engine.run(0, "train");
  }
  return pva::openReport((dir / "profile.pop").string());
}
} // namespace

TEST_CASE("A report compared with itself shows no change", "[pva][compare]") {
  test::ScratchDir dir;
  const auto r = sumReport(dir, 8);
  const auto c = pva::compare(r, r);
  CHECK(c.hasExecution);
  CHECK(c.memory.totalIncludingGaps.delta() == 0);
  CHECK(c.memory.totalIncludingGaps.relative() == 0.0);
  CHECK(c.memory.peakLiveness.base == c.memory.peakLiveness.current);
  CHECK(c.cycles.total.delta() == 0);
  CHECK(c.liveness.base == c.liveness.current);
  for (const auto& n : c.cycles.computeSets) CHECK(n.value.delta() == 0);
}

TEST_CASE("A bigger layer shows where memory and cycles grew", "[pva][compare]") {
  test::ScratchDir small, big;
  const auto base = sumReport(small, 8), current = sumReport(big, 64);
  const auto c = pva::compare(base, current);
  // a grows by 56 floats, the message buffer by 28; the exchange and the vertex take longer.
  CHECK(c.memory.totalExcludingGaps.delta() == 56 * 4 + 28 * 4);
  CHECK(c.memory.maxTileIncludingGaps.delta() > 0);
  CHECK(c.memory.maxTileBase == 0);
  CHECK(c.memory.peakLiveness.delta() > 0);
  bool message = false;
  for (const auto& cat : c.memory.categories)
    if (cat.name == "message") message = cat.value.delta() == 28 * 4;
  CHECK(message);
  REQUIRE(c.cycles.runs.size() == 1);
  CHECK(c.cycles.runs[0].name == "train");
  CHECK(c.cycles.runs[0].inBase);
  CHECK(c.cycles.runs[0].inCurrent);
  // Compute: 6 thread cycles per extra element; exchange: 28 more floats at 4 bytes/cycle.
  const std::int64_t compute = 6 * 56, exchange = 28;
  CHECK(c.cycles.total.delta() == compute + exchange);
  REQUIRE(c.cycles.computeSets.size() == 1);
  CHECK(c.cycles.computeSets[0].name == "sum");
  CHECK(c.cycles.computeSets[0].value.delta() == compute);
  CHECK(c.cycles.total.relative() == Approx(double(compute + exchange) / 212.0));
  bool computeKind = false;
  for (const auto& k : c.cycles.kinds)
    if (k.name == "compute") computeKind = k.value.delta() == compute;
  CHECK(computeKind);
}
