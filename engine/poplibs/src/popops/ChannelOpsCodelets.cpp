// Per-channel vertices: `acts` holds whole blocks (one block = the field of one channel), one
// block per element of the per-channel operand, in channel order. Estimates: PopLibs' 2D
// channel vertices with one region per block (ChannelCycleEstimators.hpp).
#include "poplibs_support/ChannelCycleEstimators.hpp"

#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>

namespace popops {
namespace {

using poplar::half;
using poplar::InOut;
using poplar::Input;
using poplar::Vector;

/// A per-channel vertex's channels (operand values) and block length, for the estimators.
struct ChannelShape {
  std::uint64_t channels, block;
};
inline ChannelShape channelShape(const poplar::VertexIntrospector& v, const char* acts,
                                 const char* param) {
  const std::uint64_t channels = v.getFieldInfo(param).size();
  return {channels, channels ? v.getFieldInfo(acts).size() / channels : 0};
}

template <typename T> class AddToChannel : public poplar::Vertex {
public:
  InOut<Vector<T>> acts;
  Input<Vector<T>> addend;
  bool compute() {
    const std::size_t channels = addend.size();
    if (channels == 0 || acts.size() % channels != 0) return false;
    const std::size_t block = acts.size() / channels;
    for (std::size_t c = 0; c < channels; ++c) {
      const float a = float(addend[c]);
      for (std::size_t j = 0; j < block; ++j)
        acts[c * block + j] = T(float(acts[c * block + j]) + a);
    }
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& t) {
    const auto c = channelShape(v, "acts", "addend");
    return poplibs_support::addToChannelCycles(t, poplar::TypeOf<T>::value, c.channels, c.block);
  }
};

template <typename T> class ScaledAddToChannel : public poplar::Vertex {
public:
  InOut<Vector<T>> acts;
  Input<Vector<T>> addend;
  float scaleB;
  bool compute() {
    const std::size_t channels = addend.size();
    if (channels == 0 || acts.size() % channels != 0) return false;
    const std::size_t block = acts.size() / channels;
    for (std::size_t c = 0; c < channels; ++c) {
      const float a = scaleB * float(addend[c]);
      for (std::size_t j = 0; j < block; ++j)
        acts[c * block + j] = T(float(acts[c * block + j]) + a);
    }
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& t) {
    const auto c = channelShape(v, "acts", "addend");
    return poplibs_support::scaledAddToChannelCycles(t, poplar::TypeOf<T>::value, c.channels,
                                                     c.block);
  }
};

template <typename T> class ChannelMulInPlace : public poplar::Vertex {
public:
  InOut<Vector<T>> actsOut;
  Input<Vector<T>> scale;
  bool compute() {
    const std::size_t channels = scale.size();
    if (channels == 0 || actsOut.size() % channels != 0) return false;
    const std::size_t block = actsOut.size() / channels;
    for (std::size_t c = 0; c < channels; ++c) {
      const float s = float(scale[c]);
      for (std::size_t j = 0; j < block; ++j)
        actsOut[c * block + j] = T(float(actsOut[c * block + j]) * s);
    }
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& t) {
    const auto c = channelShape(v, "actsOut", "scale");
    return poplibs_support::channelMulCycles(t, poplar::TypeOf<T>::value, c.channels, c.block);
  }
};

#define POPOPS_CHANNEL_OPS(T)                                                                      \
  using AddToChannel_##T = AddToChannel<T>;                                                        \
  TESSERA_VERTEX_IN("popops", "popops::AddToChannel<" #T ">", AddToChannel_##T, acts, addend);     \
  using ScaledAddToChannel_##T = ScaledAddToChannel<T>;                                            \
  TESSERA_VERTEX_IN("popops", "popops::ScaledAddToChannel<" #T ">", ScaledAddToChannel_##T, acts,  \
                    addend, scaleB);                                                               \
  using ChannelMulInPlace_##T = ChannelMulInPlace<T>;                                              \
  TESSERA_VERTEX_IN("popops", "popops::ChannelMulInPlace<" #T ">", ChannelMulInPlace_##T, actsOut, \
                    scale)

POPOPS_CHANNEL_OPS(float);
POPOPS_CHANNEL_OPS(half);

} // namespace
} // namespace popops
