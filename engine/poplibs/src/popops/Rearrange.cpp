// popops::rearrange: transposing many small matrices with the Transpose* vertices
// (TransposeCodelets.cpp) and regrouping tensors with them.
//
// Regrouping from grouping `from` (dimension, size) to `to` views the tensor as a list of
// to.second x from.second matrices (one per pair of groups) whose rows are contiguous in
// memory; transposing every matrix gives a tensor whose to.second elements along to.first are
// contiguous instead. The matrices are transposed on the tile holding their first element, so
// the work spreads as the data does, and each tile's matrices are split between its workers.
#include <algorithm>
#include <limits>
#include <numeric>
#include <popops/Rearrange.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/Util.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>
#include <string>

namespace popops {
namespace rearrange {

using namespace poplar;
using poputil::GroupingInfo;
using poputil::poplibs_error;

namespace {

/// The IPU's repeat-count limit and the stride field width of its strided loads: the fast
/// vertices' loops and address strides must fit them.
constexpr unsigned kRptCountMax = 4095;
constexpr unsigned kNumStrideBits = 10;

bool isTwoByte(const Type& t) {
  return t == HALF || t == SHORT || t == UNSIGNED_SHORT;
}
bool isFourByte(const Type& t) {
  return t == FLOAT || t == INT || t == UNSIGNED_INT;
}

void checkTransposeType(const Type& t, const std::string& op, const std::string& arg) {
  if (!isTwoByte(t) && !isFourByte(t))
    throw poplibs_error(op + ": " + arg + " has type " + t.toString() +
                        "; transpositions take half, float, short, unsigned short, int or "
                        "unsigned int");
}

std::size_t totalSize(const std::vector<Interval>& intervals) {
  std::size_t n = 0;
  for (const auto& i : intervals)
    n += i.size();
  return n;
}

/// `t` with dimension g.first cut into [size / g.second, g.second] and the group moved last.
Tensor groupDim(const Tensor& t, const GroupingInfo& g) {
  std::vector<std::size_t> shape = t.shape();
  const std::size_t n = shape[g.first];
  shape[g.first] = n / g.second;
  shape.insert(shape.begin() + g.first + 1, g.second);
  return t.reshape(shape).dimRoll(g.first + 1, unsigned(shape.size() - 1));
}

/// The inverse of groupDim for a tensor whose last dimension is the group of g.first.
Tensor ungroupDim(const Tensor& t, const GroupingInfo& g) {
  return t.dimRoll(unsigned(t.rank() - 1), g.first + 1).flatten(g.first, g.first + 2);
}

void checkGrouping(const Tensor& t, const GroupingInfo& g, const std::string& op,
                   const std::string& arg) {
  if (g.first >= t.rank())
    throw poplibs_error(op + ": " + arg + " names dimension " + std::to_string(g.first) +
                        " of a tensor of rank " + std::to_string(t.rank()));
  if (g.second == 0 || t.dim(g.first) % g.second != 0)
    throw poplibs_error(op + ": " + arg + " has group size " + std::to_string(g.second) +
                        ", which does not divide dimension " + std::to_string(g.first) +
                        " of size " + std::to_string(t.dim(g.first)));
}

/// Per tile, the rows of the [rows, rowSize] tensor `m` whose first element it holds.
Graph::TileToTensorMapping rowsByFirstElement(const Graph& graph, const Tensor& m) {
  const std::size_t rowSize = m.dim(1);
  const auto elements = graph.getTileMapping(m);
  Graph::TileToTensorMapping rows(elements.size());
  for (std::size_t tile = 0; tile < elements.size(); ++tile)
    for (const auto& iv : elements[tile]) {
      const std::size_t first = (iv.begin() + rowSize - 1) / rowSize;
      const std::size_t last = (iv.end() + rowSize - 1) / rowSize;
      if (first < last) rows[tile].emplace_back(first, last);
    }
  for (auto& r : rows)
    std::sort(r.begin(), r.end(),
              [](const Interval& a, const Interval& b) { return a.begin() < b.begin(); });
  poputil::mergeAdjacentRegions(rows);
  return rows;
}

/// Whether every row of `m` is one contiguous region of memory on one tile, so the transposes
/// can read it in place.
bool rowsAreContiguousOnTiles(const Graph& graph, const Tensor& m) {
  const std::size_t rowSize = m.dim(1);
  for (const auto& r : m.getContiguousRegions())
    if (r.begin() % rowSize != 0 || r.end() % rowSize != 0) return false;
  for (const auto& tile : graph.getTileMapping(m))
    for (const auto& iv : tile)
      if (iv.begin() % rowSize != 0 || iv.end() % rowSize != 0) return false;
  return true;
}

/// The work of both regroupTensor overloads: `addCopy` adds a pre-arranging copy.
Tensor regroup(Graph& graph, const Tensor& t, const std::function<void(Tensor, Tensor)>& addCopy,
               const ComputeSet& cs, const GroupingInfo& from, const GroupingInfo& to,
               const DebugContext& di, const std::string& op) {
  if (!t.valid()) throw poplibs_error(op + ": t is an invalid tensor");
  if (t.rank() <= 1) return t;
  checkGrouping(t, from, op, "from");
  checkGrouping(t, to, op, "to");
  checkTransposeType(t.elementType(), op, "t");
  if (from.first == to.first || t.numElements() == 0) return t;

  // [..., to.second, from.second]: each innermost matrix is one transposition.
  const Tensor grouped = groupDim(groupDim(t, to), from);
  const unsigned rank = unsigned(t.rank());
  const unsigned rows = to.second, cols = from.second;
  const Tensor inFlat = grouped.flatten(0, rank).flatten(1, 3);

  // The transposes read whole rows on one tile: gather them first when they are split.
  Graph::TileToTensorMapping rowMapping = rowsByFirstElement(graph, inFlat);
  Tensor source = inFlat;
  if (!rowsAreContiguousOnTiles(graph, inFlat)) {
    source = graph.addVariable(t.elementType(), inFlat.shape(), {di, "preRegroup"});
    Graph::TileToTensorMapping elementMapping(rowMapping.size());
    for (std::size_t tile = 0; tile < rowMapping.size(); ++tile)
      for (const auto& r : rowMapping[tile])
        elementMapping[tile].emplace_back(r.begin() * inFlat.dim(1), r.end() * inFlat.dim(1));
    graph.setTileMapping(source, elementMapping);
    addCopy(inFlat, source);
  }

  std::vector<std::size_t> outShape = grouped.shape();
  std::swap(outShape[rank], outShape[rank + 1]);
  const Tensor out = graph.addVariable(t.elementType(), outShape, {di, "regrouped"});
  const Tensor outFlat = out.flatten(0, rank).flatten(1, 3);
  addTransposeVertices(
      graph, cs, t.elementType(), rows, cols, rowMapping,
      [&](std::size_t i) { return std::make_pair(source[i], outFlat[i]); }, di);
  // Back to t's shape: swap the groups into grouped's order, then undo from, then to.
  return ungroupDim(ungroupDim(out.dimRoll(rank + 1, rank), from), to);
}

/// The grouping of `t` to regroup from towards `to`: its innermost grouping in another
/// dimension, when both it and `to` suit the fast transpositions.
bool pickFrom(const Graph& graph, const Tensor& t, const GroupingInfo& to, GroupingInfo& from) {
  const unsigned grain = getMinimumRegroupGrainSize(t.elementType());
  if (!isTwoByte(t.elementType()) && !isFourByte(t.elementType())) return false;
  const auto groupings = poputil::detectDimGroupings(graph, t);
  if (groupings.empty() || groupings.front().first == to.first) return false;
  from = groupings.front();
  return from.second % grain == 0 && to.second % grain == 0;
}

/// The grouping of `ref`'s innermost grouped dimension, limited to a divisor of `in`'s size in
/// that dimension.
bool pickTo(const Graph& graph, const Tensor& in, const Tensor& ref, GroupingInfo& to) {
  const auto groupings = poputil::detectDimGroupings(graph, ref);
  if (groupings.empty()) return false;
  to = groupings.front();
  to.second = unsigned(std::gcd<std::size_t>(to.second, in.dim(to.first)));
  return to.second > 1;
}

} // namespace

bool canUseFastTranspose(const Target&, const Type& type, unsigned numRows, unsigned numColumns,
                         unsigned numTranspositions) {
  if (!isTwoByte(type) || numTranspositions > std::numeric_limits<unsigned short>::max() ||
      numRows == 0 || numColumns == 0 || numRows % 4 != 0 || numColumns % 4 != 0)
    return false;
  const unsigned maxStride = 1u << (kNumStrideBits - 1);
  if (numRows == 4 && numColumns == 4)
    return numTranspositions < 2 || numTranspositions - 2 <= kRptCountMax;
  if (numColumns == 4)
    return !(numRows >= 8 && numRows / 4 - 2 > kRptCountMax) && numRows / 4 * 3 - 1 <= maxStride;
  return !(numColumns >= 8 && numColumns / 4 - 2 > kRptCountMax) &&
         numColumns / 4 * 3 - 1 <= maxStride && numRows / 4 < maxStride;
}

void addTransposeVertices(Graph& graph, const ComputeSet& cs, const Type& dType, unsigned rows,
                          unsigned cols, const Graph::TileToTensorMapping& mapping,
                          std::function<std::pair<const Tensor, const Tensor>(size_t)> getInOut,
                          const DebugContext& debugContext) {
  const std::string op = "popops::rearrange::addTransposeVertices";
  checkTransposeType(dType, op, "dType");
  if (rows == 0 || cols == 0 || rows > std::numeric_limits<unsigned short>::max() ||
      cols > std::numeric_limits<unsigned short>::max())
    throw poplibs_error(op + ": rows (" + std::to_string(rows) + ") and cols (" +
                        std::to_string(cols) + ") must each be between 1 and 65535");
  if (!getInOut) throw poplibs_error(op + ": getInOut is empty");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "addTransposeVertices");
  const Target& target = graph.getTarget();
  const std::size_t elems = std::size_t(rows) * cols;

