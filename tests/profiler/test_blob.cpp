// Packed Cap'n Proto blobs: exact round trips, and BlobError (never a crash) on bad bytes.
#include "common/CapnpBytes.hpp"

#include <capnp/message.h>
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <profiler/Blob.hpp>
#include <profiler/schema/profile.capnp.h>
#include <random>

using namespace tessera::profiler;

namespace {

std::vector<std::uint64_t> roundTrip(const std::vector<std::uint64_t>& values) {
  const std::string blob = encodeTileValues(values);
  return decodeTileValues(blob.data(), blob.size());
}

// Like an execution step: a few hundred busy tiles with hundreds to thousands of cycles.
std::vector<std::uint64_t> sparseCycles(unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint64_t> v(1472, 0);
  for (int i = 0; i < 300; ++i)
    v[rng() % v.size()] = 100 + rng() % 5000;
  return v;
}

StepIpu sampleIpu(std::uint32_t ipu) {
  StepIpu s;
  s.ipu = ipu;
  s.cycles = 1234 + ipu;
  s.activeTiles = 1472 - ipu;
  s.activeFromMin = 1;
  s.activeFromMax = 2;
  s.activeToMin = 3;
  s.activeToMax = std::numeric_limits<std::uint64_t>::max();
  s.allFromMin = 5;
  s.allFromMax = 6;
  s.allToMin = 7;
  s.allToMax = 8;
  s.dataIn = 1ull << 40;
  s.dataOut = 10;
  s.tileBalance = 0.25f;
  s.activeTileBalance = 0.875f;
  return s;
}

// What capnp itself writes for the same message (one segment, as the writer's encoder uses).
std::string capnpPacked(const std::vector<std::uint64_t>& values) {
  ::capnp::MallocMessageBuilder message(1 << 16);
  auto list = message.initRoot<tessera::profiler::capnp::TileValues>().initValues(
      static_cast<unsigned>(values.size()));
  for (unsigned i = 0; i < values.size(); ++i)
    list.set(i, values[i]);
  return test::packedMessage(message);
}

} // namespace

TEST_CASE("Encoding produces exactly capnp's packed bytes", "[blob]") {
  std::vector<std::vector<std::uint64_t>> cases{
      {}, {0}, {1}, sparseCycles(7), std::vector<std::uint64_t>(1000, 0)};
  // Words with no, one and two zero bytes: verbatim runs (tag 0xff) start, continue and stop.
  std::vector<std::uint64_t> mixed;
  for (int i = 0; i < 600; ++i)
    mixed.push_back(0x0102030405060708ull + i); // no zero byte: one long verbatim run
  mixed.push_back(0x0102030405060700ull);       // one zero byte: stays in the run
  mixed.push_back(0x0102030405000000ull);       // three zero bytes: ends it
  mixed.insert(mixed.end(), 700, 0);            // zero run longer than 255
  mixed.push_back(std::numeric_limits<std::uint64_t>::max());
  mixed.push_back(0);
  mixed.push_back(0x8000000000000000ull);
  cases.push_back(mixed);
  std::mt19937_64 rng(99);
  for (int k = 0; k < 50; ++k) {
    std::vector<std::uint64_t> v(1 + rng() % 2000);
    for (auto& x : v) {
      const int kind = static_cast<int>(rng() % 4);
      x = kind == 0   ? 0
          : kind == 1 ? rng() % 5000
          : kind == 2 ? rng()
                      : (rng() | 0x0101010101010101ull);
    }
    cases.push_back(v);
  }
  // No word with eight non-zero bytes (what profiles hold): packers may take a faster path for
  // these. Non-zero bytes anywhere in a word, zero runs short and past 256 words, pieces of every
  // length around the 8- and 64-word blocks.
  for (int k = 0; k < 80; ++k) {
    std::vector<std::uint64_t> v(k < 20 ? static_cast<std::size_t>(k) : 1 + rng() % 3000);
    const unsigned zeroEvery = 1 + static_cast<unsigned>(rng() % 600);
    for (auto& x : v) {
      const int kind = static_cast<int>(rng() % 5);
      x = rng() % zeroEvery != 0 ? 0
          : kind == 0            ? 100 + rng() % 3000
          : kind == 1            ? rng() & 0x00ff00ff00ff00ffull
          : kind == 2            ? rng() & ~(0xffull << (8 * (rng() % 8))) // at least one zero byte
          : kind == 3            ? std::uint64_t(1) << (rng() % 64)
                                 : rng() >> (8 + 8 * (rng() % 7));
    }
    cases.push_back(v);
  }
  for (const auto& values : cases) {
    INFO(values.size() << " values");
    const std::string ours = encodeTileValues(values);
    CHECK(ours == capnpPacked(values));
    CHECK(decodeTileValues(ours.data(), ours.size()) == values);
  }
}

