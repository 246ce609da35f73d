// tessera-mlp: trains a 784-128-10 MLP on synthetic MNIST-shaped data on a simulated IPU.
#include "Dataset.hpp"
#include "Mlp.hpp"

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>
#include <poplin/codelets.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <numeric>
#include <string>

using namespace poplar;

namespace {

struct Options {
  unsigned steps = 320;
  unsigned stepsPerRun = 32;
  MlpConfig mlp;
  std::string outDir = "mlp-out";
  std::string reportDir = "reports/mlp";
  bool check = false;
};

const char* kUsage = R"(usage: tessera-mlp [options]

Trains a 784-128-10 multi-layer perceptron with SGD on synthetic MNIST-shaped data, on a
simulated Mk2 IPU (1472 tiles). Batches arrive through host streams; each engine run executes
--steps-per-run training steps on the device and reports the mean loss and accuracy.

options:
  --steps N            training steps in total (default 320)
  --steps-per-run N    steps per Engine::run (default 32)
  --batch N            batch size (default 32)
  --lr X               learning rate (default 0.05)
  --out DIR            output directory (default ./mlp-out)
  --reports DIR        profile report directory (default ./reports/mlp): profile.pop and
                       debug.cbor, as with POPLAR_ENGINE_OPTIONS autoReport.all
  --no-reports         do not profile
  --check              exit with status 1 unless the loss at least halves
  -h, --help           show this help

example:
  tessera-mlp --steps 640 --out /tmp/mlp
)";

unsigned parseCount(const char* flag, const char* value) {
  char* end = nullptr;
  const long v = value ? std::strtol(value, &end, 10) : 0;
  if (!value || *end != '\0' || v <= 0 || v > 1000000) {
    std::fprintf(stderr, "tessera-mlp: %s needs a positive whole number, got '%s'\n", flag,
                 value ? value : "");
    std::exit(2);
  }
  return unsigned(v);
}

Options parseOptions(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* next = i + 1 < argc ? argv[i + 1] : nullptr;
    if (a == "-h" || a == "--help") {
      std::cout << kUsage;
      std::exit(0);
    } else if (a == "--steps") {
      o.steps = parseCount("--steps", next), ++i;
    } else if (a == "--steps-per-run") {
      o.stepsPerRun = parseCount("--steps-per-run", next), ++i;
    } else if (a == "--batch") {
      o.mlp.batchSize = parseCount("--batch", next), ++i;
    } else if (a == "--lr") {
      char* end = nullptr;
      o.mlp.learningRate = next ? std::strtof(next, &end) : 0;
      if (!next || *end != '\0' || !(o.mlp.learningRate > 0)) {
        std::fprintf(stderr, "tessera-mlp: --lr needs a positive number\n");
        std::exit(2);
      }
      ++i;
    } else if (a == "--out") {
      if (!next) {
        std::fprintf(stderr, "tessera-mlp: --out needs a directory\n");
        std::exit(2);
      }
      o.outDir = next, ++i;
    } else if (a == "--reports") {
      if (!next) {
        std::fprintf(stderr, "tessera-mlp: --reports needs a directory\n");
        std::exit(2);
      }
      o.reportDir = next, ++i;
    } else if (a == "--no-reports") {
      o.reportDir.clear();
    } else if (a == "--check") {
      o.check = true;
    } else {
      std::fprintf(stderr, "tessera-mlp: unknown option '%s' (try --help)\n", a.c_str());
      std::exit(2);
    }
  }
  o.stepsPerRun = std::min(o.stepsPerRun, o.steps);
  return o;
}

} // namespace

