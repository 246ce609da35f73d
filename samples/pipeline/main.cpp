// tessera-pipeline: a two-stage model pipelined over two simulated IPUs.
//
// Stage 1 (IPU 0): hidden = relu(x . W1); stage 2 (IPU 1): probs = softmax(hidden . W2).
// Micro-batches stream in; while IPU 1 runs stage 2 on micro-batch i, IPU 0 runs stage 1 on
// micro-batch i+1, and activations cross the IPU-Link between them. Each stage is a Function,
// so its code exists once however many times the schedule calls it. The results are checked
// against the same computation done on the host.
#include "common/CommandLine.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <random>
#include <string>

using namespace poplar;
using namespace poplar::program;

namespace {

constexpr std::size_t kBatch = 16, kIn = 256, kHidden = 256, kOut = 10;

std::vector<float> randomValues(std::size_t n, float scale, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-scale, scale);
  std::vector<float> v(n);
  for (auto& x : v)
    x = d(rng);
  return v;
}

/// The same model on the host, in plain loops: the reference the device must match.
std::vector<float> hostForward(const float* x, const std::vector<float>& w1,
                               const std::vector<float>& w2) {
  std::vector<float> h(kBatch * kHidden, 0.0f), out(kBatch * kOut, 0.0f);
  for (std::size_t b = 0; b < kBatch; ++b) {
    for (std::size_t k = 0; k < kIn; ++k)
      for (std::size_t j = 0; j < kHidden; ++j)
        h[b * kHidden + j] += x[b * kIn + k] * w1[k * kHidden + j];
    for (std::size_t j = 0; j < kHidden; ++j)
      h[b * kHidden + j] = std::max(0.0f, h[b * kHidden + j]);
    for (std::size_t k = 0; k < kHidden; ++k)
      for (std::size_t j = 0; j < kOut; ++j)
        out[b * kOut + j] += h[b * kHidden + k] * w2[k * kOut + j];
    float* row = &out[b * kOut];
    const float m = *std::max_element(row, row + kOut);
    float sum = 0;
    for (std::size_t j = 0; j < kOut; ++j)
      sum += row[j] = std::exp(row[j] - m);
    for (std::size_t j = 0; j < kOut; ++j)
      row[j] /= sum;
  }
  return out;
}

struct Options {
  unsigned microBatches = 32;
  std::string reportDir = "reports/pipeline";
};

Options parseOptions(int argc, char** argv) {
  Options o;
  const std::string summary =
      "tessera-pipeline: runs a two-stage model pipelined over two simulated IPUs.\n\n"
      "Micro-batches of " +
      std::to_string(kBatch) +
      " stream in; while IPU 1 runs stage 2 on one, IPU 0 runs stage 1 on the\n"
      "next. Every result is checked against the same computation on the host (exit status 1 if\n"
      "one differs).";
  tessera::cli::CommandLine cli("tessera-pipeline", summary,
                                "tessera-pipeline --micro-batches 8 --reports /tmp/pipeline");
  cli.add_option("--micro-batches", o.microBatches, "Micro-batches N to run through the pipeline")
      ->check(CLI::Range(2u, 100000u));
  cli.addReportOptions(o.reportDir, true);
  cli.parseOrExit(argc, argv);
  return o;
}

} // namespace

