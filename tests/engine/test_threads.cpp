// Compute sets executed on several host threads (tessera.threads / TESSERA_THREADS): results
// and profiles are identical whatever the count, host streams keep their order, and bad counts
// are errors naming the option.
#include "TestUtil.hpp"
#include "common/ScratchDir.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <poplar/exceptions.hpp>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

constexpr unsigned kTiles = 1472, kPerTile = 32;

float factorOf(unsigned tile) {
  return 1.5f + float(tile % 7) * 0.25f;
}

std::vector<float> inputValues() {
  std::vector<float> v(kTiles * kPerTile);
  std::uint32_t s = 12345;
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    x = float(s >> 8) / float(1u << 24) - 0.5f;
  }
  return v;
}

/// Two compute sets on every tile of a 1,472-tile IPU, three times over: on each tile a
/// ScaleVertex then a SumVertex of the same slice (two vertices of one tile sharing data, whose
/// order matters), then a SumVertex over halves of two tiles' slices (an edge of two runs).
struct EveryTile {
  Device device = test::smallDevice(kTiles);
  Graph g = test::makeGraph(device);
  Tensor x = g.addVariable(FLOAT, {kTiles * kPerTile}, "x");
  Tensor sums = g.addVariable(FLOAT, {kTiles}, "sums");
  Tensor pairs = g.addVariable(FLOAT, {kTiles}, "pairs");
  DataStream in = g.addHostToDeviceFIFO("in", FLOAT, kTiles* kPerTile);
  DataStream outSums = g.addDeviceToHostFIFO("outSums", FLOAT, kTiles);
  DataStream outPairs = g.addDeviceToHostFIFO("outPairs", FLOAT, kTiles);
  Sequence program;

  EveryTile() {
    test::mapRoundRobin(g, x, kPerTile);
    test::mapRoundRobin(g, sums, 1);
    test::mapRoundRobin(g, pairs, 1);
    ComputeSet scaleSum = g.addComputeSet("scaleSum"), pairSum = g.addComputeSet("pairSum");
    for (unsigned t = 0; t < kTiles; ++t) {
      const Tensor mine = x.slice(t * kPerTile, (t + 1) * kPerTile);
      auto scale = g.addVertex(scaleSum, "ScaleVertex", {{"data", mine}});
      g.setInitialValue(scale["factor"], factorOf(t));
      g.setTileMapping(scale, t);
      auto sum = g.addVertex(scaleSum, "SumVertex", {{"in", mine}, {"out", sums[t]}});
      g.setTileMapping(sum, t);
      const unsigned next = (t + 1) % kTiles;
      const Tensor halves = concat(x.slice(t * kPerTile, t * kPerTile + kPerTile / 2),
                                   x.slice(next * kPerTile + kPerTile / 2, (next + 1) * kPerTile));
      auto pair = g.addVertex(pairSum, "SumVertex", {{"in", halves}, {"out", pairs[t]}});
      g.setTileMapping(pair, t);
    }
    program = Sequence{Copy(in, x), Repeat(3, Sequence{Execute(scaleSum), Execute(pairSum)}),
                       Copy(sums, outSums), Copy(pairs, outPairs)};
  }

  struct Result {
    std::vector<float> sums, pairs;
  };
  Result run(const OptionFlags& options) {
    std::vector<float> input = inputValues();
    Result r{std::vector<float>(kTiles), std::vector<float>(kTiles)};
    Engine e(g, program, options);
    e.connectStream("in", input.data());
    e.connectStream("outSums", r.sums.data());
    e.connectStream("outPairs", r.pairs.data());
    e.load(device);
    e.run(0);
    return r;
  }
};

/// The same computation on the host, in the vertices' order.
EveryTile::Result expected() {
  std::vector<float> x = inputValues();
  EveryTile::Result r{std::vector<float>(kTiles), std::vector<float>(kTiles)};
  for (int round = 0; round < 3; ++round) {
    for (unsigned t = 0; t < kTiles; ++t) {
      float s = 0;
      for (unsigned i = 0; i < kPerTile; ++i)
        s += x[t * kPerTile + i] *= factorOf(t);
      r.sums[t] = s;
    }
    for (unsigned t = 0; t < kTiles; ++t) {
      const unsigned next = (t + 1) % kTiles;
      float s = 0;
      for (unsigned i = 0; i < kPerTile / 2; ++i)
        s += x[t * kPerTile + i];
      for (unsigned i = kPerTile / 2; i < kPerTile; ++i)
        s += x[next * kPerTile + i];
      r.pairs[t] = s;
    }
  }
  return r;
}

} // namespace

