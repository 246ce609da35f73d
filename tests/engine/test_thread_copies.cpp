// The exchange's copies on several host threads: a program that moves every tile's data to
// other tiles (block by block and element by element), copies in place and streams to and from
// the host gives the same bits and the same profile on 1, 2 and 8 threads; copies whose order
// matters stay in order. planCopies (engine/src/runtime/ParallelCopy.hpp) is checked directly too.
#include "TestUtil.hpp"
#include "common/ScratchDir.hpp"
#include "runtime/ParallelCopy.hpp"

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;
using poplar::detail::runtime::CopyPiece;
using poplar::detail::runtime::planCopies;

namespace {

constexpr unsigned kTiles = 1472, kBlock = 256; // 1.5 MB a tensor: enough for the pool
constexpr std::size_t kN = std::size_t(kTiles) * kBlock;
constexpr int kRounds = 2;

float factorOf(unsigned tile) {
  return 0.5f + float(tile % 5) * 0.25f;
}

std::vector<float> inputValues() {
  std::vector<float> v(kN);
  std::uint32_t s = 987654321u;
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    x = float(s >> 8) / float(1u << 24) - 0.5f;
  }
  return v;
}

/// Each round: every tile's block to the next tile (a copy of two runs), a scale on every tile,
/// a transpose of the [tiles, block] matrix into z (one 4-byte copy per element: every tile
/// sends to every tile), z back into x (one large run), x shifted by one element in place (a
/// run overlapping itself) and rotated by one element in place (two runs, the second reading
/// what the first wrote: the order matters). In from a stream, out to a stream and a host read.
struct Exchange {
  Device device = test::smallDevice(kTiles);
  Graph g = test::makeGraph(device);
  Tensor x = g.addVariable(FLOAT, {kN}, "x");
  Tensor y = g.addVariable(FLOAT, {kN}, "y");
  Tensor z = g.addVariable(FLOAT, {kN}, "z");
  DataStream in = g.addHostToDeviceFIFO("in", FLOAT, kN);
  DataStream out = g.addDeviceToHostFIFO("out", FLOAT, kN);
  Sequence program;

  Exchange() {
    for (const Tensor& t : {x, y, z})
      test::mapRoundRobin(g, t, kBlock);
    ComputeSet scale = g.addComputeSet("scale");
    for (unsigned t = 0; t < kTiles; ++t) {
      auto v = g.addVertex(scale, "ScaleVertex", {{"data", y.slice(t * kBlock, (t + 1) * kBlock)}});
      g.setInitialValue(v["factor"], factorOf(t));
      g.setTileMapping(v, t);
    }
    g.createHostRead("z", z);
    const Tensor toNextTile = concat(x.slice(kN - kBlock, kN), x.slice(0, kN - kBlock));
    const Tensor transposed = y.reshape({kTiles, kBlock}).transpose().flatten();
    const Tensor rotatedLeft = concat(x.slice(1, kN), x.slice(0, 1));
    program =
        Sequence{Copy(in, x),
                 Repeat(kRounds, Sequence{Copy(toNextTile, y), Execute(scale), Copy(transposed, z),
                                          Copy(z, x), Copy(x.slice(0, kN - 1), x.slice(1, kN)),
                                          Copy(rotatedLeft, x)}),
                 Copy(x, out)};
  }

  struct Result {
    std::vector<float> out, z;
  };
  Result run(const OptionFlags& options) {
    std::vector<float> input = inputValues();
    Result r{std::vector<float>(kN), std::vector<float>(kN)};
    Engine e(g, program, options);
    e.connectStream("in", input.data());
    e.connectStream("out", r.out.data());
    e.load(device);
    e.run(0);
    e.readTensor("z", r.z.data(), r.z.data() + r.z.size());
    return r;
  }
};

/// The same on the host, each copy as one thread makes it (run after run, each run as memmove).
Exchange::Result expected() {
  std::vector<float> x = inputValues(), y(kN), z(kN);
  for (int round = 0; round < kRounds; ++round) {
    for (std::size_t i = 0; i < kN; ++i)
      y[i] = x[(i + kN - kBlock) % kN];
    for (unsigned t = 0; t < kTiles; ++t)
      for (unsigned j = 0; j < kBlock; ++j)
        y[t * kBlock + j] *= factorOf(t);
    for (unsigned t = 0; t < kTiles; ++t)
      for (unsigned j = 0; j < kBlock; ++j)
        z[std::size_t(j) * kTiles + t] = y[t * kBlock + j];
    x = z;
    std::memmove(x.data() + 1, x.data(), (kN - 1) * sizeof(float));
    std::memmove(x.data(), x.data() + 1, (kN - 1) * sizeof(float));
    x[kN - 1] = x[0]; // the second run reads element 0 after the first run wrote it
  }
  return {x, z};
}

std::size_t totalBytes(const poplar::detail::runtime::CopyPlan& plan) {
  std::size_t n = 0;
  for (const auto& p : plan.pieces)
    n += p.bytes;
  return n;
}

} // namespace

