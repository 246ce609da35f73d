// Host streams (buffers, circular buffers, callbacks), host reads/writes and remote buffers.
#include "TestUtil.hpp"

#include <catch2/catch.hpp>
#include <numeric>
#include <poplar/exceptions.hpp>
#include <type_traits>

using namespace poplar;
using namespace poplar::program;

namespace {
/// in (10 ints) -> t -> out, once per run.
struct Loopback {
  Device device = test::smallDevice(4);
  Graph g{device.getTarget()};
  Tensor t = g.addVariable(INT, {10}, "t");
  DataStream in = g.addHostToDeviceFIFO("in", INT, 10);
  DataStream out = g.addDeviceToHostFIFO("out", INT, 10);
  Loopback() { test::mapRoundRobin(g, t, 3); }
};
} // namespace

TEST_CASE_METHOD(Loopback, "a circular host buffer is consumed a stream-sized piece per copy",
                 "[streams]") {
  Engine e(g, Sequence{Copy(in, t), Copy(t, out)});
  std::vector<int> src(30), dst(20, -1);
  std::iota(src.begin(), src.end(), 0);
  e.connectStream("in", src.data(), src.data() + src.size());
  e.connectStream("out", dst.data(), dst.data() + dst.size());
  e.load(device);
  for (int run = 0; run < 4; ++run) {
    e.run();
    // Run k sends src[10k..10k+9] (wrapping after 30) into dst slot k % 2.
    const int first = (run % 3) * 10;
    for (int i = 0; i < 10; ++i)
      REQUIRE(dst[(run % 2) * 10 + i] == first + i);
  }
}

TEST_CASE_METHOD(Loopback, "single buffers and function callbacks", "[streams]") {
  Engine e(g, Repeat(3, Sequence{Copy(in, t), Copy(t.reverse(0), out)}));
  std::vector<int> single(10);
  std::iota(single.begin(), single.end(), 100);
  e.connectStream("in", single.data());
  std::vector<std::vector<int>> received;
  e.connectStreamToCallback("out", [&](void* p) {
    const int* v = static_cast<const int*>(p);
    received.emplace_back(v, v + 10);
  });
  e.load(device);
  e.run();
  REQUIRE(received.size() == 3);
  for (const auto& r : received) {
    CHECK(r.front() == 109);
    CHECK(r.back() == 100);
  }
}

TEST_CASE_METHOD(Loopback, "StreamCallbackHandle holds a function or a StreamCallback object",
                 "[streams]") {
  struct Ones : LegacyStreamCallback {
    void fetch(void* p) override {
      for (int i = 0; i < 10; ++i)
        static_cast<int*>(p)[i] = 1;
    }
  };
  Engine e(g, Sequence{Copy(in, t), Copy(t, out)});
  std::vector<int> got;
  std::function<void(void*)> keep = [&](void* p) {
    got.assign(static_cast<int*>(p), static_cast<int*>(p) + 10);
  };
  StreamCallbackHandle fromFunction(keep); // as runtime layers keep them, then connect
  e.connectStreamToCallback("out", std::move(fromFunction));
  e.connectStreamToCallback("in", 0, StreamCallbackHandle(std::unique_ptr<Ones>(new Ones)));
  e.load(device);
  e.run();
  CHECK(got == std::vector<int>(10, 1));
  CHECK_THROWS_AS(
      e.connectStreamToCallback("out", StreamCallbackHandle(std::function<void(void*)>())),
      stream_connection_error);
  static_assert(!std::is_convertible<std::function<void(void*)>, StreamCallbackHandle>::value,
                "explicit, so a lambda still picks the function overload");
}

TEST_CASE_METHOD(Loopback, "StreamCallback objects are fetched and completed per copy",
                 "[streams]") {
  struct Source : LegacyStreamCallback {
    int next = 0, fetches = 0, completes = 0;
    void fetch(void* p) override {
      ++fetches;
      for (int i = 0; i < 10; ++i)
        static_cast<int*>(p)[i] = next++;
    }
    void complete() override { ++completes; }
  };
  auto source = std::make_unique<Source>();
  Source* s = source.get();
  std::vector<int> dst(10);
  Engine e(g, Repeat(2, Sequence{Copy(in, t), Copy(t, out)}));
  e.connectStreamToCallback("in", std::move(source));
  e.connectStream("out", dst.data());
  e.load(device);
  e.run();
  CHECK(s->fetches == 2);
  CHECK(s->completes == 2);
  CHECK(dst.front() == 10);
  CHECK(dst.back() == 19);
}

