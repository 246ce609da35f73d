// Convolution vertices. Each computes a block of output rows for a set of output channels of one
// conv group and batch element, over all input channels and kernel positions, so its outputs are
// final (no partial sums to reduce). The three names are the PopLibs vertices whose work this is:
// ConvPartial1x1Out (AMP units, a single kernel position), ConvPartialnx1 (AMP units, any kernel)
// and ConvPartialHorizontalMac (few input channels: dot products over the channels); they share
// the code and differ in their cycle estimators.
//
// A matrix product runs on the same vertices as PopLibs runs it: a 1x1 convolution whose batch
// elements are A's rows, with the channels innermost (ConvProblem::channelsInnermost). Its
// vertices say so with a one-int geometry, and bind rows: `in` the block's rows of A (over its
// input channels), `weights` the rows of B of its input channels (over its output channels),
// `out` the block's rows of C (or of partials). Every type pair then runs the register-blocked
// float host kernel (MatMulKernel.hpp; half blocks widened first), so simulating a product stays
// fast.
#include "ConvCycles.hpp"
#include "ConvGeometry.hpp"
#include "ConvVertexEstimates.hpp"
#include "EvenRows.hpp"
#include "MatMulKernel.hpp"

#include <algorithm>
#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>
#include <type_traits>
#include <vector>

namespace poplin {
namespace {

using poplar::half;
using poplar::Input;
using poplar::Output;
using poplar::Vector;

template <typename In, typename Out, ConvMethod Method>
class ConvPartial : public poplar::SupervisorVertex {
public:
  Vector<Input<Vector<In>>> in;      ///< [inChans][numInRows]: whole input rows
  Vector<Input<Vector<In>>> weights; ///< [outChans]: that channel's [inChans][kernelY][kernelX]
  Vector<Output<Vector<Out>>> out;   ///< [outChans][rows]: output rows
  Input<Vector<int>> geometry;       ///< a ConvVertexGeometry
  unsigned inChans;
  unsigned kernelY; ///< kernel positions used per dimension (for the estimators)
  unsigned kernelX;

  bool compute() {
    if (geometry.size() == kChannelsInnermostGeometryInts) return computeChannelsInnermost();
    if (geometry.size() != ConvVertexGeometry::kInts || weights.size() == 0) return false;
    const int* g = geometry.data();
    const int inRowBegin = g[0], numInRows = g[1], outRowBegin = g[2];
    const auto gy = ConvDimGeometry::load(g + 3);
    const auto gx = ConvDimGeometry::load(g + 3 + ConvDimGeometry::kInts);
    const std::size_t outChans = weights.size();
    if (out.size() % outChans != 0 || in.size() != std::size_t(inChans) * numInRows) return false;
    const std::size_t rows = out.size() / outChans;
    const std::size_t width = rows ? out[0].size() : 0;
    // Column of the input row read by output column x at kernel column kx (-1: a zero).
    std::vector<int> cols(std::size_t(gx.kernelCount) * width);
    for (int kx = 0; kx < gx.kernelCount; ++kx)
      for (std::size_t x = 0; x < width; ++x)
        cols[kx * width + x] = gx.inputIndex(gx.position(long(x), kx));
    std::vector<float> acc(width);
    for (std::size_t oc = 0; oc < outChans; ++oc) {
      const In* w = weights[oc].data();
      for (std::size_t r = 0; r < rows; ++r) {
        auto& o = out[oc * rows + r];
        if (o.size() != width) return false;
        std::fill(acc.begin(), acc.end(), 0.0f);
        for (int ky = 0; ky < gy.kernelCount; ++ky) {
          const int inRow = gy.inputIndex(gy.position(outRowBegin + long(r), ky));
          if (inRow < 0) continue;
          const int edgeRow = inRow - inRowBegin;
          if (edgeRow < 0 || edgeRow >= numInRows) return false;
          for (unsigned ci = 0; ci < inChans; ++ci) {
            const In* row = in[ci * numInRows + edgeRow].data();
            const In* wRow =
                w + (std::size_t(ci) * gy.kernelFull + gy.kernelBegin + ky) * gx.kernelFull +
                gx.kernelBegin;
            for (int kx = 0; kx < gx.kernelCount; ++kx) {
              const float wv = float(wRow[kx]);
              const int* c = cols.data() + std::size_t(kx) * width;
              for (std::size_t x = 0; x < width; ++x)
                if (c[x] >= 0) acc[x] += wv * float(row[c[x]]);
            }
          }
        }
        std::copy(acc.begin(), acc.end(), o.begin());
      }
    }
    return true;
  }

