// Host functions: Graph::addHostFunction, program::Call(HostFunction, inputs, outputs) and
// Engine::connectHostFunction, as SDK programs use them to run host code inside a program.
#include "TestUtil.hpp"

#include <catch2/catch.hpp>
#include <poplar/exceptions.hpp>

using namespace poplar;
using namespace poplar::program;

namespace {
/// a (3 floats), b (2 ints) -> host -> sum (1 float), scaled (3 floats).
struct TwoInTwoOut {
  Device device = test::smallDevice(4);
  Graph g{device.getTarget()};
  Tensor a = g.addVariable(FLOAT, {3}, "a");
  Tensor b = g.addVariable(INT, {2}, "b");
  Tensor sum = g.addVariable(FLOAT, {1}, "sum");
  Tensor scaled = g.addVariable(FLOAT, {3}, "scaled");
  HostFunction f = g.addHostFunction("f", {{FLOAT, 3}, {INT, 2}}, {{FLOAT, 1}, {FLOAT, 3}});
  TwoInTwoOut() {
    g.setTileMapping(a, 0);
    g.setTileMapping(b, 1);
    g.setTileMapping(sum, 2);
    g.setTileMapping(scaled, 3);
    g.setInitialValue(a, std::vector<float>{1.5f, 2.5f, -1.0f});
    g.setInitialValue(b, std::vector<int>{10, 3});
    g.createHostRead("sum", sum);
    g.createHostRead("scaled", scaled);
    g.createHostWrite("a", a);
  }
};
} // namespace

TEST_CASE_METHOD(TwoInTwoOut, "a host function gets every input and fills every output",
                 "[hostfn]") {
  Engine e(g, Repeat(2, Call(f, {a, b}, {sum, scaled})));
  int calls = 0;
  e.connectHostFunction("f", 0, [&](ArrayRef<const void*> ins, ArrayRef<void*> outs) {
    REQUIRE(ins.size() == 2);
    REQUIRE(outs.size() == 2);
    const float* x = static_cast<const float*>(ins[0]);
    const int* y = static_cast<const int*>(ins[1]);
    static_cast<float*>(outs[0])[0] = x[0] + x[1] + x[2] + float(y[0] + y[1]);
    for (int k = 0; k < 3; ++k)
      static_cast<float*>(outs[1])[k] = x[k] * float(y[1]);
    ++calls;
  });
  e.load(device);
  e.run();
  CHECK(calls == 2);
  float s = 0, sc[3] = {};
  e.readTensor("sum", &s, &s + 1);
  e.readTensor("scaled", sc, sc + 3);
  CHECK(s == 16.0f);
  CHECK(sc[0] == 4.5f);
  CHECK(sc[1] == 7.5f);
  CHECK(sc[2] == -3.0f);

  // New device data reaches the host on the next run.
  const float next[3] = {1, 1, 1};
  e.writeTensor("a", next, next + 3);
  e.run();
  CHECK(calls == 4);
  e.readTensor("sum", &s, &s + 1);
  CHECK(s == 16.0f);
  e.readTensor("scaled", sc, sc + 3);
  CHECK(sc[2] == 3.0f);
}

