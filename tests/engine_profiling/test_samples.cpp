// The samples' reports: the invariants every report keeps, checked on real training runs.
#include "common/ReportFiles.hpp"
#include "common/RunProgram.hpp"
#include "common/ScratchDir.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <numeric>

using test::Report;

namespace {

void checkMemoryInvariants(Report& r) {
  const auto tiles = r.rows(
      "SELECT tile, including_gaps, excluding_gaps, always_live_bytes, not_always_live_bytes "
      "FROM tile_memory ORDER BY tile");
  const auto numTiles = r.integer("SELECT tiles_per_ipu * num_ipus / num_replicas FROM target");
  REQUIRE(static_cast<long long>(tiles.size()) == numTiles);
  auto perTile = [&](const std::string& sql) {
    std::vector<long long> v(tiles.size(), 0);
    for (const auto& row : r.rows(sql))
      v.at(row[0].i) = row[1].i;
    return v;
  };
  const auto categories =
      perTile("SELECT tile, sum(non_interleaved_non_overlapped + non_interleaved_overlapped + "
              "interleaved_non_overlapped + "
              "interleaved_overlapped + overflowed_non_overlapped + overflowed_overlapped) FROM "
              "tile_memory_categories GROUP BY tile");
  const auto allocated = perTile("SELECT tile, sum(bytes) FROM lowered_variables GROUP BY tile");
  const auto alwaysLive =
      perTile("SELECT tile, sum(bytes) FROM lowered_variables WHERE always_live = 1 GROUP BY tile");
  const auto top = perTile("SELECT tile, max(offset + bytes) FROM lowered_variables GROUP BY tile");
  std::vector<std::uint64_t> peak(tiles.size(), 0);
  for (const auto& row :
       r.rows("SELECT not_always_live_bytes, bytes_by_tile, bytes_by_ipu FROM liveness_steps")) {
    const auto byTile =
        tessera::profiler::decodeTileValues(row[1].bytes.data(), row[1].bytes.size());
    const auto byIpu =
        tessera::profiler::decodeTileValues(row[2].bytes.data(), row[2].bytes.size());
    REQUIRE(byTile.size() == tiles.size());
    CHECK(std::accumulate(byTile.begin(), byTile.end(), std::uint64_t(0)) ==
          static_cast<std::uint64_t>(row[0].i));
    CHECK(std::accumulate(byIpu.begin(), byIpu.end(), std::uint64_t(0)) ==
          static_cast<std::uint64_t>(row[0].i));
    for (std::size_t t = 0; t < tiles.size(); ++t)
      peak[t] = std::max(peak[t], byTile[t]);
  }
  for (std::size_t t = 0; t < tiles.size(); ++t) {
    INFO("tile " << t);
    const auto& row = tiles[t];
    CHECK(categories[t] == allocated[t]); // categories sum to the allocations
    CHECK(row[3].i == alwaysLive[t]);
    CHECK(row[4].i == static_cast<long long>(peak[t]));
    CHECK(row[2].i == row[3].i + row[4].i); // excluding gaps = always live + peak
    CHECK(row[1].i == top[t]);              // including gaps = highest address
    CHECK(row[1].i >= row[2].i);
  }
}

void checkExecutionInvariants(Report& r) {
  std::map<long long, std::vector<std::uint64_t>> programCycles;
  for (const auto& row : r.rows("SELECT id, estimated_cycles_by_tile FROM programs WHERE "
                                "estimated_cycles_by_tile IS NOT NULL"))
    programCycles[row[0].i] =
        tessera::profiler::decodeTileValues(row[1].bytes.data(), row[1].bytes.size());
  const auto tilesPerIpu = static_cast<std::size_t>(r.integer("SELECT tiles_per_ipu FROM target"));
  const auto runs = r.rows("SELECT id, first_step, num_steps, cycles FROM runs ORDER BY id");
  REQUIRE(!runs.empty());
  long long expectedFirst = 0;
  for (const auto& run : runs) {
    INFO("run " << run[0].i);
    CHECK(run[1].i == expectedFirst);
    expectedFirst += run[2].i;
    std::map<unsigned, std::uint64_t> ipuTotals;
    std::vector<std::uint64_t> tileTotals;
    const auto steps = r.rows(
        "SELECT program, ipus FROM steps WHERE run = " + std::to_string(run[0].i) + " ORDER BY id");
    CHECK(static_cast<long long>(steps.size()) == run[2].i);
    for (const auto& step : steps) {
      const auto& cycles = programCycles.at(step[0].i);
      if (tileTotals.empty()) tileTotals.assign(cycles.size(), 0);
      for (std::size_t t = 0; t < cycles.size(); ++t)
        tileTotals[t] += cycles[t];
      for (const auto& ipu :
           tessera::profiler::decodeStepIpus(step[1].bytes.data(), step[1].bytes.size())) {
        ipuTotals[ipu.ipu] += ipu.cycles;
        const auto begin = cycles.begin() + long(ipu.ipu * tilesPerIpu);
        const std::uint64_t maxTile = *std::max_element(begin, begin + long(tilesPerIpu));
        CHECK(maxTile <= ipu.cycles); // per-tile cycles <= step cycles
        CHECK(ipu.activeToMax - ipu.activeFromMin == maxTile);
      }
    }
    std::uint64_t slowest = 0;
    for (const auto& [ipu, total] : ipuTotals)
      slowest = std::max(slowest, total);
    CHECK(slowest == static_cast<std::uint64_t>(run[3].i)); // step cycles sum to run cycles
    std::vector<std::uint64_t> byKind(tileTotals.size(), 0);
    std::vector<std::uint64_t> compute, excludingIdle;
    for (const auto& row : r.rows("SELECT kind, cycles_by_tile FROM run_tile_cycles WHERE run = " +
                                  std::to_string(run[0].i))) {
      const auto v = tessera::profiler::decodeTileValues(row[1].bytes.data(), row[1].bytes.size());
      if (row[0].bytes == "computeExcludingIdleThreads") { // not a kind: beside them
        excludingIdle = v;
        continue;
      }
      if (row[0].bytes == "compute") compute = v;
      for (std::size_t t = 0; t < v.size(); ++t)
        byKind[t] += v[t];
    }
    CHECK(byKind == tileTotals); // cycles by kind add up to the steps' cycles
    REQUIRE(excludingIdle.size() == compute.size());
    for (std::size_t t = 0; t < compute.size(); ++t)
      CHECK(excludingIdle[t] <= compute[t]); // idle contexts only remove cycles
  }
}

} // namespace

