#include <ostream>
#include <poplin/ConvParams.hpp>
#include <poplin/ConvUtil.hpp>
#include <poputil/exceptions.hpp>
#include <sstream>
#include <string>

namespace poplin {
namespace {

template <typename T> std::string list(const std::vector<T>& v) {
  std::string s;
  for (const auto& x : v)
    s += (s.empty() ? "" : ",") + std::to_string(x);
  return "{" + s + "}";
}

std::size_t hashCombine(std::size_t seed, std::size_t v) {
  return seed ^ (v + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

template <typename T> std::size_t hashRange(std::size_t seed, const std::vector<T>& v) {
  seed = hashCombine(seed, v.size());
  for (const auto& x : v)
    seed = hashCombine(seed, std::hash<T>()(x));
  return seed;
}

unsigned transformed(std::size_t size, const ConvParams::InputTransform& t, unsigned dim) {
  const unsigned truncated = unsigned(size) - t.truncationLower[dim] - t.truncationUpper[dim];
  const unsigned dilated = truncated == 0 ? 0 : (truncated - 1) * t.dilation[dim] + 1;
  return dilated + t.paddingLower[dim] + t.paddingUpper[dim];
}

void checkTransform(const ConvParams::InputTransform& t, const std::vector<std::size_t>& shape,
                    const char* which) {
  const std::size_t n = shape.size();
  const auto checkLen = [&](std::size_t got, const char* member) {
    if (got != n)
      throw poputil::poplibs_error(std::string("poplin::ConvParams: ") + which + "." + member +
                                   " has " + std::to_string(got) + " entries but the field has " +
                                   std::to_string(n) + " dimensions");
  };
  checkLen(t.truncationLower.size(), "truncationLower");
  checkLen(t.truncationUpper.size(), "truncationUpper");
  checkLen(t.dilation.size(), "dilation");
  checkLen(t.paddingLower.size(), "paddingLower");
  checkLen(t.paddingUpper.size(), "paddingUpper");
  checkLen(t.flip.size(), "flip");
  for (std::size_t d = 0; d < n; ++d) {
    if (t.dilation[d] == 0)
      throw poputil::poplibs_error(std::string("poplin::ConvParams: ") + which + ".dilation[" +
                                   std::to_string(d) + "] is 0; it must be at least 1");
    if (std::size_t(t.truncationLower[d]) + t.truncationUpper[d] > shape[d])
      throw poputil::poplibs_error(std::string("poplin::ConvParams: ") + which +
                                   " truncation of dimension " + std::to_string(d) + " (" +
                                   std::to_string(t.truncationLower[d]) + " + " +
                                   std::to_string(t.truncationUpper[d]) +
                                   ") is larger than its size " + std::to_string(shape[d]));
  }
}

} // namespace

ConvParams::InputTransform::InputTransform(const std::size_t size)
    : truncationLower(size, 0), truncationUpper(size, 0), dilation(size, 1), paddingLower(size, 0),
      paddingUpper(size, 0), flip(size, false) {}

ConvParams::InputTransform::InputTransform(std::vector<unsigned> truncationLower_,
                                           std::vector<unsigned> truncationUpper_,
                                           std::vector<unsigned> dilation_,
                                           std::vector<unsigned> paddingLower_,
                                           std::vector<unsigned> paddingUpper_,
                                           std::vector<bool> flip_)
    : truncationLower(std::move(truncationLower_)), truncationUpper(std::move(truncationUpper_)),
      dilation(std::move(dilation_)), paddingLower(std::move(paddingLower_)),
      paddingUpper(std::move(paddingUpper_)), flip(std::move(flip_)) {}

bool operator<(const ConvParams::InputTransform& a, const ConvParams::InputTransform& b) {
  return std::tie(a.truncationLower, a.truncationUpper, a.dilation, a.paddingLower, a.paddingUpper,
                  a.flip) < std::tie(b.truncationLower, b.truncationUpper, b.dilation,
                                     b.paddingLower, b.paddingUpper, b.flip);
}
bool operator==(const ConvParams::InputTransform& a, const ConvParams::InputTransform& b) {
  return std::tie(a.truncationLower, a.truncationUpper, a.dilation, a.paddingLower, a.paddingUpper,
                  a.flip) == std::tie(b.truncationLower, b.truncationUpper, b.dilation,
                                      b.paddingLower, b.paddingUpper, b.flip);
}
bool operator!=(const ConvParams::InputTransform& a, const ConvParams::InputTransform& b) {
  return !(a == b);
}

ConvParams::OutputTransform::OutputTransform(const std::size_t size)
    : truncationLower(size, 0), truncationUpper(size, 0), stride(size, 1), paddingLower(size, 0),
      paddingUpper(size, 0) {}

ConvParams::OutputTransform::OutputTransform(std::vector<unsigned> truncationLower_,
                                             std::vector<unsigned> truncationUpper_,
                                             std::vector<unsigned> striding,
                                             std::vector<unsigned> paddingLower_,
                                             std::vector<unsigned> paddingUpper_)
    : truncationLower(std::move(truncationLower_)), truncationUpper(std::move(truncationUpper_)),
      stride(std::move(striding)), paddingLower(std::move(paddingLower_)),
      paddingUpper(std::move(paddingUpper_)) {}

bool operator<(const ConvParams::OutputTransform& a, const ConvParams::OutputTransform& b) {
  return std::tie(a.truncationLower, a.truncationUpper, a.stride, a.paddingLower, a.paddingUpper) <
         std::tie(b.truncationLower, b.truncationUpper, b.stride, b.paddingLower, b.paddingUpper);
}
bool operator==(const ConvParams::OutputTransform& a, const ConvParams::OutputTransform& b) {
  return std::tie(a.truncationLower, a.truncationUpper, a.stride, a.paddingLower, a.paddingUpper) ==
         std::tie(b.truncationLower, b.truncationUpper, b.stride, b.paddingLower, b.paddingUpper);
}
bool operator!=(const ConvParams::OutputTransform& a, const ConvParams::OutputTransform& b) {
  return !(a == b);
}

ConvParams::ConvParams(poplar::Type dataType, std::size_t batchSize_,
                       std::vector<std::size_t> inputFieldShape_,
                       std::vector<std::size_t> kernelShape_, std::size_t inputChannels,
                       std::size_t outputChannels, std::size_t numConvGroups_)
    : ConvParams(dataType, dataType, batchSize_, std::move(inputFieldShape_),
                 std::move(kernelShape_), inputChannels, outputChannels, numConvGroups_) {}

ConvParams::ConvParams(poplar::Type inputType_, poplar::Type outputType_, std::size_t batchSize_,
                       std::vector<std::size_t> inputFieldShape_,
                       std::vector<std::size_t> kernelShape_, std::size_t inputChannels,
                       std::size_t outputChannels, std::size_t numConvGroups_)
    : inputType(inputType_), outputType(outputType_), batchSize(batchSize_),
      inputFieldShape(std::move(inputFieldShape_)), kernelShape(std::move(kernelShape_)),
      inputChannelsPerConvGroup(inputChannels), outputChannelsPerConvGroup(outputChannels),
      numConvGroups(numConvGroups_), inputTransform(inputFieldShape.size()),
      kernelTransform(inputFieldShape.size()), outputTransform(inputFieldShape.size()) {}

ConvParams::ConvParams(poplar::Type inputType_, poplar::Type outputType_, std::size_t batchSize_,
                       std::vector<std::size_t> inputFieldShape_,
                       std::vector<std::size_t> kernelShape_, std::size_t inputChannels,
                       std::size_t outputChannels, std::size_t numConvGroups_,
                       InputTransform inputTransform_, InputTransform kernelTransform_,
                       OutputTransform outputTransform_)
    : inputType(inputType_), outputType(outputType_), batchSize(batchSize_),
      inputFieldShape(std::move(inputFieldShape_)), kernelShape(std::move(kernelShape_)),
      inputChannelsPerConvGroup(inputChannels), outputChannelsPerConvGroup(outputChannels),
      numConvGroups(numConvGroups_), inputTransform(std::move(inputTransform_)),
      kernelTransform(std::move(kernelTransform_)), outputTransform(std::move(outputTransform_)) {}

unsigned ConvParams::getTruncatedInputSize(unsigned dim) const {
  return unsigned(inputFieldShape[dim]) - inputTransform.truncationLower[dim] -
         inputTransform.truncationUpper[dim];
}

unsigned ConvParams::getTruncatedKernelSize(unsigned dim) const {
  return unsigned(kernelShape[dim]) - kernelTransform.truncationLower[dim] -
         kernelTransform.truncationUpper[dim];
}

unsigned ConvParams::getTransformedInputSize(unsigned dim) const {
  return transformed(inputFieldShape[dim], inputTransform, dim);
}

unsigned ConvParams::getTransformedKernelSize(unsigned dim) const {
  return transformed(kernelShape[dim], kernelTransform, dim);
}

std::size_t ConvParams::getUntransformedOutputSize(unsigned dim) const {
  const unsigned in = getTransformedInputSize(dim), k = getTransformedKernelSize(dim);
  return in + 1 > k ? in + 1 - k : 0;
}

std::size_t ConvParams::getOutputSize(unsigned dim) const {
  const std::size_t untransformed = getUntransformedOutputSize(dim);
  const std::size_t cut =
      std::size_t(outputTransform.truncationLower[dim]) + outputTransform.truncationUpper[dim];
  const std::size_t truncated = untransformed > cut ? untransformed - cut : 0;
  const unsigned stride = outputTransform.stride[dim];
  return (truncated + stride - 1) / stride + outputTransform.paddingLower[dim] +
         outputTransform.paddingUpper[dim];
}

std::vector<std::size_t> ConvParams::getOutputFieldShape() const {
  std::vector<std::size_t> shape;
  for (unsigned d = 0; d < getNumFieldDims(); ++d)
    shape.push_back(getOutputSize(d));
  return shape;
}

void ConvParams::validate() const {
  const std::string op = "poplin::ConvParams";
  if (inputType != poplar::FLOAT && inputType != poplar::HALF)
    throw poputil::poplibs_error(op + ": inputType is " + inputType.toString() +
                                 "; supported: float, half");
  if (outputType != poplar::FLOAT && outputType != poplar::HALF)
    throw poputil::poplibs_error(op + ": outputType is " + outputType.toString() +
                                 "; supported: float, half");
  if (kernelShape.size() != inputFieldShape.size())
    throw poputil::poplibs_error(op + ": kernelShape " + list(kernelShape) +
                                 " and inputFieldShape " + list(inputFieldShape) +
                                 " have different numbers of dimensions");
  if (batchSize == 0) throw poputil::poplibs_error(op + ": batchSize is 0");
  if (numConvGroups == 0) throw poputil::poplibs_error(op + ": numConvGroups is 0");
  if (inputChannelsPerConvGroup == 0)
    throw poputil::poplibs_error(op + ": inputChannelsPerConvGroup is 0");
  if (outputChannelsPerConvGroup == 0)
    throw poputil::poplibs_error(op + ": outputChannelsPerConvGroup is 0");
  checkTransform(inputTransform, inputFieldShape, "inputTransform");
  checkTransform(kernelTransform, kernelShape, "kernelTransform");
  const std::size_t n = inputFieldShape.size();
  const auto& ot = outputTransform;
  const auto checkLen = [&](std::size_t got, const char* member) {
    if (got != n)
      throw poputil::poplibs_error(op + ": outputTransform." + member + " has " +
                                   std::to_string(got) + " entries but the field has " +
                                   std::to_string(n) + " dimensions");
  };
  checkLen(ot.truncationLower.size(), "truncationLower");
  checkLen(ot.truncationUpper.size(), "truncationUpper");
  checkLen(ot.stride.size(), "stride");
  checkLen(ot.paddingLower.size(), "paddingLower");
  checkLen(ot.paddingUpper.size(), "paddingUpper");
  for (unsigned d = 0; d < n; ++d) {
    if (ot.stride[d] == 0)
      throw poputil::poplibs_error(op + ": outputTransform.stride[" + std::to_string(d) +
                                   "] is 0; it must be at least 1");
    if (kernelShape[d] == 0 || getTruncatedKernelSize(d) == 0)
      throw poputil::poplibs_error(op + ": the kernel is empty in dimension " + std::to_string(d));
    if (getTransformedKernelSize(d) > getTransformedInputSize(d))
      throw poputil::poplibs_error(
          op + ": in dimension " + std::to_string(d) + " the transformed kernel (" +
          std::to_string(getTransformedKernelSize(d)) + ") is larger than the transformed input (" +
          std::to_string(getTransformedInputSize(d)) + ")");
    if (std::size_t(ot.truncationLower[d]) + ot.truncationUpper[d] > getUntransformedOutputSize(d))
      throw poputil::poplibs_error(op + ": outputTransform truncation of dimension " +
                                   std::to_string(d) + " is larger than the output (" +
                                   std::to_string(getUntransformedOutputSize(d)) + ")");
  }
}

ConvParams ConvParams::canonicalize() const {
  ConvParams p = *this;
  const std::size_t n = inputFieldShape.size();
  const auto fill = [n](InputTransform& t) {
    if (t.truncationLower.empty()) t.truncationLower.assign(n, 0);
    if (t.truncationUpper.empty()) t.truncationUpper.assign(n, 0);
    if (t.dilation.empty()) t.dilation.assign(n, 1);
    if (t.paddingLower.empty()) t.paddingLower.assign(n, 0);
    if (t.paddingUpper.empty()) t.paddingUpper.assign(n, 0);
    if (t.flip.empty()) t.flip.assign(n, false);
  };
  fill(p.inputTransform);
  fill(p.kernelTransform);
  auto& ot = p.outputTransform;
  if (ot.truncationLower.empty()) ot.truncationLower.assign(n, 0);
  if (ot.truncationUpper.empty()) ot.truncationUpper.assign(n, 0);
  if (ot.stride.empty()) ot.stride.assign(n, 1);
  if (ot.paddingLower.empty()) ot.paddingLower.assign(n, 0);
  if (ot.paddingUpper.empty()) ot.paddingUpper.assign(n, 0);
  return p;
}

bool operator<(const ConvParams& a, const ConvParams& b) {
  return std::tie(a.inputType, a.outputType, a.batchSize, a.inputFieldShape, a.kernelShape,
                  a.inputChannelsPerConvGroup, a.outputChannelsPerConvGroup, a.numConvGroups,
                  a.inputTransform, a.kernelTransform, a.outputTransform) <
         std::tie(b.inputType, b.outputType, b.batchSize, b.inputFieldShape, b.kernelShape,
                  b.inputChannelsPerConvGroup, b.outputChannelsPerConvGroup, b.numConvGroups,
                  b.inputTransform, b.kernelTransform, b.outputTransform);
}
bool operator==(const ConvParams& a, const ConvParams& b) {
  return std::tie(a.inputType, a.outputType, a.batchSize, a.inputFieldShape, a.kernelShape,
                  a.inputChannelsPerConvGroup, a.outputChannelsPerConvGroup, a.numConvGroups,
                  a.inputTransform, a.kernelTransform, a.outputTransform) ==
         std::tie(b.inputType, b.outputType, b.batchSize, b.inputFieldShape, b.kernelShape,
                  b.inputChannelsPerConvGroup, b.outputChannelsPerConvGroup, b.numConvGroups,
                  b.inputTransform, b.kernelTransform, b.outputTransform);
}
bool operator!=(const ConvParams& a, const ConvParams& b) {
  return !(a == b);
}

std::ostream& operator<<(std::ostream& os, const ConvParams& p) {
  os << "Params: inputType " << p.inputType << ", outputType " << p.outputType << "\n"
     << "        batchSize " << p.batchSize << ", numConvGroups " << p.numConvGroups << "\n"
     << "        inputFieldShape " << list(p.inputFieldShape) << ", kernelShape "
     << list(p.kernelShape) << "\n"
     << "        inputChannelsPerConvGroup " << p.inputChannelsPerConvGroup
     << ", outputChannelsPerConvGroup " << p.outputChannelsPerConvGroup << "\n";
  const auto transform = [&os](const char* name, const ConvParams::InputTransform& t) {
    std::vector<unsigned> flip(t.flip.begin(), t.flip.end());
    os << "        " << name << ": truncation " << list(t.truncationLower) << "/"
       << list(t.truncationUpper) << ", dilation " << list(t.dilation) << ", padding "
       << list(t.paddingLower) << "/" << list(t.paddingUpper) << ", flip " << list(flip) << "\n";
  };
  transform("inputTransform", p.inputTransform);
  transform("kernelTransform", p.kernelTransform);
  const auto& o = p.outputTransform;
  os << "        outputTransform: truncation " << list(o.truncationLower) << "/"
     << list(o.truncationUpper) << ", stride " << list(o.stride) << ", padding "
     << list(o.paddingLower) << "/" << list(o.paddingUpper) << "\n";
  std::vector<std::size_t> out;
  if (p.kernelShape.size() == p.inputFieldShape.size()) out = p.getOutputFieldShape();
  os << "        outputFieldShape " << list(out);
  return os;
}

std::size_t hash_value(const ConvParams::InputTransform& it) {
  std::size_t seed = 0;
  seed = hashRange(seed, it.truncationLower);
  seed = hashRange(seed, it.truncationUpper);
  seed = hashRange(seed, it.dilation);
  seed = hashRange(seed, it.paddingLower);
  seed = hashRange(seed, it.paddingUpper);
  std::vector<unsigned> flip(it.flip.begin(), it.flip.end());
  return hashRange(seed, flip);
}

std::size_t hash_value(const ConvParams::OutputTransform& ot) {
  std::size_t seed = 0;
  seed = hashRange(seed, ot.truncationLower);
  seed = hashRange(seed, ot.truncationUpper);
  seed = hashRange(seed, ot.stride);
  seed = hashRange(seed, ot.paddingLower);
  return hashRange(seed, ot.paddingUpper);
}

ConvParams getGradientParams(const ConvParams& fwd) {
  const std::string op = "poplin::getGradientParams";
  const ConvParams p = fwd.canonicalize();
  p.validate();
  const std::size_t n = p.getNumFieldDims();
  ConvParams bwd(p.outputType, p.inputType, p.batchSize, p.getOutputFieldShape(), p.kernelShape,
                 p.outputChannelsPerConvGroup, p.inputChannelsPerConvGroup, p.numConvGroups);
  for (unsigned d = 0; d < n; ++d) {
    const auto dim = " of dimension " + std::to_string(d);
    if (p.inputTransform.dilation[d] != 1)
      throw poputil::poplibs_error(op + ": inputTransform.dilation" + dim + " is not supported");
    if (p.inputTransform.flip[d])
      throw poputil::poplibs_error(op + ": inputTransform.flip" + dim + " is not supported");
    if (p.kernelTransform.truncationLower[d] || p.kernelTransform.truncationUpper[d] ||
        p.kernelTransform.paddingLower[d] || p.kernelTransform.paddingUpper[d] ||
        p.kernelTransform.flip[d])
      throw poputil::poplibs_error(op + ": kernelTransform truncation, padding or flip" + dim +
                                   " is not supported");
    if (p.outputTransform.truncationLower[d] || p.outputTransform.truncationUpper[d] ||
        p.outputTransform.paddingLower[d] || p.outputTransform.paddingUpper[d])
      throw poputil::poplibs_error(op + ": outputTransform truncation or padding" + dim +
                                   " is not supported");
    // Forward: out[o] reads the padded input at o*s + k*kd. The input gradient at padded
    // position j collects dOut[o] * w[k] for each o*s + k*kd = j: a valid correlation of dOut
    // dilated by s with the flipped kernel, after padding dOut by (K-1)*kd - padLower below.
    const long s = p.outputTransform.stride[d];
    const long kd = p.kernelTransform.dilation[d];
    const long kExtent = (long(p.kernelShape[d]) - 1) * kd;
    const long padL = p.inputTransform.paddingLower[d];
    const long truncL = p.inputTransform.truncationLower[d];
    const long truncU = p.inputTransform.truncationUpper[d];
    const long inSize = long(p.inputFieldShape[d]);
    const long outSize = long(p.getOutputSize(d));
    const long dilatedOut = outSize == 0 ? 0 : (outSize - 1) * s + 1;
    // Gradient positions j cover the truncated input [0, inSize - truncL - truncU) at padded
    // positions padL + i; the result is then padded by the truncated amounts.
    const long lower = kExtent - padL;
    const long truncatedIn = inSize - truncL - truncU;
    const long upper = truncatedIn + kExtent - lower - dilatedOut;
    bwd.inputTransform.dilation[d] = unsigned(s);
    if (lower >= 0)
      bwd.inputTransform.paddingLower[d] = unsigned(lower);
    else
      bwd.inputTransform.truncationLower[d] =
          unsigned(-lower); // whole rows of dOut only when s == 1
    if (upper >= 0)
      bwd.inputTransform.paddingUpper[d] = unsigned(upper);
    else
      bwd.inputTransform.truncationUpper[d] = unsigned(-upper);
    if ((lower < 0 || upper < 0) && s != 1)
      throw poputil::poplibs_error(op + ": padding larger than the kernel" + dim +
                                   " with a stride is not supported");
    bwd.kernelTransform.dilation[d] = unsigned(kd);
    bwd.outputTransform.paddingLower[d] = unsigned(truncL);
    bwd.outputTransform.paddingUpper[d] = unsigned(truncU);
  }
  return bwd;
}

} // namespace poplin

std::size_t std::hash<poplin::ConvParams::InputTransform>::operator()(
    const poplin::ConvParams::InputTransform& it) const {
  return poplin::hash_value(it);
}

std::size_t std::hash<poplin::ConvParams::OutputTransform>::operator()(
    const poplin::ConvParams::OutputTransform& ot) const {
  return poplin::hash_value(ot);
}

std::size_t std::hash<poplin::ConvParams>::operator()(const poplin::ConvParams& p) const {
  std::size_t seed = 0;
  const auto combine = [&seed](std::size_t v) {
    seed ^= v + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
  };
  combine(std::size_t(p.inputType.id()));
  combine(std::size_t(p.outputType.id()));
  combine(p.batchSize);
  for (auto d : p.inputFieldShape)
    combine(d);
  for (auto d : p.kernelShape)
    combine(d);
  combine(p.inputChannelsPerConvGroup);
  combine(p.outputChannelsPerConvGroup);
  combine(p.numConvGroups);
  combine(poplin::hash_value(p.inputTransform));
  combine(poplin::hash_value(p.kernelTransform));
  combine(poplin::hash_value(p.outputTransform));
  return seed;
}
