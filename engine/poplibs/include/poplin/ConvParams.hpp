// The description of a convolution: batch, field and kernel shapes, channels and groups, and the
// transforms applied to the input, the kernel and the output (truncation, dilation, padding,
// flipping, striding), as poplin::convolution and its helpers take it.
//
// Each spatial dimension is transformed in this order:
//   input and kernel: truncate (lower/upper) -> dilate (zeros between elements) -> pad with
//                     zeros (lower/upper) -> flip;
//   output:           truncate (lower/upper) -> stride -> pad with zeros (lower/upper).
// The convolution itself is the "valid" correlation of the transformed input with the
// transformed kernel.
#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <poplar/Type.hpp>
#include <tuple>
#include <vector>

namespace poplin {

struct ConvParams {
  struct InputTransform {
    /// Elements removed from the start / end of each spatial dimension, before dilation.
    std::vector<unsigned> truncationLower;
    std::vector<unsigned> truncationUpper;
    /// 1 + the number of zeros placed between neighbouring elements, after truncation.
    std::vector<unsigned> dilation;
    /// Zeros added at the start / end of each spatial dimension, after dilation.
    std::vector<unsigned> paddingLower;
    std::vector<unsigned> paddingUpper;
    /// Whether each spatial dimension is reversed, after padding.
    std::vector<bool> flip;

    InputTransform() = default;
    /// The identity transform of `size` spatial dimensions.
    explicit InputTransform(const std::size_t size);
    InputTransform(std::vector<unsigned> truncationLower, std::vector<unsigned> truncationUpper,
                   std::vector<unsigned> dilation, std::vector<unsigned> paddingLower,
                   std::vector<unsigned> paddingUpper, std::vector<bool> flip);

    friend bool operator<(const InputTransform& a, const InputTransform& b);
    friend bool operator==(const InputTransform& a, const InputTransform& b);
    friend bool operator!=(const InputTransform& a, const InputTransform& b);
  };

  struct OutputTransform {
    /// Elements removed from the start / end of each spatial dimension, before striding.
    std::vector<unsigned> truncationLower;
    std::vector<unsigned> truncationUpper;
    /// Every stride-th element is kept, after truncation.
    std::vector<unsigned> stride;
    /// Zeros added at the start / end of each spatial dimension, after striding.
    std::vector<unsigned> paddingLower;
    std::vector<unsigned> paddingUpper;

    OutputTransform() = default;
    /// The identity transform of `size` spatial dimensions.
    explicit OutputTransform(const std::size_t size);
    OutputTransform(std::vector<unsigned> truncationLower, std::vector<unsigned> truncationUpper,
                    std::vector<unsigned> striding, std::vector<unsigned> paddingLower,
                    std::vector<unsigned> paddingUpper);

    friend bool operator<(const OutputTransform& a, const OutputTransform& b);
    friend bool operator==(const OutputTransform& a, const OutputTransform& b);
    friend bool operator!=(const OutputTransform& a, const OutputTransform& b);
  };

  poplar::Type inputType;
  poplar::Type outputType;
  /// Batch size (B).
  std::size_t batchSize = 0;
  /// The input field's shape, per channel of each batch element.
  std::vector<std::size_t> inputFieldShape;
  /// The kernel's shape, per channel.
  std::vector<std::size_t> kernelShape;
  /// Input channels per conv group (Ci).
  std::size_t inputChannelsPerConvGroup = 0;
  /// Output channels per conv group (Co).
  std::size_t outputChannelsPerConvGroup = 0;
  /// Number of groups (G) of a grouped convolution: group g convolves input channels
  /// [g*Ci, (g+1)*Ci) into output channels [g*Co, (g+1)*Co).
  std::size_t numConvGroups = 1;

  InputTransform inputTransform;
  InputTransform kernelTransform;
  OutputTransform outputTransform;

