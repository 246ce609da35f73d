// A step's IPU entries are read in place from its packed StepIpus blob, one entry at a time. They
// must equal what Cap'n Proto's own reader decodes: for the blobs Tessera writes, for blobs laid
// out by other writers (handed to the full decoder), for older and newer entry sizes; damaged
// blobs give InvalidReportError naming the step, never a crash.
#include "PvaTestUtil.hpp"
#include "common/CapnpBytes.hpp"

#include <capnp/message.h>
#include <capnp/serialize-packed.h>
#include <cstring>
#include <kj/io.h>
#include <profiler/Blob.hpp>
#include <profiler/schema/profile.capnp.h>
#include <random>
#include <sqlite3.h>

namespace {

namespace pcapnp = tessera::profiler::capnp;
using tessera::profiler::StepIpu;

/// A copy of `r`'s report in which step i's ipus blob is blobs[i].
std::filesystem::path withBlobs(const test::RemoteSumReport& r, const test::ScratchDir& dir,
                                const std::string& name, const std::vector<std::string>& blobs) {
  const auto file = dir / name;
  std::filesystem::copy_file(r.dir / "profile.pop", file);
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(file.c_str(), &db) == SQLITE_OK);
  REQUIRE(sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, "UPDATE steps SET ipus = ? WHERE id = ?", -1, &st, nullptr) ==
          SQLITE_OK);
  for (std::size_t i = 0; i < blobs.size(); ++i) {
    sqlite3_bind_blob(st, 1, blobs[i].data(), int(blobs[i].size()), SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, std::int64_t(i));
    REQUIRE(sqlite3_step(st) == SQLITE_DONE);
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  REQUIRE(sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(db);
  return file;
}

/// Values of every size: zero, small, large, all bytes set; so packing meets every tag.
std::uint64_t anyValue(std::mt19937_64& rng) {
  switch (rng() % 5) {
  case 0:
    return 0;
  case 1:
    return rng() % 300;
  case 2:
    return rng() % (std::uint64_t(1) << 40);
  case 3:
    return ~std::uint64_t(0);
  default:
    return rng();
  }
}

std::vector<StepIpu> randomIpus(std::mt19937_64& rng, unsigned n) {
  std::vector<StepIpu> v(n);
  for (unsigned i = 0; i < n; ++i) {
    StepIpu& s = v[i];
    s.ipu = i;
    s.cycles = anyValue(rng);
    s.activeTiles = static_cast<std::uint32_t>(anyValue(rng));
    for (std::uint64_t* f :
         {&s.activeFromMin, &s.activeFromMax, &s.activeToMin, &s.activeToMax, &s.allFromMin,
          &s.allFromMax, &s.allToMin, &s.allToMax, &s.dataIn, &s.dataOut})
      *f = anyValue(rng);
    s.tileBalance = float(rng() % 1000) / 1000.0f;
    s.activeTileBalance = rng() % 4 ? 1.0f : 0.0f;
  }
  return v;
}

/// The entries as the profiler's encoder fills them, read back by capnp, for copying into a
/// message laid out otherwise (a layout the encoder never writes, as another writer might).
template <class Layout> std::string relaidOut(const std::vector<StepIpu>& ipus, Layout&& layout) {
  std::string encoded;
  tessera::profiler::encodeStepIpus(ipus.data(), ipus.size(), encoded);
  kj::ArrayInputStream in(
      kj::arrayPtr(reinterpret_cast<const kj::byte*>(encoded.data()), encoded.size()));
  ::capnp::PackedMessageReader reader(in);
  return layout(reader.getRoot<pcapnp::StepIpus>().getIpus());
}

/// The list made before the root: the root points past it and the list pointer points back.
std::string listFirst(const std::vector<StepIpu>& ipus) {
  return relaidOut(ipus, [](::capnp::List<pcapnp::StepIpu>::Reader list) {
    ::capnp::MallocMessageBuilder message;
    auto orphan = message.getOrphanage().newOrphanCopy(list);
    message.initRoot<pcapnp::StepIpus>().adoptIpus(kj::mv(orphan));
    return test::packedMessage(message);
  });
}

/// Segments of 16 words: the list lands in a segment of its own, behind a far pointer.
std::string manySegments(const std::vector<StepIpu>& ipus) {
  return relaidOut(ipus, [](::capnp::List<pcapnp::StepIpu>::Reader list) {
    ::capnp::MallocMessageBuilder message(16, ::capnp::AllocationStrategy::FIXED_SIZE);
    message.initRoot<pcapnp::StepIpus>().setIpus(list);
    return test::packedMessage(message);
  });
}

/// The plain layout written by hand, with entries of `dataWords` data words and `pointers`
/// (null) pointers: an older writer's shorter entries, or a newer one's longer ones (the words
/// past StepIpu's 13 hold a field this reader does not know).
std::string sized(const std::vector<StepIpu>& ipus, unsigned dataWords, unsigned pointers) {
  const std::uint64_t n = ipus.size(), per = dataWords + pointers;
  std::vector<std::uint64_t> w{std::uint64_t(1) << 48, // root: no data, 1 pointer
                               1 | (std::uint64_t(7) << 32) | ((n * per) << 35), // composite list
                               (n << 2) | (std::uint64_t(dataWords) << 32) |
                                   (std::uint64_t(pointers) << 48)};
  for (const StepIpu& s : ipus) {
    std::uint32_t balance[2];
    std::memcpy(&balance[0], &s.tileBalance, 4);
    std::memcpy(&balance[1], &s.activeTileBalance, 4);
    const std::uint64_t entry[13] = {s.ipu | (std::uint64_t(s.activeTiles) << 32),
                                     s.cycles,
                                     s.activeFromMin,
                                     s.activeFromMax,
                                     s.activeToMin,
                                     s.activeToMax,
                                     s.allFromMin,
                                     s.allFromMax,
                                     s.allToMin,
                                     s.allToMax,
                                     s.dataIn,
                                     s.dataOut,
                                     balance[0] | (std::uint64_t(balance[1]) << 32)};
    for (unsigned k = 0; k < dataWords; ++k)
      w.push_back(k < 13 ? entry[k] : 0x0123456789abcdefull);
    for (unsigned k = 0; k < pointers; ++k)
      w.push_back(0);
  }
  const kj::ArrayPtr<const ::capnp::word> segment(reinterpret_cast<const ::capnp::word*>(w.data()),
                                                  w.size());
  return test::packedMessage(kj::arrayPtr(&segment, 1));
}

void checkEqual(const pva::IpuExecution& got, const StepIpu& want) {
  CHECK(got.ipu() == want.ipu);
  CHECK(got.cycles() == want.cycles);
  CHECK(got.activeTiles() == want.activeTiles);
  CHECK(got.activeCycles().from().min() == want.activeFromMin);
  CHECK(got.activeCycles().from().max() == want.activeFromMax);
  CHECK(got.activeCycles().to().min() == want.activeToMin);
  CHECK(got.activeCycles().to().max() == want.activeToMax);
  CHECK(got.allCycles().from().min() == want.allFromMin);
  CHECK(got.allCycles().from().max() == want.allFromMax);
  CHECK(got.allCycles().to().min() == want.allToMin);
  CHECK(got.allCycles().to().max() == want.allToMax);
  CHECK(got.dataIn() == want.dataIn);
  CHECK(got.dataOut() == want.dataOut);
  CHECK(got.tileBalance() == Approx(want.tileBalance));
  CHECK(got.activeTileBalance() == Approx(want.activeTileBalance));
}

/// Every way of reading step `step`'s entries gives what Cap'n Proto decodes from `blob`.
void checkStep(const pva::ExecutionStep& step, const std::string& blob, std::mt19937_64& rng) {
  const std::vector<StepIpu> want = tessera::profiler::decodeStepIpus(blob.data(), blob.size());
  const pva::IpuExecutions ipus = step.ipus();
  REQUIRE(ipus.size() == want.size());
  CHECK(ipus.empty() == want.empty());
  std::size_t i = 0;
  for (const pva::IpuExecution& ipu : ipus)
    checkEqual(ipu, want.at(i++));
  CHECK(i == want.size());
  for (std::size_t k = 0; k < 2 * want.size(); ++k) { // in no particular order
    const std::size_t j = rng() % want.size();
    checkEqual(ipus[j], want[j]);
  }
  const std::vector<pva::IpuExecution> all = ipus;
  REQUIRE(all.size() == want.size());
  if (!want.empty()) checkEqual(all.back(), want.back());
  auto it = ipus.begin(); // skipping entries without reading them
  for (std::size_t k = 0; k + 1 < want.size(); k += 2)
    ++it, ++it;
  if (want.size() % 2) checkEqual(*it, want.back());
  CHECK_THROWS_AS(ipus.at(want.size()), pva::InvalidArgumentError);
}

} // namespace

