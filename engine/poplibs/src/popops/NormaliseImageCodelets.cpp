// The vertex of normaliseImage, as PopLibs names it.
#include "poplibs_support/NormaliseImageCycleEstimators.hpp"

#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>

namespace popops {
namespace {

using poplar::half;
using poplar::Input;
using poplar::Output;
using poplar::Vector;

/// Pixels of 3 channels in, pixels of 4 out: ((in * inScale) - offsets[c]) * scales[c], each
/// step rounded to OutType as the device computes it, and 0 in the fourth channel. Worker w
/// takes pixels w, w + workers, w + 2 workers, ...; packedNPixels holds the pixels every worker
/// takes (above bit 3) and how many workers take one more (the low 3 bits).
template <typename InType, typename OutType> class NormaliseImage : public poplar::MultiVertex {
public:
  Input<Vector<InType>> in;
  Output<Vector<OutType>> out;
  Input<Vector<OutType>> scales;
  Input<Vector<OutType>> offsets;
  OutType inScale;
  unsigned packedNPixels;
  bool compute(unsigned workerId) {
    const unsigned workers = numWorkers();
    const std::size_t pixels = std::size_t(packedNPixels >> 3) * workers + (packedNPixels & 7);
    if (in.size() != 3 * pixels || out.size() != 4 * pixels || scales.size() < 3 ||
        offsets.size() < 3)
      return false; // the state does not describe the connected pixels
    for (std::size_t p = workerId; p < pixels; p += workers) {
      for (unsigned c = 0; c < 3; ++c) {
        const OutType x = OutType(float(in[3 * p + c]));
        const OutType scaled = OutType(float(x) * float(inScale));
        const OutType shifted = OutType(float(scaled) - float(offsets[c]));
        out[4 * p + c] = OutType(float(shifted) * float(scales[c]));
      }
      out[4 * p + 3] = OutType(0.0f);
    }
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    return poplibs_support::normaliseImageCycles(target, poplar::TypeOf<InType>::value,
                                                 v.getInitialValue<unsigned>("packedNPixels"));
  }
};

using NormaliseImage_float = NormaliseImage<float, float>;
using NormaliseImage_half = NormaliseImage<half, half>;
using NormaliseImage_uchar = NormaliseImage<unsigned char, half>;
TESSERA_VERTEX_IN("popops", "popops::NormaliseImage<float,float>", NormaliseImage_float, in, out,
                  scales, offsets, inScale, packedNPixels);
TESSERA_VERTEX_IN("popops", "popops::NormaliseImage<half,half>", NormaliseImage_half, in, out,
                  scales, offsets, inScale, packedNPixels);
TESSERA_VERTEX_IN("popops", "popops::NormaliseImage<unsigned char,half>", NormaliseImage_uchar, in,
                  out, scales, offsets, inScale, packedNPixels);

} // namespace
} // namespace popops