  /// out[b][j] = sum over c of in[b][c] * weights[c][j] (channels innermost, a matmul block).
  bool computeChannelsInnermost() {
    const std::size_t rows = out.size(), depth = weights.size();
    const std::size_t cols = rows ? out[0].size() : 0;
    if (!checked_) { // the edges' sizes, once: an engine binds them when it loads
      if (in.size() != rows) return false;
      for (std::size_t i = 0; i < rows; ++i)
        if (out[i].size() != cols || in[i].size() != depth) return false;
      for (std::size_t k = 0; k < depth; ++k)
        if (weights[k].size() != cols) return false;
      checked_ = true;
      if constexpr (std::is_same_v<In, float> && std::is_same_v<Out, float>)
        evenRows_ = findEvenRows(in, depth, aRows_) && findEvenRows(weights, cols, bRows_) &&
                    findEvenRows(out, cols, outRows_);
    }
    thread_local std::vector<const float*> aPtr, bPtr;
    thread_local std::vector<float*> outPtr;
    aPtr.resize(rows), outPtr.resize(rows), bPtr.resize(depth);
    if constexpr (std::is_same_v<In, float> && std::is_same_v<Out, float>) {
      if (evenRows_) { // the rows' addresses from the first rows' (EvenRows.hpp)
        for (std::size_t i = 0; i < rows; ++i)
          aPtr[i] = aRows_.row(i), outPtr[i] = outRows_.row(i);
        for (std::size_t k = 0; k < depth; ++k)
          bPtr[k] = bRows_.row(k);
      } else {
        for (std::size_t i = 0; i < rows; ++i)
          aPtr[i] = in[i].data(), outPtr[i] = out[i].data();
        for (std::size_t k = 0; k < depth; ++k)
          bPtr[k] = weights[k].data();
      }
      matMulBlockFloat(aPtr.data(), bPtr.data(), outPtr.data(), rows, depth, cols);
      return true;
    }
    // half inputs or outputs: the block is widened to float once (each element of A and B is
    // read many times by the product), the same float kernel runs, and out is rounded once at
    // the end: the sums are the float kernel's, whatever the types.
    thread_local std::vector<float> aF, bF, outF;
    if constexpr (std::is_same_v<In, float>) {
      for (std::size_t i = 0; i < rows; ++i)
        aPtr[i] = in[i].data();
      for (std::size_t k = 0; k < depth; ++k)
        bPtr[k] = weights[k].data();
    } else {
      aF.resize(rows * depth), bF.resize(depth * cols);
      float* const aBase = aF.data();
      float* const bBase = bF.data();
      for (std::size_t i = 0; i < rows; ++i) {
        std::copy(in[i].begin(), in[i].end(), aBase + i * depth);
        aPtr[i] = aBase + i * depth;
      }
      for (std::size_t k = 0; k < depth; ++k) {
        std::copy(weights[k].begin(), weights[k].end(), bBase + k * cols);
        bPtr[k] = bBase + k * cols;
      }
    }
    if constexpr (std::is_same_v<Out, float>) {
      for (std::size_t i = 0; i < rows; ++i)
        outPtr[i] = out[i].data();
      matMulBlockFloat(aPtr.data(), bPtr.data(), outPtr.data(), rows, depth, cols);
    } else {
      outF.resize(rows * cols);
      for (std::size_t i = 0; i < rows; ++i)
        outPtr[i] = outF.data() + i * cols;
      matMulBlockFloat(aPtr.data(), bPtr.data(), outPtr.data(), rows, depth, cols);
      for (std::size_t i = 0; i < rows; ++i)
        std::copy(outPtr[i], outPtr[i] + cols, out[i].begin());
    }
    return true;
  }

private:
  // Host state, not fields: set by the first channels-innermost run (EvenRows.hpp).
  bool checked_ = false;  ///< the edges' sizes were checked
  bool evenRows_ = false; ///< float blocks whose rows of A, B and out are equally spaced
  EvenRows<const float> aRows_, bRows_;
  EvenRows<float> outRows_;

public:
  /// PopLibs' published estimator of the vertex of the same name (ConvVertexEstimates.hpp).
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& t) {
    const auto outInfo = v.getFieldInfo("out");
    const bool inner = v.getFieldInfo("geometry").size() == kChannelsInnermostGeometryInts;
    // Channels innermost: one field element per row of out, its channels along the row.
    const unsigned outChans = inner ? (outInfo.size() ? unsigned(outInfo.getSizeAtIndex(0)) : 0)
                                    : unsigned(v.getFieldInfo("weights").size());
    const std::size_t rows = inner ? outInfo.size() : outChans ? outInfo.size() / outChans : 0;
    const unsigned width = inner ? 1 : outInfo.size() ? unsigned(outInfo.getSizeAtIndex(0)) : 0;
    const unsigned inChans = v.getInitialValue<unsigned>("inChans");
    const unsigned kY = v.getInitialValue<unsigned>("kernelY");
    const unsigned kX = v.getInitialValue<unsigned>("kernelX");
    const poplar::Type in = poplar::TypeOf<In>::value, out = poplar::TypeOf<Out>::value;
    switch (Method) {
    case ConvMethod::AMP_1X1:
      return conv1x1VertexCycles(t, in, out, rows, width, inChans, outChans);
    case ConvMethod::AMP_NX1:
      return convNx1VertexCycles(t, in, out, rows, width, kY, kX, inChans, outChans);
    case ConvMethod::HMAC:
      break;
    }
    return convHmacVertexCycles(t, in, out, rows, width, kY * kX, inChans, outChans);
  }
};

// Names as PopLibs spells them: <input type, output type, useLimitedVersion,
// use128BitConvUnitLoad, numConvUnits, convInputLoadElems> for the AMP vertices.
#define POPLIN_CONV(In, Out, Units, Load)                                                          \
  using ConvPartialnx1_##In##_##Out = ConvPartial<In, Out, ConvMethod::AMP_NX1>;                   \
  TESSERA_VERTEX_IN(                                                                               \
      "poplin", "poplin::ConvPartialnx1<" #In "," #Out ",true,false," #Units "," #Load ">",        \
      ConvPartialnx1_##In##_##Out, in, weights, out, geometry, inChans, kernelY, kernelX);         \
  using ConvPartial1x1Out_##In##_##Out = ConvPartial<In, Out, ConvMethod::AMP_1X1>;                \
  TESSERA_VERTEX_IN(                                                                               \
      "poplin", "poplin::ConvPartial1x1Out<" #In "," #Out ",true,false," #Units "," #Load ">",     \
      ConvPartial1x1Out_##In##_##Out, in, weights, out, geometry, inChans, kernelY, kernelX);      \
  using ConvPartialHorizontalMac_##In##_##Out = ConvPartial<In, Out, ConvMethod::HMAC>;            \
  TESSERA_VERTEX_IN("poplin", "poplin::ConvPartialHorizontalMac<" #In "," #Out ",true>",           \
                    ConvPartialHorizontalMac_##In##_##Out, in, weights, out, geometry, inChans,    \
                    kernelY, kernelX)

POPLIN_CONV(float, float, 8, 2);
POPLIN_CONV(float, half, 8, 2);
POPLIN_CONV(half, float, 8, 4);
POPLIN_CONV(half, half, 16, 4);

} // namespace
} // namespace poplin
