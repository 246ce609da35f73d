// tessera-cnn: trains a small convolutional network (convolutions, batch norm, ReLU, max and
// average pooling, dropout, log-softmax) on synthetic MNIST-shaped data, data-parallel over
// replicas of one graph (one simulated IPU each) whose gradients gcl all-reduces every step.
// Under poprun (docs/distributed.md) each instance runs its share of the replicas and the
// all-reduces span every instance: `poprun --num-replicas 4 --num-instances 2 tessera-cnn`
// trains exactly as `tessera-cnn --replicas 4` does, loss for loss.
#include "../mlp/Dataset.hpp"
#include "Cnn.hpp"
#include "common/CommandLine.hpp"
#include "common/TrainingOutputs.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <numeric>
#include <popdist/backend.hpp>
#include <popdist/collectives.hpp>
#include <popdist/context.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>
#include <poplin/codelets.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>
#include <poprand/codelets.hpp>
#include <string>
#include <vector>

using namespace poplar;

namespace {

struct Options {
  unsigned steps = 96;
  unsigned stepsPerRun = 16;
  unsigned replicas = 4;
  unsigned tilesPerIpu = 1472;
  CnnConfig cnn;
  std::string outDir = "cnn-out";
  std::string reportDir = "reports/cnn";
  bool check = false;
};

/// One replica's share of the data: its own samples, labels and dropout seeds.
struct Shard {
  std::vector<float> images;
  std::vector<unsigned> labels;
};

Options parseOptions(int argc, char** argv) {
  Options o;
  tessera::cli::CommandLine cli(
      "tessera-cnn",
      "tessera-cnn: trains a small convolutional network on synthetic MNIST-shaped data.\n\n"
      "conv 3x3 - batch norm - ReLU - max pool, conv 3x3 - batch norm - ReLU - average pool,\n"
      "dropout - dense - log-softmax, trained with SGD, data-parallel over --replicas replicas\n"
      "of one graph, one simulated Mk2 IPU each. Each replica streams its own batches from the\n"
      "host; the replicas' gradients are averaged by a gcl all-reduce every step and their\n"
      "correct counts summed by another. Each engine run executes --steps-per-run training\n"
      "steps and reports the mean loss and the accuracy over all replicas.",
      "tessera-cnn --steps 64 --replicas 4 --out /tmp/cnn");
  const auto count = CLI::Range(1u, 1000000u);
  cli.add_option("--steps", o.steps, "Training steps in total")->check(count);
  cli.add_option("--steps-per-run", o.stepsPerRun, "Steps per Engine::run")->check(count);
  cli.add_option("--replicas", o.replicas,
                 "Replicas (one IPU each) training data-parallel (under poprun: its "
                 "--num-replicas, spread over its instances)")
      ->check(CLI::Range(1u, 64u));
  cli.add_option("--batch", o.cnn.batchSize, "Batch size per replica")->check(count);
  cli.add_option("--keep", o.cnn.keepProbability, "Dropout keep probability (1: no dropout)")
      ->check(CLI::Range(0.05f, 1.0f));
  cli.add_option("--tiles", o.tilesPerIpu, "Tiles per simulated IPU")
      ->check(CLI::Range(16u, 1472u));
  cli.add_option("--lr", o.cnn.learningRate, "Learning rate")->check(tessera::cli::PositiveNumber);
  cli.add_option("--out", o.outDir, "Output directory (training.csv)")->type_name("DIR");
  cli.addReportOptions(o.reportDir, true);
  cli.add_flag("--check", o.check,
               "Exit with status 1 unless the loss at least halves and the accuracy rises");
  cli.parseOrExit(argc, argv);
  o.stepsPerRun = std::min(o.stepsPerRun, o.steps);
  return o;
}

} // namespace

