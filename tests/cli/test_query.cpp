// pva query: each table in each format, checked against libpva.
#include "CliTestUtil.hpp"

#include <catch2/catch.hpp>
#include <pva/pva.hpp>

using cli::contains;

namespace {
nlohmann::json query(const std::vector<std::string>& args) {
  std::vector<std::string> all = {"query", cli::profile("base").string()};
  all.insert(all.end(), args.begin(), args.end());
  all.insert(all.end(), {"--format", "json"});
  const auto r = cli::pva(all);
  INFO(r.err);
  REQUIRE(r.status == 0);
  return r.json();
}
} // namespace

TEST_CASE("query tiles: largest first, in every format") {
  const auto j = query({"tiles", "--top", "3"});
  REQUIRE(j["rows"].size() == 3);
  CHECK(j["tiles"] == 1472);
  CHECK(j["rows"][0]["includingGaps"] >= j["rows"][1]["includingGaps"]);
  CHECK(j["rows"][1]["includingGaps"] >= j["rows"][2]["includingGaps"]);
  const auto summary = cli::pva({"summary", cli::profile("base").string(), "--json"}).json();
  CHECK(j["rows"][0]["includingGaps"] == summary["memory"]["maxTile"]["includingGaps"]);
  CHECK(j["rows"][0]["tile"] == summary["memory"]["maxTile"]["tile"]);

  const auto csv =
      cli::pva({"query", cli::profile("base").string(), "tiles", "--top", "3", "--format", "csv"});
  REQUIRE(csv.status == 0);
  const auto lines = cli::lines(csv.out);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0] == "tile,ipu,includingGaps,excludingGaps,alwaysLive,notAlwaysLivePeak,ofTile");
  CHECK(lines[1].rfind(std::to_string(j["rows"][0]["tile"].get<unsigned>()) + ",0," +
                           std::to_string(j["rows"][0]["includingGaps"].get<std::uint64_t>()) + ",",
                       0) == 0);

  const auto table = cli::pva({"query", cli::profile("base").string(), "tiles"});
  REQUIRE(table.status == 0);
  CHECK(contains(table.out, "includingGaps"));
  CHECK(cli::lines(table.out).size() ==
        4 + 10); // title, 2 caption lines, header, 10 rows (default top)

  CHECK(query({"tiles", "--top", "0"})["rows"].size() == 1472);
}

TEST_CASE("query compute-sets: cycles of executed steps add up to the total") {
  const auto j = query({"compute-sets", "--top", "0"});
  const pva::Report report = pva::openReport(cli::profile("base").string());
  CHECK(j["computeSets"] == report.compilation().computeSets().size());
  // One IPU: the steps' cycles on it add up to the runs' cycles exactly.
  CHECK(j["totalStepCycles"] == report.execution().totalCycles().total());
  std::uint64_t sum = 0, previous = UINT64_MAX;
  for (const auto& row : j["rows"]) {
    const auto cycles = row["cycles"].get<std::uint64_t>();
    CHECK(cycles <= previous);
    previous = cycles;
    sum += cycles;
    CHECK(row["executions"] == 32); // every compute set runs once per training step
    CHECK(row["estimatedCycles"].get<std::uint64_t>() > 0);
  }
  CHECK(sum > 0);
  CHECK(sum < j["totalStepCycles"].get<std::uint64_t>()); // exchanges and syncs take the rest
  CHECK(query({"compute-sets"})["rows"].size() == 10);
}

TEST_CASE("query live-at-peak: the variables of the peak step") {
  const auto j = query({"live-at-peak", "--top", "0"});
  const auto summary = cli::pva({"summary", cli::profile("base").string(), "--json"}).json();
  CHECK(j["step"] == summary["memory"]["peakLiveness"]["step"]);
  CHECK(j["program"] == summary["memory"]["peakLiveness"]["program"]);
  CHECK(j["notAlwaysLiveBytes"] == summary["memory"]["peakLiveness"]["notAlwaysLive"]);
  REQUIRE(j["rows"].size() == j["variables"]);
  REQUIRE_FALSE(j["rows"].empty());
  std::uint64_t sum = 0;
  for (const auto& row : j["rows"]) {
    CHECK(row["liveFrom"].get<std::uint64_t>() <= j["step"].get<std::uint64_t>());
    CHECK(row["liveTo"].get<std::uint64_t>() > j["step"].get<std::uint64_t>());
    sum += row["bytes"].get<std::uint64_t>();
  }
  CHECK(sum == j["notAlwaysLiveBytes"]);
}

