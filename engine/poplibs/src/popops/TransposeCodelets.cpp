// Transposition vertices of popops::rearrange (PopLibs' names and fields):
//   Transpose2D<T>: one edge per matrix; each src edge is a numSrcRows x numSrcColumns matrix
//     in row-major order, its dst edge the transposed numSrcColumns x numSrcRows matrix. Every
//     type popops transposes (4- and 2-byte ones).
//   Transpose1DSingleWorker<T>: the fast 2-byte form for sides that are multiples of 4. All
//     numTranspositionsM1 + 1 matrices are packed one after another in one src and one dst
//     vector; the sides are given divided by 4.
//   Transpose1D<T>: the same layout as a MultiVertex: the first workerCount workers transpose
//     numTranspositions matrices each and the others one matrix fewer.
// Cycle estimates follow PopLibs' published transpose estimators (the fast and slow paths of
// the 2-D vertex, the 4x4-block worker loop of the 1-D ones).
#include "TransposeCycles.hpp"

#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>
#include <type_traits>

namespace popops {
namespace {

using detail::transpose2dCycles;
using detail::transposeWorkerCycles;
using poplar::half;
using poplar::Input;
using poplar::Output;
using poplar::Vector;

template <typename T> constexpr bool isFourByte() {
  return sizeof(T) == 4;
}

/// Writes the transpose of the rows x cols row-major matrix at `src` to `dst`.
template <typename S, typename D>
void transposeOne(const S& src, std::size_t srcBase, D& dst, std::size_t dstBase, unsigned rows,
                  unsigned cols) {
  for (unsigned r = 0; r < rows; ++r)
    for (unsigned c = 0; c < cols; ++c)
      dst[dstBase + std::size_t(c) * rows + r] = src[srcBase + std::size_t(r) * cols + c];
}

template <typename T> class Transpose2D : public poplar::Vertex {
public:
  Vector<Input<Vector<T>>> src;
  Vector<Output<Vector<T>>> dst;
  unsigned short numSrcRows;
  unsigned short numSrcColumns;
  bool compute() {
    const std::size_t n = std::size_t(numSrcRows) * numSrcColumns;
    if (src.size() != dst.size()) return false;
    for (std::size_t m = 0; m < src.size(); ++m) {
      if (src[m].size() != n || dst[m].size() != n) return false;
      transposeOne(src[m], 0, dst[m], 0, numSrcRows, numSrcColumns);
    }
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    return transpose2dCycles(isFourByte<T>(), v.getFieldInfo("dst").size(),
                             v.getInitialValue<unsigned short>("numSrcRows"),
                             v.getInitialValue<unsigned short>("numSrcColumns"));
  }
};

template <typename T> class Transpose1DSingleWorker : public poplar::Vertex {
public:
  Input<Vector<T>> src;
  Output<Vector<T>> dst;
  unsigned short numSrcRowsD4;
  unsigned short numSrcColumnsD4;
  unsigned short numTranspositionsM1;
  bool compute() {
    const unsigned rows = 4u * numSrcRowsD4, cols = 4u * numSrcColumnsD4;
    const std::size_t n = std::size_t(rows) * cols, matrices = std::size_t(numTranspositionsM1) + 1;
    if (src.size() != n * matrices || dst.size() != n * matrices) return false;
    for (std::size_t m = 0; m < matrices; ++m)
      transposeOne(src, m * n, dst, m * n, rows, cols);
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    return transposeWorkerCycles(
        v.getInitialValue<unsigned short>("numSrcRowsD4"),
        v.getInitialValue<unsigned short>("numSrcColumnsD4"),
        std::uint64_t(v.getInitialValue<unsigned short>("numTranspositionsM1")) + 1);
  }
};

template <typename T> class Transpose1D : public poplar::MultiVertex {
public:
  Input<Vector<T>> src;
  Output<Vector<T>> dst;
  unsigned short numSrcRowsD4;
  unsigned short numSrcColumnsD4;
  unsigned short numTranspositions;
  unsigned short workerCount;
  bool compute(unsigned workerId) {
    const unsigned rows = 4u * numSrcRowsD4, cols = 4u * numSrcColumnsD4;
    const std::size_t n = std::size_t(rows) * cols;
    const std::size_t big = numTranspositions, small = big ? big - 1 : 0;
    const std::size_t first = workerId < workerCount
                                  ? workerId * big
                                  : workerCount * big + (workerId - workerCount) * small;
    const std::size_t count = workerId < workerCount ? big : small;
    if ((first + count) * n > src.size() || src.size() != dst.size()) return false;
    for (std::size_t m = first; m < first + count; ++m)
      transposeOne(src, m * n, dst, m * n, rows, cols);
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    // The slowest workers transpose numTranspositions matrices; each skips the 7 entry cycles
    // the supervisor's start-up already paid.
    const std::uint64_t worker =
        transposeWorkerCycles(v.getInitialValue<unsigned short>("numSrcRowsD4"),
                              v.getInitialValue<unsigned short>("numSrcColumnsD4"),
                              v.getInitialValue<unsigned short>("numTranspositions"));
    return 7 + target.getNumWorkerContexts() * (worker - 7);
  }
};

#define POPOPS_TRANSPOSE_2D(T, Name)                                                               \
  using Transpose2D_##T = Transpose2D<T>;                                                          \
  TESSERA_VERTEX_IN("popops", "popops::Transpose2D<" Name ">", Transpose2D_##T, src, dst,          \
                    numSrcRows, numSrcColumns)
#define POPOPS_TRANSPOSE_1D(T, Name)                                                               \
  using Transpose1DSingleWorker_##T = Transpose1DSingleWorker<T>;                                  \
  TESSERA_VERTEX_IN("popops", "popops::Transpose1DSingleWorker<" Name ">",                         \
                    Transpose1DSingleWorker_##T, src, dst, numSrcRowsD4, numSrcColumnsD4,          \
                    numTranspositionsM1);                                                          \
  using Transpose1D_##T = Transpose1D<T>;                                                          \
  TESSERA_VERTEX_IN("popops", "popops::Transpose1D<" Name ">", Transpose1D_##T, src, dst,          \
                    numSrcRowsD4, numSrcColumnsD4, numTranspositions, workerCount)

using uint = unsigned;
using ushort = unsigned short;
POPOPS_TRANSPOSE_2D(float, "float");
POPOPS_TRANSPOSE_2D(half, "half");
POPOPS_TRANSPOSE_2D(int, "int");
POPOPS_TRANSPOSE_2D(uint, "unsigned int");
POPOPS_TRANSPOSE_2D(short, "short");
POPOPS_TRANSPOSE_2D(ushort, "unsigned short");
POPOPS_TRANSPOSE_1D(half, "half");
POPOPS_TRANSPOSE_1D(short, "short");
POPOPS_TRANSPOSE_1D(ushort, "unsigned short");

} // namespace
} // namespace popops
