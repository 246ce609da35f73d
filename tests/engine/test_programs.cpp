// Every program kind, checked by the numbers it produces.
#include "TestUtil.hpp"

#include <catch2/catch.hpp>
#include <poplar/exceptions.hpp>
#include <sstream>

using namespace poplar;
using namespace poplar::program;

namespace {

/// A graph with a counter (UNSIGNED_INT scalar) and a compute set that increments it.
struct Counter {
  Device device = test::smallDevice(4);
  Graph g = test::makeGraph(device);
  Tensor counter = g.addVariable(UNSIGNED_INT, {}, "counter");
  Tensor limit = g.addVariable(UNSIGNED_INT, {}, "limit");
  Tensor below = g.addVariable(BOOL, {}, "below"); // counter < limit
  Tensor above = g.addVariable(BOOL, {}, "above"); // limit < counter
  ComputeSet inc = g.addComputeSet("increment");
  ComputeSet cmp = g.addComputeSet("compare");
  ComputeSet cmpAbove = g.addComputeSet("compareAbove");

  Counter() {
    g.setTileMapping(counter, 0);
    g.setTileMapping(limit, 1);
    g.setTileMapping(below, 2);
    g.setTileMapping(above, 3);
    g.setTileMapping(
        g.addVertex(cmpAbove, "LessThanVertex", {{"a", limit}, {"b", counter}, {"result", above}}),
        3);
    g.setTileMapping(g.addVertex(inc, "IncrementVertex", {{"counter", counter}}), 0);
    g.setTileMapping(
        g.addVertex(cmp, "LessThanVertex", {{"a", counter}, {"b", limit}, {"result", below}}), 2);
    g.createHostWrite("counter", counter);
    g.createHostWrite("limit", limit);
    g.createHostRead("counter.out", counter);
  }
  unsigned run(const Program& p, unsigned start = 0, unsigned lim = 0) {
    Engine e(g, p);
    e.load(device);
    e.writeTensor("counter", &start, &start + 1);
    e.writeTensor("limit", &lim, &lim + 1);
    e.run(0);
    unsigned out = 0;
    e.readTensor("counter.out", &out, &out + 1);
    return out;
  }
};

} // namespace

TEST_CASE("Execute runs every vertex of a compute set with real results", "[programs]") {
  auto device = test::smallDevice(4);
  auto g = test::makeGraph(device);
  auto x = g.addVariable(FLOAT, {4, 8}, "x");
  auto sums = g.addVariable(FLOAT, {4}, "sums");
  test::mapRoundRobin(g, x, 8);
  test::mapRoundRobin(g, sums);
  auto cs = g.addComputeSet("rowSums");
  for (unsigned r = 0; r < 4; ++r)
    g.setTileMapping(g.addVertex(cs, "SumVertex", {{"in", x[r]}, {"out", sums[r]}}), r);
  g.createHostWrite("x", x);
  g.createHostRead("sums", sums);
  Engine e(g, Execute(cs));
  e.load(device);
  std::vector<float> in(32);
  for (unsigned i = 0; i < 32; ++i)
    in[i] = float(i) * 0.5f;
  e.writeTensor("x", in.data(), in.data() + in.size());
  e.run();
  std::vector<float> out(4);
  e.readTensor("sums", out.data(), out.data() + 4);
  for (unsigned r = 0; r < 4; ++r) {
    float expect = 0;
    for (unsigned c = 0; c < 8; ++c)
      expect += in[r * 8 + c];
    CHECK(out[r] == expect);
  }
}

