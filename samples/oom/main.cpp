// tessera-oom: a model too large for one IPU. Compilation fails with a clear out-of-memory error
// naming the worst tiles, and the memory report is still written, so the user can see where the
// memory went (as with Poplar's debug.allowOutOfMemory on the IPU Model).
#include "common/CommandLine.hpp"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>
#include <string>

using namespace poplar;

namespace {

struct Options {
  std::size_t inputs = 4096, outputs = 65536, batch = 16;
  std::string reportDir = "reports/oom";
};

Options parseOptions(int argc, char** argv) {
  Options o;
  tessera::cli::CommandLine cli(
      "tessera-oom",
      "tessera-oom: builds a model too large for one IPU and shows where the memory went.\n\n"
      "A wide classifier, a 4096 x N float weight matrix (default N = 65536: 1 GiB of weights),\n"
      "on one simulated Mk2 IPU (897 MiB of tile memory). The compile fails with an out-of-memory\n"
      "error naming the worst tiles; the memory report is written all the same.\n"
      "Exit status: 0 if the model fits, 1 if it does not, 2 on bad options.",
      "tessera-oom --outputs 32768 --reports /tmp/oom");
  cli.add_option("--outputs", o.outputs,
                 "Outputs N of the classifier: its weights are 4096 x N floats")
      ->check(CLI::Range(std::size_t(1), std::size_t(1) << 22));
  cli.addReportOptions(o.reportDir, false);
  cli.parseOrExit(argc, argv);
  return o;
}

} // namespace

int main(int argc, char** argv) try {
  const Options opt = parseOptions(argc, argv);
  IPUModel model("ipu2");
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);

  const std::vector<std::size_t> xShape{opt.batch, opt.inputs}, wShape{opt.inputs, opt.outputs};
  std::printf(
      "Building a %zu x %zu classifier (%.2f GiB of float weights) for one simulated IPU...\n",
      opt.inputs, opt.outputs, double(opt.inputs * opt.outputs * 4) / (1u << 30));
  program::Sequence prog;
  const Tensor x = poplin::createMatMulInputLHS(graph, FLOAT, xShape, wShape, "x");
  const Tensor w = poplin::createMatMulInputRHS(graph, FLOAT, xShape, wShape, "weights");
  graph.createHostWrite("x", x);
  graph.createHostWrite("weights", w);
  const Tensor logits = poplin::matMul(graph, x, w, prog, "classifier");
  const Tensor probs =
      popnn::nonLinearity(graph, popnn::NonLinearityType::SOFTMAX_STABLE, logits, prog, "softmax");
  graph.createHostRead("probs", probs);

  const OptionFlags options{
      {"autoReport.all", "true"},
      {"autoReport.outputSerializedGraph", "true"}, // not part of "all" (as in Poplar)
      {"profiler.includeFlopEstimates", "true"},    // off by default (as in Poplar)
      {"autoReport.directory", opt.reportDir}};
  try {
    Engine engine(graph, prog, options);
    std::printf("The model fits. Reports: %s\n", std::filesystem::absolute(opt.reportDir).c_str());
    return 0;
  } catch (const graph_memory_allocation_error& e) {
    std::fprintf(stderr, "tessera-oom: %s\n", e.what());
    std::printf(
        "The memory report is in %s/profile.pop: see which tiles and categories overflowed.\n",
        std::filesystem::absolute(opt.reportDir).c_str());
    return 1;
  }
} catch (const std::exception& e) {
  std::fprintf(stderr, "tessera-oom: %s\n", e.what());
  return 2;
}