  ConvParams() = default;
  ConvParams(poplar::Type dataType, std::size_t batchSize, std::vector<std::size_t> inputFieldShape,
             std::vector<std::size_t> kernelShape, std::size_t inputChannels,
             std::size_t outputChannels, std::size_t numConvGroups);
  ConvParams(poplar::Type inputType, poplar::Type outputType, std::size_t batchSize,
             std::vector<std::size_t> inputFieldShape, std::vector<std::size_t> kernelShape,
             std::size_t inputChannels, std::size_t outputChannels, std::size_t numConvGroups);
  ConvParams(poplar::Type inputType, poplar::Type outputType, std::size_t batchSize,
             std::vector<std::size_t> inputFieldShape, std::vector<std::size_t> kernelShape,
             std::size_t inputChannels, std::size_t outputChannels, std::size_t numConvGroups,
             InputTransform inputTransform, InputTransform kernelTransform,
             OutputTransform outputTransform);

  /// The output size of dimension `dim` before the output transform.
  std::size_t getUntransformedOutputSize(unsigned dim) const;
  /// The output size of dimension `dim`.
  std::size_t getOutputSize(unsigned dim) const;
  std::size_t getNumOutputChansPerConvGroup() const { return outputChannelsPerConvGroup; }
  std::size_t getNumOutputChans() const { return outputChannelsPerConvGroup * numConvGroups; }
  std::size_t getInputSize(unsigned dim) const { return inputFieldShape[dim]; }
  std::size_t getNumInputChansPerConvGroup() const { return inputChannelsPerConvGroup; }
  std::size_t getNumInputChans() const { return inputChannelsPerConvGroup * numConvGroups; }
  std::size_t getNumConvGroups() const { return numConvGroups; }
  std::size_t getNumFieldDims() const { return inputFieldShape.size(); }
  std::size_t getBatchSize() const { return batchSize; }
  /// The input field's shape, per channel of each batch element.
  std::vector<std::size_t> getInputFieldShape() const { return inputFieldShape; }
  /// The kernel's shape, per channel.
  std::vector<std::size_t> getKernelShape() const { return kernelShape; }

  /// Sizes of dimension `dim` after truncation, and after the whole transform.
  unsigned getTruncatedInputSize(unsigned dim) const;
  unsigned getTruncatedKernelSize(unsigned dim) const;
  unsigned getTransformedInputSize(unsigned dim) const;
  unsigned getTransformedKernelSize(unsigned dim) const;
  /// The output field's shape.
  std::vector<std::size_t> getOutputFieldShape() const;

  /// Throws poputil::poplibs_error naming the first inconsistent member (transform vectors of
  /// the wrong length, zero strides or dilations, truncation larger than the field, a kernel
  /// larger than the input, ...).
  void validate() const;
  /// The same convolution with the transforms' identity parts made explicit (vectors filled).
  ConvParams canonicalize() const;

  friend bool operator<(const ConvParams& a, const ConvParams& b);
  friend bool operator==(const ConvParams& a, const ConvParams& b);
  friend bool operator!=(const ConvParams& a, const ConvParams& b);
};

std::ostream& operator<<(std::ostream& os, const ConvParams& p);
/// Reads parameters as JSON, PopLibs' format: an object with optional "dataType" (or
/// "inputType" and "outputType": "half", "float" or "quarter"), "batchSize", "numConvGroups",
/// "inputChannelsPerConvGroup", "outputChannelsPerConvGroup", "inputFieldShape", "kernelShape"
/// and "inputTransform"/"kernelTransform"/"outputTransform" objects of the transforms' vectors
/// (fields left out keep their values in `p`; transforms left out are the identity). Malformed
/// JSON, an unknown type or field shapes of different ranks give poputil::poplibs_error.
std::istream& operator>>(std::istream& is, ConvParams& p);

std::size_t hash_value(const ConvParams::InputTransform& it);
std::size_t hash_value(const ConvParams::OutputTransform& ot);

} // namespace poplin

namespace std {

template <> struct hash<poplin::ConvParams::InputTransform> {
  std::size_t operator()(const poplin::ConvParams::InputTransform& it) const;
};

template <> struct hash<poplin::ConvParams::OutputTransform> {
  std::size_t operator()(const poplin::ConvParams::OutputTransform& ot) const;
};

template <> struct hash<poplin::ConvParams> {
  std::size_t operator()(const poplin::ConvParams& params) const;
};

} // namespace std
