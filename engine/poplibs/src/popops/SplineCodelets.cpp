// The B-spline vertices of popops::splineBasis and popops::splineWeighting, as PopLibs names
// them. Each vertex writes a list of regions of its flattened output; `offsets` (a constant
// tensor on the vertex's tile, where PopLibs keeps a vector of vertex state) holds each
// region's first element index, and `edgeOffset` the first edge whose rows the vertex's inputs
// start at.
#include "poplibs_support/SplineCycleEstimators.hpp"

#include <cmath>
#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>

namespace popops {
namespace {

using poplar::half;
using poplar::Input;
using poplar::Output;
using poplar::Vector;

/// The open uniform B-spline basis function of `degree` for knot position kMod at fractional
/// coordinate v in [0, 1), computed in float.
template <unsigned degree> float basisFunction(float v, unsigned kMod) {
  if (degree == 1) return kMod == 0 ? 1.0f - v : v;
  if (degree == 2) {
    if (kMod == 0) return 0.5f * (1.0f - v) * (1.0f - v);
    if (kMod == 1) return -v * v + v + 0.5f;
    return 0.5f * v * v;
  }
  if (kMod == 0) return (1.0f - v) * (1.0f - v) * (1.0f - v) / 6.0f;
  if (kMod == 1) return (3.0f * v * v * v - 6.0f * v * v + 4.0f) / 6.0f;
  if (kMod == 2) return (-3.0f * v * v * v + 3.0f * v * v + 3.0f * v + 1.0f) / 6.0f;
  return v * v * v / 6.0f;
}

/// basis[e][s] and weightIndex[e][s] for spline s of edge e: s's digits in base degree + 1
/// pick each dimension's knot; the coefficient is the product over the dimensions of the basis
/// function at the scaled coordinate's fraction, the index the kernel position, dimension 0
/// varying fastest.
template <typename T, unsigned degree> class SplineBasis : public poplar::Vertex {
public:
  Input<Vector<T>> pseudo; ///< [edges from edgeOffset][numDims]
  Input<Vector<int>> kernelSize;
  Input<Vector<unsigned char>> isOpenSpline;
  Input<Vector<unsigned>> offsets; ///< the first basis element of each region
  Vector<Output<Vector<T>>> basis;
  Vector<Output<Vector<int>>> weightIndex;
  unsigned numDims;
  unsigned numSplines;
  unsigned edgeOffset;

  bool compute() {
    if (basis.size() != weightIndex.size() || offsets.size() != basis.size() ||
        kernelSize.size() < numDims || isOpenSpline.size() < numDims || numSplines == 0)
      return false;
    for (std::size_t i = 0; i < basis.size(); ++i) {
      if (weightIndex[i].size() != basis[i].size()) return false;
      for (std::size_t j = 0; j < basis[i].size(); ++j) {
        const std::size_t idx = offsets[i] + j;
        const std::size_t e = idx / numSplines - edgeOffset;
        if ((e + 1) * numDims > pseudo.size()) return false;
        unsigned k = unsigned(idx % numSplines);
        int wi = 0, stride = 1;
        float b = 1.0f;
        for (unsigned d = 0; d < numDims; ++d) {
          const unsigned kMod = k % (degree + 1);
          k /= degree + 1;
          const int size = kernelSize[d];
          if (size <= 0) return false;
          float v = float(pseudo[e * numDims + d]) *
                    float(size - int(degree) * (isOpenSpline[d] ? 1 : 0));
          wi += int((unsigned(v) + kMod) % unsigned(size)) * stride;
          stride *= size;
          v -= std::floor(v);
          b *= basisFunction<degree>(v, kMod);
        }
        basis[i][j] = T(b);
        weightIndex[i][j] = wi;
      }
    }
    return true;
  }

  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    return poplibs_support::splineBasisCycles(poplar::TypeOf<T>::value,
                                              v.getFieldInfo("basis").totalElements());
  }
};

/// output[e][o] = sum over splines s and input channels c of
/// basis[e][s] * input[e][c] * weight[weightIndex[e][s]][c][o].
template <typename T> class SplineWeighting : public poplar::Vertex {
public:
  Input<Vector<T>> input;         ///< [edges from edgeOffset][numInCh]
  Input<Vector<T>> weight;        ///< [kernel][numInCh][numOutCh], whole
  Input<Vector<T>> basis;         ///< [edges from edgeOffset][numSplines]
  Input<Vector<int>> weightIndex; ///< the same
  Input<Vector<unsigned>> offsets;
  Vector<Output<Vector<T>>> output;
  unsigned numInCh;
  unsigned numOutCh;
  unsigned numSplines;
  unsigned edgeOffset;

  bool compute() {
    if (offsets.size() != output.size() || numOutCh == 0) return false;
    const std::size_t plane = std::size_t(numInCh) * numOutCh;
    for (std::size_t i = 0; i < output.size(); ++i)
      for (std::size_t j = 0; j < output[i].size(); ++j) {
        const std::size_t idx = offsets[i] + j;
        const std::size_t e = idx / numOutCh - edgeOffset, o = idx % numOutCh;
        if ((e + 1) * numSplines > basis.size() || (e + 1) * numInCh > input.size()) return false;
        float acc = 0.0f;
        for (std::size_t s = 0; s < numSplines; ++s) {
          const int wi = weightIndex[e * numSplines + s];
          if (wi < 0 || (std::size_t(wi) + 1) * plane > weight.size()) return false;
          const float b = float(basis[e * numSplines + s]);
          const T* w = weight.data() + std::size_t(wi) * plane + o;
          for (std::size_t c = 0; c < numInCh; ++c)
            acc += float(w[c * numOutCh]) * b * float(input[e * numInCh + c]);
        }
        output[i][j] = T(acc);
      }
    return true;
  }

  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    return poplibs_support::splineWeightingCycles(
        poplar::TypeOf<T>::value, v.getInitialValue<unsigned>("numInCh"),
        v.getInitialValue<unsigned>("numSplines"), v.getFieldInfo("output").totalElements());
  }
};

#define POPOPS_SPLINE_BASIS(T, D)                                                                  \
  using SplineBasis_##T##_##D = SplineBasis<T, D>;                                                 \
  TESSERA_VERTEX_IN("popops", "popops::SplineBasis<" #T "," #D ">", SplineBasis_##T##_##D, pseudo, \
                    kernelSize, isOpenSpline, offsets, basis, weightIndex, numDims, numSplines,    \
                    edgeOffset)

POPOPS_SPLINE_BASIS(float, 1);
POPOPS_SPLINE_BASIS(float, 2);
POPOPS_SPLINE_BASIS(float, 3);
POPOPS_SPLINE_BASIS(half, 1);
POPOPS_SPLINE_BASIS(half, 2);
POPOPS_SPLINE_BASIS(half, 3);

using SplineWeighting_float = SplineWeighting<float>;
using SplineWeighting_half = SplineWeighting<half>;
TESSERA_VERTEX_IN("popops", "popops::SplineWeighting<float>", SplineWeighting_float, input, weight,
                  basis, weightIndex, offsets, output, numInCh, numOutCh, numSplines, edgeOffset);
TESSERA_VERTEX_IN("popops", "popops::SplineWeighting<half>", SplineWeighting_half, input, weight,
                  basis, weightIndex, offsets, output, numInCh, numOutCh, numSplines, edgeOffset);

} // namespace
} // namespace popops