TEST_CASE("IPU entries read in place equal Cap'n Proto's decoding", "[pva][execution][steps]") {
  test::RemoteSumReport r(4); // 12 steps
  test::ScratchDir dir;
  std::mt19937_64 rng(2024);
  // Tessera's own encoding of 0 to 300 IPUs, and other valid layouts of the same message.
  std::vector<std::string> blobs;
  for (unsigned n : {0u, 1u, 2u, 16u, 64u, 300u}) {
    const auto ipus = randomIpus(rng, n);
    std::string blob;
    tessera::profiler::encodeStepIpus(ipus.data(), ipus.size(), blob);
    blobs.push_back(blob);
  }
  blobs.push_back(listFirst(randomIpus(rng, 5)));
  blobs.push_back(manySegments(randomIpus(rng, 7)));
  blobs.push_back(sized(randomIpus(rng, 4), 2, 0)); // older, shorter entries: the rest read as zero
  blobs.push_back(sized(randomIpus(rng, 4), 15, 1)); // newer, longer entries with a pointer
  blobs.push_back(sized(randomIpus(rng, 3), 13, 0));
  blobs.push_back(sized({}, 13, 0));
  REQUIRE(blobs.size() == 12);
  const auto file = withBlobs(r, dir, "layouts.pop", blobs);
  const auto report = pva::openReport(file.string());
  std::size_t i = 0;
  for (const auto& step : report.execution().steps()) {
    INFO("step " << i);
    checkStep(step, blobs.at(i), rng);
    ++i;
  }
  CHECK(i == blobs.size());
  // Longer entries than this reader knows still hold their known fields where it expects them.
  CHECK(report.execution().steps()[9].ipus()[3].ipu() == 3);
}