namespace {
/// A host-to-device source that logs every call, the way Poplar's prefetch examples print them.
/// As a real source would, it hands out item n only once complete() has confirmed item n-1 was
/// used, and a prefetch that was never used is offered again after invalidatePrefetched().
struct LoggingSource : StreamCallback {
  std::vector<std::string>& log;
  int consumed = 0, lookAhead = 0;
  bool prefetchAvailable = true;
  explicit LoggingSource(std::vector<std::string>& l) : log(l) {}
  void fill(void* p) {
    for (int i = 0; i < 10; ++i)
      static_cast<int*>(p)[i] = 100 * (consumed + lookAhead) + i;
    ++lookAhead;
  }
  Result prefetch(void* p) override {
    if (!prefetchAvailable) {
      log.push_back("prefetch:none");
      return Result::NotAvailable;
    }
    log.push_back("prefetch:" + std::to_string(consumed + lookAhead));
    fill(p);
    return Result::Success;
  }
  void fetch(void* p) override {
    log.push_back("fetch:" + std::to_string(consumed + lookAhead));
    fill(p);
  }
  void complete() override {
    log.push_back("complete");
    ++consumed;
    --lookAhead;
  }
  void invalidatePrefetched() override {
    log.push_back("invalidate");
    lookAhead = 0;
  }
};
} // namespace

TEST_CASE_METHOD(Loopback, "StreamCallback prefetch follows Poplar's exchange options",
                 "[streams][prefetch]") {
  std::vector<std::string> log;
  auto source = std::make_unique<LoggingSource>(log);
  LoggingSource* s = source.get();
  std::vector<int> dst(30);
  const auto run = [&](const OptionFlags& options) {
    log.clear();
    Engine e(g, Repeat(3, Sequence{Copy(in, t), Copy(t, out)}), options);
    e.connectStreamToCallback("in", 0u, std::unique_ptr<StreamCallback>(new LoggingSource(log)));
    e.connectStream("out", dst.data(), dst.data() + dst.size());
    e.load(device);
    e.run();
    return log;
  };
  (void)s;

  SECTION("by default (streamBufferOverlap=hostRearrangeOnly) every copy fetches") {
    CHECK(run({}) == std::vector<std::string>{"fetch:0", "complete", "fetch:1", "complete",
                                              "fetch:2", "complete"});
    CHECK(dst[29] == 209);
  }
  SECTION("enablePrefetch=false turns prefetching off") {
    CHECK(run({{"exchange.streamBufferOverlap", "none"}, {"exchange.enablePrefetch", "false"}}) ==
          std::vector<std::string>{"fetch:0", "complete", "fetch:1", "complete", "fetch:2",
                                   "complete"});
  }
  SECTION("with streamBufferOverlap=none the next buffer is prefetched after each copy") {
    // The last prefetch is speculative: no copy takes it, so the run's end invalidates it.
    CHECK(run({{"exchange.streamBufferOverlap", "none"}}) ==
          std::vector<std::string>{"fetch:0", "complete", "prefetch:1", "complete", "prefetch:2",
                                   "complete", "prefetch:3", "invalidate"});
    for (int slot = 0; slot < 3; ++slot)
      for (int i = 0; i < 10; ++i)
        REQUIRE(dst[slot * 10 + i] == 100 * slot + i);
  }
  SECTION("a prefetch that finds nothing is followed by fetch at the next copy") {
    Engine e(g, Repeat(2, Sequence{Copy(in, t), Copy(t, out)}),
             {{"exchange.streamBufferOverlap", "none"}});
    e.connectStreamToCallback("in", std::move(source));
    e.connectStream("out", dst.data(), dst.data() + 20);
    e.load(device);
    s->prefetchAvailable = false;
    e.run();
    CHECK(log == std::vector<std::string>{"fetch:0", "complete", "prefetch:none", "fetch:1",
                                          "complete", "prefetch:none"});
    // Prefetched data a run did not use is offered again: the next run starts where this one
    // stopped consuming.
    log.clear();
    s->prefetchAvailable = true;
    e.run();
    CHECK(log == std::vector<std::string>{"fetch:2", "complete", "prefetch:3", "complete",
                                          "prefetch:4", "invalidate"});
    CHECK(dst[19] == 309);
  }
}