  enum class Kind { OneD, SingleWorker, TwoD };
  auto addVertex = [&](Kind kind, unsigned tile, const std::vector<Interval>& indices) {
    std::vector<Tensor> ins, outs;
    for (const auto& iv : indices)
      for (std::size_t i = iv.begin(); i < iv.end(); ++i) {
        const auto io = getInOut(i);
        if (io.first.numElements() != elems || io.second.numElements() != elems)
          throw poplibs_error(op + ": getInOut(" + std::to_string(i) + ") gave tensors of " +
                              std::to_string(io.first.numElements()) + " and " +
                              std::to_string(io.second.numElements()) + " elements; a " +
                              std::to_string(rows) + "x" + std::to_string(cols) + " matrix has " +
                              std::to_string(elems));
        ins.push_back(io.first.flatten());
        outs.push_back(io.second.flatten());
        graph.setTileMapping(io.second, tile);
      }
    if (ins.empty()) return;
    const char* name = kind == Kind::OneD           ? "popops::Transpose1D"
                       : kind == Kind::SingleWorker ? "popops::Transpose1DSingleWorker"
                                                    : "popops::Transpose2D";
    const auto v = graph.addVertex(cs, poputil::templateVertex(name, dType));
    graph.setTileMapping(v, tile);
    if (kind == Kind::TwoD) {
      graph.connect(v["src"], ins);
      graph.connect(v["dst"], outs);
      graph.setInitialValue(v["numSrcRows"], static_cast<unsigned short>(rows));
      graph.setInitialValue(v["numSrcColumns"], static_cast<unsigned short>(cols));
      return;
    }
    graph.connect(v["src"], concat(ins));
    graph.connect(v["dst"], concat(outs));
    graph.setInitialValue(v["numSrcRowsD4"], static_cast<unsigned short>(rows / 4));
    graph.setInitialValue(v["numSrcColumnsD4"], static_cast<unsigned short>(cols / 4));
    if (kind == Kind::SingleWorker) {
      graph.setInitialValue(v["numTranspositionsM1"], static_cast<unsigned short>(ins.size() - 1));
      return;
    }
    // The first workerCount workers take `per` matrices, the rest per - 1.
    const unsigned workers = target.getNumWorkerContexts();
    const unsigned n = unsigned(ins.size());
    unsigned per = 1, workerCount = n;
    if (n > workers) {
      per = n / workers;
      workerCount = workers;
      if (n % workers != 0) {
        ++per;
        workerCount = n % workers;
      }
    }
    graph.setInitialValue(v["numTranspositions"], static_cast<unsigned short>(per));
    graph.setInitialValue(v["workerCount"], static_cast<unsigned short>(workerCount));
  };

