// bench_lstm: one LSTM training step on the simulated IPU (popnn::lstm::lstmFwd then
// lstmBwdWithWU: forward over the sequence, backward through time, weight gradients) against
// the same math in plain C++ on the host (tests/poplibs/LstmReference.hpp, which the LSTM tests
// check the engine against), timed in one run.
//
//   bench_lstm [--steps T] [--batch B] [--input I] [--hidden H] [--reps R] [--tiles N]
//
// Reports the median of R runs of each and their ratio. The results are compared, so the
// benchmark fails loudly if the engine computes something else.
#include "LstmReference.hpp"
#include "common/CommandLine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/codelets.hpp>
#include <popnn/Lstm.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <random>
#include <vector>

using namespace poplar;
using Clock = std::chrono::steady_clock;
namespace lstm = popnn::lstm;

namespace {

double seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::vector<float> random(std::size_t n, float scale, std::mt19937& rng) {
  std::uniform_real_distribution<float> dist(-scale, scale);
  std::vector<float> v(n);
  for (auto& x : v)
    x = dist(rng);
  return v;
}

double maxRelError(const std::vector<float>& got, const std::vector<float>& want) {
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    worst = std::max(worst, std::abs(double(got[i]) - want[i]) / (1e-3 + std::abs(want[i])));
  return worst;
}

} // namespace

int main(int argc, char** argv) {
  std::size_t T = 8, B = 16, I = 64, H = 64, reps = 5;
  unsigned tiles = 64;
  tessera::cli::CommandLine cli(
      "bench_lstm",
      "bench_lstm: an LSTM training step (forward, backward, weight gradients) on the simulated "
      "IPU against the same math in plain C++.",
      "bench_lstm --steps 2 --batch 2 --input 4 --hidden 4 --reps 1");
  const CLI::Validator& positive = tessera::cli::PositiveNumber;
  cli.add_option("--steps", T, "Time steps T")->check(positive);
  cli.add_option("--batch", B, "Batch size B")->check(positive);
  cli.add_option("--input", I, "Input size I")->check(positive);
  cli.add_option("--hidden", H, "Output (hidden) size H")->check(positive);
  cli.add_option("--reps", reps, "Runs of each (medians are reported)")->check(positive);
  cli.add_option("--tiles", tiles, "Tiles of the simulated IPU")->check(positive);
  cli.parseOrExit(argc, argv);

  std::mt19937 rng(7);
  test::HostLstm host;
  host.T = T;
  host.B = B;
  host.I = I;
  host.H = H;
  host.wIn = random(4 * I * H, 0.2f, rng);
  host.wOut = random(4 * H * H, 0.2f, rng);
  host.bias = random(4 * H, 0.1f, rng);
  const auto x = random(T * B * I, 1.0f, rng), h0 = random(B * H, 0.5f, rng),
             c0 = random(B * H, 0.5f, rng), dOut = random(T * B * H, 1.0f, rng);

  const auto buildStart = Clock::now();
  IPUModel model;
  model.tilesPerIPU = tiles;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);
  lstm::LstmParams params(FLOAT, B, T, {I, H});
  const lstm::LstmWeights w = lstm::createWeights(graph, params, "weights");
  const lstm::LstmState init = lstm::createInitialState(graph, params, "init");
  const Tensor in = lstm::createInput(graph, params, "input");
  Tensor outGrad = graph.addVariable(FLOAT, {T, B, H}, "outputGrad");
  poputil::mapTensorLinearly(graph, outGrad);
  program::Sequence prog;
  Tensor fwdInter;
  const auto out = lstm::lstmFwd(graph, params, init, in, w, &fwdInter, prog, "fwd");
  Tensor inGrad;
  lstm::LstmWeights wGrad;
  const lstm::LstmState* noStateGrad = nullptr;
  lstm::lstmBwdWithWU(graph, params, prog, init, fwdInter, w, in, out.first, outGrad, noStateGrad,
                      &inGrad, wGrad, "bwd");
  const std::pair<const char*, Tensor> writes[] = {
      {"wIn", w.inputWeights}, {"wOut", w.outputWeights}, {"bias", w.biases}, {"x", in},
      {"h0", init.output},     {"c0", init.cellState},    {"dOut", outGrad}};
  for (const auto& wr : writes)
    graph.createHostWrite(wr.first, wr.second);
  graph.createHostRead("out", out.first);
  graph.createHostRead("dWIn", wGrad.inputWeights);
  Engine engine(graph, prog);
  engine.load(device);
  const std::vector<float>* values[] = {&host.wIn, &host.wOut, &host.bias, &x, &h0, &c0, &dOut};
  for (std::size_t i = 0; i < 7; ++i)
    engine.writeTensor(writes[i].first, values[i]->data(), values[i]->data() + values[i]->size());
  const double buildSeconds = seconds(buildStart, Clock::now());

  // Interleaved so that machine noise affects both alike; one warm-up run of each.
  std::vector<double> engineTimes, hostTimes;
  engine.run();
  host.forward(x, h0, c0);
  host.backward(x, h0, c0, dOut);
  for (std::size_t r = 0; r < reps; ++r) {
    auto t0 = Clock::now();
    engine.run();
    auto t1 = Clock::now();
    host.forward(x, h0, c0);
    host.backward(x, h0, c0, dOut);
    auto t2 = Clock::now();
    engineTimes.push_back(seconds(t0, t1));
    hostTimes.push_back(seconds(t1, t2));
  }
  std::vector<float> gotOut(T * B * H), gotDWIn(4 * I * H);
  engine.readTensor("out", gotOut.data(), gotOut.data() + gotOut.size());
  engine.readTensor("dWIn", gotDWIn.data(), gotDWIn.data() + gotDWIn.size());
  const double errOut = maxRelError(gotOut, host.output), errGrad = maxRelError(gotDWIn, host.dWIn);

  const double e = median(engineTimes), hst = median(hostTimes);
  std::printf("LSTM training step T=%zu B=%zu I=%zu H=%zu float, median of %zu runs\n", T, B, I, H,
              reps);
  std::printf("  engine (lstmFwd + lstmBwdWithWU on %u simulated tiles): %8.2f ms\n", tiles,
              e * 1e3);
  std::printf("  plain C++ on the host:                                %8.2f ms\n", hst * 1e3);
  std::printf("  ratio engine / host:                                  %8.2f x\n", e / hst);
  std::printf("  graph build, compile and load:                        %8.2f s\n", buildSeconds);
  std::printf("  largest relative difference: output %.2g, input weights' gradient %.2g\n", errOut,
              errGrad);
  if (errOut > 1e-3 || errGrad > 1e-2) {
    std::fprintf(stderr, "bench_lstm: the engine's results differ from the host's\n");
    return EXIT_FAILURE;
  }
  return EXIT_SUCCESS;
}
