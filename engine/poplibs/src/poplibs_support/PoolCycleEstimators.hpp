// Cycle estimates of popnn's pooling vertices as PopLibs' published estimator computes them
// (graphcore/poplibs lib/popnn/PerformanceEstimation.hpp, getPoolingCycles, the release whose
// UnpackCosts has six layouts; the constants are facts about the vertices' assembly, the code
// is ours), given the work list PopLibs' vertex would have for Tessera's layout.
//
// PopLibs' vertex works on channel groups of 64-bit vectors with a work list per worker: rows,
// each a list of runs (one per kernel position along the row) of output positions. Tessera's
// vertices hold one plane per channel (its whole field, ungrouped), so each plane is a channel
// group of one vector (chansPerGroupD = 1), and the work list is: a row per output row and
// kernel row whose input row exists, a run per kernel column over the output columns whose
// input column exists; the rows are split evenly over the workers. The backward vertices take
// the same pairs of input and output positions (their runs are grouped by input row in PopLibs,
// which changes only the loop overheads).
#pragma once

#include <algorithm>
#include <cstdint>
#include <poplar/Target.hpp>
#include <vector>

namespace poplibs_support {

/// A pooling vertex's geometry per dimension (Tessera's fields).
struct PoolGeometry {
  int inH, inW, outH, outW, kernelH, kernelW, strideH, strideW, padH, padW;
};

/// The work list rows for one plane: for every row, the lengths of its runs.
inline std::vector<std::vector<std::uint64_t>> poolingWorkRows(const PoolGeometry& g) {
  std::vector<std::vector<std::uint64_t>> rows;
  for (int oy = 0; oy < g.outH; ++oy)
    for (int ky = 0; ky < g.kernelH; ++ky) {
      const int y = oy * g.strideH - g.padH + ky;
      if (y < 0 || y >= g.inH) continue;
      std::vector<std::uint64_t> runs;
      for (int kx = 0; kx < g.kernelW; ++kx) {
        std::uint64_t n = 0;
        for (int ox = 0; ox < g.outW; ++ox) {
          const int x = ox * g.strideW - g.padW + kx;
          if (x >= 0 && x < g.inW) ++n;
        }
        if (n) runs.push_back(n);
      }
      rows.push_back(std::move(runs));
    }
  return rows;
}

/// getPoolingCycles with every layout's unpack cost 2 (PopLibs' planning default): per worker
/// the set-up (19), initialising its share of `initInfo` output positions per channel group
/// (4 + share each), 8 to find its rows; with rows 2 + 1 (max) / 2 (sum), 10 more for the
/// backward pass, 10 to unpack the work list; per row 13 + 2, per run 20 + 3, per channel group
/// 1 + 1 (+ 4, or 6 backward, after the first) and per vector 2 + the loop + 1, the loop
/// 4 + 3 (n - 1) (max), 5 + 3 (n - 1) (sum), 7 + 5 (n - 1) (backward); 1 to exit. The vertex:
/// 7 + 6 x the slowest worker + 6.
inline std::uint64_t poolingCycles(const poplar::Target& t,
                                   const std::vector<std::vector<std::uint64_t>>& rows,
                                   std::uint64_t initInfo, std::uint64_t numChanGroups,
                                   bool isMaxPool, bool isBwdPass) {
  constexpr std::uint64_t unpack = 2, chansPerGroupD = 1;
  const unsigned workers = t.getNumWorkerContexts();
  const std::uint64_t baseRows = rows.size() / workers, extraRows = rows.size() % workers;
  std::uint64_t slowest = 0, firstRow = 0;
  for (unsigned w = 0; w < workers; ++w) {
    const std::uint64_t numRows = baseRows + (w < extraRows ? 1 : 0);
    std::uint64_t c = 4 + 2 + 2 + 7 + 2 + unpack;
    const std::uint64_t share = initInfo * chansPerGroupD / workers;
    const std::uint64_t initElems = share + (w < initInfo - share * workers ? 1 : 0);
    c += (4 + initElems) * numChanGroups;
    c += 5 + 1 + unpack;
    if (numRows == 0) {
      slowest = std::max(slowest, c + 1);
      continue;
    }
    c += 2 + (isMaxPool ? 1 : 2);
    if (isBwdPass) c += 6 + unpack + unpack;
    c += 3 + 2 + unpack * 2 + 1;
    for (std::uint64_t r = firstRow; r < firstRow + numRows; ++r) {
      c += 13;
      for (std::uint64_t n : rows[r]) {
        c += 20;
        for (std::uint64_t cg = 0; cg < numChanGroups; ++cg) {
          if (cg != 0) c += 4 + (isBwdPass ? 2 : 0);
          c += 1;
          const std::uint64_t m = n - 1; // the repeat count
          const std::uint64_t loop = isBwdPass ? 7 + 5 * m : isMaxPool ? 4 + 3 * m : 5 + 3 * m;
          c += chansPerGroupD * (2 + loop + 1);
          c += 1;
        }
        c += 3;
      }
      c += 2;
    }
    firstRow += numRows;
    slowest = std::max(slowest, c + 1);
  }
  return 7 + slowest * 6 + 6;
}

} // namespace poplibs_support
