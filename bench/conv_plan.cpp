// bench_conv_plan: how long the convolution planner (poplin's, which plans matmuls too) takes
// for the shapes the MLP and CNN samples plan (and bench_matmul's 512^3 product), against building
// the same operations' graphs with their plans already cached, timed in one run.
//
//   bench_conv_plan [--reps R] [--tiles T]     (default R = 5, T = 1472: a Mk2 IPU)
//
// Planning is timed through the public reporting calls (matMulReportPlan, reportPlanInfo,
// reportWeightUpdatePlanInfo) with no cache, so every call plans afresh; the baseline builds
// each operation (vertices, edges, mappings) into a graph through a PlanningCache that holds
// its plan, so it does everything but plan. The ratio says what share of an operation's graph
// construction the planner adds.
#include "common/CommandLine.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/ConvUtil.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>
#include <sstream>
#include <string>
#include <vector>

using namespace poplar;
using Clock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double secondsOf(const std::function<void()>& f) {
  const auto t0 = Clock::now();
  f();
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

struct Shape {
  std::string name;
  std::function<void(Graph&)> plan;  ///< plans afresh (no cache)
  std::function<void(Graph&)> build; ///< builds the operation through a warm cache
};

poplin::ConvParams cnnConv(std::size_t batch, std::size_t side, std::size_t in, std::size_t out) {
  poplin::ConvParams p(FLOAT, batch, {side, side}, {3, 3}, in, out, 1);
  p.inputTransform.paddingLower = {1, 1};
  p.inputTransform.paddingUpper = {1, 1};
  return p;
}

Shape product(const std::string& name, std::size_t m, std::size_t k, std::size_t n,
              poplin::PlanningCache& cache) {
  Shape s;
  s.name = name + " [" + std::to_string(m) + "," + std::to_string(k) + "]x[" + std::to_string(k) +
           "," + std::to_string(n) + "]";
  s.plan = [=](Graph& g) {
    std::ostringstream out;
    poplin::matMulReportPlan(out, g, FLOAT, FLOAT, {m, k}, {k, n});
  };
  s.build = [=, &cache](Graph& g) {
    program::Sequence prog;
    const Tensor a = poplin::createMatMulInputLHS(g, FLOAT, {m, k}, {k, n}, "A", {}, &cache);
    const Tensor b = poplin::createMatMulInputRHS(g, FLOAT, {m, k}, {k, n}, "B", {}, &cache);
    poplin::matMul(g, a, b, prog, "C", {}, &cache);
  };
  return s;
}

Shape conv(const std::string& name, const poplin::ConvParams& p, bool weightUpdate,
           poplin::PlanningCache& cache) {
  Shape s;
  std::ostringstream desc;
  desc << name << " " << p.batchSize << "x" << p.inputChannelsPerConvGroup << "x"
       << p.inputFieldShape[0] << "x" << p.inputFieldShape[1] << " -> "
       << p.outputChannelsPerConvGroup;
  s.name = desc.str();
  s.plan = [=](Graph& g) {
    std::ostringstream out;
    if (weightUpdate)
      poplin::reportWeightUpdatePlanInfo(out, g, p);
    else
      poplin::reportPlanInfo(out, g, p);
  };
  s.build = [=, &cache](Graph& g) {
    program::Sequence prog;
    const Tensor in = poplin::createInput(g, p, "in", {}, &cache);
    if (weightUpdate) {
      const Tensor z = poplin::createConvOutput(g, p, "z", {}, &cache);
      poplin::calculateWeightDeltas(g, z, in, p, prog, "wu", {}, &cache);
    } else {
      const Tensor w = poplin::createWeights(g, p, "w", {}, &cache);
      poplin::convolution(g, in, w, p, false, prog, "conv", {}, &cache);
    }
  };
  return s;
}

} // namespace

int main(int argc, char** argv) {
  std::size_t reps = 5;
  unsigned tiles = 1472;
  tessera::cli::CommandLine cli(
      "bench_conv_plan",
      "bench_conv_plan: the convolution planner's time for the MLP's and CNN's shapes, against "
      "building the same operations with their plans cached.",
      "bench_conv_plan --reps 1 --tiles 64");
  const CLI::Validator& positive = tessera::cli::PositiveNumber;
  cli.add_option("--reps", reps, "Runs of each (medians are reported)")->check(positive);
  cli.add_option("--tiles", tiles, "Tiles of the simulated IPU")->check(positive);
  cli.parseOrExit(argc, argv);

  IPUModel model;
  model.tilesPerIPU = tiles;
  Device device = model.createDevice();
  poplin::PlanningCache cache;
  std::vector<Shape> shapes;
  // tessera-mlp (batch 32, 784 pixels, 128 hidden, 10 classes): forward, input gradient and
  // weight gradients.
  shapes.push_back(product("mlp layer1", 32, 784, 128, cache));
  shapes.push_back(product("mlp layer2", 32, 128, 10, cache));
  shapes.push_back(product("mlp layer2 dInput", 32, 10, 128, cache));
  shapes.push_back(product("mlp dW1", 784, 32, 128, cache));
  shapes.push_back(product("mlp dW2", 128, 32, 10, cache));
  // tessera-cnn (batch 16, two 3x3 convolutions of 8 and 16 channels, a dense layer).
  const auto c1 = cnnConv(16, 28, 1, 8), c2 = cnnConv(16, 14, 8, 16);
  shapes.push_back(conv("cnn conv1", c1, false, cache));
  shapes.push_back(conv("cnn conv2", c2, false, cache));
  shapes.push_back(conv("cnn conv2 dInput", poplin::getGradientParams(c2), false, cache));
  shapes.push_back(conv("cnn conv1 wu", c1, true, cache));
  shapes.push_back(conv("cnn conv2 wu", c2, true, cache));
  shapes.push_back(product("cnn dense", 16, 784, 10, cache));
  shapes.push_back(product("cnn dense dInput", 16, 10, 784, cache));
  shapes.push_back(product("cnn dense dW", 784, 16, 10, cache));
  // bench_matmul's product.
  shapes.push_back(product("bench_matmul", 512, 512, 512, cache));

  std::printf("planning on %u tiles, median of %zu runs\n", tiles, reps);
  std::printf("%-44s %12s %12s %8s\n", "shape", "plan (ms)", "build (ms)", "ratio");
  double planTotal = 0, buildTotal = 0;
  for (const auto& s : shapes) {
    std::vector<double> plan, build;
    {
      // Warm the cache, so the timed builds never plan.
      Graph g(device.getTarget());
      popops::addCodelets(g);
      poplin::addCodelets(g);
      s.build(g);
    }
    for (std::size_t r = 0; r < reps; ++r) {
      Graph g(device.getTarget());
      popops::addCodelets(g);
      poplin::addCodelets(g);
      plan.push_back(secondsOf([&] { s.plan(g); }));
      build.push_back(secondsOf([&] { s.build(g); }));
    }
    const double p = median(plan), b = median(build);
    planTotal += p, buildTotal += b;
    std::printf("%-44s %12.3f %12.3f %8.2f\n", s.name.c_str(), p * 1e3, b * 1e3, p / b);
  }
  std::printf("%-44s %12.3f %12.3f %8.2f\n", "all", planTotal * 1e3, buildTotal * 1e3,
              planTotal / buildTotal);
  return 0;
}
