// bench_cnn: training steps of tessera-cnn (4 replicas of the graph on simulated IPUs, gradients
// all-reduced by gcl) against the same math in plain C++ on the host, timed in one run.
//
//   bench_cnn [--replicas R] [--batch B] [--steps N] [--reps K] [--keep P] [--tiles T]
//
// The host model does what the device does for every replica: forward (3x3 convolutions with
// padding 1, batch norm with the batch's statistics, ReLU, 2x2 max and average pooling, inverted
// dropout, dense, log-softmax, cross entropy), backward, the mean of the replicas' gradients and
// the SGD update. It starts from the same weights and reads the same batches, so without dropout
// (--keep 1) its per-step losses must match the device's; with dropout its masks come from its
// own generator and only the timing is compared.
#include "../samples/cnn/Cnn.hpp"
#include "../samples/mlp/Dataset.hpp"
#include "common/CommandLine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/codelets.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>
#include <poprand/codelets.hpp>
#include <random>
#include <vector>

using namespace poplar;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

using Vec = std::vector<float>;

/// Activations [B][C][S][S], row-major.
struct Act {
  std::size_t b = 0, c = 0, s = 0;
  Vec v;
  Act() = default;
  Act(std::size_t b_, std::size_t c_, std::size_t s_)
      : b(b_), c(c_), s(s_), v(b_ * c_ * s_ * s_, 0.0f) {}
  float& at(std::size_t n, std::size_t ch, std::size_t y, std::size_t x) {
    return v[((n * c + ch) * s + y) * s + x];
  }
  float at(std::size_t n, std::size_t ch, std::size_t y, std::size_t x) const {
    return v[((n * c + ch) * s + y) * s + x];
  }
};

/// 3x3 convolution, padding 1: out[n][o] = sum_i w[o][i] * in[n][i] (cross-correlation).
Act conv3x3(const Act& in, const Vec& w, std::size_t outC) {
  Act out(in.b, outC, in.s);
  const long S = long(in.s);
  for (std::size_t n = 0; n < in.b; ++n)
    for (std::size_t o = 0; o < outC; ++o)
      for (std::size_t i = 0; i < in.c; ++i)
        for (long ky = 0; ky < 3; ++ky)
          for (long kx = 0; kx < 3; ++kx) {
            const float wk = w[((o * in.c + i) * 3 + std::size_t(ky)) * 3 + std::size_t(kx)];
            for (long y = 0; y < S; ++y) {
              const long iy = y + ky - 1;
              if (iy < 0 || iy >= S) continue;
              for (long x = 0; x < S; ++x) {
                const long ix = x + kx - 1;
                if (ix < 0 || ix >= S) continue;
                out.at(n, o, std::size_t(y), std::size_t(x)) +=
                    wk * in.at(n, i, std::size_t(iy), std::size_t(ix));
              }
            }
          }
  return out;
}

/// The gradient of conv3x3's input given its output's gradient.
Act conv3x3InputGrad(const Act& dOut, const Vec& w, std::size_t inC) {
  Act dIn(dOut.b, inC, dOut.s);
  const long S = long(dOut.s);
  for (std::size_t n = 0; n < dOut.b; ++n)
    for (std::size_t o = 0; o < dOut.c; ++o)
      for (std::size_t i = 0; i < inC; ++i)
        for (long ky = 0; ky < 3; ++ky)
          for (long kx = 0; kx < 3; ++kx) {
            const float wk = w[((o * inC + i) * 3 + std::size_t(ky)) * 3 + std::size_t(kx)];
            for (long y = 0; y < S; ++y) {
              const long iy = y + ky - 1;
              if (iy < 0 || iy >= S) continue;
              for (long x = 0; x < S; ++x) {
                const long ix = x + kx - 1;
                if (ix < 0 || ix >= S) continue;
                dIn.at(n, i, std::size_t(iy), std::size_t(ix)) +=
                    wk * dOut.at(n, o, std::size_t(y), std::size_t(x));
              }
            }
          }
  return dIn;
}

