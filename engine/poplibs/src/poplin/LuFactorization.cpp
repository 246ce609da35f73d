// poplin::experimental::LUFactorization: the input copied (or cast) into a float work matrix
// laid out in square blocks over the tiles; per round of `depth` columns, the diagonal block
// is factorised (LUDCoreVertex), the blocks right of it and below it become U's and L's panels
// (LUDRowVertex, LUDColVertex) and the trailing blocks lose the panels' product
// (LUDBlockVertex); finally L is split out of the work matrix (LUD*SplitVertex).
#include <algorithm>
#include <poplin/experimental/LuFactorization.hpp>
#include <popops/Cast.hpp>
#include <popops/Zero.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>
#include <string>
#include <vector>

namespace poplin {
namespace experimental {

using namespace poplar;
using poplar::program::Copy;
using poplar::program::Execute;
using poplar::program::Sequence;

namespace {

constexpr std::size_t kDepth = 6; // columns eliminated per round, as PopLibs

/// PopLibs' layout block edge for the matrix's smaller edge.
std::size_t blockEdge(std::size_t minEdge) {
  return minEdge < 768 ? 6 : minEdge < 1048 ? 12 : minEdge < 1200 ? 24 : 48;
}

struct Layout {
  std::size_t m, n, block;
  unsigned numTiles;
  unsigned tileOf(std::size_t row, std::size_t col) const {
    const std::size_t blocksInRow = (n + block - 1) / block;
    return unsigned(((row / block) * blocksInRow + col / block) % numTiles);
  }
  /// [begin, end) runs of one block each, cut at multiples of the block edge.
  std::vector<std::pair<std::size_t, std::size_t>> runs(std::size_t begin, std::size_t end) const {
    std::vector<std::pair<std::size_t, std::size_t>> r;
    for (std::size_t b = begin; b < end;) {
      const std::size_t e = std::min(end, (b / block + 1) * block);
      r.emplace_back(b, e);
      b = e;
    }
    return r;
  }
};

std::vector<Tensor> rowsOf(const Tensor& t) {
  std::vector<Tensor> rows;
  for (std::size_t i = 0; i < t.dim(0); ++i)
    rows.push_back(t[i]);
  return rows;
}

unsigned alignOf(std::initializer_list<std::size_t> sizes) {
  for (std::size_t s : sizes)
    if (s % 2) return 4;
  return 8;
}

std::string vertexName(const char* base, unsigned align) {
  return std::string("poplin::experimental::") + base + "<" + std::to_string(align) + ">";
}

} // namespace

std::pair<Tensor, Tensor> LUFactorization(Graph& graph, Tensor& input, Sequence& seq,
                                          const DebugContext& debugContext) {
  const std::string op = "poplin::experimental::LUFactorization";
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(input), "LUFactorization");
  if (!input.valid() || input.rank() != 2)
    throw poputil::poplibs_error(op + ": input must be a matrix [M, N], not shape " +
                                 (input.valid() ? input.shapeToString() : std::string("(none)")));
  if (input.elementType() != FLOAT && input.elementType() != HALF)
    throw poputil::poplibs_error(op + ": input must be float or half, not " +
                                 input.elementType().toString());
  const std::size_t m = input.dim(0), n = input.dim(1), minEdge = std::min(m, n);
  if (m == 0 || n == 0) throw poputil::poplibs_error(op + ": input is empty");
  const Layout layout{m, n, blockEdge(minEdge), graph.getTarget().getNumTiles()};

  const Tensor L = graph.addVariable(FLOAT, {m, m}, {di, "L"});
  const Tensor U = graph.addVariable(FLOAT, {m, n}, {di, "U"});
  for (const Tensor& t : {L, U})
    for (const auto& rows : layout.runs(0, t.dim(0)))
      for (const auto& cols : layout.runs(0, t.dim(1)))
        graph.setTileMapping(t.slice({rows.first, cols.first}, {rows.second, cols.second}),
                             layout.tileOf(rows.first, cols.first));
  if (input.elementType() == FLOAT)
    seq.add(Copy(input, U, false, {di, "load"}));
  else
    popops::castWithOutput(graph, input, U, seq, {di, "load"});
  popops::zero(graph, L, seq, {di, "zeroL"});