  for (unsigned tile = 0; tile < mapping.size(); ++tile) {
    const std::size_t n = totalSize(mapping[tile]);
    if (n == 0) continue;
    if (canUseFastTranspose(
            target, dType, rows, cols,
            unsigned(std::min<std::size_t>(n, std::numeric_limits<unsigned>::max())))) {
      // One vertex for the tile: a single worker for one matrix or a few 4x4 blocks (starting
      // all the workers would cost more), otherwise the MultiVertex.
      const bool single = n == 1 || (rows == 4 && cols == 4 && n <= 4);
      addVertex(single ? Kind::SingleWorker : Kind::OneD, tile, mapping[tile]);
      continue;
    }
    // One vertex per worker, each taking an equal share of the tile's matrices.
    for (const auto& share : poputil::splitRegionsBetweenWorkers(target, mapping[tile], 1)) {
      const std::size_t count = totalSize(share);
      addVertex(canUseFastTranspose(target, dType, rows, cols, unsigned(count)) ? Kind::SingleWorker
                                                                                : Kind::TwoD,
                tile, share);
    }
  }
}

Tensor partialTranspose(Graph& graph, const Tensor& in, const ComputeSet& cs,
                        const DebugContext& debugContext) {
  const std::string op = "popops::rearrange::partialTranspose";
  if (!in.valid()) throw poplibs_error(op + ": in is an invalid tensor");
  if (in.rank() < 2)
    throw poplibs_error(op + ": in has shape " + in.shapeToString() +
                        "; it needs at least 2 dimensions");
  checkTransposeType(in.elementType(), op, "in");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "partialTranspose");
  const std::size_t rank = in.rank();
  const std::size_t rows = in.dim(rank - 2), cols = in.dim(rank - 1);
  std::vector<std::size_t> outShape = in.shape();
  std::swap(outShape[rank - 2], outShape[rank - 1]);
  const Tensor out = graph.addVariable(in.elementType(), outShape, {di, "partialTranspose"});
  if (in.numElements() == 0) {
    graph.setTileMapping(out, 0);
    return out;
  }
  const Tensor inFlat = in.reshape({in.numElements() / (rows * cols), rows * cols});
  const Tensor outFlat = out.reshape(inFlat.shape());
  addTransposeVertices(
      graph, cs, in.elementType(), unsigned(rows), unsigned(cols),
      rowsByFirstElement(graph, inFlat),
      [&](std::size_t i) { return std::make_pair(inFlat[i], outFlat[i]); }, di);
  return out;
}

