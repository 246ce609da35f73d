// The shape of a fully connected layer with sparse weights [numGroups][outputChannelsPerGroup]
// [inputChannelsPerGroup]. The forward pass multiplies the weights by the activations'
// transpose [numGroups][inputChannelsPerGroup][batchSize]; grad-A multiplies the weights'
// transpose by the output gradients; grad-W gives the gradients of the non-zero weights.
#pragma once

#include <cassert>
#include <cmath>
#include <cstddef>
#include <ostream>
#include <popsparse/SparsityParams.hpp>

namespace popsparse {
namespace dynamic {

class FullyConnectedParams {
  SparsityParams sparsityParams;
  double nzRatio;
  std::size_t batchSize;
  std::size_t numGroups;
  std::size_t inputChannelsPerGroup;
  std::size_t outputChannelsPerGroup;

public:
  /// nzRatio is the proportion of the weights that may be non-zero, in (0, 1]; inputChannels and
  /// outputChannels count all groups.
  static FullyConnectedParams createWithNzRatio(const SparsityParams& sparsityParams,
                                                double nzRatio, std::size_t batchSize,
                                                std::size_t numGroups, std::size_t inputChannels,
                                                std::size_t outputChannels);
  /// numNonZeroElems counts weight elements (not blocks) over all groups.
  static FullyConnectedParams
  createWithNumNonZeroValues(const SparsityParams& sparsityParams, std::size_t numNonZeroElems,
                             std::size_t batchSize, std::size_t numGroups,
                             std::size_t inputChannels, std::size_t outputChannels);

  std::size_t getBatchSize() const { return batchSize; }
  std::size_t getNumGroups() const { return numGroups; }
  std::size_t getInputChannels() const { return numGroups * inputChannelsPerGroup; }
  std::size_t getOutputChannels() const { return numGroups * outputChannelsPerGroup; }
  std::size_t getInputChannelsPerGroup() const { return inputChannelsPerGroup; }
  std::size_t getOutputChannelsPerGroup() const { return outputChannelsPerGroup; }
  const SparsityParams& getSparsityParams() const { return sparsityParams; }
  double getNzRatio() const;
  std::size_t getNumNonZeroValues() const;

  friend bool operator<(const FullyConnectedParams& a, const FullyConnectedParams& b);
  friend bool operator==(const FullyConnectedParams& a, const FullyConnectedParams& b);
  friend bool operator!=(const FullyConnectedParams& a, const FullyConnectedParams& b);
};
std::ostream& operator<<(std::ostream& os, const FullyConnectedParams& p);

} // namespace dynamic
} // namespace popsparse
