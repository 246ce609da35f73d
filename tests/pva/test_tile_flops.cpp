// FLOP estimates tile by tile (format 1.4, compute_sets.estimated_flops_by_tile): libpva's
// ComputeSet::estimatedFlopsByTile and OperationTileFigures::estimatedFlops against the stored
// blobs (read with raw SQL and the profiler's decoder), reports older than 1.4 as "no estimate",
// and damaged values as errors rather than figures.
#include "PvaTestUtil.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <pva/Analysis.hpp>
#include <pva/OperationTiles.hpp>

namespace {

using u64 = std::uint64_t;

u64 sum(const std::vector<u64>& v) {
  return std::accumulate(v.begin(), v.end(), u64(0));
}

std::string hexBlob(const std::vector<u64>& values) {
  static const char* digits = "0123456789ABCDEF";
  std::string hex = "X'";
  for (unsigned char b : tessera::profiler::encodeTileValues(values)) {
    hex += digits[b >> 4];
    hex += digits[b & 15];
  }
  return hex + "'";
}

/// The mlp sample's report copied into `dir` with its debug information, to be edited.
std::filesystem::path copyMlp(const test::ScratchDir& dir) {
  const std::filesystem::path& profile = test::sampleReport("mlp");
  std::filesystem::copy_file(profile, dir / "profile.pop");
  std::filesystem::copy_file(profile.parent_path() / "debug.cbor", dir / "debug.cbor");
  return dir / "profile.pop";
}

pva::Report openWithDebug(const std::filesystem::path& profile) {
  return pva::openReport(profile.string(), (profile.parent_path() / "debug.cbor").string());
}

/// The id of a compute set with FLOPs on more than one tile (the per-tile split matters there).
long long spreadComputeSet(const std::filesystem::path& profile) {
  test::Report raw(profile);
  for (long long id :
       raw.integers("SELECT id FROM compute_sets WHERE estimated_flops > 0 ORDER BY id")) {
    const auto flops = raw.tileValues(
        "SELECT estimated_flops_by_tile FROM compute_sets WHERE id = " + std::to_string(id));
    if (std::count_if(flops.begin(), flops.end(), [](u64 f) { return f > 0; }) > 1) return id;
  }
  return -1;
}

} // namespace

TEST_CASE("FLOPs per tile are written for every compute set and read back as stored",
          "[pva][flops][operationTiles]") {
  const std::filesystem::path& profile = test::sampleReport("mlp");
  test::Report raw(profile);
  const pva::Report report = openWithDebug(profile);
  REQUIRE(report.hasFlopEstimates()); // the samples turn profiler.includeFlopEstimates on
  CHECK(report.hasFlopEstimatesByTile());
  CHECK(raw.text("SELECT value FROM meta WHERE key = 'format_version'") == "1.7.0");
  const std::size_t tiles = report.compilation().target().tilesPerReplica();
  u64 spread = 0;
  for (const pva::ComputeSet& cs : report.compilation().computeSets()) {
    INFO(cs.name());
    const std::vector<u64> stored = raw.tileValues(
        "SELECT estimated_flops_by_tile FROM compute_sets WHERE id = " + std::to_string(cs.id()));
    const std::vector<u64> read = cs.estimatedFlopsByTile();
    REQUIRE(read.size() == tiles);
    CHECK(read == stored);
    CHECK(sum(read) == *cs.estimatedFlops());
    if (std::count_if(read.begin(), read.end(), [](u64 f) { return f > 0; }) > 1) ++spread;
  }
  CHECK(spread > 0); // the matmuls and element-wise ops spread over tiles

  // An operation's FLOPs per tile add up to its FLOPs, each compute set once.
  u64 withFlops = 0;
  for (const pva::Operation& op : pva::OperationAnalysis(report).operations()) {
    INFO(op.name());
    const pva::OperationTileFigures t = pva::operationTileFigures(report, op);
    const pva::OperationFigures f = pva::operationFigures(op);
    REQUIRE(t.estimatedFlops.size() == tiles);
    CHECK(sum(t.estimatedFlops) == *f.estimatedFlops);
    if (*f.estimatedFlops > 0) ++withFlops;
  }
  CHECK(withFlops > 0);
}