  for (std::size_t s = 0; s < minEdge; s += kDepth) {
    const std::size_t d = std::min(kDepth, minEdge - s), e = s + d;
    const DebugContext rdc(di, "round" + std::to_string(s));
    const Tensor core = U.slice({s, s}, {e, e});
    const ComputeSet coreCs = graph.addComputeSet({rdc, "Core"});
    const auto vc = graph.addVertex(coreCs, vertexName("LUDCoreVertex", alignOf({d})));
    graph.connect(vc["sliceLU"], rowsOf(core));
    graph.setInitialValue(vc["depth"], int(d));
    graph.setTileMapping(vc, layout.tileOf(s, s));
    seq.add(Execute(coreCs, {rdc, "Core"}));

    const ComputeSet panelCs = graph.addComputeSet({rdc, "Panels"});
    for (const auto& cols : layout.runs(e, n)) {
      const std::size_t w = cols.second - cols.first;
      const auto v = graph.addVertex(panelCs, vertexName("LUDRowVertex", alignOf({d, w})));
      graph.connect(v["sliceLU"], rowsOf(U.slice({s, cols.first}, {e, cols.second})));
      graph.connect(v["sliceLUCore"], rowsOf(core));
      graph.setInitialValue(v["depth"], int(d));
      graph.setInitialValue(v["width"], int(w));
      graph.setTileMapping(v, layout.tileOf(s, cols.first));
    }
    for (const auto& rows : layout.runs(e, m)) {
      const std::size_t h = rows.second - rows.first;
      const auto v = graph.addVertex(panelCs, vertexName("LUDColVertex", alignOf({d, h})));
      graph.connect(v["sliceLU"], rowsOf(U.slice({rows.first, s}, {rows.second, e})));
      graph.connect(v["sliceLUCore"], rowsOf(core));
      graph.setInitialValue(v["depth"], int(d));
      graph.setInitialValue(v["height"], int(h));
      graph.setTileMapping(v, layout.tileOf(rows.first, s));
    }
    if (e < n || e < m) seq.add(Execute(panelCs, {rdc, "Panels"}));
    if (e >= n || e >= m) continue; // no trailing matrix
    const ComputeSet updateCs = graph.addComputeSet({rdc, "Update"});
    for (const auto& rows : layout.runs(e, m))
      for (const auto& cols : layout.runs(e, n)) {
        const std::size_t h = rows.second - rows.first, w = cols.second - cols.first;
        const auto v = graph.addVertex(updateCs, vertexName("LUDBlockVertex", alignOf({d, h, w})));
        graph.connect(v["sliceLU"],
                      rowsOf(U.slice({rows.first, cols.first}, {rows.second, cols.second})));
        graph.connect(v["sliceLURow"], rowsOf(U.slice({s, cols.first}, {e, cols.second})));
        graph.connect(v["sliceLUCol"], rowsOf(U.slice({rows.first, s}, {rows.second, e})));
        graph.setInitialValue(v["depth"], int(d));
        graph.setInitialValue(v["width"], int(w));
        graph.setInitialValue(v["height"], int(h));
        graph.setTileMapping(v, layout.tileOf(rows.first, cols.first));
      }
    seq.add(Execute(updateCs, {rdc, "Update"}));
  }

  // The split: blocks of U's first minEdge columns on or below the diagonal give L's, and
  // L's diagonal past U's columns (M > N) is 1.
  const ComputeSet splitCs = graph.addComputeSet({di, "Split"});
  for (const auto& rows : layout.runs(0, m))
    for (const auto& cols : layout.runs(0, std::min(rows.second, minEdge))) {
      const bool core = cols.second > rows.first; // the block crosses the diagonal
      const std::size_t h = rows.second - rows.first, w = cols.second - cols.first;
      const auto v = graph.addVertex(splitCs, core ? "poplin::experimental::LUDCoreSplitVertex"
                                                   : "poplin::experimental::LUDBlockSplitVertex");
      graph.connect(v["sliceLU"],
                    rowsOf(U.slice({rows.first, cols.first}, {rows.second, cols.second})));
      graph.connect(v["sliceL"],
                    rowsOf(L.slice({rows.first, cols.first}, {rows.second, cols.second})));
      graph.setInitialValue(v["height"], int(h));
      graph.setInitialValue(v["width"], int(w));
      graph.setInitialValue(v["offset"], int(cols.first) - int(rows.first));
      graph.setTileMapping(v, layout.tileOf(rows.first, cols.first));
    }
  seq.add(Execute(splitCs, {di, "Split"}));
  if (m > n) {
    std::vector<float> identity((m - n) * (m - n), 0.0f);
    for (std::size_t i = 0; i < m - n; ++i)
      identity[i * (m - n) + i] = 1.0f;
    const Tensor tail = graph.addConstant(FLOAT, {m - n, m - n}, identity.data(), {di, "eye"});
    graph.setTileMapping(tail, layout.tileOf(n, n));
    seq.add(Copy(tail, L.slice({n, n}, {m, m}), false, {di, "eye"}));
  }
  di.addOutputs(DI_ARGS(L, U));
  return {L, U};
}

} // namespace experimental
} // namespace poplin