int main(int argc, char** argv) try {
  const Options opt = parseOptions(argc, argv);
  const unsigned microBatches = opt.microBatches;
  IPUModel model;
  model.numIPUs = 2;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);
  const unsigned perIPU = device.getTarget().getTilesPerIPU();
  Graph ipu0 = graph.createVirtualGraph(0, perIPU);
  Graph ipu1 = graph.createVirtualGraph(perIPU, 2 * perIPU);

  const auto w1Values = randomValues(kIn * kHidden, 0.1f, 1);
  const auto w2Values = randomValues(kHidden * kOut, 0.2f, 2);

  // Stage 1 on IPU 0.
  Sequence stage1({}, "stage1");
  const Tensor x = poplin::createMatMulInputLHS(ipu0, FLOAT, {kBatch, kIn}, {kIn, kHidden}, "x");
  const Tensor w1 = poplin::createMatMulInputRHS(ipu0, FLOAT, {kBatch, kIn}, {kIn, kHidden}, "w1");
  ipu0.setInitialValue(w1, w1Values);
  stage1.add(Copy(ipu0.addHostToDeviceFIFO("x", FLOAT, kBatch * kIn), x));
  const Tensor hidden = poplin::matMul(ipu0, x, w1, stage1, "stage1/matmul");
  popnn::nonLinearityInPlace(ipu0, popnn::NonLinearityType::RELU, hidden, stage1, "stage1/relu");

  // Stage 2 on IPU 1, reading its own copy of the activations.
  Sequence stage2({}, "stage2");
  const Tensor received =
      poplin::createMatMulInputLHS(ipu1, FLOAT, {kBatch, kHidden}, {kHidden, kOut}, "received");
  const Tensor w2 =
      poplin::createMatMulInputRHS(ipu1, FLOAT, {kBatch, kHidden}, {kHidden, kOut}, "w2");
  ipu1.setInitialValue(w2, w2Values);
  const Tensor logits = poplin::matMul(ipu1, received, w2, stage2, "stage2/matmul");
  const Tensor probs = popnn::nonLinearity(ipu1, popnn::NonLinearityType::SOFTMAX_STABLE, logits,
                                           stage2, "stage2/softmax");
  stage2.add(Copy(probs, ipu1.addDeviceToHostFIFO("probs", FLOAT, kBatch * kOut)));

  // Pipelined schedule: fill, steady state (both stages busy), drain.
  const Function s1 = graph.addFunction(stage1), s2 = graph.addFunction(stage2);
  const Copy transfer(hidden, received, false, "ipu0->ipu1");
  const Sequence schedule(
      {Call(s1), transfer,
       Repeat(microBatches - 1, Sequence{Call(s1), Call(s2), transfer}, "steady"), Call(s2)},
      "pipeline");
  OptionFlags engineOptions;
  if (!opt.reportDir.empty())
    engineOptions = {
        {"autoReport.all", "true"},
        {"autoReport.outputSerializedGraph", "true"}, // not part of "all" (as in Poplar)
        {"profiler.includeFlopEstimates", "true"},    // off by default (as in Poplar)
        {"autoReport.directory", opt.reportDir}};
  Engine engine(graph, schedule, engineOptions);
  engine.load(device);

  const auto inputs = randomValues(std::size_t(microBatches) * kBatch * kIn, 1.0f, 3);
  std::vector<float> outputs(std::size_t(microBatches) * kBatch * kOut);
  engine.connectStream("x", const_cast<float*>(inputs.data()),
                       const_cast<float*>(inputs.data() + inputs.size()));
  engine.connectStream("probs", outputs.data(), outputs.data() + outputs.size());
  engine.run(0, "pipeline");

  float maxError = 0;
  for (unsigned m = 0; m < microBatches; ++m) {
    const auto expect = hostForward(&inputs[std::size_t(m) * kBatch * kIn], w1Values, w2Values);
    for (std::size_t i = 0; i < expect.size(); ++i)
      maxError =
          std::max(maxError, std::abs(expect[i] - outputs[std::size_t(m) * kBatch * kOut + i]));
  }
  std::printf("Pipelined %u micro-batches of %zu over 2 simulated IPUs (%u tiles each).\n",
              microBatches, kBatch, perIPU);
  std::printf("Largest difference from the host computation: %.2e\n", double(maxError));
  if (maxError > 1e-4f) {
    std::fprintf(stderr, "tessera-pipeline: device results differ from the host computation\n");
    return 1;
  }
  std::printf("All %zu outputs match.\n", outputs.size());
  if (!engine.getReportDirectory().empty()) {
    std::printf("\n");
    std::fflush(stdout);
    engine.printProfileSummary(std::cout);
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "tessera-pipeline: %s\n", e.what());
  return 1;
}
