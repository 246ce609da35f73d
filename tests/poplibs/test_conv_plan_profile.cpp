// The convolution twin of test_matmul_plan_profile: a convolution's plan, as reportPlanInfo
// prints it, is the plan the profile shows. When the plan splits the input channels, the
// partials are summed by the reduction stage matmul uses (poplin::ReduceAdd vertices in a
// "Reduce" compute set, PopLibs' estimator), and both stages' printed cycles equal the busiest
// tile's cycles of their compute sets in the profile, estimated and measured; results match a
// host convolution.
#include "ConvReference.hpp"
#include "PlanProfile.hpp"
#include "TestUtil.hpp"
#include "common/ScratchDir.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <poplin/ConvUtil.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/MatMul.hpp>
#include <pva/pva.hpp>
#include <regex>
#include <sstream>

using namespace poplar;

namespace {

bool isConvolve(const std::string& name) {
  return name.find("/Convolve[") != std::string::npos;
}

} // namespace

using namespace test::plan;

TEST_CASE("A convolution's reported plan is the profile's, its input-channel split summed by "
          "poplin::ReduceAdd",
          "[poplin][conv][plan]") {
  struct Case {
    std::size_t batch, inChans, outChans, side, kernel;
    Type type;
    const char* partials;
    bool weightUpdate;
  };
  const auto c = GENERATE(Case{2, 512, 8, 4, 1, FLOAT, "float", false}, // 1x1, split
                          Case{1, 256, 8, 6, 3, FLOAT, "float", false}, // 3x3, split
                          Case{2, 256, 16, 4, 1, HALF, "half", false},  // half partials
                          Case{2, 320, 8, 4, 1, HALF, "float", false},  // half in, float sums
                          Case{64, 4, 4, 6, 3, FLOAT, "float", true},   // weight update
                          Case{2, 8, 16, 8, 3, FLOAT, "float", false}); // no split
  CAPTURE(c.batch, c.inChans, c.outChans, c.side, c.kernel, c.type.toString(), c.partials,
          c.weightUpdate);
  test::ScratchDir dir;
  test::Harness h(16);
  poplin::ConvParams params(c.type, c.batch, {c.side, c.side}, {c.kernel, c.kernel}, c.inChans,
                            c.outChans, 1);
  const OptionFlags options{{"partialsType", c.partials}};
  std::ostringstream plan;
  if (c.weightUpdate)
    poplin::reportWeightUpdatePlanInfo(plan, h.graph(), params, options);
  else
    poplin::reportPlanInfo(plan, h.graph(), params, options);
  const std::string printed = plan.str();
  INFO(printed);
  const std::uint64_t convolve = number(printed, "Convolve ~(\\d+)");
  const std::uint64_t reduce = number(printed, "ReduceAdd ~(\\d+)");
  const bool split = number(printed, "inChanSplit (\\d+) ") > 1;
  REQUIRE(convolve > 0);
  // Every case but the last is chosen to split its input channels on 16 tiles.
  CHECK(split == (c.inChans != 8));
  CHECK((reduce > 0) == split);

  const test::HostConv host(params);
  const auto in = quarterValues(host.inSize(), 70);
  const Tensor tin = h.input("in", c.type, {c.batch, c.inChans, c.side, c.side}, in);
  std::vector<float> expected;
  if (c.weightUpdate) {
    const auto dOut = quarterValues(host.outSize(), 71);
    const Tensor z = h.input(
        "z", c.type, {c.batch, c.outChans, params.getOutputSize(0), params.getOutputSize(1)}, dOut);
    h.read("out",
           poplin::calculateWeightDeltas(h.graph(), z, tin, params, h.prog(), "wu", options));
    expected = host.weightGradient(dOut, in);
  } else {
    const auto w = quarterValues(host.wSize(), 72);
    const Tensor tw = h.input("w", c.type, {1, c.outChans, c.inChans, c.kernel, c.kernel}, w);
    h.read("out",
           poplin::convolution(h.graph(), tin, tw, params, false, h.prog(), "conv", options));
    expected = host.forward(in, w);
  }
  h.run({{"autoReport.outputExecutionProfile", "true"},
         {"autoReport.outputGraphProfile", "true"},
         {"autoReport.directory", dir.path().string()}});
  const float tol = c.type == HALF ? 2e-3f : 1e-5f;
  CHECK_THAT(h.result("out"), test::CloseTo(expected, tol, tol));

  const pva::Report report = pva::openReport((dir.path() / "profile.pop").string());
  bool sawConvolve = false, sawReduce = false;
  const auto compilation = report.compilation();
  const auto computeSets = compilation.computeSets();
  for (const auto& cs : computeSets) {
    INFO(cs.name());
    if (isConvolve(cs.name())) {
      sawConvolve = true;
      CHECK(busiest(cs.estimatedCyclesByTile()) == convolve);
    } else if (endsWith(cs.name(), "/Reduce")) {
      sawReduce = true;
      CHECK(busiest(cs.estimatedCyclesByTile()) == reduce);
      for (const auto& v : cs.vertices())
        CHECK(v.type().name().rfind("poplin::ReduceAdd<", 0) == 0);
    }
    // popops' reduction no longer sums a convolution's partials.
    CHECK(cs.name().find("ReduceInChanSplit") == std::string::npos);
  }
  CHECK(sawConvolve);
  CHECK(sawReduce == split);
  std::size_t measured = 0;
  const auto execution = report.execution();
  const auto steps = execution.steps();
  for (const auto& step : steps)
    for (const auto& cs : step.computeSets()) {
      if (isConvolve(cs.name())) {
        CHECK(busiest(cs.cyclesByTile()) == convolve);
        ++measured;
      } else if (split && endsWith(cs.name(), "/Reduce")) {
        CHECK(busiest(cs.cyclesByTile()) == reduce);
        ++measured;
      }
    }
  CHECK(measured == (split ? 2u : 1u));
}