/// The gradient of conv3x3's weights [o][i][3][3].
Vec conv3x3WeightGrad(const Act& dOut, const Act& in) {
  Vec dw(dOut.c * in.c * 9, 0.0f);
  const long S = long(in.s);
  for (std::size_t n = 0; n < in.b; ++n)
    for (std::size_t o = 0; o < dOut.c; ++o)
      for (std::size_t i = 0; i < in.c; ++i)
        for (long ky = 0; ky < 3; ++ky)
          for (long kx = 0; kx < 3; ++kx) {
            float acc = 0;
            for (long y = 0; y < S; ++y) {
              const long iy = y + ky - 1;
              if (iy < 0 || iy >= S) continue;
              for (long x = 0; x < S; ++x) {
                const long ix = x + kx - 1;
                if (ix < 0 || ix >= S) continue;
                acc += dOut.at(n, o, std::size_t(y), std::size_t(x)) *
                       in.at(n, i, std::size_t(iy), std::size_t(ix));
              }
            }
            dw[((o * in.c + i) * 3 + std::size_t(ky)) * 3 + std::size_t(kx)] += acc;
          }
  return dw;
}

/// conv -> batch norm -> ReLU, with what the backward pass needs.
struct Block {
  std::size_t inC, outC;
  Vec w, gamma, beta;
  Act input, whitened, act;
  Vec invStd;

  Act forward(const Act& in) {
    input = in;
    const Act z = conv3x3(in, w, outC);
    whitened = Act(z.b, z.c, z.s);
    act = Act(z.b, z.c, z.s);
    invStd.assign(outC, 0.0f);
    const std::size_t per = z.b * z.s * z.s;
    for (std::size_t ch = 0; ch < outC; ++ch) {
      double sum = 0, sq = 0;
      for (std::size_t n = 0; n < z.b; ++n)
        for (std::size_t p = 0; p < z.s * z.s; ++p) {
          const double x = z.v[(n * z.c + ch) * z.s * z.s + p];
          sum += x;
          sq += x * x;
        }
      const double mean = sum / double(per), var = std::max(0.0, sq / double(per) - mean * mean);
      invStd[ch] = float(1.0 / std::sqrt(var + 1e-5));
      for (std::size_t n = 0; n < z.b; ++n)
        for (std::size_t p = 0; p < z.s * z.s; ++p) {
          const std::size_t k = (n * z.c + ch) * z.s * z.s + p;
          whitened.v[k] = float((z.v[k] - mean) * invStd[ch]);
          act.v[k] = std::max(0.0f, gamma[ch] * whitened.v[k] + beta[ch]);
        }
    }
    return act;
  }

  /// Returns the input gradient (if wanted) and fills the parameter gradients.
  Act backward(const Act& dOut, bool wantInputGrad, Vec& dW, Vec& dGamma, Vec& dBeta) {
    Act dZ(dOut.b, dOut.c, dOut.s);
    dGamma.assign(outC, 0.0f);
    dBeta.assign(outC, 0.0f);
    const std::size_t area = dOut.s * dOut.s, per = dOut.b * area;
    for (std::size_t ch = 0; ch < outC; ++ch) {
      double sg = 0, sgw = 0;
      for (std::size_t n = 0; n < dOut.b; ++n)
        for (std::size_t p = 0; p < area; ++p) {
          const std::size_t k = (n * dOut.c + ch) * area + p;
          const float g = act.v[k] > 0 ? dOut.v[k] : 0.0f;
          dZ.v[k] = g; // dNorm, for now
          sg += g;
          sgw += double(g) * whitened.v[k];
        }
      dBeta[ch] = float(sg);
      dGamma[ch] = float(sgw);
      const double mg = sg / double(per), mgw = sgw / double(per);
      for (std::size_t n = 0; n < dOut.b; ++n)
        for (std::size_t p = 0; p < area; ++p) {
          const std::size_t k = (n * dOut.c + ch) * area + p;
          dZ.v[k] = float(gamma[ch] * invStd[ch] * (dZ.v[k] - mg - whitened.v[k] * mgw));
        }
    }
    dW = conv3x3WeightGrad(dZ, input);
    return wantInputGrad ? conv3x3InputGrad(dZ, w, inC) : Act();
  }
};

Act maxPool(const Act& in) {
  Act out(in.b, in.c, in.s / 2);
  for (std::size_t n = 0; n < in.b; ++n)
    for (std::size_t ch = 0; ch < in.c; ++ch)
      for (std::size_t y = 0; y < out.s; ++y)
        for (std::size_t x = 0; x < out.s; ++x)
          out.at(n, ch, y, x) = std::max(
              std::max(in.at(n, ch, 2 * y, 2 * x), in.at(n, ch, 2 * y, 2 * x + 1)),
              std::max(in.at(n, ch, 2 * y + 1, 2 * x), in.at(n, ch, 2 * y + 1, 2 * x + 1)));
  return out;
}

