// Max, average and sum pooling over the spatial dimensions of activations [B][C][field...]
// (one or two spatial dimensions), forward and backward. Windows of kernelShape move by
// stride over the input after its padding (positive inputTruncationOrPadding*) or truncation
// (negative values). Types: FLOAT and HALF. Options: "poolUseIntrospectiveMapping" ("true" or
// "false": accepted; the output is always mapped over the tiles by batch and channel).
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <popnn/PoolingDef.hpp>
#include <utility>
#include <vector>

namespace popnn {
namespace pooling {

struct PoolParams {
  PoolingType poolingType;
  std::vector<std::size_t> inputFieldShape;
  std::vector<std::size_t> kernelShape;
  std::vector<unsigned> stride;
  std::vector<int> inputTruncationOrPaddingLower;
  std::vector<int> inputTruncationOrPaddingUpper;
  std::size_t numChannels;
  std::size_t batchSize;
  poplar::Type dType;

  PoolParams(PoolingType poolingType_, std::vector<std::size_t> inputFieldShape_,
             std::vector<std::size_t> kernelShape_, std::vector<unsigned> stride_,
             std::vector<int> inputTruncationOrPaddingLower_,
             std::vector<int> inputTruncationOrPaddingUpper_, std::size_t numChannels_,
             std::size_t batchSize_, poplar::Type dType_)
      : poolingType(poolingType_), inputFieldShape(std::move(inputFieldShape_)),
        kernelShape(std::move(kernelShape_)), stride(std::move(stride_)),
        inputTruncationOrPaddingLower(std::move(inputTruncationOrPaddingLower_)),
        inputTruncationOrPaddingUpper(std::move(inputTruncationOrPaddingUpper_)),
        numChannels(numChannels_), batchSize(batchSize_), dType(dType_) {}

  std::size_t getNumFieldDims() const { return inputFieldShape.size(); }
  std::vector<std::size_t> getOutputFieldShape() const;
};

std::ostream& operator<<(std::ostream& o, const PoolParams& params);

/// "MAX", "AVG" or "SUM".
const char* asString(const PoolingType& method);

std::vector<std::size_t> getOutputFieldShape(const PoolParams& params);

/// One compare (MAX) or add (AVG, SUM; plus a scale per output for AVG) per window element.
std::uint64_t getFwdFlops(const PoolParams& params);
std::uint64_t getBwdFlops(const PoolParams& params);
double getFwdPerfectCycleCount(const poplar::Graph& graph, const PoolParams& params);
double getBwdPerfectCycleCount(const poplar::Graph& graph, const PoolParams& params);

/// The pooled activations [B][C][output field...].
poplar::Tensor pool(poplar::Graph& graph, const PoolParams& params, const poplar::Tensor& in,
                    poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {},
                    const poplar::OptionFlags& options = {});

/// The gradient with respect to the pooling's input [B][C][field...], given the forward input
/// `in`, its output `pooled` and the gradient with respect to the output. MAX: each output's
/// gradient goes to the window positions equal to the maximum (divided among them when
/// useScaledGradient); AVG and SUM: spread over the window (AVG divided by the window's count).
poplar::Tensor poolInputGradient(poplar::Graph& graph, const PoolParams& params,
                                 const poplar::Tensor& in, const poplar::Tensor& pooled,
                                 const poplar::Tensor& pooledGradient, bool useScaledGradient,
                                 poplar::program::Sequence& prog,
                                 const poplar::DebugContext& debugContext = {},
                                 const poplar::OptionFlags& options = {});
/// The same for AVG and SUM pooling, which need neither input nor output; fwdChansPerGroup is
/// accepted for compatibility (the gradient is laid out by batch and channel here).
poplar::Tensor poolInputGradient(poplar::Graph& graph, const PoolParams& params,
                                 const unsigned fwdChansPerGroup,
                                 const poplar::Tensor& pooledGradient,
                                 poplar::program::Sequence& prog,
                                 const poplar::DebugContext& debugContext = {},
                                 const poplar::OptionFlags& options = {});

} // namespace pooling
} // namespace popnn
