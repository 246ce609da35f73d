// Cast vertices with a QUARTER side: a piece of elements converted to or from 8-bit floats,
// with the format and scale read from one-byte QUARTER_METADATA fields when the vertex runs (a
// program may change them). The QUARTER fields are connected as bytes (the codes).
#include "poplibs_support/QuarterCycleEstimators.hpp"

#include <cstdint>
#include <poplar/Quarter.hpp>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>

namespace popops {
namespace {

using poplar::half;
using Code = unsigned char;

poplar::QuarterMetadata unpack(Code byte) {
  return poplar::detail::unpackQuarterMetadata(byte);
}

/// FLOAT or HALF to QUARTER. HALF is widened to float first (exactly).
template <typename In> class CastToQuarter : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<In>> src;
  poplar::Output<poplar::Vector<Code>> dst;
  poplar::Input<Code> metadataDst;
  void compute() {
    const auto m = unpack(*metadataDst);
    for (std::size_t i = 0; i < dst.size(); ++i)
      dst[i] = poplar::detail::floatToQuarter(float(src[i]), m);
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    return poplibs_support::castQuarterCycles(target, poplar::TypeOf<In>::value, poplar::QUARTER,
                                              v.getFieldInfo("dst").size());
  }
};

/// QUARTER to FLOAT or HALF. Every quarter value is exact in float; to HALF it is rounded once.
template <typename Out> class CastFromQuarter : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<Code>> src;
  poplar::Output<poplar::Vector<Out>> dst;
  poplar::Input<Code> metadataSrc;
  void compute() {
    const auto m = unpack(*metadataSrc);
    for (std::size_t i = 0; i < dst.size(); ++i)
      dst[i] = Out(poplar::detail::quarterToFloat(src[i], m));
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    return poplibs_support::castQuarterCycles(target, poplar::QUARTER, poplar::TypeOf<Out>::value,
                                              v.getFieldInfo("dst").size());
  }
};

/// QUARTER to QUARTER under other metadata (another format or scale): decoded and encoded
/// again, rounding once.
class CastQuarterToQuarter : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<Code>> src;
  poplar::Output<poplar::Vector<Code>> dst;
  poplar::Input<Code> metadataSrc;
  poplar::Input<Code> metadataDst;
  void compute() {
    const auto from = unpack(*metadataSrc), to = unpack(*metadataDst);
    for (std::size_t i = 0; i < dst.size(); ++i)
      dst[i] = poplar::detail::floatToQuarter(poplar::detail::quarterToFloat(src[i], from), to);
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    return poplibs_support::castQuarterCycles(target, poplar::QUARTER, poplar::QUARTER,
                                              v.getFieldInfo("dst").size());
  }
};

using CastFloatQuarter = CastToQuarter<float>;
using CastHalfQuarter = CastToQuarter<half>;
using CastQuarterFloat = CastFromQuarter<float>;
using CastQuarterHalf = CastFromQuarter<half>;
TESSERA_VERTEX_IN("popops", "popops::Cast<float,quarter>", CastFloatQuarter, src, dst, metadataDst);
TESSERA_VERTEX_IN("popops", "popops::Cast<half,quarter>", CastHalfQuarter, src, dst, metadataDst);
TESSERA_VERTEX_IN("popops", "popops::Cast<quarter,float>", CastQuarterFloat, src, dst, metadataSrc);
TESSERA_VERTEX_IN("popops", "popops::Cast<quarter,half>", CastQuarterHalf, src, dst, metadataSrc);
TESSERA_VERTEX_IN("popops", "popops::Cast<quarter,quarter>", CastQuarterToQuarter, src, dst,
                  metadataSrc, metadataDst);

} // namespace
} // namespace popops
