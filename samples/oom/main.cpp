// tessera-oom: a model too large for one IPU. Compilation fails with a clear out-of-memory error
// naming the worst tiles, and the memory report is still written, so the user can see where the
// memory went (as with Poplar's debug.allowOutOfMemory on the IPU Model).
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

using namespace poplar;

namespace {

struct Options {
  std::size_t inputs = 4096, outputs = 65536, batch = 16;
  std::string reportDir = "reports/oom";
};

const char* kUsage = R"(usage: tessera-oom [--outputs N] [--reports DIR]

Builds a wide classifier, a 4096 x N float weight matrix (default N = 65536: 1 GiB of weights)
on one simulated Mk2 IPU (897 MiB of tile memory), and tries to compile it. The compile fails
with an out-of-memory error naming the worst tiles; the memory report is written to DIR
(default ./reports/oom) all the same. Exit status: 0 if the model fits, 1 if it does not,
2 on bad options.
)";

Options parseOptions(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* next = i + 1 < argc ? argv[i + 1] : nullptr;
    if (a == "-h" || a == "--help") {
      std::cout << kUsage;
      std::exit(0);
    } else if (a == "--outputs" && next) {
      char* end = nullptr;
      const long v = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || v < 1 || v > (1L << 22)) {
        std::fprintf(stderr, "tessera-oom: --outputs needs a number from 1 to 4194304\n");
        std::exit(2);
      }
      o.outputs = std::size_t(v);
    } else if (a == "--reports" && next) {
      o.reportDir = argv[++i];
    } else {
      std::fprintf(stderr, "tessera-oom: unknown option or missing value '%s' (try --help)\n", a.c_str());
      std::exit(2);
    }
  }
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
  std::printf("Building a %zu x %zu classifier (%.2f GiB of float weights) for one simulated IPU...\n",
              opt.inputs, opt.outputs, double(opt.inputs * opt.outputs * 4) / (1u << 30));
  program::Sequence prog;
  const Tensor x = poplin::createMatMulInputLHS(graph, FLOAT, xShape, wShape, "x");
  const Tensor w = poplin::createMatMulInputRHS(graph, FLOAT, xShape, wShape, "weights");
  graph.createHostWrite("x", x);
  graph.createHostWrite("weights", w);
  const Tensor logits = poplin::matMul(graph, x, w, prog, "classifier");
  const Tensor probs = popnn::nonLinearity(graph, popnn::NonLinearityType::SOFTMAX_STABLE, logits, prog, "softmax");
  graph.createHostRead("probs", probs);

  const OptionFlags options{{"autoReport.all", "true"}, {"autoReport.directory", opt.reportDir}};
  try {
    Engine engine(graph, prog, options);
    std::printf("The model fits. Reports: %s\n", std::filesystem::absolute(opt.reportDir).c_str());
    return 0;
  } catch (const graph_memory_allocation_error& e) {
    std::fprintf(stderr, "tessera-oom: %s\n", e.what());
    std::printf("The memory report is in %s/profile.pop: see which tiles and categories overflowed.\n",
                std::filesystem::absolute(opt.reportDir).c_str());
    return 1;
  }
} catch (const std::exception& e) {
  std::fprintf(stderr, "tessera-oom: %s\n", e.what());
  return 2;
}
