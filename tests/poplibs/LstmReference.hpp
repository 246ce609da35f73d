// A basic LSTM in plain C++ (float, double accumulation): forward over a sequence, backward
// through time and the weights' gradients, in the layouts of popnn::lstm (weights [4,X,H] with
// the units in PopLibs' default order forget, input, candidate, output; sigmoid and tanh).
// The LSTM tests and the LSTM bench's baseline use it.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

namespace test {

struct HostLstm {
  std::size_t T, B, I, H;
  std::vector<float> wIn, wOut, bias; // [4,I,H], [4,H,H], [4,H]

  // Forward results: per step (t) the gates after activation [4,B,H], cell and output [B,H].
  std::vector<float> gates, cell, output;
  // Backward results.
  std::vector<float> dInput, dH0, dC0, dWIn, dWOut, dBias;

  static float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

  void forward(const std::vector<float>& x, const std::vector<float>& h0,
               const std::vector<float>& c0) {
    gates.assign(T * 4 * B * H, 0);
    cell.assign(T * B * H, 0);
    output.assign(T * B * H, 0);
    std::vector<double> pre(4 * H);
    for (std::size_t t = 0; t < T; ++t)
      for (std::size_t b = 0; b < B; ++b) {
        const float* hp = t ? &output[((t - 1) * B + b) * H] : &h0[b * H];
        const float* cp = t ? &cell[((t - 1) * B + b) * H] : &c0[b * H];
        const float* xt = &x[(t * B + b) * I];
        for (std::size_t u = 0; u < 4; ++u)
          for (std::size_t j = 0; j < H; ++j) {
            double s = bias[u * H + j];
            for (std::size_t k = 0; k < I; ++k)
              s += double(xt[k]) * wIn[(u * I + k) * H + j];
            for (std::size_t k = 0; k < H; ++k)
              s += double(hp[k]) * wOut[(u * H + k) * H + j];
            pre[u * H + j] = s;
          }
        for (std::size_t j = 0; j < H; ++j) {
          const float f = sigmoid(float(pre[j])), i = sigmoid(float(pre[H + j]));
          const float g = std::tanh(float(pre[2 * H + j])), o = sigmoid(float(pre[3 * H + j]));
          const float c = f * cp[j] + i * g;
          const float gv[4] = {f, i, g, o};
          for (std::size_t u = 0; u < 4; ++u)
            gates[((t * 4 + u) * B + b) * H + j] = gv[u];
          cell[(t * B + b) * H + j] = c;
          output[(t * B + b) * H + j] = o * std::tanh(c);
        }
      }
  }

  // dOut [T,B,H]: the gradient of every step's output.
  void backward(const std::vector<float>& x, const std::vector<float>& h0,
                const std::vector<float>& c0, const std::vector<float>& dOut) {
    dInput.assign(T * B * I, 0);
    dWIn.assign(4 * I * H, 0);
    dWOut.assign(4 * H * H, 0);
    dBias.assign(4 * H, 0);
    std::vector<float> dh(B * H, 0), dc(B * H, 0), dPre(4 * B * H);
    for (std::size_t t = T; t-- > 0;) {
      for (std::size_t b = 0; b < B; ++b)
        for (std::size_t j = 0; j < H; ++j) {
          auto gate = [&](std::size_t u) { return gates[((t * 4 + u) * B + b) * H + j]; };
          const float f = gate(0), i = gate(1), g = gate(2), o = gate(3);
          const float c = cell[(t * B + b) * H + j];
          const float cp = t ? cell[((t - 1) * B + b) * H + j] : c0[b * H + j];
          const float tc = std::tanh(c);
          const float dhv = dOut[(t * B + b) * H + j] + dh[b * H + j];
          const float dcv = dc[b * H + j] + dhv * o * (1 - tc * tc);
          dPre[(0 * B + b) * H + j] = dcv * cp * f * (1 - f);
          dPre[(1 * B + b) * H + j] = dcv * g * i * (1 - i);
          dPre[(2 * B + b) * H + j] = dcv * i * (1 - g * g);
          dPre[(3 * B + b) * H + j] = dhv * tc * o * (1 - o);
          dc[b * H + j] = dcv * f;
        }
      std::vector<float> dhPrev(B * H, 0);
      for (std::size_t b = 0; b < B; ++b) {
        const float* hp = t ? &output[((t - 1) * B + b) * H] : &h0[b * H];
        const float* xt = &x[(t * B + b) * I];
        for (std::size_t u = 0; u < 4; ++u)
          for (std::size_t j = 0; j < H; ++j) {
            const float d = dPre[(u * B + b) * H + j];
            dBias[u * H + j] += d;
            for (std::size_t k = 0; k < I; ++k) {
              dWIn[(u * I + k) * H + j] += xt[k] * d;
              dInput[(t * B + b) * I + k] += wIn[(u * I + k) * H + j] * d;
            }
            for (std::size_t k = 0; k < H; ++k) {
              dWOut[(u * H + k) * H + j] += hp[k] * d;
              dhPrev[b * H + k] += wOut[(u * H + k) * H + j] * d;
            }
          }
      }
      dh = dhPrev;
    }
    dH0 = dh;
    dC0 = dc;
  }
};

} // namespace test
