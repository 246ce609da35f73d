// The gfloat cast vertices. CastNativeToGfloat rounds native values to the format its param
// word describes and stores them as native values or packed bits; CastGfloatToNative unpacks or
// converts them back. The stochastic modes draw their noise from a generator seeded per vertex.
#include "GfloatFormat.hpp"
#include "poplibs_support/GfloatCycleEstimators.hpp"

#include <algorithm>
#include <cstring>
#include <popfloat/experimental/GfloatExpr.hpp>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>
#include <random>
#include <type_traits>

namespace popfloat {
namespace experimental {
namespace {

using poplar::half;
using poplar::InOut;
using poplar::Input;
using poplar::Output;
using poplar::Vector;

template <typename T> constexpr bool isPacked() {
  return std::is_integral_v<T>;
}

/// A rounded value as the storage type holds it.
template <typename Out> Out store(double v, const gf::Format& f) {
  if constexpr (isPacked<Out>()) {
    using U = std::make_unsigned_t<Out>;
    return Out(U(gf::packBits(v, f)));
  } else
    return Out(float(v));
}

template <typename In> double load(In v, const gf::Format& f) {
  if constexpr (isPacked<In>()) {
    using U = std::make_unsigned_t<In>;
    return gf::unpackBits(std::uint32_t(U(v)), f);
  } else
    return double(float(v));
}

/// The rounding state every cast-to-gfloat vertex carries, as its own fields.
#define GF_ROUND_STATE                                                                             \
  unsigned roundMode, numSRBits, density;                                                          \
  float srNoiseOffset, srNoiseScale, srNoiseMax, srNoiseMin, bernoulliProb;                        \
  bool nanoo;                                                                                      \
  unsigned seed

/// The format of the param word, or false for one the vertex cannot use (the run then stops).
template <typename V> bool formatOf(const V& v, gf::Format& f) {
  f = gf::Format::fromPacked(std::uint32_t(v.param[0]));
  return f.valid() && v.roundMode >= 1 && v.roundMode <= 7;
}

/// Rounds each of `in` to f, handing the results to write(i, value).
template <typename V, typename InVec, typename F>
void roundAll(const V& v, const InVec& in, const gf::Format& f, F write) {
  std::mt19937 gen(v.seed);
  const unsigned bits = std::clamp(v.numSRBits, 1u, 31u);
  const auto mode = gf::Round(v.roundMode);
  auto draw = [&]() -> double {
    if (mode == gf::Round::SR) return std::ldexp(double(gen() >> (32 - bits)), -int(bits));
    const double u = std::generate_canonical<double, 32>(gen);
    if (v.density == 1) // BERNOULLI: round up with the given probability
      return u < v.bernoulliProb ? 1.0 : 0.0;
    return std::clamp(double(v.srNoiseOffset) + double(v.srNoiseScale) * u, double(v.srNoiseMin),
                      double(v.srNoiseMax));
  };
  for (std::size_t i = 0; i < in.size(); ++i)
    write(i, gf::quantise(double(float(in[i])), f, mode, v.nanoo, draw));
}

template <typename In, typename Out> class CastNativeToGfloat : public poplar::Vertex {
public:
  GF_ROUND_STATE;
  Input<Vector<int>> param;
  Input<Vector<In>> in;
  Output<Vector<Out>> out;

  bool compute() {
    gf::Format f;
    if (!formatOf(*this, f)) return false;
    roundAll(*this, in, f, [&](std::size_t i, double v) { out[i] = store<Out>(v, f); });
    return true;
  }

  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    const std::uint64_t n = v.getFieldInfo("in").size();
    if (std::is_same_v<In, half>)
      return poplibs_support::castToGfloat16Cycles(n, false, sizeof(Out) == 1);
    return poplibs_support::castToGfloat32Cycles(n, std::is_same_v<Out, float>);
  }
};

template <typename T> class CastNativeToGfloatInPlace : public poplar::Vertex {
public:
  GF_ROUND_STATE;
  Input<Vector<int>> param;
  InOut<Vector<T>> inOut;

  bool compute() {
    gf::Format f;
    if (!formatOf(*this, f)) return false;
    roundAll(*this, inOut, f, [&](std::size_t i, double v) { inOut[i] = T(float(v)); });
    return true;
  }

  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    const std::uint64_t n = v.getFieldInfo("inOut").size();
    if (std::is_same_v<T, half>) return poplibs_support::castToGfloat16Cycles(n, false, false);
    return poplibs_support::castToGfloat32Cycles(n, true);
  }
};

template <typename In, typename Out> class CastGfloatToNative : public poplar::Vertex {
public:
  Input<Vector<int>> param;
  Input<Vector<In>> in;
  Output<Vector<Out>> out;

  bool compute() {
    const gf::Format f = gf::Format::fromPacked(std::uint32_t(param[0]));
    if (!f.valid()) return false;
    for (std::size_t i = 0; i < in.size(); ++i)
      out[i] = Out(float(load(in[i], f)));
    return true;
  }

  /// PopLibs' unpacking vertices: 16-bit gfloats to float, 8-bit to half; a quantised value
  /// needs only a conversion (PopLibs runs popops' cast, costed there; here 1 per element).
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    const std::uint64_t n = v.getFieldInfo("in").size();
    const auto type = FormatType(v.getInitialValue<unsigned>("formatType"));
    if (std::is_same_v<In, short>)
      return poplibs_support::castGf16ToFloatCycles(n, type == FormatType::BFLOAT16,
                                                    type == FormatType::ENABLE_DENORM_GF16);
    if (std::is_same_v<In, signed char>)
      return poplibs_support::castGf8ToHalfCycles(n, type == FormatType::ONE_FIVE_TWO_GF8,
                                                  type == FormatType::MAX_NORM_ALIGN_GF8);
    return n;
  }