TEST_CASE("A 1,472-tile program gives the same bits and the same profile on 1, 2 and 8 threads",
          "[threads]") {
  EveryTile p;
  const EveryTile::Result want = expected();
  test::ScratchDir dir;
  const auto steps = test::stepsPerThreadCount(dir.path(), [&](const OptionFlags& options) {
    const auto got = p.run(options);
    CHECK(test::sameBits(got.sums, want.sums));
    CHECK(test::sameBits(got.pairs, want.pairs));
  });
  CHECK(steps[1] == steps[0]);
  CHECK(steps[2] == steps[0]);
}

TEST_CASE("TESSERA_THREADS sets the count when the option is not given", "[threads]") {
  EveryTile p;
  const EveryTile::Result want = expected();
  const char* old = std::getenv("TESSERA_THREADS"); // scripts/sanitized-tests.sh --tsan sets it
  const std::string saved = old ? old : "";
  ::setenv("TESSERA_THREADS", "3", 1);
  const auto got = p.run({});
  ::setenv("TESSERA_THREADS", "none", 1);
  CHECK_THROWS_WITH(p.run({}), Catch::Contains("environment variable 'TESSERA_THREADS' = 'none'"));
  CHECK(test::sameBits(p.run({{"tessera.threads", "2"}}).sums, want.sums)); // the option wins
  if (old)
    ::setenv("TESSERA_THREADS", saved.c_str(), 1);
  else
    ::unsetenv("TESSERA_THREADS");
  CHECK(test::sameBits(got.sums, want.sums));
  CHECK(test::sameBits(got.pairs, want.pairs));
}

TEST_CASE("A bad thread count is an option error naming tessera.threads", "[threads][errors]") {
  EveryTile p;
  for (const char* bad : {"0", "-1", "many", "1025", ""}) {
    INFO(bad);
    CHECK_THROWS_MATCHES(p.run({{"tessera.threads", bad}}), invalid_option,
                         Catch::Matchers::Predicate<invalid_option>([&](const invalid_option& e) {
                           return std::string(e.what()).find("'tessera.threads' = '" +
                                                             std::string(bad) + "'") !=
                                  std::string::npos;
                         }));
  }
  CHECK(test::sameBits(p.run({{"tessera.threads", "auto"}}).sums, expected().sums));
}

TEST_CASE("Stream callbacks keep their order between compute sets run on many threads",
          "[threads][streams]") {
  EveryTile p;
  struct Source : LegacyStreamCallback {
    std::vector<int>* log;
    int next = 0;
    explicit Source(std::vector<int>* l) : log(l) {}
    void fetch(void* data) override {
      log->push_back(next);
      auto* f = static_cast<float*>(data);
      for (unsigned i = 0; i < kTiles * kPerTile; ++i)
        f[i] = float(next % 5) + float(i % 3);
      ++next;
    }
    void complete() override { log->push_back(-1); }
  };
  struct Sink : LegacyStreamCallback {
    std::vector<int>* log;
    std::vector<float> firstSums;
    explicit Sink(std::vector<int>* l) : log(l) {}
    void fetch(void* data) override {
      log->push_back(1000 + int(firstSums.size()));
      firstSums.push_back(static_cast<float*>(data)[0]);
    }
    void complete() override {}
  };
  ComputeSet scale = p.g.addComputeSet("scaleOnly");
  for (unsigned t = 0; t < kTiles; ++t) {
    auto v = p.g.addVertex(scale, "ScaleVertex",
                           {{"data", p.x.slice(t * kPerTile, (t + 1) * kPerTile)}});
    p.g.setInitialValue(v["factor"], 2.0f);
    p.g.setTileMapping(v, t);
  }
  ComputeSet sum = p.g.addComputeSet("sumOnly");
  for (unsigned t = 0; t < kTiles; ++t) {
    auto v =
        p.g.addVertex(sum, "SumVertex",
                      {{"in", p.x.slice(t * kPerTile, (t + 1) * kPerTile)}, {"out", p.sums[t]}});
    p.g.setTileMapping(v, t);
  }
  constexpr int kRounds = 20;
  std::vector<int> log;
  auto sink = std::make_unique<Sink>(&log);
  Sink* sinkSeen = sink.get();
  Engine e(p.g,
           Repeat(kRounds,
                  Sequence{Copy(p.in, p.x), Execute(scale), Execute(sum), Copy(p.sums, p.outSums)}),
           {{"tessera.threads", "8"}, {"exchange.streamBufferOverlap", "none"}});
  e.connectStreamToCallback("in", std::make_unique<Source>(&log));
  e.connectStreamToCallback("outSums", std::move(sink));
  e.load(p.device);
  e.run();
  std::vector<int> want;
  for (int k = 0; k < kRounds; ++k)
    want.insert(want.end(), {k, -1, 1000 + k});
  CHECK(log == want);
  REQUIRE(sinkSeen->firstSums.size() == kRounds);
  for (int k = 0; k < kRounds; ++k) {
    float s = 0; // tile 0's slice: (k % 5 + i % 3) * 2, summed in order
    for (unsigned i = 0; i < kPerTile; ++i)
      s += (float(k % 5) + float(i % 3)) * 2.0f;
    CHECK(sinkSeen->firstSums[k] == s);
  }
}