TEST_CASE_METHOD(Loopback, "stream misuse gives clear errors", "[streams][errors]") {
  Engine e(g, Sequence{Copy(in, t), Copy(t, out)});
  std::vector<int> buf(15);
  CHECK_THROWS_MATCHES(e.connectStream("in", buf.data(), buf.data() + 15), stream_connection_error,
                       test::What(Catch::Contains("multiple") && Catch::Contains("40 bytes")));
  CHECK_THROWS_MATCHES(e.connectStream("nope", buf.data()), stream_connection_error,
                       test::What(Catch::Contains("nope")));
  CHECK_THROWS_AS(e.connectStreamToCallback("in", std::function<void(void*)>()),
                  stream_connection_error);
  e.load(device);
  CHECK_THROWS_MATCHES(e.run(), stream_connection_error,
                       test::What(Catch::Contains("'in'") && Catch::Contains("not connected")));
  CHECK_THROWS_MATCHES(Engine(g, Copy(out, t)), stream_connection_error,
                       test::What(Catch::Contains("device-to-host")));
  auto small = g.addVariable(INT, {4});
  g.setTileMapping(small, 0);
  CHECK_THROWS_MATCHES(Engine(g, Copy(in, small)), index_error,
                       test::What(Catch::Contains("10 elements")));
  auto f = g.addVariable(FLOAT, {10});
  g.setTileMapping(f, 0);
  CHECK_THROWS_AS(Engine(g, Copy(in, f)), type_error);
}

TEST_CASE("writeTensor and readTensor check handles, sizes and state", "[streams][errors]") {
  auto device = test::smallDevice(4);
  Graph g(device.getTarget());
  auto t = g.addVariable(FLOAT, {4}, "t");
  g.setTileMapping(t, 0);
  g.createHostWrite("w", t);
  g.createHostRead("r", t.reverse(0));
  Engine e(g, Sequence());
  float v[4] = {1, 2, 3, 4}, out[4] = {};
  CHECK_THROWS_MATCHES(e.writeTensor("w", v, v + 4), poplar::runtime_error,
                       test::What(Catch::Contains("before Engine::load")));
  CHECK_THROWS_AS(e.run(), poplar::runtime_error);
  e.load(device);
  e.writeTensor("w", v, v + 4);
  e.readTensor("r", out, out + 4);
  CHECK(out[0] == 4);
  CHECK(out[3] == 1);
  e.readTensor("r", out); // the one-pointer form reads the whole tensor
  CHECK(out[1] == 3);
  CHECK_THROWS_MATCHES(e.writeTensor("w", v, v + 3), tensor_io_state_error,
                       test::What(Catch::Contains("12 bytes") && Catch::Contains("16")));
  CHECK_THROWS_AS(e.readTensor("w", out, out + 4), tensor_io_state_error);
  CHECK_THROWS_MATCHES(e.writeTensor("missing", v, v + 4), tensor_io_state_error,
                       test::What(Catch::Contains("missing")));
}