/// Max pooling's gradient goes to every input equal to its window's maximum (as PopLibs does).
Act maxPoolGrad(const Act& in, const Act& out, const Act& dOut) {
  Act dIn(in.b, in.c, in.s);
  for (std::size_t n = 0; n < in.b; ++n)
    for (std::size_t ch = 0; ch < in.c; ++ch)
      for (std::size_t y = 0; y < in.s; ++y)
        for (std::size_t x = 0; x < in.s; ++x)
          if (in.at(n, ch, y, x) == out.at(n, ch, y / 2, x / 2))
            dIn.at(n, ch, y, x) = dOut.at(n, ch, y / 2, x / 2);
  return dIn;
}

Act avgPool(const Act& in) {
  Act out(in.b, in.c, in.s / 2);
  for (std::size_t n = 0; n < in.b; ++n)
    for (std::size_t ch = 0; ch < in.c; ++ch)
      for (std::size_t y = 0; y < in.s; ++y)
        for (std::size_t x = 0; x < in.s; ++x)
          out.at(n, ch, y / 2, x / 2) += 0.25f * in.at(n, ch, y, x);
  return out;
}

Act avgPoolGrad(const Act& dOut) {
  Act dIn(dOut.b, dOut.c, dOut.s * 2);
  for (std::size_t n = 0; n < dIn.b; ++n)
    for (std::size_t ch = 0; ch < dIn.c; ++ch)
      for (std::size_t y = 0; y < dIn.s; ++y)
        for (std::size_t x = 0; x < dIn.s; ++x)
          dIn.at(n, ch, y, x) = 0.25f * dOut.at(n, ch, y / 2, x / 2);
  return dIn;
}

/// The whole network on the host, the same parameters for every replica.
struct HostCnn {
  CnnConfig cfg;
  Block b1, b2;
  Vec dense, bias; // [flat][10], [10]
  std::size_t flat;
  std::mt19937 rng{7};

  explicit HostCnn(const CnnConfig& c) : cfg(c) {
    b1 = Block{1,
               c.channels1,
               cnnInitialWeights(c.channels1 * 9, 9, 1),
               Vec(c.channels1, 1.0f),
               Vec(c.channels1, 0.0f),
               {},
               {},
               {},
               {}};
    b2 = Block{c.channels1,
               c.channels2,
               cnnInitialWeights(c.channels2 * c.channels1 * 9, c.channels1 * 9, 2),
               Vec(c.channels2, 1.0f),
               Vec(c.channels2, 0.0f),
               {},
               {},
               {},
               {}};
    flat = c.channels2 * 7 * 7;
    dense = cnnInitialWeights(flat * 10, flat, 3);
    bias.assign(10, 0.0f);
  }

  /// One replica's forward and backward pass; adds its gradients to `grads` and returns its
  /// mean loss.
  float replicaStep(const float* images, const unsigned* labels, std::vector<Vec>& grads) {
    const std::size_t B = cfg.batchSize, C = Dataset::kClasses;
    Act x(B, 1, 28);
    std::copy(images, images + x.v.size(), x.v.begin());
    const Act a1 = b1.forward(x);
    const Act p1 = maxPool(a1);
    const Act a2 = b2.forward(p1);
    const Act p2 = avgPool(a2);
    // Inverted dropout: kept elements scaled by 1 / keep.
    Vec mask(p2.v.size(), 1.0f);
    if (cfg.keepProbability < 1.0f) {
      std::bernoulli_distribution keep(cfg.keepProbability);
      for (auto& m : mask)
        m = keep(rng) ? 1.0f / cfg.keepProbability : 0.0f;
    }
    Vec dropped(p2.v.size());
    for (std::size_t i = 0; i < dropped.size(); ++i)
      dropped[i] = p2.v[i] * mask[i];
    // Dense, log-softmax, cross entropy; deltas = softmax - onehot.
    Vec deltas(B * C);
    double loss = 0;
    for (std::size_t n = 0; n < B; ++n) {
      float logits[16];
      float mx = -1e30f;
      for (std::size_t k = 0; k < C; ++k) {
        float z = bias[k];
        for (std::size_t f = 0; f < flat; ++f)
          z += dropped[n * flat + f] * dense[f * C + k];
        logits[k] = z;
        mx = std::max(mx, z);
      }
      double se = 0;
      for (std::size_t k = 0; k < C; ++k)
        se += std::exp(double(logits[k] - mx));
      const double lse = double(mx) + std::log(se);
      for (std::size_t k = 0; k < C; ++k)
        deltas[n * C + k] =
            float(std::exp(double(logits[k]) - lse)) - (k == labels[n] ? 1.0f : 0.0f);
      loss += lse - double(logits[labels[n]]);
    }
    // Backward.
    Vec& dDense = grads[0];
    Vec& dBias = grads[1];
    Act dP2(B, cfg.channels2, 7);
    for (std::size_t n = 0; n < B; ++n)
      for (std::size_t k = 0; k < C; ++k) {
        const float d = deltas[n * C + k];
        dBias[k] += d;
        for (std::size_t f = 0; f < flat; ++f) {
          dDense[f * C + k] += dropped[n * flat + f] * d;
          dP2.v[n * flat + f] += dense[f * C + k] * d;
        }
      }
    for (std::size_t i = 0; i < dP2.v.size(); ++i)
      dP2.v[i] *= mask[i];
    Vec dW, dG, dB;
    const Act dP1 = maxPoolGrad(a1, p1, b2.backward(avgPoolGrad(dP2), true, dW, dG, dB));
    accumulate(grads[2], dW);
    accumulate(grads[3], dG);
    accumulate(grads[4], dB);
    b1.backward(dP1, false, dW, dG, dB);
    accumulate(grads[5], dW);
    accumulate(grads[6], dG);
    accumulate(grads[7], dB);
    return float(loss / double(B));
  }

