// pva insights: the same figures as pva::insights, its options and its errors.
#include "CliTestUtil.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <pva/Insights.hpp>

TEST_CASE("pva insights --json gives pva::insights' figures", "[insights]") {
  const std::string dir = cli::reportDir("base").string();
  const cli::Result r = cli::pva({"insights", dir, "--json"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  const pva::Insights in = pva::insights(pva::openReport(dir + "/profile.pop"));
  CHECK(j["fit"]["fits"].get<bool>() == in.fits);
  CHECK(j["fit"]["headroomBytes"].get<std::uint64_t>() == in.headroomBytes);
  REQUIRE(j["worstTiles"].size() == in.worstTiles.size());
  for (std::size_t i = 0; i < in.worstTiles.size(); ++i) {
    CHECK(j["worstTiles"][i]["tile"].get<unsigned>() == in.worstTiles[i].tile);
    CHECK(j["worstTiles"][i]["atTilePeak"]["total"].get<std::uint64_t>() ==
          in.worstTiles[i].atTilePeak.total());
  }
  CHECK(j["model"]["total"].get<std::uint64_t>() == in.model.total());
  REQUIRE(j["usage"].size() == 11);
  CHECK(j["usage"][10]["toFraction"].is_null()); // "over 100%": JSON has no infinity
  REQUIRE(j["suggestions"].size() == in.suggestions.size());
  for (std::size_t i = 0; i < in.suggestions.size(); ++i)
    CHECK(j["suggestions"][i]["saving"].get<std::uint64_t>() == in.suggestions[i].savingBytes);
}

TEST_CASE("pva insights: --top sizes the lists; bad options and reports exit 2", "[insights]") {
  const std::string dir = cli::reportDir("base").string();
  const cli::Result two = cli::pva({"insights", dir, "--json", "--top", "2"});
  REQUIRE(two.status == 0);
  CHECK(nlohmann::json::parse(two.out)["worstTiles"].size() == 2);
  CHECK(cli::pva({"insights", dir, "--top", "0"}).status == 2);
  const cli::Result missing = cli::pva({"insights", "/nonexistent/report"});
  CHECK(missing.status == 2);
  CHECK(missing.err.find("/nonexistent/report") != std::string::npos);
  const cli::Result text = cli::pva({"insights", dir});
  REQUIRE(text.status == 0);
  CHECK(text.out.find("FITS") != std::string::npos);
  CHECK(text.out.find("Suggestions") != std::string::npos);
}
