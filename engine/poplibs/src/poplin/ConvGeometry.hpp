// How a convolution vertex finds its operands: per spatial dimension, the map from an output
// position and a kernel position to a position of the transformed input, and from there to a
// real input element (or to a zero of padding or dilation). Written by the op into a small
// constant tensor per vertex, read by the vertex.
#pragma once

#include <cstddef>

namespace poplin {

/// One spatial dimension. The vertex's output position o (after output truncation and
/// striding) and real kernel index k (after kernel truncation) read transformed-input position
///   t = outOffset + o * stride + kernelOffset + k * kernelStep,
/// which is a real input element when, after un-flipping (t' = inTransformed - 1 - t) and
/// removing the padding (u = t' - inPadding), u is a multiple of inDilation and u / inDilation
/// is below inCount; the element is then inTruncation + u / inDilation.
struct ConvDimGeometry {
  int outOffset = 0, stride = 1;
  int kernelBegin = 0, kernelCount = 1, kernelFull = 1; ///< real kernel indices used, full size
  int kernelOffset = 0, kernelStep = 1;
  int inTransformed = 1, inPadding = 0, inDilation = 1, inCount = 1, inTruncation = 0, inFlip = 0;

  static constexpr std::size_t kInts = 13;
  /// The real input index read at transformed position t, or -1 for a zero.
  int inputIndex(long t) const {
    if (t < 0 || t >= inTransformed) return -1;
    if (inFlip) t = inTransformed - 1 - t;
    const long u = t - inPadding;
    if (u < 0 || u % inDilation != 0) return -1;
    const long i = u / inDilation;
    return i < inCount ? int(inTruncation + i) : -1;
  }
  long position(long o, long k) const {
    return outOffset + o * stride + kernelOffset + k * kernelStep;
  }
  void store(int* p) const {
    const int v[kInts] = {outOffset,    stride,       kernelBegin,   kernelCount, kernelFull,
                          kernelOffset, kernelStep,   inTransformed, inPadding,   inDilation,
                          inCount,      inTruncation, inFlip};
    for (std::size_t i = 0; i < kInts; ++i)
      p[i] = v[i];
  }
  static ConvDimGeometry load(const int* p) {
    ConvDimGeometry g;
    g.outOffset = p[0], g.stride = p[1], g.kernelBegin = p[2], g.kernelCount = p[3];
    g.kernelFull = p[4], g.kernelOffset = p[5], g.kernelStep = p[6], g.inTransformed = p[7];
    g.inPadding = p[8], g.inDilation = p[9], g.inCount = p[10], g.inTruncation = p[11];
    g.inFlip = p[12];
    return g;
  }
};

/// The geometry tensor of one vertex: its first input row, the number of input rows it reads
/// (edges per input channel), its first output row, then rows (Y) and columns (X).
struct ConvVertexGeometry {
  int inRowBegin = 0, numInRows = 1, outRowBegin = 0;
  ConvDimGeometry y, x;
  static constexpr std::size_t kInts = 3 + 2 * ConvDimGeometry::kInts;
};

/// The geometry of a vertex whose operands keep their channels innermost (a matmul's): one int,
/// there being no field to map.
constexpr std::size_t kChannelsInnermostGeometryInts = 1;

} // namespace poplin
