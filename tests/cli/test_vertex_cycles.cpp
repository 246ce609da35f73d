// Which rule costed the vertices, shown by `pva summary` (text and JSON) and by
// Engine::printProfileSummary, all from pva::summarize's VertexCycleSummary: on an IPU Model one
// vertex keeps its declared estimate (setPerfEstimate, 50 cycles) and its twin is measured by
// execution; simulated hardware measures both (tests/common/cycle_rules_report.cpp).
#include "CliTestUtil.hpp"

#include <catch2/catch.hpp>
#include <cstdio>
#include <pva/pva.hpp>

using cli::contains;

namespace {

/// The line of `text` that holds `needle` ("" when none).
std::string lineWith(const std::string& text, const std::string& needle) {
  for (const std::string& line : cli::lines(text))
    if (contains(line, needle)) return line;
  return "";
}

std::string withCommas(std::uint64_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3)
    s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

} // namespace

TEST_CASE("summary shows each cycle rule's vertices and share of the vertex cycles") {
  const pva::Report model = pva::openReport(cli::profile("rules-model").string());
  const pva::VertexCycleSummary v = pva::summarize(model).vertexCycles;
  REQUIRE(v.hasRules);
  REQUIRE(v.hasCycles);
  REQUIRE(v.rules.size() == 2);
  CHECK(v.rules[0].rule == "executed");
  CHECK(v.rules[1].rule == "setPerfEstimate");
  CHECK(v.rules[0].vertices == 1);
  CHECK(v.rules[1].vertices == 1);
  CHECK(v.rules[1].cycles == 50); // the declared estimate of one worker, one execution
  // The measured twin runs 100 turns of a loop, one counted instruction a turn at least: far
  // more than the estimate promised (thread cycles, as the estimate).
  CHECK(v.rules[0].cycles > 100);
  CHECK(v.cycles == v.rules[0].cycles + v.rules[1].cycles);
  CHECK(v.rules[0].shareOfVertexCycles + v.rules[1].shareOfVertexCycles == Approx(1.0));
  CHECK(v.rules[1].shareOfVertexCycles == Approx(50.0 / double(v.cycles)));

  const auto text = cli::pva({"summary", cli::reportDir("rules-model").string()});
  REQUIRE(text.status == 0);
  CHECK(contains(text.out, "\nVertex cycles by rule (all runs, one replica)\n  IPU Model: "));
  char share[32];
  std::snprintf(share, sizeof share, "%.1f%%", 100.0 * v.rules[0].shareOfVertexCycles);
  const std::string executed = lineWith(text.out, "measured by execution (executed)");
  CHECK(contains(executed, " 1 vertex (50.0%), " + withCommas(v.rules[0].cycles) + " cycles (" +
                               share + " of vertex cycles)"));
  std::snprintf(share, sizeof share, "%.1f%%", 100.0 * v.rules[1].shareOfVertexCycles);
  const std::string declared = lineWith(text.out, "declared estimate (setPerfEstimate)");
  CHECK(contains(declared,
                 " 1 vertex (50.0%), 50 cycles (" + std::string(share) + " of vertex cycles)"));

  const auto json = cli::pva({"summary", cli::reportDir("rules-model").string(), "--json"});
  REQUIRE(json.status == 0);
  const auto j = json.json()["vertexCycles"];
  CHECK(j["scope"] == "all runs, one replica");
  CHECK(j["policy"] == pva::vertexCyclePolicy(model.compilation().target()));
  CHECK(j["hasCycles"] == true);
  CHECK(j["cycles"] == v.cycles);
  REQUIRE(j["rules"].size() == 2);
  CHECK(j["rules"][1]["rule"] == "setPerfEstimate");
  CHECK(j["rules"][1]["cycles"] == 50);
  CHECK(j["rules"][1]["shareOfVertexCycles"].get<double>() ==
        Approx(v.rules[1].shareOfVertexCycles));
  CHECK(j["rules"][0]["shareOfVertices"].get<double>() == Approx(0.5));
}

TEST_CASE("on simulated hardware every vertex is measured: one rule, all the vertex cycles") {
  const pva::VertexCycleSummary model =
      pva::summarize(pva::openReport(cli::profile("rules-model").string())).vertexCycles;
  const pva::VertexCycleSummary ipu =
      pva::summarize(pva::openReport(cli::profile("rules-ipu").string())).vertexCycles;
  REQUIRE(ipu.rules.size() == 1);
  CHECK(ipu.rules[0].rule == "executed");
  CHECK(ipu.rules[0].vertices == 2);
  CHECK(ipu.rules[0].shareOfVertexCycles == 1.0);
  // The declared estimate is ignored: both twins cost what the IPU Model measured for one.
  REQUIRE(model.rules.size() == 2);
  CHECK(ipu.cycles == 2 * model.rules[0].cycles);

  const auto text = cli::pva({"summary", cli::reportDir("rules-ipu").string()});
  REQUIRE(text.status == 0);
  CHECK(contains(text.out, "\n  IPU hardware: every vertex of a counted codelet file is measured "
                           "by execution, declared estimates ignored\n"));
  CHECK(contains(lineWith(text.out, "measured by execution (executed)"),
                 " 2 vertices (100.0%), " + withCommas(ipu.cycles) +
                     " cycles (100.0% of vertex cycles)"));
  CHECK(lineWith(text.out, "setPerfEstimate").empty());
}

TEST_CASE("printProfileSummary shows the same rules and shares") {
  const pva::VertexCycleSummary v =
      pva::summarize(pva::openReport(cli::profile("rules-model").string())).vertexCycles;
  const std::string printed =
      cli::readFile(cli::reportDir("rules-model").parent_path() / "rules-model.txt");
  CHECK(contains(printed, "Vertex cycles (" + v.policy + "; all runs, one replica):\n"));
  char share[32];
  std::snprintf(share, sizeof share, "%.1f%%", 100.0 * v.rules[1].shareOfVertexCycles);
  CHECK(contains(lineWith(printed, "  declared estimate (setPerfEstimate):"),
                 " 1 vertex (50.0%), 50 cycles (" + std::string(share) + " of vertex cycles)"));
  CHECK(contains(lineWith(printed, "  measured by execution (executed):"),
                 " 1 vertex (50.0%), " + withCommas(v.rules[0].cycles) + " cycles"));
}