  static void accumulate(Vec& into, const Vec& g) {
    for (std::size_t i = 0; i < g.size(); ++i)
      into[i] += g[i];
  }

  /// A data-parallel step over `replicas` batches: each replica's gradients, their mean, SGD.
  /// Returns the mean loss over the replicas.
  float step(const std::vector<const float*>& images, const std::vector<const unsigned*>& labels) {
    std::vector<Vec*> params = {&dense,   &bias, &b2.w,     &b2.gamma,
                                &b2.beta, &b1.w, &b1.gamma, &b1.beta};
    std::vector<Vec> grads;
    for (Vec* p : params)
      grads.emplace_back(p->size(), 0.0f);
    float loss = 0;
    const std::size_t R = images.size();
    for (std::size_t r = 0; r < R; ++r)
      loss += replicaStep(images[r], labels[r], grads);
    const float scale = cfg.learningRate / float(cfg.batchSize) / float(R);
    for (std::size_t i = 0; i < params.size(); ++i)
      for (std::size_t j = 0; j < grads[i].size(); ++j)
        (*params[i])[j] -= scale * grads[i][j];
    return loss / float(R);
  }
};

} // namespace

int main(int argc, char** argv) {
  unsigned replicas = 4, steps = 4, reps = 3, tiles = 1472;
  CnnConfig cfg;
  tessera::cli::CommandLine cli(
      "bench_cnn",
      "bench_cnn: data-parallel training steps of tessera-cnn on simulated IPUs against the\n"
      "same math (forward, backward, gradient mean, SGD update) in plain C++ on the host.",
      "bench_cnn --steps 2 --reps 1 --keep 1");
  const CLI::Validator& positive = tessera::cli::PositiveNumber;
  cli.add_option("--replicas", replicas, "Replicas (one IPU each)")->check(CLI::Range(1u, 64u));
  cli.add_option("--batch", cfg.batchSize, "Batch size per replica")->check(positive);
  cli.add_option("--steps", steps, "Training steps per timed run")->check(positive);
  cli.add_option("--reps", reps, "Timed runs of each (medians are reported)")->check(positive);
  cli.add_option("--keep", cfg.keepProbability,
                 "Dropout keep probability (1: no dropout, and the losses are compared)")
      ->check(CLI::Range(0.05f, 1.0f));
  cli.add_option("--tiles", tiles, "Tiles per simulated IPU")->check(CLI::Range(16u, 1472u));
  cli.parseOrExit(argc, argv);

  const unsigned R = replicas, B = cfg.batchSize;
  const auto buildStart = Clock::now();
  IPUModel model("ipu2");
  model.numIPUs = R;
  model.tilesPerIPU = tiles;
  Device device = model.createDevice();
  Graph graph(device.getTarget(), R);
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);
  poprand::addCodelets(graph);
  Engine engine(graph, program::Repeat(steps, buildCnnTrainingStep(graph, cfg)));
  engine.load(device);
  const double buildSeconds = seconds(buildStart, Clock::now());

  // Each replica reads its own shard of batches, the same ones the host model reads.
  const std::size_t batches = std::size_t(steps) * (reps + 1);
  const Dataset data = makeDataset(unsigned(batches * B * R), 2024);
  const std::size_t shard = batches * B;
  std::vector<std::vector<float>> deviceLosses(R);
  std::vector<std::uint32_t> seedCount(R, 0);
  for (unsigned r = 0; r < R; ++r) {
    float* img = const_cast<float*>(data.images.data()) + r * shard * Dataset::kPixels;
    unsigned* lab = const_cast<unsigned*>(data.labels.data()) + r * shard;
    engine.connectStream("images", r, img, img + shard * Dataset::kPixels);
    engine.connectStream("labels", r, lab, lab + shard);
    engine.connectStreamToCallback("seed", r, [&seedCount, r](void* p) {
      auto* s = static_cast<std::uint32_t*>(p);
      s[0] = r + 1;
      s[1] = seedCount[r]++;
    });
    engine.connectStreamToCallback("loss", r, [&deviceLosses, r, B](void* p) {
      const float* l = static_cast<const float*>(p);
      deviceLosses[r].push_back(std::accumulate(l, l + B, 0.0f) / float(B));
    });
    engine.connectStreamToCallback("correct", r, [](void*) {});
  }

  HostCnn host(cfg);
  std::vector<float> hostLosses;
  std::size_t hostBatch = 0;
  const auto hostRun = [&] {
    for (unsigned s = 0; s < steps; ++s, ++hostBatch) {
      std::vector<const float*> imgs;
      std::vector<const unsigned*> labs;
      for (unsigned r = 0; r < R; ++r) {
        const std::size_t sample = r * shard + hostBatch * B;
        imgs.push_back(data.images.data() + sample * Dataset::kPixels);
        labs.push_back(data.labels.data() + sample);
      }
      hostLosses.push_back(host.step(imgs, labs));
    }
  };

  // One warm-up run of each, then interleaved timed runs so machine noise affects both alike.
  std::vector<double> engineTimes, hostTimes;
  engine.run();
  hostRun();
  for (unsigned k = 0; k < reps; ++k) {
    const auto t0 = Clock::now();
    engine.run();
    const auto t1 = Clock::now();
    hostRun();
    const auto t2 = Clock::now();
    engineTimes.push_back(seconds(t0, t1) / steps);
    hostTimes.push_back(seconds(t1, t2) / steps);
  }

  // The device's per-step loss: the mean over the replicas, as the host model computes it.
  std::vector<float> engineLosses(hostLosses.size(), 0.0f);
  double maxDiff = 0;
  for (std::size_t i = 0; i < hostLosses.size(); ++i) {
    for (unsigned r = 0; r < R; ++r)
      engineLosses[i] += deviceLosses[r].at(i) / float(R);
    maxDiff = std::max(maxDiff, double(std::fabs(engineLosses[i] - hostLosses[i])));
  }
  const double e = median(engineTimes), h = median(hostTimes);
  std::printf("tessera-cnn training step: %u replicas x batch %u, %u tiles per IPU, keep %.2f, "
              "median of %u runs of %u steps\n",
              R, B, tiles, double(cfg.keepProbability), reps, steps);
  std::printf("  engine (simulated IPUs, gcl all-reduce):   %9.2f ms per step\n", e * 1e3);
  std::printf("  plain C++ on the host (same math):         %9.2f ms per step\n", h * 1e3);
  std::printf("  ratio engine / host:                       %9.2f x\n", e / h);
  const double eMin = *std::min_element(engineTimes.begin(), engineTimes.end());
  const double hMin = *std::min_element(hostTimes.begin(), hostTimes.end());
  std::printf("  ratio of the fastest runs:                 %9.2f x (%.2f ms / %.2f ms)\n",
              eMin / hMin, eMin * 1e3, hMin * 1e3);
  std::printf("  graph build + compile + load:              %9.2f ms\n", buildSeconds * 1e3);
  std::printf("  loss, mean over the replicas: engine %.4f -> %.4f, host %.4f -> %.4f\n",
              double(engineLosses.front()), double(engineLosses.back()), double(hostLosses.front()),
              double(hostLosses.back()));
  if (cfg.keepProbability >= 1.0f) {
    std::printf("  largest difference between the per-step losses: %.2e\n", maxDiff);
    if (maxDiff > 1e-3 * (1 + std::fabs(double(hostLosses.front())))) {
      std::fprintf(stderr, "bench_cnn: the engine's losses differ from the host model's\n");
      return 1;
    }
  }
  return 0;
}