int main(int argc, char** argv) try {
  const Options opt = parseOptions(argc, argv);
  const unsigned B = opt.cnn.batchSize;
  const unsigned runs = (opt.steps + opt.stepsPerRun - 1) / opt.stepsPerRun;
  std::filesystem::create_directories(opt.outDir);

  // Under poprun this instance holds replicas [offset, offset + L) of the job's R; otherwise
  // one process holds them all. Everything a replica computes depends on its global index only,
  // so the split changes nothing but where it runs.
  const bool distributed = popdist::isPopdistEnvSet() && popdist::getNumInstances() > 1;
  if (distributed) popdist::init();
  const unsigned R = distributed ? popdist::getNumTotalReplicas() : opt.replicas;
  const unsigned L = distributed ? popdist::getNumLocalReplicas() : R;
  const unsigned offset = distributed ? popdist::getReplicaIndexOffset() : 0;
  const bool lead = !distributed || popdist::getInstanceIndex() == 0; // writes the outputs
  IPUModel model("ipu2");
  model.numIPUs = L; // one IPU per replica
  model.tilesPerIPU = opt.tilesPerIpu;
  Device device = model.createDevice();
  Graph graph(device.getTarget(), poplar::replication_factor(L));
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);
  poprand::addCodelets(graph);

  std::cout << "Building the CNN graph: " << R << " replica" << (R == 1 ? "" : "s") << " of "
            << opt.tilesPerIpu << " tiles, batch " << B << " per replica";
  if (distributed)
    std::cout << " (instance " << popdist::getInstanceIndex() << " of "
              << popdist::getNumInstances() << ": replicas " << offset << "-" << offset + L - 1
              << ")";
  std::cout << "..." << std::endl;
  const auto t0 = std::chrono::steady_clock::now();
  const auto step = buildCnnTrainingStep(graph, opt.cnn);
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

  // 64 batches of data per replica, each replica its own samples, fed round and round by the
  // streams' circular buffers.
  constexpr unsigned kBatchesPerShard = 64;
  const Dataset data = makeDataset(kBatchesPerShard * B * R, 2024);
  std::vector<Shard> shards(L);
  const std::size_t shardSamples = std::size_t(kBatchesPerShard) * B;
  for (unsigned r = 0; r < L; ++r) {
    const std::size_t g = offset + r; // the replica's global index picks its shard
    const auto px = data.images.begin() + long(g * shardSamples * Dataset::kPixels);
    shards[r].images.assign(px, px + long(shardSamples * Dataset::kPixels));
    const auto lb = data.labels.begin() + long(g * shardSamples);
    shards[r].labels.assign(lb, lb + long(shardSamples));
  }
  // Per replica: the mean loss of each step (summed over replicas on the host below), dropout
  // seeds that never repeat, and the correct count, already summed over the replicas by the
  // device's all-reduce (every replica holds it; replica 0's copy is the one kept).
  std::vector<std::vector<float>> replicaLosses(R); // every replica's, local ones filled here
  std::vector<unsigned> correct;
  std::vector<std::uint32_t> seedCounter(L, 0);
  for (unsigned r = 0; r < L; ++r) {
    Shard& sh = shards[r];
    engine.connectStream("images", r, sh.images.data(), sh.images.data() + sh.images.size());
    engine.connectStream("labels", r, sh.labels.data(), sh.labels.data() + sh.labels.size());
    const unsigned g = offset + r;
    engine.connectStreamToCallback("seed", r, [&seedCounter, r, g](void* p) {
      auto* s = static_cast<std::uint32_t*>(p);
      s[0] = 0x9E3779B9u * (g + 1);
      s[1] = seedCounter[r]++;
    });
    engine.connectStreamToCallback("loss", r, [&replicaLosses, g, B](void* p) {
      const float* l = static_cast<const float*>(p);
      replicaLosses[g].push_back(std::accumulate(l, l + B, 0.0f) / float(B));
    });
    engine.connectStreamToCallback("correct", r, [&correct, r](void* p) {
      if (r == 0) correct.push_back(*static_cast<unsigned*>(p));
    });
  }
  std::vector<float> losses; // per step, the mean over the replicas
  const auto collectLosses = [&] {
    // Under poprun every instance receives the other instances' replica losses of the run (a
    // PopDist broadcast from each in turn), then all sum them in replica order as one process.
    const std::size_t steps = replicaLosses[offset].size();
    if (distributed)
      for (unsigned i = 0; i < popdist::getNumInstances(); ++i)
        for (unsigned g = i * L; g < (i + 1) * L; ++g) {
          replicaLosses[g].resize(steps);
          popdist::collectives::broadcast(replicaLosses[g].data() + losses.size(),
                                          steps - losses.size(), FLOAT, int(i), "losses");
        }
    for (std::size_t i = losses.size(); i < steps; ++i) {
      float sum = 0;
      for (unsigned r = 0; r < R; ++r)
        sum += replicaLosses[r].at(i);
      losses.push_back(sum / float(R));
    }
  };

  const std::string csvPath = opt.outDir + "/training.csv";
  std::ofstream csv;
  if (lead) csv.open(csvPath); // every instance has the same figures; the first writes them
  csv << "run,first_step,last_step,mean_loss,accuracy\n";
  std::cout << "Training " << opt.steps << " steps, " << R << " x " << B << " samples per step, "
            << opt.stepsPerRun << " steps per run:" << std::endl;
  double firstLoss = 0, lastLoss = 0, firstAccuracy = 0, lastAccuracy = 0;
  const auto trainStart = std::chrono::steady_clock::now();
  for (unsigned r = 0; r < runs; ++r) {
    const std::size_t before = losses.size();
    engine.run(0, "train" + std::to_string(r));
    collectLosses();
    const std::size_t n = losses.size() - before;
    const double loss =
        std::accumulate(losses.begin() + long(before), losses.end(), 0.0) / double(n);
    const double acc =
        std::accumulate(correct.begin() + long(before), correct.end(), 0.0) / double(n * B * R);
    if (r == 0) {
      firstLoss = losses.front();
      firstAccuracy = acc;
    }
    lastLoss = loss;
    lastAccuracy = acc;
    std::printf("  run %2u/%u  steps %4zu-%-4zu  loss %.4f  accuracy %5.1f%%\n", r + 1, runs,
                before + 1, losses.size(), loss, 100 * acc);
    if (lead) {
      csv << r << ',' << before + 1 << ',' << losses.size() << ',';
      csv.precision(9); // all digits: the distributed tests compare the runs exactly
      csv << loss << ',' << acc << '\n';
    }
  }
  const double trainSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - trainStart).count();

  std::printf("\nTrained %zu steps (%zu samples) on %u simulated IPU%s: loss %.3f -> %.3f, "
              "accuracy %.1f%% -> %.1f%%.\n",
              losses.size(), losses.size() * B * R, R, R == 1 ? "" : "s", firstLoss, lastLoss,
              100 * firstAccuracy, 100 * lastAccuracy);
  std::printf("Host time: %.1f s to build and compile, %.1f s to train.\n", compileSeconds,
              trainSeconds);
  if (lead) tessera::samples::printSummaryAndOutputs(engine, !opt.reportDir.empty(), csvPath);
  if (opt.check && !(lastLoss < 0.5 * firstLoss)) {
    std::fprintf(stderr, "tessera-cnn: --check failed: the loss did not halve (%.4f -> %.4f)\n",
                 firstLoss, lastLoss);
    return 1;
  }
  if (opt.check && !(lastAccuracy > firstAccuracy)) {
    std::fprintf(stderr,
                 "tessera-cnn: --check failed: the accuracy did not rise (%.1f%% -> %.1f%%)\n",
                 100 * firstAccuracy, 100 * lastAccuracy);
    return 1;
  }
  return 0;
} catch (const poplar::poplar_error& e) {
  std::fprintf(stderr, "tessera-cnn: %s\n", e.what());
  return 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "tessera-cnn: %s\n", e.what());
  return 1;
}
