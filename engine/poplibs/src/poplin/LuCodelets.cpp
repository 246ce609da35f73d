// The vertices of poplin::experimental::LUFactorization, with PopLibs' names and published
// estimates (poplibs_support/LinalgCycleEstimators.hpp). Each works on float blocks of the
// matrix being factorised, given as lists of rows: the factorisation is Doolittle's without
// pivoting (A = L U, L unit lower triangular), L kept below the diagonal until the split.
#include "poplibs_support/LinalgCycleEstimators.hpp"

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
using Rows = Vector<InOut<Vector<float>>>;
using ConstRows = Vector<Input<Vector<float>>>;

bool shaped(const Rows& rows, std::size_t height, std::size_t width) {
  if (rows.size() != height) return false;
  for (const auto& r : rows)
    if (r.size() != width) return false;
  return true;
}
bool shaped(const ConstRows& rows, std::size_t height, std::size_t width) {
  if (rows.size() != height) return false;
  for (const auto& r : rows)
    if (r.size() != width) return false;
  return true;
}

/// The depth x depth diagonal block factorised in place. Each step depends on the previous
/// one, so the first worker does it all.
template <unsigned align> class LUDCoreVertex : public poplar::MultiVertex {
public:
  Rows sliceLU;
  int depth;
  bool compute(unsigned workerId) {
    const std::size_t d = std::size_t(depth);
    if (!shaped(sliceLU, d, d)) return false;
    if (workerId != 0) return true;
    for (std::size_t i = 0; i < d; ++i)
      for (std::size_t y = i + 1; y < d; ++y) {
        sliceLU[y][i] /= sliceLU[i][i];
        for (std::size_t x = i + 1; x < d; ++x)
          sliceLU[y][x] -= sliceLU[y][i] * sliceLU[i][x];
      }
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    return poplibs_support::ludCoreCycles(align, unsigned(v.getInitialValue<int>("depth")),
                                          target.getNumWorkerContexts());
  }
};

/// A depth x width block right of the diagonal block becomes U's: forward substitution with
/// the core's unit lower factor, a worker per column.
template <unsigned align> class LUDRowVertex : public poplar::MultiVertex {
public:
  Rows sliceLU;
  ConstRows sliceLUCore;
  int depth;
  int width;
  bool compute(unsigned workerId) {
    const std::size_t d = std::size_t(depth), w = std::size_t(width);
    if (!shaped(sliceLU, d, w) || !shaped(sliceLUCore, d, d)) return false;
    for (std::size_t x = workerId; x < w; x += numWorkers())
      for (std::size_t i = 0; i < d; ++i)
        for (std::size_t y = i + 1; y < d; ++y)
          sliceLU[y][x] -= sliceLUCore[y][i] * sliceLU[i][x];
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    return poplibs_support::ludRowCycles(align, unsigned(v.getInitialValue<int>("depth")),
                                         unsigned(v.getInitialValue<int>("width")),
                                         target.getNumWorkerContexts());
  }
};

/// A height x depth block below the diagonal block becomes L's: each row solved against the
/// core's upper factor, a worker per row.
template <unsigned align> class LUDColVertex : public poplar::MultiVertex {
public:
  Rows sliceLU;
  ConstRows sliceLUCore;
  int depth;
  int height;
  bool compute(unsigned workerId) {
    const std::size_t d = std::size_t(depth), h = std::size_t(height);
    if (!shaped(sliceLU, h, d) || !shaped(sliceLUCore, d, d)) return false;
    for (std::size_t y = workerId; y < h; y += numWorkers())
      for (std::size_t i = 0; i < d; ++i) {
        sliceLU[y][i] /= sliceLUCore[i][i];
        for (std::size_t x = i + 1; x < d; ++x)
          sliceLU[y][x] -= sliceLU[y][i] * sliceLUCore[i][x];
      }
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    return poplibs_support::ludColCycles(align, unsigned(v.getInitialValue<int>("depth")),
                                         unsigned(v.getInitialValue<int>("height")),
                                         target.getNumWorkerContexts());
  }
};