TEST_CASE("remote buffers hold rows addressed by an offset tensor", "[streams]") {
  auto device = test::smallDevice(4);
  Graph g(device.getTarget());
  auto t = g.addVariable(FLOAT, {3}, "t");
  auto row = g.addVariable(UNSIGNED_INT, {}, "row");
  g.setTileMapping(t, 1);
  g.setTileMapping(row, 2);
  g.createHostWrite("row", row);
  g.createHostRead("t", t);
  auto rb = g.addRemoteBuffer("table", FLOAT, 3, 4);
  auto dbl = g.addRemoteBuffer("single", FLOAT, 3);
  Engine e(g, {Copy(rb, t, row), Sequence{Copy(t, dbl), Copy(t.reverse(0), rb, row)}});
  e.load(device);
  for (unsigned r = 0; r < 4; ++r) {
    const float data[3] = {float(r), float(r) + 0.5f, float(r) + 0.25f};
    e.copyToRemoteBuffer(data, "table", r);
  }
  const unsigned two = 2;
  e.writeTensor("row", &two, &two + 1);
  e.run(0);
  float out[3];
  e.readTensor("t", out, out + 3);
  CHECK(out[1] == 2.5f);
  e.run(1);
  e.copyFromRemoteBuffer("single", out, 0);
  CHECK(out[2] == 2.25f);
  e.copyFromRemoteBuffer("table", out, 2);
  CHECK(out[0] == 2.25f);
  const unsigned nine = 9;
  e.writeTensor("row", &nine, &nine + 1);
  CHECK_THROWS_MATCHES(e.run(0), application_runtime_error,
                       test::What(Catch::Contains("row 9") && Catch::Contains("4 rows")));
  CHECK_THROWS_AS(e.copyToRemoteBuffer(out, "table", 4), stream_connection_error);
  CHECK_THROWS_AS(e.copyToRemoteBuffer(out, "nope", 0), stream_connection_error);
}

TEST_CASE("remote buffers copy to and from a typed host array (gccs::ArrayRef)", "[streams]") {
  auto device = test::smallDevice(4);
  Graph g(device.getTarget());
  auto t = g.addVariable(INT, {4}, "t");
  g.setTileMapping(t, 1);
  g.addRemoteBuffer("rows", INT, 4, 2);
  auto one = g.addConstant<int>(INT, {4}, 1, "one");
  g.setTileMapping(one, 1);
  Engine e(g, Sequence{Copy(one, t)});
  e.load(device);
  std::vector<int> in = {1, 2, 3, 4}, back(4, 0);
  // As SDK 3 programs write it: a view made by deduction, the element type given explicitly.
  e.copyToRemoteBuffer(gccs::ArrayRef(in), "rows", 1);
  e.copyFromRemoteBuffer<int>("rows", gccs::ArrayRef<int>(back.data(), back.size()), 1);
  CHECK(back == in);
  // The view must be one row, of the buffer's element size.
  std::vector<int> shortRow(3);
  std::vector<short> narrow(4);
  CHECK_THROWS_MATCHES(e.copyFromRemoteBuffer<int>("rows", shortRow, 0), stream_connection_error,
                       test::What(Catch::Contains("3 elements of 4 bytes") &&
                                  Catch::Contains("a row of the remote buffer is 4 int")));
  CHECK_THROWS_AS(e.copyToRemoteBuffer(ArrayRef<short>(narrow), "rows", 0),
                  stream_connection_error);
  CHECK_THROWS_AS(e.copyToRemoteBuffer(gccs::ArrayRef(in), "rows", 2), stream_connection_error);
  CHECK_THROWS_AS(e.copyToRemoteBuffer(gccs::ArrayRef(in), "nope", 0), stream_connection_error);
  static_assert(std::is_same<gccs::ArrayRef<float>, poplar::ArrayRef<float>>::value,
                "gccs::ArrayRef is Poplar's ArrayRef");
}

TEST_CASE("replicas have their own memory and their own stream connections", "[streams]") {
  auto device = test::smallDevice(4, 2);
  Graph g(device.getTarget(), 2);
  auto t = g.addVariable(INT, {2}, "t");
  g.setTileMapping(t, 3);
  auto in = g.addHostToDeviceFIFO("in", INT, 2);
  auto out = g.addDeviceToHostFIFO("out", INT, 2);
  Engine e(g, Sequence{Copy(in, t), Copy(t.reverse(0), out)});
  int a[2] = {1, 2}, b[2] = {3, 4}, ra[2] = {}, rb[2] = {};
  e.connectStream("in", 0, a, a + 2);
  e.connectStream("in", 1, b, b + 2);
  e.connectStream("out", 0, ra, ra + 2);
  e.connectStream("out", 1, rb, rb + 2);
  e.load(device);
  e.run();
  CHECK(ra[0] == 2);
  CHECK(rb[0] == 4);
  CHECK(rb[1] == 3);
  CHECK_THROWS_AS(e.connectStream("in", 2, a, a + 2), stream_connection_error);
}