TEST_CASE("vertex state, edge lists, supervisor vertices and half fields", "[programs]") {
  auto device = test::smallDevice(4);
  auto g = test::makeGraph(device);
  auto x = g.addVariable(FLOAT, {6}, "x");
  auto y = g.addVariable(FLOAT, {6}, "y");
  auto counts = g.addVariable(INT, {3}, "counts");
  auto total = g.addVariable(INT, {}, "total");
  auto h = g.addVariable(HALF, {3}, "h");
  for (const auto& t : {x, y, counts, total, h})
    g.setTileMapping(t, 1);
  auto cs = g.addComputeSet("mixed");
  auto scale = g.addVertex(cs, "ScaleVertex", {{"data", x.slice(0, 3)}});
  g.setInitialValue(scale["factor"], 3.0f);
  auto gather = g.addVertex(cs, "GatherVertex", {{"out", y}});
  g.connect(gather["in"], {x.slice(3, 6), x.slice(0, 3).reverse(0)});
  auto sup = g.addVertex(cs, "TotalSupervisor", {{"counts", counts}, {"total", total}});
  auto dbl = g.addVertex(cs, "DoubleHalfVertex", {{"data", h}});
  g.setPerfEstimate(dbl, 7);
  for (auto v : {scale, gather, sup, dbl})
    g.setTileMapping(v, 1);
  g.setInitialValue(x, std::vector<float>{1, 2, 3, 4, 5, 6});
  g.setInitialValue(counts, std::vector<int>{5, -2, 10});
  g.setInitialValue(h, std::vector<float>{0.5f, 1.5f, -3.0f});
  g.createHostRead("y", y);
  g.createHostRead("total", total);
  g.createHostRead("h", h);
  Engine e(g, Execute(cs));
  e.load(device);
  e.run();
  std::vector<float> out(6);
  e.readTensor("y", out.data(), out.data() + 6);
  // Vertices run in the order they were added: x[0:3] was already scaled when gathered.
  CHECK(out == std::vector<float>{4, 5, 6, 9, 6, 3});
  int t = 0;
  e.readTensor("total", &t, &t + 1);
  CHECK(t == 13);
  std::uint16_t hb[3];
  e.readTensor("h", hb, hb + 3);
  CHECK(half::toFloat(hb[0]) == 1.0f);
  CHECK(half::toFloat(hb[1]) == 3.0f);
  CHECK(half::toFloat(hb[2]) == -6.0f);
}

TEST_CASE("Copy moves tensor data, including through views", "[programs]") {
  auto device = test::smallDevice(4);
  Graph g(device.getTarget());
  auto a = g.addVariable(INT, {2, 3}, "a");
  auto b = g.addVariable(INT, {3, 2}, "b");
  auto c = g.addConstant<int>(INT, {3}, std::vector<int>{7, 8, 9}, "c");
  test::mapRoundRobin(g, a);
  test::mapRoundRobin(g, b);
  g.setTileMapping(c, 3);
  g.setInitialValue(a, std::vector<int>{1, 2, 3, 4, 5, 6});
  g.createHostRead("b", b);
  g.createHostRead("a", a);
  Sequence prog{Copy(a.transpose(), b), Copy(c, a[1]),
                Copy(a.flatten().slice(0, 2), a.flatten().slice(1, 3))};
  Engine e(g, prog);
  e.load(device);
  e.run();
  std::vector<int> bo(6), ao(6);
  e.readTensor("b", bo.data(), bo.data() + 6);
  e.readTensor("a", ao.data(), ao.data() + 6);
  CHECK(bo == std::vector<int>{1, 4, 2, 5, 3, 6});
  CHECK(ao == std::vector<int>{1, 1, 2, 7, 8, 9}); // overlapping copy behaves like memmove
}

TEST_CASE_METHOD(Counter, "Repeat runs its body count times", "[programs]") {
  CHECK(run(Repeat(5, Execute(inc))) == 5);
  CHECK(run(Repeat(3, Repeat(4, Execute(inc)))) == 12);
  CHECK(run(Repeat(0, Execute(inc)), 9) == 9);
}

TEST_CASE_METHOD(Counter, "RepeatWhileTrue and RepeatWhileFalse test the predicate each time",
                 "[programs]") {
  CHECK(run(RepeatWhileTrue(Execute(cmp), below, Execute(inc)), 2, 10) == 10);
  CHECK(run(RepeatWhileTrue(Execute(cmp), below, Execute(inc)), 12, 10) == 12);
  CHECK(run(RepeatWhileFalse(Execute(cmpAbove), above, Execute(inc)), 2, 10) == 11);
  CHECK(run(RepeatWhileFalse(Execute(cmpAbove), above, Execute(inc)), 20, 10) == 20);
}