int main(int argc, char** argv) try {
  const Options opt = parseOptions(argc, argv);
  const unsigned B = opt.mlp.batchSize;
  const unsigned runs = (opt.steps + opt.stepsPerRun - 1) / opt.stepsPerRun;
  std::filesystem::create_directories(opt.outDir);

  IPUModel model("ipu2");
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);

  std::cout << "Building the MLP graph for a simulated " << device.getTarget().getNumTiles()
            << "-tile IPU..." << std::endl;
  const auto t0 = std::chrono::steady_clock::now();
  const auto step = buildTrainingStep(graph, opt.mlp);
  OptionFlags engineOptions;
  if (!opt.reportDir.empty())
    engineOptions = {{"autoReport.all", "true"}, {"autoReport.directory", opt.reportDir}};
  Engine engine(graph, program::Repeat(opt.stepsPerRun, step), engineOptions);
  engine.load(device);
  const double compileSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  // 64 batches of data, fed round and round by the streams' circular buffers.
  Dataset data = makeDataset(64 * B, 2024);
  engine.connectStream("images", data.images.data(), data.images.data() + data.images.size());
  engine.connectStream("labels", data.labels.data(), data.labels.data() + data.labels.size());
  std::vector<float> losses;
  std::vector<unsigned> correct;
  engine.connectStreamToCallback("loss", [&](void* p) {
    const float* l = static_cast<const float*>(p);
    losses.push_back(std::accumulate(l, l + B, 0.0f) / float(B));
  });
  engine.connectStreamToCallback("correct", [&](void* p) { correct.push_back(*static_cast<unsigned*>(p)); });

  const std::string csvPath = opt.outDir + "/training.csv";
  std::ofstream csv(csvPath);
  csv << "run,first_step,last_step,mean_loss,accuracy\n";
  std::cout << "Training " << opt.steps << " steps, batch " << B << ", " << opt.stepsPerRun
            << " steps per run:" << std::endl;
  double firstLoss = 0, lastLoss = 0, lastAccuracy = 0;
  const auto trainStart = std::chrono::steady_clock::now();
  for (unsigned r = 0; r < runs; ++r) {
    const std::size_t before = losses.size();
    engine.run(0, "train" + std::to_string(r));
    const std::size_t n = losses.size() - before;
    const double loss = std::accumulate(losses.begin() + long(before), losses.end(), 0.0) / double(n);
    const double acc = std::accumulate(correct.begin() + long(before), correct.end(), 0.0) / double(n * B);
    if (r == 0) firstLoss = losses.front();
    lastLoss = loss;
    lastAccuracy = acc;
    std::printf("  run %2u/%u  steps %4zu-%-4zu  loss %.4f  accuracy %5.1f%%\n", r + 1, runs,
                before + 1, losses.size(), loss, 100 * acc);
    csv << r << ',' << before + 1 << ',' << losses.size() << ',' << loss << ',' << acc << '\n';
  }
  const double trainSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - trainStart).count();

  std::printf("\nTrained %zu steps (%zu samples) on a simulated IPU: loss %.3f -> %.3f, "
              "accuracy %.1f%%.\n",
              losses.size(), losses.size() * B, firstLoss, lastLoss, 100 * lastAccuracy);
  std::printf("Host time: %.1f s to build and compile, %.1f s to train.\n", compileSeconds, trainSeconds);
  if (!opt.reportDir.empty()) {
    std::printf("\nProfile summary\n\n");
    std::fflush(stdout);
    engine.printProfileSummary(std::cout);
    std::cout << std::endl;
  }
  std::printf("Outputs: %s (loss and accuracy per run)\n", std::filesystem::absolute(csvPath).c_str());
  if (!engine.getReportDirectory().empty())
    std::printf("         %s/{profile.pop,debug.cbor} (profile reports)\n",
                std::filesystem::absolute(engine.getReportDirectory()).c_str());
  if (opt.check && !(lastLoss < 0.5 * firstLoss)) {
    std::fprintf(stderr, "tessera-mlp: --check failed: the loss did not halve (%.4f -> %.4f)\n",
                 firstLoss, lastLoss);
    return 1;
  }
  return 0;
} catch (const poplar::poplar_error& e) {
  std::fprintf(stderr, "tessera-mlp: %s\n", e.what());
  return 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "tessera-mlp: %s\n", e.what());
  return 1;
}
