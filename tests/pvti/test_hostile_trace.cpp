// Hostile traces fuzzing found (tests/data/fuzz) and traces as killed writers leave them in
// places nobody may write: clear errors or correct reads, never undefined behaviour or a hang.
#include "DriverUtil.hpp"
#include "common/Exceptions.hpp"
#include "common/ScratchDir.hpp"
#include "common/Unprivileged.hpp"
#include "common/WalFiles.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <pva/Trace.hpp>
#include <pvti/pvti.hpp>
#include <sstream>
#include <sys/stat.h>

namespace {
const std::string kFuzz = std::string(TESSERA_TEST_DATA_DIR) + "/fuzz";

std::string chromeExport(const std::string& path) {
  const pva::Trace trace = pva::openTrace(path);
  std::ostringstream out;
  pva::exportChromeTrace(trace, out);
  return out.str();
}
} // namespace

TEST_CASE("Chrome export: a sample at the smallest 64-bit time is written, not negated (UB)",
          "[pvti][hostile][chrome]") {
  // UBSan stopped the export here: -INT64_MIN overflows.
  const std::string json = chromeExport(kFuzz + "/trace-ubsan-chromeexport-int64min.pvti");
  CHECK_THAT(json, Catch::Contains("\"ts\":-9223372036854775.808"));
}

TEST_CASE("Chrome export: times between -999 and -1 ns keep their sign",
          "[pvti][hostile][chrome]") {
  // The same trace with samples at -500 and -1999 ns: -500 was written as 0.500.
  const std::string json = chromeExport(kFuzz + "/trace-chromeexport-negative-subus.pvti");
  CHECK_THAT(json, Catch::Contains("\"ts\":-0.500,"));
  CHECK_THAT(json, Catch::Contains("\"ts\":-1.999,"));
  CHECK_THAT(json, !Catch::Contains("\"ts\":0.500,"));
}

TEST_CASE("openTrace refuses a FIFO, a device or a directory up front", "[pvti][hostile]") {
  test::ScratchDir dir;
  const auto fifo = dir / "trace.pvti";
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  auto error = [](const std::string& path) {
    return test::messageOf<pva::FileNotFoundError>([&] { pva::openTrace(path); });
  };
  // Before the fix `pva trace` on a FIFO waited forever for a writer.
  CHECK_THAT(error(fifo.string()),
             Catch::Equals(fifo.string() + ": is a FIFO (named pipe), not a trace file"));
  CHECK_THAT(error("/dev/zero"), Catch::Equals("/dev/zero: is a device, not a trace file"));
  CHECK_THAT(error(dir.path().string()), Catch::Contains("is a directory"));
}

TEST_CASE(
    "A trace a killed tracer left in WAL mode reads in a read-only directory, writing nothing",
    "[pvti][hostile][wal]") {
  test::ScratchDir source;
  REQUIRE(test::runDriver({"basic"}, "{}", source.path()).exitCode == 0);
  const auto original = test::traceFiles(source.path()).at(0);
  const std::size_t events =
      pva::openTrace(original.string()).processes()[0].threads()[0].numEvents();
  // Three states: journal and -shm (killed writer); journal only (copied without -shm); WAL
  // mode but no journal (cleanly closed, or checkpointed) in a directory without -shm.
  struct Case {
    const char* name;
    bool wal, keepShm, torn;
  };
  // A torn journal (the writer died inside its last write) must read as the last whole commit.
  for (const Case c :
       {Case{"-wal and -shm", true, true, false}, Case{"-wal only", true, false, false},
        Case{"-wal only, torn", true, false, true}, Case{"no -wal", false, false, false}}) {
    INFO(c.name);
    test::ScratchDir dir;
    const auto trace = dir / "t.pvti";
    std::filesystem::copy_file(original, trace);
    // A label only the journal holds, when there is one.
    if (c.wal) test::leaveInWal(trace, "UPDATE processes SET name = 'from-the-wal';", c.keepShm);
    if (c.torn)
      std::filesystem::resize_file(trace.string() + "-wal",
                                   std::filesystem::file_size(trace.string() + "-wal") - 100);
    else
      test::leaveInWal(trace, "PRAGMA wal_checkpoint(TRUNCATE);", false),
          std::filesystem::remove(trace.string() + "-wal");
    std::size_t files = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir.path()))
      files += e.is_regular_file() ? 1 : 0;
    test::ReadOnlyDir readOnly(dir.path());
    const test::Outcome o = test::runUnprivileged([&] {
      const pva::Trace t = pva::openTrace(trace.string());
      const auto& p = t.processes()[0];
      if (c.wal && !c.torn && p.name() != "from-the-wal")
        throw std::runtime_error("the journal was not read: " + p.name());
      if (c.torn && p.name() == "from-the-wal") throw std::runtime_error("a torn commit was read");
      if (p.threads()[0].numEvents() != events) throw std::runtime_error("events lost");
    });
    INFO(o.message);
    CHECK(o.ok);
    std::size_t after = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir.path()))
      after += e.is_regular_file() ? 1 : 0;
    CHECK(after == files);
  }
}

TEST_CASE("Chrome export: text that is not UTF-8 is written as U+FFFD, so the file parses",
          "[pvti][hostile][chrome]") {
  // A label holding byte 0xFF was copied raw: Perfetto and Python's json rejected the file.
  const std::string json = chromeExport(kFuzz + "/trace-chrome-invalid-utf8-label.pvti");
  CHECK_THAT(json, Catch::Contains("\"name\":\"ok-\xef\xbf\xbd-end\""));
  CHECK(json.find('\xff') == std::string::npos);
  nlohmann::json parsed;
  REQUIRE_NOTHROW(parsed = nlohmann::json::parse(json)); // strict: throws on invalid UTF-8
  CHECK(parsed["traceEvents"].size() > 1);
}

TEST_CASE("pvti::decodeHeatmapData throws pvti::InvalidDataError on damaged data",
          "[pvti][hostile][heatmap]") {
  const std::vector<std::vector<std::uint8_t>> damaged = {
      {0x80},                               // a varint that never ends
      {0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, // longer than 5 bytes
      {0xff, 0xff, 0xff, 0xff, 0x1f},       // a count above 2^32 - 1
  };
  for (const auto& bytes : damaged) {
    CHECK_THROWS_AS(pvti::decodeHeatmapData(bytes), pvti::InvalidDataError);
    try {
      pvti::decodeHeatmapData(bytes);
    } catch (const pvti::InvalidDataError& e) {
      CHECK_THAT(e.what(), Catch::StartsWith("pvti::decodeHeatmapData: heatmap bins: "));
    }
  }
  CHECK(pvti::decodeHeatmapData({1, 2, 3}) == std::vector<std::uint32_t>{1, 2, 3});
}
