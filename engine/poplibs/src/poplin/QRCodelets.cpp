// The vertices of poplin::experimental::QRFactorization, with PopLibs' names and published
// estimates (poplibs_support/LinalgCycleEstimators.hpp). The factorisation works on the
// transpose W of A (its rows are A's columns) and on Q's rows, so every vertex sees contiguous
// vectors of M floats; `padding` is the column being eliminated (elements before it are not
// touched by the reflector).
#include "poplibs_support/LinalgCycleEstimators.hpp"

#include <cmath>
#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>

namespace poplin {
namespace experimental {
namespace {

using poplar::InOut;
using poplar::Input;
using poplar::Output;
using poplar::Vector;

/// W's row `padding` (A's column) copied into `copiedRow`, its diagonal element into
/// `diagonalValueVector`.
class RowCopy : public poplar::MultiVertex {
public:
  Input<Vector<float>> A;
  Output<Vector<float>> copiedRow;
  Output<Vector<float>> diagonalValueVector;
  unsigned padding;
  bool compute(unsigned workerId) {
    if (copiedRow.size() != A.size() || diagonalValueVector.size() != 1 || padding >= A.size())
      return false;
    for (std::size_t i = workerId; i < A.size(); i += numWorkers())
      copiedRow[i] = A[i];
    if (workerId == 0) diagonalValueVector[0] = A[padding];
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    return poplibs_support::qrRowCopyCycles(v.getFieldInfo("A").size());
  }
};

/// Elements before `padding` zeroed, the others squared, in place: their sum is the squared
/// norm of the column below the diagonal.
class PartialSquareElements : public poplar::MultiVertex {
public:
  InOut<Vector<float>> rowToProcess;
  unsigned padding;
  bool compute(unsigned workerId) {
    for (std::size_t i = workerId; i < rowToProcess.size(); i += numWorkers())
      rowToProcess[i] = i < padding ? 0.0f : rowToProcess[i] * rowToProcess[i];
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    return poplibs_support::qrPartialSquareCycles(v.getFieldInfo("rowToProcess").size(),
                                                  v.getInitialValue<unsigned>("padding"));
  }
};

/// The column x (from `padding` on) made the unit vector v of the reflector I - 2 v v^T that
/// maps x onto the axis: u = x + sign(x_k) |x| e_k, v = u / |u|, with
/// |u|^2 = 2 |x|^2 + 2 |x| |x_k|. A column already zero gives v = 0 (the reflector is I).
class Householder : public poplar::MultiVertex {
public:
  InOut<Vector<float>> v;
  Input<float> dotProduct;
  Input<float> diagonalValue;
  unsigned padding;
  bool compute(unsigned workerId) {
    if (padding >= v.size()) return false;
    const float dot = *dotProduct, diag = *diagonalValue, norm = std::sqrt(dot);
    const float sign = diag < 0.0f ? -1.0f : 1.0f;
    const float length = std::sqrt(2.0f * dot + 2.0f * norm * std::fabs(diag));
    for (std::size_t i = workerId; i < v.size(); i += numWorkers()) {
      if (i < padding || length == 0.0f) {
        v[i] = 0.0f;
        continue;
      }
      const float x = i == padding ? diag + sign * norm : v[i];
      v[i] = x / length;
    }
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& vi,
                                        const poplar::Target&) {
    return poplibs_support::qrHouseholderCycles(vi.getFieldInfo("v").size(),
                                                vi.getInitialValue<unsigned>("padding"));
  }
};

/// Each row r of AQRows (columns of A at or right of the one eliminated, rows of Q) less
/// 2 (r . v) v: the reflector applied. Elements before `padding` are untouched (v is 0 there).
class Update : public poplar::MultiVertex {
public:
  Input<Vector<float>> v;
  Vector<InOut<Vector<float>>> AQRows;
  unsigned padding;
  bool compute(unsigned workerId) {
    for (std::size_t r = workerId; r < AQRows.size(); r += numWorkers()) {
      if (AQRows[r].size() != v.size()) return false;
      double dot = 0;
      for (std::size_t i = padding; i < v.size(); ++i)
        dot += double(AQRows[r][i]) * v[i];
      const float scale = float(2.0 * dot);
      for (std::size_t i = padding; i < v.size(); ++i)
        AQRows[r][i] -= scale * v[i];
    }
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& vi,
                                        const poplar::Target&) {
    return poplibs_support::qrUpdateCycles(vi.getFieldInfo("v").size(),
                                           vi.getFieldInfo("AQRows").size(),
                                           vi.getInitialValue<unsigned>("padding"));
  }
};

TESSERA_VERTEX_IN("poplin", "poplin::experimental::RowCopy", RowCopy, A, copiedRow,
                  diagonalValueVector, padding);
TESSERA_VERTEX_IN("poplin", "poplin::experimental::PartialSquareElements", PartialSquareElements,
                  rowToProcess, padding);
TESSERA_VERTEX_IN("poplin", "poplin::experimental::Householder", Householder, v, dotProduct,
                  diagonalValue, padding);
TESSERA_VERTEX_IN("poplin", "poplin::experimental::Update", Update, v, AQRows, padding);

} // namespace
} // namespace experimental
} // namespace poplin