TEST_CASE("TileValues round trips exactly", "[blob]") {
  CHECK(roundTrip({}).empty());
  CHECK(roundTrip({42}) == std::vector<std::uint64_t>{42});
  const auto sparse = sparseCycles(1);
  CHECK(roundTrip(sparse) == sparse);
  std::vector<std::uint64_t> dense(1472);
  for (std::size_t i = 0; i < dense.size(); ++i)
    dense[i] = i * 7919 + 1;
  CHECK(roundTrip(dense) == dense);
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  const std::vector<std::uint64_t> extremes{max, max - 1, 1ull << 63, 0, 1, (1ull << 63) - 1};
  CHECK(roundTrip(extremes) == extremes);
}

TEST_CASE("TileValues encoding replaces the buffer and stays small when sparse", "[blob]") {
  std::string buffer = "previous contents";
  const auto a = sparseCycles(2), b = sparseCycles(3);
  encodeTileValues(a.data(), a.size(), buffer);
  CHECK(decodeTileValues(buffer.data(), buffer.size()) == a);
  encodeTileValues(b.data(), b.size(), buffer); // the same buffer, reused
  CHECK(decodeTileValues(buffer.data(), buffer.size()) == b);
  // Packing drops zero bytes: far below the 11.8 KB of 1472 unpacked words.
  CHECK(buffer.size() < 3000);
  // Larger than one reused first segment: the message spills into more segments.
  std::vector<std::uint64_t> big(100000, 3);
  CHECK(roundTrip(big) == big);
}

TEST_CASE("StepIpus round trips exactly", "[blob]") {
  std::string buffer;
  encodeStepIpus(nullptr, 0, buffer);
  CHECK(decodeStepIpus(buffer.data(), buffer.size()).empty());
  const std::vector<StepIpu> ipus{sampleIpu(0), sampleIpu(1), sampleIpu(3)};
  encodeStepIpus(ipus.data(), ipus.size(), buffer);
  CHECK(decodeStepIpus(buffer.data(), buffer.size()) == ipus);
}

TEST_CASE("Decoding empty or truncated or trailing bytes throws BlobError", "[blob][errors]") {
  CHECK_THROWS_AS(decodeTileValues(nullptr, 0), BlobError);
  CHECK_THROWS_AS(decodeTileValues("", 0), BlobError);
  CHECK_THROWS_AS(decodeStepIpus("", 0), BlobError);
  CHECK_THROWS_WITH(decodeTileValues("", 0), Catch::Contains("TileValues"));

  const std::string blob = encodeTileValues(sparseCycles(4));
  for (std::size_t n = 1; n < blob.size(); ++n) {
    INFO("prefix of " << n << " of " << blob.size() << " bytes");
    CHECK_THROWS_AS(decodeTileValues(blob.data(), n), BlobError);
  }
  // Bytes after the message are an error too (as a malformed word, or as extra words).
  const std::string trailing = blob + "xyz";
  CHECK_THROWS_WITH(decodeTileValues(trailing.data(), trailing.size()),
                    Catch::Contains("TileValues"));
  const std::string extraWords = blob + std::string(2, '\0'); // one more (zero) word
  CHECK_THROWS_WITH(decodeTileValues(extraWords.data(), extraWords.size()),
                    Catch::Contains("unexpected bytes"));
}

TEST_CASE("Decoding garbage throws BlobError or decodes and never crashes", "[blob][errors]") {
  const std::string text = "this is not a capnp message at all";
  CHECK_THROWS_AS(decodeTileValues(text.data(), text.size()), BlobError);
  CHECK_THROWS_AS(decodeStepIpus(text.data(), text.size()), BlobError);

  // A segment table claiming a 2^31-word segment, with no data: must fail before allocating it.
  const unsigned char hugeSegment[] = {0xf0, 0xff, 0xff, 0xff, 0x7f}; // tag: bytes 4-7 follow
  CHECK_THROWS_AS(decodeTileValues(hugeSegment, sizeof hugeSegment), BlobError);

  // Random bytes, and valid blobs with random bytes flipped.
  std::mt19937 rng(12345);
  const std::string valid = encodeTileValues(sparseCycles(5));
  int thrown = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    std::string bytes;
    if (trial % 2) {
      bytes.resize(1 + rng() % 200);
      for (char& c : bytes)
        c = static_cast<char>(rng());
    } else {
      bytes = valid;
      for (int k = 0; k < 4; ++k)
        bytes[rng() % bytes.size()] = static_cast<char>(rng());
    }
    try {
      decodeTileValues(bytes.data(), bytes.size());
      decodeStepIpus(bytes.data(), bytes.size());
    } catch (const BlobError&) {
      ++thrown;
    }
  }
  CHECK(thrown >
        1000); // all random inputs fail; some flipped blobs still decode (e.g. a changed value)
}