TEST_CASE("A failing vertex is reported as one thread would report it", "[threads][errors]") {
  Device device = test::smallDevice(64);
  Graph g = test::makeGraph(device);
  Tensor x = g.addVariable(FLOAT, {64 * 512}, "x");
  test::mapRoundRobin(g, x, 512);
  g.setInitialValue(x, std::vector<float>(64 * 512, 1.0f));
  ComputeSet cs = g.addComputeSet("fails");
  for (unsigned t = 0; t < 64; ++t) {
    const Tensor mine = x.slice(t * 512, (t + 1) * 512);
    // Tiles 9 and 40 fail: one thread stops at tile 9's vertex, which comes first.
    const bool fails = t == 9 || t == 40;
    auto v = fails ? g.addVertex(cs, "FailingVertex", {{"in", x[t * 512]}})
                   : g.addVertex(cs, "ScaleVertex", {{"data", mine}});
    if (!fails) g.setInitialValue(v["factor"], 3.0f);
    g.setTileMapping(v, t);
  }
  for (const char* threads : {"1", "8"}) {
    INFO(threads);
    Engine e(g, Execute(cs), {{"tessera.threads", threads}});
    e.load(device);
    CHECK_THROWS_WITH(e.run(), Catch::Contains("on tile 9 ") && Catch::Contains("returned false"));
  }
}

TEST_CASE("Cycle-counter vertices read their IPU's counter on every thread", "[threads][cycles]") {
  // Two IPUs (their counters differ), a stamp vertex beside a large ScaleVertex on every tile:
  // enough work for the pool, so the stamps are read on several threads.
  constexpr unsigned kPerIpu = 368, kIpus = 2, kN = 64;
  Device device = test::smallDevice(kPerIpu, kIpus);
  Graph g = test::makeGraph(device);
  g.addCodelets("poplar");
  const unsigned tiles = kPerIpu * kIpus;
  Tensor x = g.addVariable(FLOAT, {tiles * kN}, "x");
  test::mapRoundRobin(g, x, kN);
  g.setInitialValue(x, std::vector<float>(tiles * kN, 1.0f));
  Tensor stamps = g.addVariable(UNSIGNED_INT, {tiles, 2}, "stamps");
  test::mapRoundRobin(g, stamps, 2);
  ComputeSet warm = g.addComputeSet("warm"), stamped = g.addComputeSet("stamped");
  for (unsigned t = 0; t < tiles; ++t) {
    // IPU 1 does more work first, so its counter is ahead when the stamps are read.
    const unsigned n = t < kPerIpu ? kN / 2 : kN;
    auto w = g.addVertex(warm, "ScaleVertex", {{"data", x.slice(t * kN, t * kN + n)}});
    g.setInitialValue(w["factor"], 2.0f);
    g.setTileMapping(w, t);
    auto s = g.addVertex(stamped, "ScaleVertex", {{"data", x.slice(t * kN, (t + 1) * kN)}});
    g.setInitialValue(s["factor"], 0.5f);
    g.setTileMapping(s, t);
    g.setTileMapping(g.addVertex(stamped, "poplar::CycleStamp", {{"out", stamps[t]}}), t);
  }
  g.createHostRead("stamps", stamps);
  std::vector<std::vector<unsigned>> got;
  for (const char* threads : {"1", "8"}) {
    Engine e(g, Sequence{Execute(warm), Execute(stamped)}, {{"tessera.threads", threads}});
    e.load(device);
    e.run();
    got.emplace_back(tiles * 2);
    e.readTensor("stamps", got.back().data(), got.back().data() + got.back().size());
  }
  CHECK(got[1] == got[0]);
  // Every tile of an IPU reads that IPU's counter; the two IPUs' differ.
  for (unsigned t = 0; t < tiles; ++t) {
    INFO("tile " << t);
    const unsigned first = t < kPerIpu ? 0 : kPerIpu;
    CHECK(got[1][2 * t] == got[1][2 * first]);
    CHECK(got[1][2 * t + 1] == got[1][2 * first + 1]);
  }
  CHECK(got[1][0] != 0);
  CHECK(got[1][0] != got[1][2 * kPerIpu]);
}
