// tessera-mlp: trains a 784-128-10 MLP on synthetic MNIST-shaped data on a simulated IPU.
#include "Dataset.hpp"
#include "Mlp.hpp"
#include "common/CommandLine.hpp"
#include "common/TrainingOutputs.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <numeric>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>
#include <poplin/codelets.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>
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

Options parseOptions(int argc, char** argv) {
  Options o;
  tessera::cli::CommandLine cli(
      "tessera-mlp",
      "tessera-mlp: trains a 784-128-10 multi-layer perceptron on synthetic MNIST-shaped data.\n\n"
      "SGD on a simulated Mk2 IPU (1472 tiles). Batches arrive through host streams; each engine\n"
      "run executes --steps-per-run training steps on the device and reports the mean loss and\n"
      "accuracy.",
      "tessera-mlp --steps 640 --out /tmp/mlp");
  const auto count = CLI::Range(1u, 1000000u);
  cli.add_option("--steps", o.steps, "Training steps in total")->check(count);
  cli.add_option("--steps-per-run", o.stepsPerRun, "Steps per Engine::run")->check(count);
  cli.add_option("--batch", o.mlp.batchSize, "Batch size")->check(count);
  cli.add_option("--lr", o.mlp.learningRate, "Learning rate")->check(tessera::cli::PositiveNumber);
  cli.add_option("--out", o.outDir, "Output directory (training.csv)")->type_name("DIR");
  cli.addReportOptions(o.reportDir, true);
  cli.add_flag("--check", o.check, "Exit with status 1 unless the loss at least halves");
  cli.parseOrExit(argc, argv);
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
    engineOptions = {
        {"autoReport.all", "true"},
        {"autoReport.outputSerializedGraph", "true"}, // not part of "all" (as in Poplar)
        {"profiler.includeFlopEstimates", "true"},    // off by default (as in Poplar)
        {"autoReport.directory", opt.reportDir}};
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
  engine.connectStreamToCallback("correct",
                                 [&](void* p) { correct.push_back(*static_cast<unsigned*>(p)); });

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
    const double loss =
        std::accumulate(losses.begin() + long(before), losses.end(), 0.0) / double(n);
    const double acc =
        std::accumulate(correct.begin() + long(before), correct.end(), 0.0) / double(n * B);
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
  std::printf("Host time: %.1f s to build and compile, %.1f s to train.\n", compileSeconds,
              trainSeconds);
  tessera::samples::printSummaryAndOutputs(engine, !opt.reportDir.empty(), csvPath);
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