TEST_CASE("A report before format 1.4 has no FLOPs per tile: empty, never zeros",
          "[pva][flops][operationTiles]") {
  test::ScratchDir dir;
  const auto profile = copyMlp(dir);
  test::execSql(profile, "ALTER TABLE compute_sets DROP COLUMN estimated_flops_by_tile;"
                         "UPDATE meta SET value = '1.3.0' WHERE key = 'format_version'");
  const pva::Report report = openWithDebug(profile);
  CHECK(report.hasFlopEstimates()); // per compute set, as 1.3 stored them
  CHECK_FALSE(report.hasFlopEstimatesByTile());
  for (const pva::ComputeSet& cs : report.compilation().computeSets()) {
    CHECK(cs.estimatedFlops());
    CHECK(cs.estimatedFlopsByTile().empty());
  }
  for (const pva::Operation& op : pva::OperationAnalysis(report).operations()) {
    const pva::OperationTileFigures t = pva::operationTileFigures(report, op);
    CHECK(t.estimatedFlops.empty());
    CHECK(t.codeBytes.size() ==
          report.compilation().target().tilesPerReplica()); // the rest as before
  }
}

TEST_CASE("A report written without FLOP estimates has none per tile either", "[pva][flops]") {
  test::ScratchDir dir;
  const auto profile = copyMlp(dir);
  test::execSql(
      profile,
      "UPDATE compute_sets SET estimated_flops = NULL, vertices_without_flop_estimate = NULL, "
      "estimated_flops_by_tile = NULL; UPDATE meta SET value = 'false' WHERE key = "
      "'flop_estimates'");
  const pva::Report report = openWithDebug(profile);
  CHECK_FALSE(report.hasFlopEstimatesByTile());
  for (const pva::ComputeSet& cs : report.compilation().computeSets())
    CHECK(cs.estimatedFlopsByTile().empty());
  const auto ops = pva::OperationAnalysis(report).operations();
  REQUIRE(!ops.empty());
  CHECK(pva::operationTileFigures(report, ops[0]).estimatedFlops.empty());
}

TEST_CASE("Damaged FLOPs per tile are a corrupted report, not figures", "[pva][flops][hostile]") {
  test::ScratchDir dir;
  const auto profile = copyMlp(dir);
  const long long id = spreadComputeSet(profile);
  REQUIRE(id >= 0);
  const std::string where = " WHERE id = " + std::to_string(id);
  const u64 flops =
      u64(test::Report(profile).integer("SELECT estimated_flops FROM compute_sets" + where));
  const std::size_t tiles =
      pva::openReport(profile.string()).compilation().target().tilesPerReplica();
  auto computeSet = [&](const pva::Report& r) {
    return r.compilation().computeSets().at(std::size_t(id));
  };

  SECTION("values that wrap round to the total: the sum saturates and disagrees") {
    // (2^64 - 1) + (flops + 1) is flops modulo 2^64: a plain sum would accept it.
    std::vector<u64> hostile(tiles, 0);
    hostile[0] = std::numeric_limits<u64>::max();
    hostile[1] = flops + 1;
    test::execSql(profile,
                  "UPDATE compute_sets SET estimated_flops_by_tile = " + hexBlob(hostile) + where);
    const pva::Report report = openWithDebug(profile);
    CHECK_THROWS_AS(computeSet(report).estimatedFlopsByTile(), pva::InvalidReportError);
    CHECK_THROWS_WITH(computeSet(report).estimatedFlopsByTile(),
                      Catch::Contains("profile.pop") &&
                          Catch::Contains("add up to 18446744073709551615"));
    // The operation running it says so too rather than charting the values.
    bool reached = false;
    for (const pva::Operation& op : pva::OperationAnalysis(report).operations())
      for (const pva::ProgramPtr& p : op.programs())
        if (p->type() == pva::Program::Type::OnTileExecute &&
            static_cast<const pva::OnTileExecuteProgram&>(*p).computeSet().id() == unsigned(id) &&
            !reached) {
          CHECK_THROWS_AS(pva::operationTileFigures(report, op), pva::InvalidReportError);
          reached = true;
        }
    CHECK(reached);
  }
  SECTION("a blob of the wrong tile count") {
    test::execSql(profile,
                  "UPDATE compute_sets SET estimated_flops_by_tile = " + hexBlob({flops}) + where);
    CHECK_THROWS_WITH(computeSet(openWithDebug(profile)).estimatedFlopsByTile(),
                      Catch::Contains("has 1 tiles"));
  }
  SECTION("NULL although the report has estimates") {
    test::execSql(profile, "UPDATE compute_sets SET estimated_flops_by_tile = NULL" + where);
    CHECK_THROWS_WITH(computeSet(openWithDebug(profile)).estimatedFlopsByTile(),
                      Catch::Contains("no FLOPs per tile"));
  }
  SECTION("bytes that are not a TileValues message") {
    test::execSql(profile, "UPDATE compute_sets SET estimated_flops_by_tile = X'FFFFFFFF'" + where);
    CHECK_THROWS_AS(computeSet(openWithDebug(profile)).estimatedFlopsByTile(),
                    pva::InvalidReportError);
  }
}
