// poplin::experimental::QRFactorization: Householder QR on the tiles. A is copied (cast) into a
// float work matrix W = A^T so that A's columns are contiguous rows; Q's rows are updated in a
// float copy. Per column k: RowCopy -> PartialSquareElements -> a popops ADD reduction (the
// squared norm) -> Householder -> Update on W's rows k.. and all of Q's rows, the rows split
// into blocks over the tiles that hold them. Finally R = W^T goes back into A and Q out.
#include <algorithm>
#include <poplin/experimental/QRFactorization.hpp>
#include <popops/Cast.hpp>
#include <popops/Reduce.hpp>
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

const std::string kOp = "poplin::experimental::QRFactorization";

/// Row r of an R-row matrix lives on tile r * tiles / R (contiguous blocks of rows).
unsigned tileOfRow(std::size_t r, std::size_t rows, unsigned tiles) {
  return unsigned(r * tiles / rows);
}

void mapRows(Graph& graph, const Tensor& t) {
  const unsigned tiles = graph.getTarget().getNumTiles();
  for (std::size_t r = 0; r < t.dim(0); ++r)
    graph.setTileMapping(t[r], tileOfRow(r, t.dim(0), tiles));
}

void checkMatrix(const Tensor& t, const std::string& what) {
  if (!t.valid() || t.rank() != 2)
    throw poputil::poplibs_error(kOp + ": " + what + " must be a matrix, not shape " +
                                 (t.valid() ? t.shapeToString() : std::string("(none)")));
  if (t.elementType() != FLOAT && t.elementType() != HALF)
    throw poputil::poplibs_error(kOp + ": " + what + " must be float or half, not " +
                                 t.elementType().toString());
}

std::size_t parseRowsPerIteration(const OptionFlags& options) {
  std::size_t rows = 32;
  for (const auto& kv : options) {
    if (kv.first != "rowsPerIteration")
      throw poplar::invalid_option(kOp + ": unknown option '" + kv.first +
                                   "' (supported: rowsPerIteration)");
    const std::string& v = kv.second;
    if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos ||
        std::stoul(v) == 0)
      throw poplar::invalid_option(kOp + ": option 'rowsPerIteration' = '" + v +
                                   "': expected a positive integer");
    rows = std::stoul(v);
  }
  return rows;
}

/// Update vertices over `rows` (rows of W or Q), one per run of rows on one tile.
void addUpdates(Graph& graph, const ComputeSet& cs, const Tensor& rows, std::size_t first,
                const Tensor& v, unsigned padding) {
  const unsigned tiles = graph.getTarget().getNumTiles();
  const std::size_t R = rows.dim(0);
  for (std::size_t b = first; b < R;) {
    const unsigned tile = tileOfRow(b, R, tiles);
    std::size_t e = b + 1;
    while (e < R && tileOfRow(e, R, tiles) == tile)
      ++e;
    std::vector<Tensor> block;
    for (std::size_t r = b; r < e; ++r)
      block.push_back(rows[r]);
    const auto u = graph.addVertex(cs, "poplin::experimental::Update");
    graph.connect(u["v"], v);
    graph.connect(u["AQRows"], block);
    graph.setInitialValue(u["padding"], padding);
    graph.setTileMapping(u, tile);
    b = e;
  }
}

} // namespace

std::array<Tensor, 2> createQRFactorizationMatrices(Graph& graph, const Type& type,
                                                    const std::size_t m, const std::size_t n,
                                                    const DebugContext& debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(type, m, n),
                                 "createQRFactorizationMatrices");
  if (type != FLOAT && type != HALF)
    throw poputil::poplibs_error("poplin::experimental::createQRFactorizationMatrices: type must "
                                 "be float or half, not " +
                                 type.toString());
  if (n == 0 || m < n)
    throw poputil::poplibs_error(
        "poplin::experimental::createQRFactorizationMatrices: A must have at least as many rows "
        "as columns and at least one column, not " +
        std::to_string(m) + " x " + std::to_string(n));
  const Tensor A = graph.addVariable(type, {m, n}, {di, "A"});
  const Tensor Q = graph.addVariable(type, {m, m}, {di, "Q"});
  mapRows(graph, A);
  mapRows(graph, Q);
  di.addOutputs(DI_ARGS(A, Q));
  return {A, Q};
}

