// A direct host convolution for the tests, written from ConvParams' definition: each spatial
// dimension's transformed input and kernel are listed position by position (truncate, dilate,
// pad, flip), the valid correlation pairs their positions, and the output transform picks and
// pads the results. Every pairing of a real input element with a real kernel element is a
// "tap"; the forward pass, the input gradient and the weight gradient are sums over the taps.
#pragma once

#include <cstddef>
#include <poplin/ConvParams.hpp>
#include <vector>

namespace test {

struct ConvTap {
  long out, in, kernel; ///< output index (with padding), real input index, real kernel index
};

/// The taps of dimension `dim`.
inline std::vector<ConvTap> convTaps(const poplin::ConvParams& p, unsigned dim) {
  const auto transform = [](std::size_t size, const poplin::ConvParams::InputTransform& t,
                            unsigned d) {
    std::vector<long> pos; // transformed position -> real index or -1
    const long truncated = long(size) - t.truncationLower[d] - t.truncationUpper[d];
    for (unsigned i = 0; i < t.paddingLower[d]; ++i)
      pos.push_back(-1);
    for (long i = 0; i < truncated; ++i) {
      if (i > 0)
        for (unsigned z = 1; z < t.dilation[d]; ++z)
          pos.push_back(-1);
      pos.push_back(long(t.truncationLower[d]) + i);
    }
    for (unsigned i = 0; i < t.paddingUpper[d]; ++i)
      pos.push_back(-1);
    if (t.flip[d]) std::vector<long>(pos.rbegin(), pos.rend()).swap(pos);
    return pos;
  };
  const auto in = transform(p.inputFieldShape[dim], p.inputTransform, dim);
  const auto k = transform(p.kernelShape[dim], p.kernelTransform, dim);
  const auto& ot = p.outputTransform;
  std::vector<ConvTap> taps;
  const long untransformed = long(in.size()) - long(k.size()) + 1;
  long o = 0;
  for (long u = ot.truncationLower[dim]; u < untransformed - long(ot.truncationUpper[dim]);
       u += ot.stride[dim], ++o)
    for (std::size_t j = 0; j < k.size(); ++j)
      if (in[u + j] >= 0 && k[j] >= 0)
        taps.push_back({long(ot.paddingLower[dim]) + o, in[u + j], k[j]});
  return taps;
}

/// Host convolution of a 2-D (or 1-D: give fieldDims 1) ConvParams on float data laid out as
/// poplin's tensors: in [B][G*Ci][field], w [G][Co][Ci][kernel], out [B][G*Co][out field].
struct HostConv {
  poplin::ConvParams p;
  std::vector<ConvTap> ty, tx; ///< taps per dimension (a single dummy tap for 1-D's rows)
  std::size_t H, W, KH, KW, OH, OW;

  explicit HostConv(const poplin::ConvParams& params) : p(params) {
    if (p.getNumFieldDims() == 1) {
      ty = {{0, 0, 0}};
      tx = convTaps(p, 0);
      H = KH = OH = 1;
      W = p.inputFieldShape[0], KW = p.kernelShape[0], OW = p.getOutputSize(0);
    } else {
      ty = convTaps(p, 0), tx = convTaps(p, 1);
      H = p.inputFieldShape[0], W = p.inputFieldShape[1];
      KH = p.kernelShape[0], KW = p.kernelShape[1];
      OH = p.getOutputSize(0), OW = p.getOutputSize(1);
    }
  }
  std::size_t inIndex(std::size_t b, std::size_t c, long y, long x) const {
    return ((b * p.getNumInputChans() + c) * H + y) * W + x;
  }
  std::size_t outIndex(std::size_t b, std::size_t c, long y, long x) const {
    return ((b * p.getNumOutputChans() + c) * OH + y) * OW + x;
  }
  std::size_t wIndex(std::size_t g, std::size_t oc, std::size_t ic, long y, long x) const {
    return (((g * p.outputChannelsPerConvGroup + oc) * p.inputChannelsPerConvGroup + ic) * KH + y) *
               KW +
           x;
  }
  /// Calls f(inIndex, wIndex, outIndex) for every multiply-add.
  template <typename F> void forEachMac(F&& f) const {
    const std::size_t G = p.numConvGroups, ci = p.inputChannelsPerConvGroup,
                      co = p.outputChannelsPerConvGroup;
    for (std::size_t b = 0; b < p.batchSize; ++b)
      for (std::size_t g = 0; g < G; ++g)
        for (std::size_t oc = 0; oc < co; ++oc)
          for (std::size_t ic = 0; ic < ci; ++ic)
            for (const auto& a : ty)
              for (const auto& c : tx)
                f(inIndex(b, g * ci + ic, a.in, c.in), wIndex(g, oc, ic, a.kernel, c.kernel),
                  outIndex(b, g * co + oc, a.out, c.out));
  }
  std::size_t outSize() const { return p.batchSize * p.getNumOutputChans() * OH * OW; }
  std::size_t inSize() const { return p.batchSize * p.getNumInputChans() * H * W; }
  std::size_t wSize() const {
    return p.numConvGroups * p.outputChannelsPerConvGroup * p.inputChannelsPerConvGroup * KH * KW;
  }
  std::vector<float> forward(const std::vector<float>& in, const std::vector<float>& w) const {
    std::vector<double> out(outSize());
    forEachMac(
        [&](std::size_t i, std::size_t k, std::size_t o) { out[o] += double(in[i]) * w[k]; });
    return {out.begin(), out.end()};
  }
  std::vector<float> inputGradient(const std::vector<float>& dOut,
                                   const std::vector<float>& w) const {
    std::vector<double> dIn(inSize());
    forEachMac(
        [&](std::size_t i, std::size_t k, std::size_t o) { dIn[i] += double(dOut[o]) * w[k]; });
    return {dIn.begin(), dIn.end()};
  }
  std::vector<float> weightGradient(const std::vector<float>& dOut,
                                    const std::vector<float>& in) const {
    std::vector<double> dW(wSize());
    forEachMac(
        [&](std::size_t i, std::size_t k, std::size_t o) { dW[k] += double(dOut[o]) * in[i]; });
    return {dW.begin(), dW.end()};
  }
};

} // namespace test