namespace {

std::string matMulPlan(test::Harness& h, std::size_t m, std::size_t k, std::size_t n,
                       const OptionFlags& options) {
  std::ostringstream out;
  poplin::matMulReportPlan(out, h.graph(), FLOAT, FLOAT, {m, k}, {k, n}, options);
  return out.str();
}

std::string planLine(const std::string& printed) {
  std::smatch m;
  return std::regex_search(printed, m, std::regex("plan: ([^\\n]+)")) ? m[1].str() : "";
}

} // namespace

TEST_CASE("availableMemoryProportion bounds a plan's temporary memory, as PopLibs' planner does",
          "[poplin][matmul][plan]") {
  test::Harness h(16);
  const std::uint64_t tileBytes = h.graph().getTarget().getBytesPerTile();
  const std::size_t M = 256, K = 512, N = 256;
  const std::string fastest = matMulPlan(h, M, K, N, {});
  INFO(fastest);
  const std::uint64_t fastestBytes = number(fastest, "temporary memory: (\\d+) bytes");
  // The default proportion, 0.6, leaves the fastest plan its memory.
  CHECK(number(fastest, "within the bound of (\\d+)") == std::uint64_t(0.6 * double(tileBytes)));

  // A proportion just under what the fastest plan needs: another plan, within the bound.
  const double proportion = double(fastestBytes - 1) / double(tileBytes);
  const OptionFlags tight{{"availableMemoryProportion", std::to_string(proportion)}};
  const std::string bounded = matMulPlan(h, M, K, N, tight);
  INFO(bounded);
  const std::uint64_t bound = number(bounded, "within the bound of (\\d+)");
  REQUIRE(bound > 0);
  CHECK(bound < fastestBytes);
  CHECK(number(bounded, "temporary memory: (\\d+) bytes") <= bound);
  CHECK(planLine(bounded) != planLine(fastest));
  CHECK(number(bounded, "~(\\d+) in all") >= number(fastest, "~(\\d+) in all"));

  // The bounded plan computes the same product.
  const auto a = quarterValues(M * K, 80), b = quarterValues(K * N, 81);
  const Tensor A = h.input("A", FLOAT, {M, K}, a), B = h.input("B", FLOAT, {K, N}, b);
  h.read("C", poplin::matMul(h.graph(), A, B, h.prog(), FLOAT, "mm", tight));
  h.run();
  CHECK_THAT(h.result("C"), test::CloseTo(test::hostMatMul(a, b, 1, M, K, N), 1e-5f, 1e-5f));
}

TEST_CASE("No plan within availableMemoryProportion: a warning, and the bound relaxed as PopLibs "
          "does; 0 asks for the least memory",
          "[poplin][matmul][plan]") {
  test::ScratchDir dir;
  test::Harness h(16);
  const std::size_t M = 256, K = 512, N = 256;
  const std::string least = matMulPlan(h, M, K, N, {{"availableMemoryProportion", "0"}});
  INFO(least);
  const std::uint64_t leastBytes = number(least, "temporary memory: (\\d+) bytes");
  CHECK(least.find("availableMemoryProportion 0: the least") != std::string::npos);

  const std::string log = (dir.path() / "poplibs.log").string();
  setenv("POPLIBS_LOG_LEVEL", "WARN", 1);
  setenv("POPLIBS_LOG_DEST", log.c_str(), 1);
  const std::string starved = matMulPlan(h, M, K, N, {{"availableMemoryProportion", "0.0001"}});
  unsetenv("POPLIBS_LOG_LEVEL");
  unsetenv("POPLIBS_LOG_DEST");
  INFO(starved);
  // 63 bytes: no plan fits, so the planner relaxed the bound and says so.
  CHECK(number(starved, "over the bound of (\\d+)") == 63);
  CHECK(number(starved, "temporary memory: (\\d+) bytes") >= leastBytes);
  std::ifstream in(log);
  std::string line;
  REQUIRE(std::getline(in, line));
  CHECK(line.find("PL:POPLIN") == 0);
  CHECK(line.find("W: Warning: convolution planner unable to meet memory target") !=
        std::string::npos);

  // Without a log level, PopLibs' default, nothing is written.
  const std::string quiet = (dir.path() / "quiet.log").string();
  setenv("POPLIBS_LOG_DEST", quiet.c_str(), 1);
  matMulPlan(h, M, K, N, {{"availableMemoryProportion", "0.0002"}});
  unsetenv("POPLIBS_LOG_DEST");
  CHECK_FALSE(std::filesystem::exists(quiet));
}