unsigned getMinimumRegroupGrainSize(const Type& type) {
  if (isTwoByte(type)) return 4;
  if (isFourByte(type)) return 2;
  return 1;
}

Tensor regroupTensor(Graph& graph, const Tensor& t, program::Sequence& copies,
                     const ComputeSet& transposeCS, const GroupingInfo& from,
                     const GroupingInfo& to, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "regroupTensor");
  return regroup(
      graph, t, [&](Tensor src, Tensor dst) { copies.add(program::Copy(src, dst, false, di)); },
      transposeCS, from, to, di, "popops::rearrange::regroupTensor");
}

Tensor regroupTensor(Graph& graph, const Tensor& t, std::vector<program::Copy>& copies,
                     const ComputeSet& transposeCS, const GroupingInfo& from,
                     const GroupingInfo& to, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "regroupTensor");
  return regroup(
      graph, t, [&](Tensor src, Tensor dst) { copies.emplace_back(src, dst, false, di); },
      transposeCS, from, to, di, "popops::rearrange::regroupTensor");
}

Tensor regroupIfPossible(Graph& graph, const Tensor& t, program::Sequence& prog,
                         const GroupingInfo& to, const DebugContext& debugContext) {
  const std::string op = "popops::rearrange::regroupIfPossible";
  if (!t.valid()) throw poplibs_error(op + ": t is an invalid tensor");
  if (t.rank() <= 1) return t;
  checkGrouping(t, to, op, "to");
  GroupingInfo from;
  if (!pickFrom(graph, t, to, from)) return t;
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "regroupIfPossible");
  program::Sequence copies;
  const ComputeSet cs = graph.addComputeSet(di);
  const Tensor out = regroup(
      graph, t, [&](Tensor src, Tensor dst) { copies.add(program::Copy(src, dst, false, di)); }, cs,
      from, to, di, op);
  prog.add(copies);
  prog.add(program::Execute(cs, di));
  return out;
}