TEST_CASE("The MLP sample's report keeps every invariant", "[samples]") {
  test::ScratchDir dir;
  REQUIRE(test::runProgram(std::string(TESSERA_MLP_SAMPLE) +
                           " --steps 32 --steps-per-run 16 --out " + dir.path().string() +
                           " --reports " + (dir / "reports").string()) == 0);
  Report r(dir / "reports" / "profile.pop");
  CHECK(r.integer("SELECT count(*) FROM runs") == 2);
  CHECK(r.integer("SELECT count(*) FROM programs WHERE type = 'OnTileExecute'") > 10);
  checkMemoryInvariants(r);
  checkExecutionInvariants(r);
}

TEST_CASE("The pipeline sample's two-IPU report keeps every invariant", "[samples]") {
  test::ScratchDir dir;
  REQUIRE(test::runProgram(std::string(TESSERA_PIPELINE_SAMPLE) + " --reports " +
                           (dir / "reports").string()) == 0);
  Report r(dir / "reports" / "profile.pop");
  CHECK(r.integer("SELECT num_ipus FROM target") == 2);
  CHECK(r.integer("SELECT count(*) FROM programs WHERE type = 'GlobalExchange'") > 0);
  checkMemoryInvariants(r);
  checkExecutionInvariants(r);
}

TEST_CASE("The out-of-memory sample fails clearly and leaves a readable memory report",
          "[samples][oom]") {
  test::ScratchDir dir;
  CHECK(test::runProgram(std::string(TESSERA_OOM_SAMPLE) + " --reports " +
                         (dir / "reports").string()) == 1);
  Report r(dir / "reports" / "profile.pop");
  CHECK(r.text("SELECT value FROM meta WHERE key = 'out_of_memory'") == "true");
  CHECK(r.integer("SELECT count(*) FROM tile_memory WHERE overflowed_including_gaps > 0") > 0);
  checkMemoryInvariants(r);
}