void QRFactorization(Graph& graph, Tensor& A, Tensor& Q, Sequence& prog,
                     const DebugContext& debugContext, const OptionFlags& options) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(A, Q, options), "QRFactorization");
  checkMatrix(A, "A");
  checkMatrix(Q, "Q");
  parseRowsPerIteration(options);
  const std::size_t m = A.dim(0), n = A.dim(1);
  if (n == 0 || m < n)
    throw poputil::poplibs_error(kOp + ": A [M, N] must have M >= N >= 1, not " +
                                 A.shapeToString());
  if (Q.dim(0) != m || Q.dim(1) != m)
    throw poputil::poplibs_error(kOp + ": Q must be [" + std::to_string(m) + ", " +
                                 std::to_string(m) + "] for A " + A.shapeToString() + ", not " +
                                 Q.shapeToString());
  if (Q.elementType() != A.elementType())
    throw poputil::poplibs_error(kOp + ": Q (" + Q.elementType().toString() +
                                 ") must have A's type (" + A.elementType().toString() + ")");

  // Float work copies: W = A^T (A's columns as rows) and Qw = Q.
  const Tensor W = graph.addVariable(FLOAT, {n, m}, {di, "W"});
  const Tensor Qw = graph.addVariable(FLOAT, {m, m}, {di, "Qw"});
  mapRows(graph, W);
  mapRows(graph, Qw);
  if (A.elementType() == FLOAT) {
    prog.add(Copy(A.transpose(), W, false, {di, "loadA"}));
    prog.add(Copy(Q, Qw, false, {di, "loadQ"}));
  } else {
    popops::castWithOutput(graph, A.transpose(), W, prog, {di, "loadA"});
    popops::castWithOutput(graph, Q, Qw, prog, {di, "loadQ"});
  }

  const Tensor v = graph.addVariable(FLOAT, {m}, {di, "v"});
  const Tensor squares = graph.addVariable(FLOAT, {m}, {di, "squares"});
  const Tensor diag = graph.addVariable(FLOAT, {1}, {di, "diagonal"});
  for (const Tensor& t : {v, squares, diag})
    graph.setTileMapping(t, 0);

  // A column with one element left (k = M - 1) needs no reflector.
  const std::size_t steps = std::min(n, m - 1);
  for (std::size_t k = 0; k < steps; ++k) {
    const DebugContext cdc(di, "column" + std::to_string(k));
    const unsigned pad = unsigned(k);
    const unsigned homeTile = tileOfRow(k, n, graph.getTarget().getNumTiles());

    const ComputeSet copyCs = graph.addComputeSet({cdc, "RowCopy"});
    const auto rc = graph.addVertex(copyCs, "poplin::experimental::RowCopy");
    graph.connect(rc["A"], W[k]);
    graph.connect(rc["copiedRow"], v);
    graph.connect(rc["diagonalValueVector"], diag);
    graph.setInitialValue(rc["padding"], pad);
    graph.setTileMapping(rc, homeTile);
    prog.add(Execute(copyCs, {cdc, "RowCopy"}));

    prog.add(Copy(v, squares, false, {cdc, "squares"}));
    const ComputeSet sqCs = graph.addComputeSet({cdc, "PartialSquareElements"});
    const auto sq = graph.addVertex(sqCs, "poplin::experimental::PartialSquareElements");
    graph.connect(sq["rowToProcess"], squares);
    graph.setInitialValue(sq["padding"], pad);
    graph.setTileMapping(sq, 0);
    prog.add(Execute(sqCs, {cdc, "PartialSquareElements"}));
    const Tensor dot =
        popops::reduce(graph, squares, FLOAT, {0}, popops::Operation::ADD, prog, {cdc, "norm"});

    const ComputeSet hhCs = graph.addComputeSet({cdc, "Householder"});
    const auto hh = graph.addVertex(hhCs, "poplin::experimental::Householder");
    graph.connect(hh["v"], v);
    graph.connect(hh["dotProduct"], dot.reshape({}));
    graph.connect(hh["diagonalValue"], diag.reshape({}));
    graph.setInitialValue(hh["padding"], pad);
    graph.setTileMapping(hh, 0);
    prog.add(Execute(hhCs, {cdc, "Householder"}));

    const ComputeSet upCs = graph.addComputeSet({cdc, "Update"});
    addUpdates(graph, upCs, W, k, v, pad);
    addUpdates(graph, upCs, Qw, 0, v, pad);
    prog.add(Execute(upCs, {cdc, "Update"}));
  }

  if (A.elementType() == FLOAT) {
    prog.add(Copy(W.transpose(), A, false, {di, "storeR"}));
    prog.add(Copy(Qw, Q, false, {di, "storeQ"}));
  } else {
    popops::castWithOutput(graph, W.transpose(), A, prog, {di, "storeR"});
    popops::castWithOutput(graph, Qw, Q, prog, {di, "storeQ"});
  }
}

} // namespace experimental
} // namespace poplin