TEST_CASE("An exchange-heavy 1,472-tile program gives the same bits and the same profile on 1, 2 "
          "and 8 threads",
          "[threads][exchange]") {
  Exchange p;
  const Exchange::Result want = expected();
  test::ScratchDir dir;
  const auto steps = test::stepsPerThreadCount(dir.path(), [&](const OptionFlags& options) {
    const auto got = p.run(options);
    CHECK(test::sameBits(got.out, want.out));
    CHECK(test::sameBits(got.z, want.z));
  });
  CHECK(steps[1] == steps[0]);
  CHECK(steps[2] == steps[0]);
}

TEST_CASE("Copies are spread over threads only when their order cannot matter",
          "[threads][exchange]") {
  constexpr std::size_t kMiB = 1 << 20;
  SECTION("disjoint copies: cut into units that cover every byte once") {
    const auto plan = planCopies(
        {{0, 4 * kMiB, kMiB}, {kMiB, 6 * kMiB, 8}, {2 * kMiB, 7 * kMiB, kMiB / 2}}, true);
    REQUIRE(plan);
    CHECK(totalBytes(*plan) == kMiB + 8 + kMiB / 2);
    CHECK(plan->unitStart.front() == 0);
    CHECK(plan->unitStart.back() == plan->pieces.size());
    CHECK(plan->unitStart.size() - 1 ==
          (kMiB + 8 + kMiB / 2 + poplar::detail::runtime::kCopyUnitBytes - 1) /
              poplar::detail::runtime::kCopyUnitBytes);
    // Pieces in order, each within its copy: the first copy's bytes come first, unbroken.
    CHECK(plan->pieces[0].src == 0);
    CHECK(plan->pieces[0].dst == 4 * kMiB);
    CHECK(plan->pieces[1].src == plan->pieces[0].bytes);
  }
  SECTION("too few bytes: on the calling thread") {
    CHECK_FALSE(planCopies({{0, kMiB, poplar::detail::runtime::kMinParallelCopyBytes - 1}}, true));
  }
  SECTION("a copy reading what another writes: in order, on the calling thread") {
    CHECK_FALSE(planCopies({{4, 0, kMiB}, {0, kMiB, 4}}, true));
    // Between two memories (a stream's buffer and the arena) sources cannot meet destinations.
    CHECK(planCopies({{4, 0, kMiB}, {0, kMiB, 4}}, false));
  }
  SECTION("destinations that overlap: in order") {
    CHECK_FALSE(planCopies({{0, 0, kMiB}, {2 * kMiB, kMiB - 4, 8}}, false));
  }
  SECTION("a copy overlapping itself is one piece (memmove), never cut") {
    const auto plan = planCopies({{0, 4, kMiB}, {2 * kMiB, 3 * kMiB, kMiB}}, true);
    REQUIRE(plan);
    CHECK(plan->pieces[0].src == 0);
    CHECK(plan->pieces[0].dst == 4);
    CHECK(plan->pieces[0].bytes == kMiB);
    CHECK(plan->pieces.size() > 2); // the other copy is cut
  }
}

TEST_CASE("Stream callbacks of large streams keep their order and their data when copies run on "
          "many threads",
          "[threads][exchange][streams]") {
  // 1.5 MB streams: their copies to and from the tiles go to the pool; the callbacks stay in
  // program order on the calling thread, each buffer copied only after fetch() returned.
  Exchange p;
  struct Source : LegacyStreamCallback {
    std::vector<int>* log;
    int next = 0;
    explicit Source(std::vector<int>* l) : log(l) {}
    void fetch(void* data) override {
      log->push_back(next);
      auto* f = static_cast<float*>(data);
      for (std::size_t i = 0; i < kN; ++i)
        f[i] = float(next * 7 + int(i % 1000));
      ++next;
    }
    void complete() override { log->push_back(-1); }
  };
  struct Sink : LegacyStreamCallback {
    std::vector<int>* log;
    std::vector<std::vector<float>> got;
    explicit Sink(std::vector<int>* l) : log(l) {}
    void fetch(void* data) override {
      log->push_back(1000 + int(got.size()));
      const auto* f = static_cast<const float*>(data);
      got.emplace_back(f, f + kN);
    }
    void complete() override { log->push_back(-2); }
  };
  constexpr int kStreamRounds = 4;
  const Tensor toNextTile = concat(p.x.slice(kN - kBlock, kN), p.x.slice(0, kN - kBlock));
  std::vector<int> log;
  auto sink = std::make_unique<Sink>(&log);
  Sink* sinkSeen = sink.get();
  Engine e(
      p.g,
      Repeat(kStreamRounds, Sequence{Copy(p.in, p.x), Copy(toNextTile, p.y), Copy(p.y, p.out)}),
      {{"tessera.threads", "8"}, {"exchange.streamBufferOverlap", "none"}});
  e.connectStreamToCallback("in", std::make_unique<Source>(&log));
  e.connectStreamToCallback("out", std::move(sink));
  e.load(p.device);
  e.run();
  std::vector<int> want;
  for (int k = 0; k < kStreamRounds; ++k)
    want.insert(want.end(), {k, -1, 1000 + k, -2});
  CHECK(log == want);
  REQUIRE(sinkSeen->got.size() == std::size_t(kStreamRounds));
  for (int k = 0; k < kStreamRounds; ++k) {
    INFO("round " << k);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < kN; ++i) {
      const std::size_t from = (i + kN - kBlock) % kN; // each block came from the previous tile
      wrong += sinkSeen->got[k][i] != float(k * 7 + int(from % 1000));
    }
    CHECK(wrong == 0);
  }
}