TEST_CASE("a host function without outputs runs once its inputs have arrived", "[hostfn]") {
  auto device = test::smallDevice(4);
  Graph g(device.getTarget());
  Tensor i = g.addVariable(UNSIGNED_INT, {1}, "i");
  Tensor one = g.addConstant<unsigned>(UNSIGNED_INT, {1}, 1u, "one");
  g.setTileMapping(i, 0);
  g.setTileMapping(one, 0);
  g.setInitialValue(i, std::vector<unsigned>{0});
  HostFunction observe = g.addHostFunction("observe", {{UNSIGNED_INT, 1}}, {});
  // i is incremented by a host function returning i + 1, then observed.
  HostFunction inc = g.addHostFunction("inc", {{UNSIGNED_INT, 1}}, {{UNSIGNED_INT, 1}});
  Engine e(g, Repeat(3, Sequence{Call(inc, {i}, {i}), Call(observe, {i}, {})}));
  std::vector<unsigned> seen;
  struct Observer : HostCallback {
    std::vector<unsigned>* seen;
    void operator()(ArrayRef<const void*> ins, ArrayRef<void*> outs) override {
      CHECK(outs.empty());
      seen->push_back(*static_cast<const unsigned*>(ins[0]));
    }
  };
  auto observer = std::make_unique<Observer>();
  observer->seen = &seen;
  e.connectHostFunction("observe", 0, std::unique_ptr<HostCallback>(std::move(observer)));
  e.connectHostFunction("inc", 0, [](ArrayRef<const void*> ins, ArrayRef<void*> outs) {
    *static_cast<unsigned*>(outs[0]) = *static_cast<const unsigned*>(ins[0]) + 1;
  });
  e.load(device);
  e.run();
  CHECK(seen == std::vector<unsigned>{1, 2, 3});
}

TEST_CASE_METHOD(TwoInTwoOut, "host function misuse gives clear errors", "[hostfn][errors]") {
  // The call's tensors must match the function's arguments, in number, type and size.
  CHECK_THROWS_WITH(
      (Call(f, {a}, {sum, scaled})),
      Catch::Contains("Call(HostFunction \"f\"): 1 inputs given, the function has 2"));
  CHECK_THROWS_WITH((Call(f, {b, a}, {sum, scaled})),
                    Catch::Contains("inputs 0 is int x 2, the function's argument is float x 3"));
  CHECK_THROWS_AS((Call(f, {a, b}, {scaled, sum})), control_program_error);
  CHECK_THROWS_AS((Call(HostFunction(), {}, {})), control_program_error);
  // The handle is the function's: a second function with it is refused.
  CHECK_THROWS_AS((g.addHostFunction("f", {{FLOAT, 1}}, {})), stream_connection_error);

  Engine e(g, Call(f, {a, b}, {sum, scaled}));
  CHECK_THROWS_WITH(e.connectHostFunction("nope", 0, [](ArrayRef<const void*>, ArrayRef<void*>) {}),
                    Catch::Contains("no host function with that handle"));
  CHECK_THROWS_WITH(e.connectHostFunction("f", 0, HostCallbackHandle::Function()),
                    Catch::Contains("empty callback"));
  CHECK_THROWS_AS(e.connectHostFunction("f", 0, std::unique_ptr<HostCallback>()),
                  stream_connection_error);
  // Running without a connected callback names the function's stream.
  e.load(device);
  CHECK_THROWS_WITH(e.run(), Catch::Contains("f.hostfn.in0"));
}

TEST_CASE("each replica has its own host function callback", "[hostfn]") {
  auto device = test::smallDevice(4, 2);
  Graph g(device.getTarget(), 2);
  Tensor t = g.addVariable(INT, {2}, "t");
  g.setTileMapping(t, 1);
  g.setInitialValue(t, std::vector<int>{5, 6});
  HostFunction f = g.addHostFunction("f", {{INT, 2}}, {{INT, 2}});
  Engine e(g, Call(f, {t}, {t}));
  std::vector<int> seen0, seen1;
  auto connect = [&](unsigned replica, std::vector<int>& seen, int add) {
    e.connectHostFunction("f", replica,
                          [&seen, add](ArrayRef<const void*> ins, ArrayRef<void*> outs) {
                            const int* v = static_cast<const int*>(ins[0]);
                            seen.assign(v, v + 2);
                            static_cast<int*>(outs[0])[0] = v[0] + add;
                            static_cast<int*>(outs[0])[1] = v[1] + add;
                          });
  };
  connect(0, seen0, 100);
  connect(1, seen1, 200);
  e.load(device);
  e.run();
  e.run();
  CHECK(seen0 == std::vector<int>{105, 106});
  CHECK(seen1 == std::vector<int>{205, 206});
}
