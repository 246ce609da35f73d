// One planner for matmul and convolution: a product's plan, as matMulReportPlan prints it, is
// the plan the profile shows. For several shapes and types the printed compute-set cycles of
// each stage (the partials' Convolve and, when K is split, ReduceAdd) equal the busiest tile's
// cycles of that compute set in the profile, measured and estimated, the profile's vertices
// are the plan's PopLibs vertex, and the results match the host.
#include "PlanProfile.hpp"
#include "TestUtil.hpp"
#include "common/ScratchDir.hpp"

#include <algorithm>
#include <poplin/MatMul.hpp>
#include <pva/pva.hpp>
#include <regex>
#include <sstream>

using namespace poplar;

using namespace test::plan;

TEST_CASE("matMul's reported plan is the profile's, stage by stage", "[poplin][matmul][plan]") {
  struct Case {
    std::size_t G, M, K, N;
    Type in, out;
    const char* partials;
  };
  const auto c = GENERATE(Case{1, 24, 40, 16, FLOAT, FLOAT, "float"}, // AMP, K not split
                          Case{1, 4, 2048, 8, FLOAT, FLOAT, "float"}, // K split: ReduceAdd
                          Case{1, 6, 512, 10, HALF, HALF, "half"},    // half partials
                          Case{1, 8, 700, 6, HALF, FLOAT, "float"},   // half in, float out
                          Case{1, 5, 7, 9, FLOAT, HALF, "float"},     // HorizontalMac
                          Case{3, 4, 256, 8, FLOAT, FLOAT, "float"},  // grouped
                          Case{2, 16, 24, 32, HALF, HALF, "float"});  // grouped half
  CAPTURE(c.G, c.M, c.K, c.N, c.in.toString(), c.out.toString(), c.partials);
  test::ScratchDir dir;
  test::Harness h(16);
  const bool grouped = c.G > 1;
  const OptionFlags options{{"partialsType", c.partials}};
  std::vector<std::size_t> aShape{c.M, c.K}, bShape{c.K, c.N};
  if (grouped) {
    aShape.insert(aShape.begin(), c.G);
    bShape.insert(bShape.begin(), c.G);
  }
  std::ostringstream plan;
  if (grouped)
    poplin::matMulGroupedReportPlan(plan, h.graph(), c.in, c.out, aShape, bShape, options);
  else
    poplin::matMulReportPlan(plan, h.graph(), c.in, c.out, aShape, bShape, options);
  const std::string printed = plan.str();
  INFO(printed);
  const std::uint64_t convolve = number(printed, "Convolve ~(\\d+)");
  const std::uint64_t reduce = number(printed, "ReduceAdd ~(\\d+)");
  const bool split = number(printed, "inChanSplit (\\d+) ") > 1;
  REQUIRE(convolve > 0);
  CHECK((reduce > 0) == split);
  std::smatch vertex;
  REQUIRE(std::regex_search(printed, vertex, std::regex("vertex: (poplin::[^ ]+>),")));

  const auto a = quarterValues(c.G * c.M * c.K, 60), b = quarterValues(c.G * c.K * c.N, 61);
  const Tensor A = h.input("A", c.in, aShape, a), B = h.input("B", c.in, bShape, b);
  const Tensor C = grouped ? poplin::matMulGrouped(h.graph(), A, B, h.prog(), c.out, "mm", options)
                           : poplin::matMul(h.graph(), A, B, h.prog(), c.out, "mm", options);
  h.read("C", C);
  h.run({{"autoReport.outputExecutionProfile", "true"},
         {"autoReport.outputGraphProfile", "true"},
         {"autoReport.directory", dir.path().string()}});
  const float tol = c.out == HALF || std::string(c.partials) == "half" ? 2e-3f : 1e-5f;
  CHECK_THAT(h.result("C"), test::CloseTo(test::hostMatMul(a, b, c.G, c.M, c.K, c.N), tol, tol));

  const pva::Report report = pva::openReport((dir.path() / "profile.pop").string());
  bool sawConvolve = false, sawReduce = false;
  // Hold the compilation and the execution: their lists live as long as they do.
  const auto compilation = report.compilation();
  const auto computeSets = compilation.computeSets();
  for (const auto& cs : computeSets) {
    const bool isConvolve = endsWith(cs.name(), "/Convolve");
    const bool isReduce = endsWith(cs.name(), "/Reduce");
    if (!isConvolve && !isReduce) continue;
    INFO(cs.name());
    if (isConvolve) {
      sawConvolve = true;
      CHECK(busiest(cs.estimatedCyclesByTile()) == convolve);
      for (const auto& v : cs.vertices())
        CHECK(v.type().name() == vertex[1].str());
    } else {
      sawReduce = true;
      CHECK(busiest(cs.estimatedCyclesByTile()) == reduce);
      for (const auto& v : cs.vertices())
        CHECK(v.type().name().rfind("poplin::ReduceAdd<", 0) == 0);
    }
  }
  CHECK(sawConvolve);
  CHECK(sawReduce == split);
  // The run measured what the planner estimated, compute set by compute set.
  std::size_t measured = 0;
  const auto execution = report.execution();
  const auto steps = execution.steps();
  for (const auto& step : steps)
    for (const auto& cs : step.computeSets()) {
      if (endsWith(cs.name(), "/Convolve")) {
        CHECK(busiest(cs.cyclesByTile()) == convolve);
        ++measured;
      } else if (split && endsWith(cs.name(), "/Reduce")) {
        CHECK(busiest(cs.cyclesByTile()) == reduce);
        ++measured;
      }
    }
  CHECK(measured == (split ? 2u : 1u));
}