  unsigned formatType; ///< the cast's FormatType, for the estimate
};

#define GF_ROUND_FIELDS                                                                            \
  roundMode, numSRBits, density, srNoiseOffset, srNoiseScale, srNoiseMax, srNoiseMin,              \
      bernoulliProb, nanoo, seed
#define GF_TO(In, Out, OutName)                                                                    \
  using ToGf_##In##_##Out = CastNativeToGfloat<In, Out>;                                           \
  TESSERA_VERTEX_IN("popfloat", "popfloat::experimental::CastNativeToGfloat<" #In "," OutName ">", \
                    ToGf_##In##_##Out, param, in, out, GF_ROUND_FIELDS)
#define GF_FROM(In, InName, Out)                                                                   \
  using FromGf_##In##_##Out = CastGfloatToNative<In, Out>;                                         \
  TESSERA_VERTEX_IN("popfloat", "popfloat::experimental::CastGfloatToNative<" InName "," #Out ">", \
                    FromGf_##In##_##Out, param, in, out, formatType)

using schar = signed char;
GF_TO(float, float, "float");
GF_TO(float, half, "half");
GF_TO(float, short, "short");
GF_TO(float, schar, "signed char");
GF_TO(half, half, "half");
GF_TO(half, float, "float");
GF_TO(half, short, "short");
GF_TO(half, schar, "signed char");
GF_FROM(float, "float", float);
GF_FROM(half, "half", half);
GF_FROM(half, "half", float);
GF_FROM(float, "float", half);
GF_FROM(short, "short", float);
GF_FROM(short, "short", half);
GF_FROM(schar, "signed char", float);
GF_FROM(schar, "signed char", half);

/// The packed format word from a tensor into the cast's parameter tensor.
class PackedGfloatParams : public poplar::Vertex {
public:
  Input<Vector<int>> gfStruct;
  Output<Vector<int>> param;
  bool compute() {
    param[0] = gfStruct[0];
    return true;
  }
  /// PopLibs' estimate: 1.
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector&, const poplar::Target&) {
    return 1;
  }
};
TESSERA_VERTEX_IN("popfloat", "popfloat::experimental::PackedGfloatParams", PackedGfloatParams,
                  gfStruct, param);

using InPlace_float = CastNativeToGfloatInPlace<float>;
TESSERA_VERTEX_IN("popfloat", "popfloat::experimental::CastNativeToGfloatInPlace<float>",
                  InPlace_float, param, inOut, GF_ROUND_FIELDS);
using InPlace_half = CastNativeToGfloatInPlace<half>;
TESSERA_VERTEX_IN("popfloat", "popfloat::experimental::CastNativeToGfloatInPlace<half>",
                  InPlace_half, param, inOut, GF_ROUND_FIELDS);

} // namespace
} // namespace experimental
} // namespace popfloat