/// A height x width block of the trailing matrix less sliceLUCol (height x depth, L's panel)
/// times sliceLURow (depth x width, U's panel), a worker per row.
template <unsigned align> class LUDBlockVertex : public poplar::MultiVertex {
public:
  Rows sliceLU;
  ConstRows sliceLURow;
  ConstRows sliceLUCol;
  int depth;
  int width;
  int height;
  bool compute(unsigned workerId) {
    const std::size_t d = std::size_t(depth), w = std::size_t(width), h = std::size_t(height);
    if (!shaped(sliceLU, h, w) || !shaped(sliceLURow, d, w) || !shaped(sliceLUCol, h, d))
      return false;
    for (std::size_t y = workerId; y < h; y += numWorkers())
      for (std::size_t i = 0; i < d; ++i) {
        const float l = sliceLUCol[y][i];
        for (std::size_t x = 0; x < w; ++x)
          sliceLU[y][x] -= l * sliceLURow[i][x];
      }
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    return poplibs_support::ludBlockCycles(align, unsigned(v.getInitialValue<int>("depth")),
                                           unsigned(v.getInitialValue<int>("height")),
                                           unsigned(v.getInitialValue<int>("width")),
                                           target.getNumWorkerContexts());
  }
};

/// A block of the factorised matrix split into L (`sliceL`) and U (`sliceLU`, zeroed below the
/// diagonal). `offset` is the block's column less its row, so element (y, x) is on the
/// diagonal when x + offset == y: below it goes to L, on it L gets 1; above it L gets 0.
/// LUDBlockSplitVertex blocks lie wholly below the diagonal.
template <bool core> class LUDSplit : public poplar::MultiVertex {
public:
  Rows sliceLU;
  Vector<Output<Vector<float>>> sliceL;
  int height;
  int width;
  int offset;
  bool compute(unsigned workerId) {
    const std::size_t h = std::size_t(height), w = std::size_t(width);
    if (!shaped(sliceLU, h, w) || sliceL.size() != h) return false;
    for (std::size_t y = workerId; y < h; y += numWorkers()) {
      if (sliceL[y].size() != w) return false;
      for (std::size_t x = 0; x < w; ++x) {
        const long col = long(x) + offset, row = long(y);
        if (!core || col < row) {
          sliceL[y][x] = sliceLU[y][x];
          sliceLU[y][x] = 0.0f;
        } else {
          sliceL[y][x] = col == row ? 1.0f : 0.0f;
        }
      }
    }
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    return poplibs_support::ludSplitCycles(core, unsigned(v.getInitialValue<int>("height")),
                                           unsigned(v.getInitialValue<int>("width")),
                                           target.getNumWorkerContexts());
  }
};

#define POPLIN_LUD(A)                                                                              \
  using LUDCore_##A = LUDCoreVertex<A>;                                                            \
  using LUDRow_##A = LUDRowVertex<A>;                                                              \
  using LUDCol_##A = LUDColVertex<A>;                                                              \
  using LUDBlock_##A = LUDBlockVertex<A>;                                                          \
  TESSERA_VERTEX_IN("poplin", "poplin::experimental::LUDCoreVertex<" #A ">", LUDCore_##A, sliceLU, \
                    depth);                                                                        \
  TESSERA_VERTEX_IN("poplin", "poplin::experimental::LUDRowVertex<" #A ">", LUDRow_##A, sliceLU,   \
                    sliceLUCore, depth, width);                                                    \
  TESSERA_VERTEX_IN("poplin", "poplin::experimental::LUDColVertex<" #A ">", LUDCol_##A, sliceLU,   \
                    sliceLUCore, depth, height);                                                   \
  TESSERA_VERTEX_IN("poplin", "poplin::experimental::LUDBlockVertex<" #A ">", LUDBlock_##A,        \
                    sliceLU, sliceLURow, sliceLUCol, depth, width, height)

POPLIN_LUD(4);
POPLIN_LUD(8);

using LUDCoreSplit = LUDSplit<true>;
using LUDBlockSplit = LUDSplit<false>;
TESSERA_VERTEX_IN("poplin", "poplin::experimental::LUDCoreSplitVertex", LUDCoreSplit, sliceLU,
                  sliceL, height, width, offset);
TESSERA_VERTEX_IN("poplin", "poplin::experimental::LUDBlockSplitVertex", LUDBlockSplit, sliceLU,
                  sliceL, height, width, offset);

} // namespace
} // namespace experimental
} // namespace poplin