TEST_CASE("query programs: counts by type, and one type listed") {
  const auto j = query({"programs"});
  const pva::Report report = pva::openReport(cli::profile("base").string());
  const auto programs = report.compilation().programs();
  std::uint64_t total = 0, onTile = 0, exchanges = 0;
  for (const auto& row : j["rows"]) {
    total += row["count"].get<std::uint64_t>();
    if (row["type"] == "OnTileExecute") onTile = row["count"];
    if (row["type"] == "DoExchange") exchanges = row["count"];
  }
  CHECK(total == programs.size());
  CHECK(onTile == report.compilation().computeSets().size());
  const auto listed = query({"programs", "--type", "DoExchange"});
  CHECK(listed["rows"].size() == exchanges);
  for (const auto& row : listed["rows"])
    CHECK(programs.at(row["id"].get<std::size_t>())->type() == pva::Program::Type::DoExchange);

  const auto bad =
      cli::pva({"query", cli::profile("base").string(), "programs", "--type", "Teleport"});
  CHECK(bad.status == 2);
  CHECK(contains(bad.err, "Teleport"));
  CHECK(contains(bad.err, "OnTileExecute")); // lists the types it knows
}

TEST_CASE("query runs and categories") {
  const pva::Report report = pva::openReport(cli::profile("base").string());
  const auto runs = query({"runs"});
  REQUIRE(runs["rows"].size() == 2);
  std::uint64_t cycles = 0;
  for (const auto& row : runs["rows"])
    cycles += row["cycles"].get<std::uint64_t>();
  CHECK(cycles == report.execution().totalCycles().total());
  CHECK(runs["rows"][0]["name"] == "train0");
  CHECK(runs["rows"][0]["compute"] ==
        report.execution().runs()[0].tileCycleTotals().total(pva::TileCycleTotals::Kind::Compute));
  // Stream-copy cycles by destination, run by run: libpva's per-run figures, adding up to the
  // Summary's all-runs split.
  const pva::ExecutionAnalysis analysis = pva::analyseExecution(report);
  pva::StreamCopyCycles summed;
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& row = runs["rows"][i];
    const pva::StreamCopyCycles& sc = analysis.runs[i].streamCopyCycles;
    CHECK(row["streamCopyHost"] == sc.host);
    CHECK(row["streamCopyRemoteBuffer"] == sc.remoteBuffer);
    CHECK(row["streamCopyMixed"] == sc.mixed);
    CHECK(row["streamCopyUnknown"] == sc.unknown);
    summed.host += row["streamCopyHost"].get<std::uint64_t>();
    summed.remoteBuffer += row["streamCopyRemoteBuffer"].get<std::uint64_t>();
  }
  CHECK(analysis.runs[0].streamCopyCycles.host >
        0); // the MLP sample copies its batches from the host
  CHECK(summed.host == analysis.allRuns.streamCopyCycles.host);
  CHECK(summed.remoteBuffer == analysis.allRuns.streamCopyCycles.remoteBuffer);

  const auto categories = query({"categories"});
  CHECK(categories["rows"].size() == pva::MemoryCategories::size());
  std::uint64_t bytes = 0, variable = 0;
  for (const auto& row : categories["rows"]) {
    bytes += row["bytes"].get<std::uint64_t>();
    if (row["category"] == "variable") variable = row["bytes"];
  }
  CHECK(bytes == categories["totalBytes"]);
  std::uint64_t expected = 0;
  for (const auto& t : report.compilation().tiles())
    expected += t.memory().category().variable().total();
  CHECK(variable == expected);

  const auto csv = cli::pva({"query", cli::profile("base").string(), "runs", "--format", "csv"});
  REQUIRE(csv.status == 0);
  CHECK(cli::lines(csv.out).size() == 3);
  CHECK(contains(cli::lines(csv.out)[0], "name,steps,cycles"));
  CHECK(contains(cli::lines(csv.out)[0],
                 "streamCopyHost,streamCopyRemoteBuffer,streamCopyMixed,streamCopyUnknown"));

  // The table shows values, not changes: no "+" in front of positive numbers (host time included).
  const auto table = cli::pva({"query", cli::profile("base").string(), "runs"});
  REQUIRE(table.status == 0);
  CHECK(contains(table.out, "train0"));
  CHECK(table.out.find('+') == std::string::npos);
}