Tensor regroupIfBeneficial(Graph& graph, const Tensor& in, const Tensor& ref,
                           std::vector<program::Copy>& copies, ComputeSet transposeCS,
                           const DebugContext& debugContext) {
  const std::string op = "popops::rearrange::regroupIfBeneficial";
  if (!in.valid()) throw poplibs_error(op + ": in is an invalid tensor");
  if (!ref.valid()) throw poplibs_error(op + ": ref is an invalid tensor");
  if (ref.shape() != in.shape())
    throw poplibs_error(op + ": ref has shape " + ref.shapeToString() + " but in has shape " +
                        in.shapeToString() + "; they must match");
  if (in.rank() <= 1) return in;
  GroupingInfo to, from;
  if (!pickTo(graph, in, ref, to) || !pickFrom(graph, in, to, from)) return in;
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "regroupIfBeneficial");
  return regroup(
      graph, in, [&](Tensor src, Tensor dst) { copies.emplace_back(src, dst, false, di); },
      transposeCS, from, to, di, op);
}

Tensor regroupIfBeneficial(Graph& graph, const Tensor& in, const Tensor& ref,
                           program::Sequence& prog, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "regroupIfBeneficial");
  std::vector<program::Copy> copies;
  const ComputeSet cs = graph.addComputeSet(di);
  const Tensor out = regroupIfBeneficial(graph, in, ref, copies, cs, di);
  if (out.elementsAreEqual(in) && copies.empty()) return in;
  for (auto& c : copies)
    prog.add(c);
  prog.add(program::Execute(cs, di));
  return out;
}

Tensor regroupIfBeneficial(Graph& graph, const Tensor& in, std::size_t preferredGrouping,
                           program::Sequence& prog, const DebugContext& debugContext) {
  const std::string op = "popops::rearrange::regroupIfBeneficial";
  if (!in.valid()) throw poplibs_error(op + ": in is an invalid tensor");
  if (in.rank() <= 1) return in;
  const unsigned inner = unsigned(in.rank() - 1);
  if (preferredGrouping == 0 || in.dim(inner) % preferredGrouping != 0)
    throw poplibs_error(op + ": preferredGrouping " + std::to_string(preferredGrouping) +
                        " does not divide the innermost dimension of in (size " +
                        std::to_string(in.dim(inner)) + ")");
  const GroupingInfo to(inner, unsigned(preferredGrouping));
  GroupingInfo from;
  if (!pickFrom(graph, in, to, from)) return in;
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "regroupIfBeneficial");
  program::Sequence copies;
  const ComputeSet cs = graph.addComputeSet(di);
  const Tensor out = regroup(
      graph, in, [&](Tensor src, Tensor dst) { copies.add(program::Copy(src, dst, false, di)); },
      cs, from, to, di, op);
  prog.add(copies);
  prog.add(program::Execute(cs, di));
  return out;
}

} // namespace rearrange
} // namespace popops
