// Per-channel vertices: `acts` holds whole blocks (one block = the field of one channel), one
// block per element of the per-channel operand, in channel order.
#include "poplibs_support/Cycles.hpp"

#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>

namespace popops {
namespace {

using poplar::half;
using poplar::InOut;
using poplar::Input;
using poplar::Vector;

/// Cycles of a per-channel vertex: per channel a loop setup and the block in vectors.
template <typename T>
std::uint64_t channelCycles(const poplar::VertexIntrospector& v, const poplar::Target& target,
                            const char* acts, const char* param, unsigned cyclesPerVector) {
  const std::size_t channels = v.getFieldInfo(param).size();
  const std::size_t n = v.getFieldInfo(acts).size();
  const std::size_t block = channels ? n / channels : 0;
  const unsigned width = target.getVectorWidth(poplar::TypeOf<T>::value);
  return 15 + channels * (6 + (block + width - 1) / width * cyclesPerVector);
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
    return channelCycles<T>(v, t, "acts", "addend", 1);
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
    return channelCycles<T>(v, t, "acts", "addend", 1);
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
    return channelCycles<T>(v, t, "actsOut", "scale", 1);
  }
};

#define POPOPS_CHANNEL_OPS(T)                                                                      \
  using AddToChannel_##T = AddToChannel<T>;                                                        \
  TESSERA_VERTEX_IN("popops", "popops::AddToChannel<" #T ">", AddToChannel_##T, acts, addend);     \
  using ScaledAddToChannel_##T = ScaledAddToChannel<T>;                                            \
  TESSERA_VERTEX_IN("popops", "popops::ScaledAddToChannel<" #T ">", ScaledAddToChannel_##T, acts,  \
                    addend, scaleB);                                                               \
  using ChannelMulInPlace_##T = ChannelMulInPlace<T>;                                              \
  TESSERA_VERTEX_IN("popops", "popops::ChannelMulInPlace<" #T ">", ChannelMulInPlace_##T,          \
                    actsOut, scale)

POPOPS_CHANNEL_OPS(float);
POPOPS_CHANNEL_OPS(half);

} // namespace
} // namespace popops