TEST_CASE_METHOD(Counter, "If chooses a branch from the predicate", "[programs]") {
  const If prog(below, Repeat(10, Execute(inc)), Execute(inc));
  CHECK(run(Sequence{Execute(cmp), prog}, 1, 5) == 11);
  CHECK(run(Sequence{Execute(cmp), prog}, 6, 5) == 7);
  CHECK(run(Sequence{Execute(cmp), If(below, Execute(inc))}, 6, 5) == 6); // empty else
}

TEST_CASE_METHOD(Counter, "Switch runs the matching case or the default", "[programs]") {
  Switch sw(counter, Repeat(100, Execute(inc)));
  sw.add(0, Execute(inc)).add(3, Repeat(3, Execute(inc)));
  CHECK(run(sw, 0) == 1);
  CHECK(run(sw, 3) == 6);
  CHECK(run(sw, 4) == 104);
  const auto checked = Switch::switchWithBoundsChecking(counter, {{1, Execute(inc)}});
  CHECK(run(checked, 1) == 2);
  CHECK_THROWS_MATCHES(run(checked, 7), application_runtime_error,
                       test::What(Catch::Contains("control value 7")));
}

TEST_CASE_METHOD(Counter, "Call runs a function, sharing one body", "[programs]") {
  const Function addThree = g.addFunction(Repeat(3, Execute(inc)));
  CHECK(run(Sequence{Call(addThree), Execute(inc), Call(addThree)}) == 7);
}

TEST_CASE_METHOD(Counter, "Sync, WriteUndef and Block run their bodies and nothing else",
                 "[programs]") {
  const Program p = Sequence{Sync(SyncType::INTERNAL), Block(Repeat(2, Execute(inc)), "block"),
                             Sync(SyncType::EXTERNAL), WriteUndef(limit), Sync(SyncType::GLOBAL)};
  CHECK(run(p, 1) == 3);
  CHECK(run(Program()) == 0);
}

TEST_CASE("PrintTensor prints titles and values following the shape", "[programs]") {
  auto device = test::smallDevice(4);
  Graph g(device.getTarget());
  auto f = g.addConstant<float>(FLOAT, {2, 2}, std::vector<float>{1.5f, -2, 3, 4}, "f");
  auto i = g.addConstant(INT, {3}, 7);
  g.setTileMapping(f, 0);
  g.setTileMapping(i, 1);
  Engine e(g, Sequence{PrintTensor("weights", f), PrintTensor(i)});
  std::ostringstream os;
  e.setPrintTensorStream(os);
  e.load(device);
  e.run();
  CHECK(os.str() == "weights: [\n [ 1.5000000 -2.0000000]\n [ 3.0000000  4.0000000]\n]\n[7 7 7]\n");
}

TEST_CASE_METHOD(Counter, "AbortOnCondition stops the run with its message", "[programs]") {
  const Sequence p{Execute(cmp), AbortOnCondition(below, "counter below limit")};
  CHECK(run(p, 9, 5) == 9);
  CHECK_THROWS_MATCHES(run(p, 1, 5), application_runtime_error,
                       test::What(Catch::Contains("counter below limit")));
}

TEST_CASE_METHOD(Counter,
                 "programs are values: adding to a sequence does not change earlier copies",
                 "[programs]") {
  Sequence body;
  body.add(Execute(inc));
  const Repeat twice(2, body);
  body.add(Execute(inc));
  CHECK(run(twice) == 2);
  CHECK(run(body) == 2);
  CHECK(run(Sequence{twice, body}) == 4);
}

TEST_CASE_METHOD(Counter, "an engine holds several programs run by index", "[programs]") {
  Engine e(g, {Execute(inc), Repeat(10, Execute(inc))});
  e.load(device);
  unsigned zero = 0, out = 0;
  e.writeTensor("counter", &zero, &zero + 1);
  e.run(1);
  e.run(0);
  e.run(1);
  e.readTensor("counter.out", &out, &out + 1);
  CHECK(out == 21);
  CHECK_THROWS_AS(e.run(2), poplar::runtime_error);
}