TEST_CASE("Damaged IPU entries give InvalidReportError naming the step, never a crash",
          "[pva][execution][steps][corpus]") {
  test::RemoteSumReport r(200); // 600 steps
  test::ScratchDir dir;
  std::mt19937_64 rng(77);
  std::vector<std::string> blobs;
  for (unsigned s = 0; s < 600; ++s) {
    const auto ipus = randomIpus(rng, 1 + unsigned(rng() % 20));
    std::string blob;
    tessera::profiler::encodeStepIpus(ipus.data(), ipus.size(), blob);
    if (s % 3 == 0)
      blob.resize(rng() % blob.size()); // cut short
    else if (s % 3 == 1)
      for (int k = 0; k < 3; ++k)
        blob[rng() % blob.size()] = char(rng()); // bytes changed
    else
      for (char& c : blob)
        c = char(rng()); // noise
    blobs.push_back(blob);
  }
  // One entry cut in half: the head and the entries before it read; the cut entry is an error.
  const auto ipus = randomIpus(rng, 16);
  std::string cut;
  tessera::profiler::encodeStepIpus(ipus.data(), ipus.size(), cut);
  cut.resize(cut.size() - 20);
  blobs[5] = cut;
  const auto file = withBlobs(r, dir, "damaged.pop", blobs);
  const auto report = pva::openReport(file.string());

  unsigned failures = 0;
  for (const auto& step : report.execution().steps()) {
    try {
      const auto list = step.ipus();
      for (const auto& ipu : list)
        (void)ipu.cycles();
      if (!list.empty()) (void)(list[list.size() - 1].dataOut() + list[list.size() / 2].dataIn());
    } catch (const pva::InvalidReportError& e) {
      CHECK_THAT(std::string(e.what()), Catch::Contains(file.string()));
      CHECK_THAT(std::string(e.what()),
                 Catch::Contains("corrupted step " + std::to_string(step.index())));
      ++failures;
    }
  }
  CHECK(failures > 300);

  const auto damaged = report.execution().steps()[5].ipus();
  REQUIRE(damaged.size() == 16);
  checkEqual(damaged[0], ipus[0]);
  CHECK_THROWS_WITH(damaged[15], Catch::Contains("corrupted step 5"));
}
