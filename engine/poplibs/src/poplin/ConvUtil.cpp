// poplin's ConvUtil index and range helpers: which input, kernel and output elements of one
// spatial dimension meet in a convolution, after every transform of ConvParams. Indices are
// mapped through the transforms exactly; ranges are found by walking the (small) ranges given
// and keeping the first and last index that takes part, so they are always exact (PopLibs
// computes a quick bound and walks only when the bound may be loose; the answers agree).
#include <algorithm>
#include <poplin/ConvUtil.hpp>
#include <poputil/exceptions.hpp>
#include <string>

namespace poplin {
namespace {

using Range = std::pair<unsigned, unsigned>;
constexpr unsigned kNone = ~0U;

struct Axis {
  unsigned size, truncLower, truncUpper, dilation, padLower, padUpper;
  bool flip;
  unsigned truncated() const { return size - truncLower - truncUpper; }
  unsigned transformedSize() const {
    return padLower + getDilatedSize(truncated(), dilation) + padUpper;
  }
  /// The index after truncation, dilation, padding and flipping; kNone if truncated away.
  unsigned forward(unsigned index) const {
    if (index < truncLower || index >= size - truncUpper) return kNone;
    const unsigned padded = (index - truncLower) * dilation + padLower;
    return flip ? transformedSize() - 1 - padded : padded;
  }
  /// The element landing at transformed `index`; kNone for padding or dilation zeros.
  unsigned backward(unsigned index) const {
    if (index >= transformedSize()) return kNone;
    const unsigned padded = flip ? transformedSize() - 1 - index : index;
    if (padded < padLower || padded >= transformedSize() - padUpper) return kNone;
    const unsigned dilated = padded - padLower;
    if (dilated % dilation) return kNone;
    return dilated / dilation + truncLower;
  }
};

Axis inputAxis(const ConvParams& p, unsigned d) {
  const auto& t = p.inputTransform;
  return {unsigned(p.inputFieldShape[d]),
          t.truncationLower[d],
          t.truncationUpper[d],
          t.dilation[d],
          t.paddingLower[d],
          t.paddingUpper[d],
          bool(t.flip[d])};
}
Axis kernelAxis(const ConvParams& p, unsigned d) {
  const auto& t = p.kernelTransform;
  return {unsigned(p.kernelShape[d]), t.truncationLower[d], t.truncationUpper[d], t.dilation[d],
          t.paddingLower[d],          t.paddingUpper[d],    bool(t.flip[d])};
}

ConvParams checked(const ConvParams& params, unsigned dim, const char* fn) {
  const ConvParams p = params.canonicalize();
  if (dim >= p.getNumFieldDims())
    throw poputil::poplibs_error(std::string("poplin::") + fn + ": dimension " +
                                 std::to_string(dim) + " out of range (the convolution has " +
                                 std::to_string(p.getNumFieldDims()) + " field dimensions)");
  return p;
}

/// The untransformed output index of (transformed) output `out`; kNone for output padding.
unsigned untransformedOutput(const ConvParams& p, unsigned d, unsigned out) {
  const auto& o = p.outputTransform;
  if (out >= p.getOutputSize(d) || out < o.paddingLower[d] ||
      out >= p.getOutputSize(d) - o.paddingUpper[d])
    return kNone;
  return (out - o.paddingLower[d]) * o.stride[d] + o.truncationLower[d];
}

unsigned inputIndex(const ConvParams& p, unsigned d, unsigned out, unsigned k) {
  const unsigned paddedKernel = kernelAxis(p, d).forward(k);
  const unsigned u = untransformedOutput(p, d, out);
  if (paddedKernel == kNone || u == kNone) return kNone;
  return inputAxis(p, d).backward(u + paddedKernel);
}

unsigned kernelIndex(const ConvParams& p, unsigned d, unsigned out, unsigned in) {
  const unsigned paddedInput = inputAxis(p, d).forward(in);
  const unsigned u = untransformedOutput(p, d, out);
  if (paddedInput == kNone || u == kNone || u > paddedInput) return kNone;
  return kernelAxis(p, d).backward(paddedInput - u);
}

/// Grows [first, last] to take in `v` (kNone is nothing).
struct Span {
  unsigned first = kNone, last = 0;
  void add(unsigned v) {
    if (v == kNone) return;
    first = std::min(first, v);
    last = std::max(last, v);
  }
  Range range() const { return first == kNone ? Range{0, 0} : Range{first, last + 1}; }
};

Range clampOutput(const ConvParams& p, unsigned d, Range r) {
  return {std::min<unsigned>(r.first, unsigned(p.getOutputSize(d))),
          std::min<unsigned>(r.second, unsigned(p.getOutputSize(d)))};
}

} // namespace

unsigned getDilatedSize(unsigned size, unsigned dilation) {
  return size == 0 ? 0 : 1 + (size - 1) * dilation;
}

unsigned getInputIndex(unsigned dim, unsigned outputIndex, unsigned kernelIndexValue,
                       const ConvParams& params) {
  const ConvParams p = checked(params, dim, "getInputIndex");
  if (kernelIndexValue >= p.kernelShape[dim]) return kNone;
  return inputIndex(p, dim, outputIndex, kernelIndexValue);
}

unsigned getKernelIndex(unsigned dim, unsigned outputIndex, unsigned inputIndexValue,
                        const ConvParams& params) {
  const ConvParams p = checked(params, dim, "getKernelIndex");
  if (inputIndexValue >= p.inputFieldShape[dim]) return kNone;
  return kernelIndex(p, dim, outputIndex, inputIndexValue);
}

std::pair<unsigned, unsigned>
getOutputRangeForKernelRange(unsigned dim, std::pair<unsigned, unsigned> outputRange,
                             std::pair<unsigned, unsigned> kernelRange, const ConvParams& params) {
  const ConvParams p = checked(params, dim, "getOutputRangeForKernelRange");
  const Range out = clampOutput(p, dim, outputRange);
  Span s;
  for (unsigned o = out.first; o < out.second; ++o)
    for (unsigned k = kernelRange.first;
         k < std::min<unsigned>(kernelRange.second, unsigned(p.kernelShape[dim])); ++k)
      if (inputIndex(p, dim, o, k) != kNone) {
        s.add(o);
        break;
      }
  return s.range();
}

std::pair<unsigned, unsigned>
getOutputRangeForKernelIndex(unsigned dim, std::pair<unsigned, unsigned> outputRange,
                             unsigned kernelIndexValue, const ConvParams& params) {
  return getOutputRangeForKernelRange(dim, outputRange, {kernelIndexValue, kernelIndexValue + 1},
                                      params);
}

std::pair<unsigned, unsigned> getOutputRangeForInputRange(unsigned dim,
                                                          std::pair<unsigned, unsigned> outputRange,
                                                          std::pair<unsigned, unsigned> inputRange,
                                                          const ConvParams& params) {
  const ConvParams p = checked(params, dim, "getOutputRangeForInputRange");
  const Range out = clampOutput(p, dim, outputRange);
  const unsigned inEnd = std::min<unsigned>(inputRange.second, unsigned(p.inputFieldShape[dim]));
  Span s;
  for (unsigned o = out.first; o < out.second; ++o)
    for (unsigned i = inputRange.first; i < inEnd; ++i)
      if (kernelIndex(p, dim, o, i) != kNone) {
        s.add(o);
        break;
      }
  return s.range();
}

std::pair<unsigned, unsigned> getOutputRangeForInputIndex(unsigned dim,
                                                          std::pair<unsigned, unsigned> outputRange,
                                                          unsigned inputIndexValue,
                                                          const ConvParams& params) {
  return getOutputRangeForInputRange(dim, outputRange, {inputIndexValue, inputIndexValue + 1},
                                     params);
}

std::pair<unsigned, unsigned> getInputRange(unsigned dim, std::pair<unsigned, unsigned> outputRange,
                                            std::pair<unsigned, unsigned> kernelRange,
                                            const ConvParams& params) {
  const ConvParams p = checked(params, dim, "getInputRange");
  const Range out = clampOutput(p, dim, outputRange);
  const unsigned kEnd = std::min<unsigned>(kernelRange.second, unsigned(p.kernelShape[dim]));
  Span s;
  for (unsigned o = out.first; o < out.second; ++o)
    for (unsigned k = kernelRange.first; k < kEnd; ++k)
      s.add(inputIndex(p, dim, o, k));
  return s.range();
}

std::pair<unsigned, unsigned> getInputRange(unsigned dim, std::pair<unsigned, unsigned> outputRange,
                                            unsigned kernelIndexValue, const ConvParams& params) {
  return getInputRange(dim, outputRange, {kernelIndexValue, kernelIndexValue + 1}, params);
}

std::pair<unsigned, unsigned> getKernelRange(unsigned dim,
                                             std::pair<unsigned, unsigned> outputRange,
                                             std::pair<unsigned, unsigned> inputRange,
                                             const ConvParams& params) {
  const ConvParams p = checked(params, dim, "getKernelRange");
  const Range out = clampOutput(p, dim, outputRange);
  const unsigned inEnd = std::min<unsigned>(inputRange.second, unsigned(p.inputFieldShape[dim]));
  Span s;
  for (unsigned o = out.first; o < out.second; ++o)
    for (unsigned i = inputRange.first; i < inEnd; ++i)
      s.add(kernelIndex(p, dim, o, i));
  return s.range();
}

std::pair<unsigned, unsigned> getKernelRange(unsigned dim,
                                             std::pair<unsigned, unsigned> outputRange,
                                             unsigned inputIndexValue, const ConvParams& params) {
  return getKernelRange(dim, outputRange, {inputIndexValue, inputIndexValue + 1}, params);
}

ConvParams getWeightUpdateParams(const ConvParams& fwdParams) {
  // The weight update convolves the activations (batch and input channels swapped) with the
  // output gradients as the kernel: the forward output transform becomes the kernel's
  // (its padding truncated away, its stride a dilation, its truncation padding), the forward
  // kernel transform the output's, and a flipped forward kernel flips both operands.
  const ConvParams fwd = fwdParams.canonicalize();
  fwd.validate();
  const std::size_t dims = fwd.getNumFieldDims();
  auto inputTransform = fwd.inputTransform;
  std::vector<bool> kernelFlip(dims, false);
  for (std::size_t d = 0; d < dims; ++d)
    if (fwd.kernelTransform.flip[d]) {
      inputTransform.flip[d] = !inputTransform.flip[d];
      kernelFlip[d] = true;
    }
  const auto& kt = fwd.kernelTransform;
  const auto& ot = fwd.outputTransform;
  ConvParams::InputTransform kernelTransform(ot.paddingLower, ot.paddingUpper, ot.stride,
                                             ot.truncationLower, ot.truncationUpper, kernelFlip);
  ConvParams::OutputTransform outputTransform(kt.paddingLower, kt.paddingUpper, kt.dilation,
                                              kt.truncationLower, kt.truncationUpper);
  ConvParams wu(fwd.inputType, fwd.outputType, fwd.getNumInputChansPerConvGroup(),
                fwd.inputFieldShape, fwd.getOutputFieldShape(), fwd.getBatchSize(),
                fwd.getNumOutputChansPerConvGroup(), fwd.numConvGroups, inputTransform,
                kernelTransform, outputTransform);
  return wu.canonicalize();
}

} // namespace poplin
