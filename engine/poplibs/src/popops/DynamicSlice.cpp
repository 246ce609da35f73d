// Dynamic slices and updates. Every operation views its base tensor as a matrix [N, R]: the
// entries of the sliced dimension(s) as rows, everything else as columns. Work is spread by
// column: a tile slices the columns it holds, for every row, so a tensor laid out by
// createSliceableTensor (all rows of a column group on one tile) slices with no exchange.
#include "MultiSliceForms.hpp"
#include "poplibs_support/TileWork.hpp"

#include <algorithm>
#include <numeric>
#include <ostream>
#include <popops/Cast.hpp>
#include <popops/DynamicSlice.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>
#include <sstream>
#include <tuple>

namespace popops {

using namespace poplar;
using poplar::Interval;
using TileColumns = std::vector<std::vector<Interval>>; // per tile, column intervals

class SlicePlanInternal {
public:
  bool planned = false;
  Type dataType = FLOAT;
  std::size_t numEntries = 0, outputSize = 0;
  std::vector<std::size_t> numLookups;
  bool usedForSlice = true, usedForUpdate = true;
  std::string operationForUpdate = "add";
  std::size_t groupSize = 0; ///< 0: planned without groups
  auto key() const {
    return std::tie(planned, numEntries, outputSize, numLookups, usedForSlice, usedForUpdate,
                    operationForUpdate, groupSize);
  }
};

std::size_t detail::planGroupSize(const SlicePlan& plan) {
  const auto& i = plan.getImpl();
  return i.planned ? i.groupSize : 0;
}

SlicePlan::SlicePlan() : internal(new SlicePlanInternal) {}
SlicePlan::~SlicePlan() = default;
SlicePlan::SlicePlan(const SlicePlan& other) : internal(new SlicePlanInternal(*other.internal)) {}
SlicePlan::SlicePlan(SlicePlan&& other) : internal(new SlicePlanInternal(*other.internal)) {}
SlicePlan& SlicePlan::operator=(const SlicePlan& other) {
  *internal = *other.internal;
  return *this;
}
SlicePlan& SlicePlan::operator=(SlicePlan&& other) {
  *internal = *other.internal;
  return *this;
}
SlicePlan::SlicePlan(std::unique_ptr<SlicePlanInternal> i) : internal(std::move(i)) {}

std::ostream& operator<<(std::ostream& o, const SlicePlan& p) {
  const auto& i = *p.internal;
  if (!i.planned) return o << "SlicePlan(default)";
  o << "SlicePlan(" << i.dataType.toString() << ", entries " << i.numEntries << ", output size "
    << i.outputSize << ", lookups";
  for (auto n : i.numLookups)
    o << ' ' << n;
  if (i.groupSize) o << ", groups " << i.groupSize;
  return o << ", slice " << (i.usedForSlice ? "yes" : "no") << ", update "
           << (i.usedForUpdate ? i.operationForUpdate : std::string("no")) << ')';
}
bool operator<(const SlicePlan& a, const SlicePlan& b) noexcept {
  return a.internal->key() < b.internal->key() ||
         (a.internal->key() == b.internal->key() &&
          a.internal->dataType.toString() < b.internal->dataType.toString());
}
bool operator==(const SlicePlan& a, const SlicePlan& b) noexcept {
  return a.internal->key() == b.internal->key() && a.internal->dataType == b.internal->dataType;
}
bool operator!=(const SlicePlan& a, const SlicePlan& b) noexcept {
  return !(a == b);
}

namespace {

const std::initializer_list<Type> kTypes = {FLOAT, HALF, INT, UNSIGNED_INT};
const std::initializer_list<const char*> kSliceOptions = {
    "usedForSlice",        "usedForUpdate",
    "operationForUpdate",  "availableMemoryProportion",
    "indicesDistribution", "planMinimisationTarget",
    "indicesAreSorted",    "partialType"};

std::string listToString(const std::vector<std::size_t>& v) {
  std::string s = "{";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i ? "," : "") + std::to_string(v[i]);
  return s + "}";
}

/// dims and sizes as PopLibs requires them: as many of each, dims distinct and within the
/// rank, each size at most its dimension (and not 0).
void checkDimsAndSizes(const std::vector<std::size_t>& shape, const std::vector<std::size_t>& dims,
                       const std::vector<std::size_t>& sizes, const std::string& op) {
  if (dims.size() != sizes.size())
    throw poputil::poplibs_error(op + ": dims " + listToString(dims) + " and sizes " +
                                 listToString(sizes) + " differ in length");
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] >= shape.size())
      throw poputil::poplibs_error(op + ": dims[" + std::to_string(i) +
                                   "] = " + std::to_string(dims[i]) +
                                   " is not a dimension of a tensor of "
                                   "rank " +
                                   std::to_string(shape.size()));
    if (std::count(dims.begin(), dims.end(), dims[i]) != 1)
      throw poputil::poplibs_error(op + ": dims " + listToString(dims) + " names dimension " +
                                   std::to_string(dims[i]) + " more than once");
    if (sizes[i] == 0 || sizes[i] > shape[dims[i]])
      throw poputil::poplibs_error(
          op + ": sizes[" + std::to_string(i) + "] = " + std::to_string(sizes[i]) +
          " must be between 1 and the size " + std::to_string(shape[dims[i]]) + " of dimension " +
          std::to_string(dims[i]));
  }
  for (std::size_t n : shape)
    if (n == 0) throw poputil::poplibs_error(op + ": the tensor to slice has an empty dimension");
}

/// The permutation putting `dims` first, in their order, then the other dimensions in theirs.
std::vector<unsigned> slicedFirst(std::size_t rank, const std::vector<std::size_t>& dims) {
  std::vector<unsigned> perm(dims.begin(), dims.end());
  for (unsigned d = 0; d < rank; ++d)
    if (std::find(dims.begin(), dims.end(), d) == dims.end()) perm.push_back(d);
  return perm;
}

std::vector<unsigned> inverse(const std::vector<unsigned>& perm) {
  std::vector<unsigned> inv(perm.size());
  for (unsigned i = 0; i < perm.size(); ++i)
    inv[perm[i]] = i;
  return inv;
}

/// `t` as a matrix: the entries of `dims` as rows, all other elements as columns.
Tensor asRows(const Tensor& t, const std::vector<std::size_t>& dims) {
  const Tensor p = t.dimShuffle(slicedFirst(t.rank(), dims));
  std::size_t rows = 1;
  for (std::size_t i = 0; i < dims.size(); ++i)
    rows *= p.dim(i);
  return p.reshape({rows, t.numElements() / rows});
}

/// Columns [0, cols) cut into groups of `grain` and dealt out to consecutive tiles.
TileColumns spreadColumns(const Graph& graph, std::size_t cols, std::size_t grain) {
  grain = std::max<std::size_t>(grain, 1);
  const std::size_t tiles = graph.getTarget().getNumTiles();
  const std::size_t groups = (cols + grain - 1) / grain;
  const std::size_t perTile = (groups + tiles - 1) / tiles * grain;
  TileColumns out(tiles);
  for (std::size_t tile = 0, c = 0; c < cols; ++tile, c += perTile)
    out[tile].emplace_back(c, std::min(cols, c + perTile));
  return out;
}

/// A new tensor of `permutedShape` whose first `rowDims` dimensions are rows and the rest
/// columns, mapped column by column as `cols` says. Each column interval is a variable of its
/// own, [rows, width], so a tile's block is contiguous: all its rows of a column group bind to a
/// vertex field directly, as PopLibs lays sliceable tensors out.
Tensor addByColumns(Graph& graph, Type type, const std::vector<std::size_t>& permutedShape,
                    std::size_t rowDims, const TileColumns& cols, const DebugContext& di) {
  std::size_t rows = 1, total = 1;
  for (std::size_t i = 0; i < permutedShape.size(); ++i) {
    total *= permutedShape[i];
    if (i < rowDims) rows *= permutedShape[i];
  }
  const std::size_t width = rows == 0 ? 0 : total / rows;
  std::vector<std::pair<std::size_t, Tensor>> blocks; // by first column
  for (std::size_t tile = 0; tile < cols.size(); ++tile)
    for (const auto& c : cols[tile]) {
      if (c.size() == 0 || rows == 0) continue;
      const Tensor block = graph.addVariable(type, {rows, c.size()}, di);
      graph.setTileMapping(block, unsigned(tile));
      blocks.emplace_back(c.begin(), block);
    }
  if (blocks.empty() || width == 0) {
    const Tensor v = graph.addVariable(type, permutedShape, di);
    graph.setTileMapping(v, 0);
    return v;
  }
  std::sort(blocks.begin(), blocks.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<Tensor> parts;
  for (const auto& b : blocks)
    parts.push_back(b.second);
  return concat(parts, 1).reshape(permutedShape);
}

/// Column blocks of a matrix [rows, R]: one [rows, width] view per interval. Slicing a column
/// range straight from a row-major view walks all its regions; the transposed view is built
/// once, after which each block is one cheap slice of its outer dimension.
class ColumnBlocks {
public:
  explicit ColumnBlocks(const Tensor& m2d) : transposed_(m2d.transpose()) {}
  Tensor operator()(const Interval& columns) const {
    return transposed_.slice(columns).transpose();
  }

private:
  Tensor transposed_;
};

/// Whether `t`'s elements are one contiguous run of one variable.
bool isContiguous(const Tensor& t) {
  return t.getContiguousRegions().size() <= 1;
}

/// Per tile, pieces of its column intervals: about one per worker context.
TileColumns splitColumns(const TileColumns& cols, unsigned workers) {
  TileColumns out(cols.size());
  for (std::size_t tile = 0; tile < cols.size(); ++tile) {
    std::size_t total = 0;
    for (const auto& c : cols[tile])
      total += c.size();
    if (total == 0) continue;
    const std::size_t piece = std::max<std::size_t>(1, (total + workers - 1) / workers);
    for (const auto& c : cols[tile])
      for (std::size_t b = c.begin(); b < c.end(); b += piece)
        out[tile].emplace_back(b, std::min(c.end(), b + piece));
  }
  return out;
}

void checkOffsetType(const Tensor& offset, const std::string& op, const std::string& name) {
  poplibs_support::checkValid(offset, op, name);
  if (offset.elementType() != UNSIGNED_INT)
    throw poputil::poplibs_error(op + ": " + name + " has element type " +
                                 offset.elementType().toString() + "; it must be unsigned int");
}

void checkBase(const Tensor& t, const std::string& op, const std::string& name) {
  poplibs_support::checkValid(t, op, name);
  poplibs_support::checkType(t.elementType(), kTypes, op, name);
}

/// Slices or updates one dimension: sub2d [size, R] against base2d [N, R], offset a scalar.
/// Vertices sit on the tiles of `placeBy` (a [*, R] matrix whose row 0 is mapped). A column
/// interval whose base and slice blocks are each contiguous gets one DynamicSlice1d (its
/// workers share the columns); any other is cut into pieces for DynamicSlice2d vertices, whose
/// fields list one edge per row.
void addSliceVertices(Graph& graph, const ComputeSet& cs, bool update, const Tensor& base2d,
                      const Tensor& sub2d, const Tensor& offset, const Tensor& placeBy,
                      const std::string& op) {
  const auto cols = poplibs_support::tileMapping(graph, placeBy[0], op);
  const unsigned workers = graph.getTarget().getNumWorkerContexts();
  const Type type = base2d.elementType();
  const std::size_t numBase = base2d.dim(0), numSub = sub2d.dim(0);
  TileColumns strided(cols.size());
  const ColumnBlocks baseBlock(base2d), subBlock(sub2d);
  for (unsigned tile = 0; tile < cols.size(); ++tile)
    for (const auto& c : cols[tile]) {
      const Tensor base = baseBlock(c), sub = subBlock(c);
      if (!isContiguous(base) || !isContiguous(sub)) {
        strided[tile].push_back(c);
        continue;
      }
      auto v = graph.addVertex(cs, poputil::templateVertex(update ? "popops::DynamicUpdateSlice1d"
                                                                  : "popops::DynamicSlice1d",
                                                           type));
      graph.connect(v["offset"], offset);
      graph.connect(v["baseT"], base.flatten());
      graph.connect(v["subT"], sub.flatten());
      graph.setInitialValue(v["numBaseElements"], unsigned(numBase));
      graph.setInitialValue(v["numSubElements"], unsigned(numSub));
      graph.setInitialValue(v["regionSize"], unsigned(c.size()));
      graph.setTileMapping(v, tile);
    }
  const auto pieces = splitColumns(strided, workers);
  const std::string vertexType = poputil::templateVertex(
      update ? "popops::DynamicUpdateSlice2d" : "popops::DynamicSlice2d", type);
  for (unsigned tile = 0; tile < pieces.size(); ++tile)
    for (const auto& piece : pieces[tile]) {
      std::vector<Tensor> baseEdges, subEdges;
      for (std::size_t i = 0; i < numBase; ++i)
        baseEdges.push_back(base2d[i].slice(piece));
      for (std::size_t j = 0; j < numSub; ++j)
        subEdges.push_back(sub2d[j].slice(piece));
      auto v = graph.addVertex(cs, vertexType);
      graph.connect(v["offset"], offset);
      graph.connect(v["baseT"], baseEdges);
      graph.connect(v["subT"], subEdges);
      graph.setInitialValue(v["numBaseElements"], unsigned(numBase));
      graph.setInitialValue(v["numSubElements"], unsigned(numSub));
      graph.setInitialValue(v["numRegions"], 1u);
      graph.setTileMapping(v, tile);
    }
}

/// The offsets copied to every tile in `tiles` that will read them (one row per tile), so each
/// vertex reads a local copy: one exchange per tile rather than per vertex.
Tensor offsetsPerTile(Graph& graph, const Tensor& offs, const std::vector<unsigned>& tiles,
                      program::Sequence& prog, const DebugContext& di) {
  const Tensor local =
      graph.addVariable(UNSIGNED_INT, {tiles.size(), offs.numElements()}, {di, "offsets"});
  for (std::size_t i = 0; i < tiles.size(); ++i)
    graph.setTileMapping(local[i], tiles[i]);
  prog.add(program::Copy(offs.expand({0}).broadcast(unsigned(tiles.size()), 0), local, false, di));
  return local;
}

/// dynamicSlice of one dimension into `out` (or a new tensor when `out` is invalid).
Tensor sliceOneDim(Graph& graph, const Tensor& t, const Tensor& offset, std::size_t dim,
                   std::size_t size, Tensor out, program::Sequence& prog, const DebugContext& di,
                   const std::string& op) {
  const Tensor base2d = asRows(t, {dim});
  if (!out.valid()) {
    auto shape = t.dimRoll(unsigned(dim), 0).shape();
    shape[0] = size;
    const auto cols = poplibs_support::tileMapping(graph, base2d[0], op);
    out = addByColumns(graph, t.elementType(), shape, 1, cols, {di, "output"})
              .dimRoll(0, unsigned(dim));
  }
  const Tensor out2d = asRows(out, {dim});
  const ComputeSet cs = graph.addComputeSet(di);
  addSliceVertices(graph, cs, false, base2d, out2d, offset, out2d, op);
  prog.add(program::Execute(cs, di));
  return out;
}

void updateOneDim(Graph& graph, const Tensor& t, const Tensor& s, const Tensor& offset,
                  std::size_t dim, program::Sequence& prog, const DebugContext& di,
                  const std::string& op) {
  const Tensor base2d = asRows(t, {dim}), sub2d = asRows(s, {dim});
  const ComputeSet cs = graph.addComputeSet(di);
  addSliceVertices(graph, cs, true, base2d, sub2d, offset, base2d, op);
  prog.add(program::Execute(cs, di));
}

void checkDynamicArgs(const Tensor& t, const Tensor& offset, const std::vector<std::size_t>& dims,
                      const std::vector<std::size_t>& sizes, const std::string& op) {
  checkBase(t, op, "t");
  checkOffsetType(offset, op, "offset");
  checkDimsAndSizes(t.shape(), dims, sizes, op);
  if (offset.rank() != 1 || offset.numElements() != dims.size())
    throw poputil::poplibs_error(op + ": offset has shape " + offset.shapeToString() +
                                 "; it must be [" + std::to_string(dims.size()) +
                                 "], one offset per dimension in dims");
  if (dims.empty()) throw poputil::poplibs_error(op + ": dims is empty");
}

std::vector<std::size_t> slicedShape(std::vector<std::size_t> shape,
                                     const std::vector<std::size_t>& dims,
                                     const std::vector<std::size_t>& sizes) {
  for (std::size_t i = 0; i < dims.size(); ++i)
    shape[dims[i]] = sizes[i];
  return shape;
}

Tensor dynamicSliceImpl(Graph& graph, const Tensor& output, const Tensor& t, const Tensor& offset,
                        const std::vector<std::size_t>& dims, const std::vector<std::size_t>& sizes,
                        program::Sequence& prog, const DebugContext& di, const std::string& op) {
  checkDynamicArgs(t, offset, dims, sizes, op);
  const auto shape = slicedShape(t.shape(), dims, sizes);
  if (output.valid() && output.shape() != shape)
    throw poputil::poplibs_error(op + ": output has shape " + output.shapeToString() +
                                 " but the slice has shape " + listToString(shape));
  if (output.valid() && output.elementType() != t.elementType())
    throw poputil::poplibs_error(op + ": output has element type " +
                                 output.elementType().toString() + " but t has " +
                                 t.elementType().toString());
  Tensor cur = t;
  for (std::size_t i = 0; i < dims.size(); ++i)
    cur = sliceOneDim(graph, cur, offset[i], dims[i], sizes[i],
                      i + 1 == dims.size() ? output : Tensor(), prog, di, op);
  return cur;
}

/// dynamicUpdate of dims[k..]: slices t down along dims[k], updates that slice with the rest,
/// then writes it back (PopLibs' order: outer dimensions first).
void updateDims(Graph& graph, const Tensor& t, const Tensor& s, const Tensor& offset,
                const std::vector<std::size_t>& dims, const std::vector<std::size_t>& sizes,
                std::size_t k, program::Sequence& prog, const DebugContext& di,
                const std::string& op) {
  if (k + 1 == dims.size()) {
    updateOneDim(graph, t, s, offset[k], dims[k], prog, di, op);
    return;
  }
  const Tensor part = sliceOneDim(graph, t, offset[k], dims[k], sizes[k], Tensor(), prog, di, op);
  updateDims(graph, part, s, offset, dims, sizes, k + 1, prog, di, op);
  updateOneDim(graph, t, part, offset[k], dims[k], prog, di, op);
}

/// The offsets of a multi-slice as a vector [numOffsets], checked.
Tensor multiOffsets(const Tensor& offsets, const std::vector<std::size_t>& dims,
                    const std::string& op) {
  checkOffsetType(offsets, op, "offsets");
  if (!(offsets.rank() == 2 && offsets.dim(1) == dims.size()) && offsets.rank() != 1)
    throw poputil::poplibs_error(op + ": offsets has shape " + offsets.shapeToString() +
                                 "; it must be [numOffsets, " + std::to_string(dims.size()) + "]");
  return offsets.flatten();
}

void checkMultiArgs(const Tensor& t, const std::vector<std::size_t>& dims,
                    const std::vector<std::size_t>& sizes, const std::string& op) {
  checkBase(t, op, "t");
  checkDimsAndSizes(t.shape(), dims, sizes, op);
  if (dims.size() != 1)
    throw poputil::poplibs_error(op + ": dims " + listToString(dims) +
                                 " must name exactly one dimension");
  if (sizes[0] != 1)
    throw poputil::poplibs_error(op + ": sizes " + listToString(sizes) +
                                 " must be {1}: each offset selects one entry");
}

/// t's slices for multiUpdate*: s is [numOffsets, t's shape with dims[0] of size 1].
Tensor multiSlices2d(const Tensor& t, const Tensor& s, std::size_t numOffsets, std::size_t dim,
                     const std::string& op) {
  poplibs_support::checkValid(s, op, "s");
  auto expected = t.shape();
  expected[dim] = 1;
  expected.insert(expected.begin(), numOffsets);
  if (s.shape() != expected)
    throw poputil::poplibs_error(op + ": s has shape " + s.shapeToString() + "; it must be " +
                                 listToString(expected) + " for " + std::to_string(numOffsets) +
                                 " offsets into t of shape " + t.shapeToString());
  if (s.elementType() != t.elementType())
    throw poputil::poplibs_error(op + ": s has element type " + s.elementType().toString() +
                                 " but t has " + t.elementType().toString());
  return s.reshape({numOffsets, t.numElements() / t.dim(dim)});
}

/// Whether a multiSlice/multiUpdate needs the generic form: more than one dimension, or more
/// than one entry per offset (checked here).
bool isGenericMulti(const Tensor& t, const std::vector<std::size_t>& dims,
                    const std::vector<std::size_t>& sizes, const std::string& op) {
  checkBase(t, op, "t");
  checkDimsAndSizes(t.shape(), dims, sizes, op);
  if (dims.empty()) throw poputil::poplibs_error(op + ": dims is empty");
  return dims.size() != 1 || sizes[0] != 1;
}

/// The offsets of a generic multi-slice as [numOffsets, dims.size()], checked.
Tensor genericOffsets(const Tensor& offsets, const std::vector<std::size_t>& dims,
                      const std::string& op) {
  checkOffsetType(offsets, op, "offsets");
  if (offsets.rank() == 1 && dims.size() == 1) return offsets.expand({1});
  if (offsets.rank() != 2 || offsets.dim(1) != dims.size())
    throw poputil::poplibs_error(op + ": offsets has shape " + offsets.shapeToString() +
                                 "; it must be [numOffsets, " + std::to_string(dims.size()) + "]");
  return offsets;
}

/// The options of dynamicSlice/dynamicUpdate. Out-of-range offsets always start the slice at 0
/// (remapOutOfBoundIndices=true behaves as the default); padding indices are not modelled.
void checkDynamicOptions(const poplar::OptionFlags& options, const std::string& op) {
  poplibs_support::checkOptions(options, {"remapOutOfBoundIndices", "paddingIndexUsed"}, op);
  for (const auto& [name, value] : options) {
    if (value != "true" && value != "false")
      throw poplar::invalid_option(op + ": option " + name + " is '" + value +
                                   "'; allowed: true, false");
    if (name == "paddingIndexUsed" && value == "true")
      throw poputil::poplibs_error(op + ": option paddingIndexUsed=true is not supported by "
                                        "Tessera (padding indices are sliced as index 0)");
  }
}

enum class UpdateOp { None, Add, Max, Mul };

void multiUpdateImpl(Graph& graph, const Tensor& t, const Tensor& s, const Tensor& offsets,
                     const Tensor* scale, UpdateOp updateOp, const std::vector<std::size_t>& dims,
                     const std::vector<std::size_t>& sizes, program::Sequence& prog,
                     const poplar::OptionFlags& options, const DebugContext& di,
                     const std::string& op) {
  poplibs_support::checkOptions(options, kSliceOptions, op);
  checkMultiArgs(t, dims, sizes, op);
  const Tensor offs = multiOffsets(offsets, dims, op);
  const Tensor sub2d = multiSlices2d(t, s, offs.numElements(), dims[0], op);
  Tensor k;
  if (scale) {
    poplibs_support::checkValid(*scale, op, "scale");
    if (scale->numElements() != 1)
      throw poputil::poplibs_error(op + ": scale has shape " + scale->shapeToString() +
                                   "; it must hold one element");
    const bool halfWithFloat = t.elementType() == HALF && scale->elementType() == FLOAT;
    if (scale->elementType() != t.elementType() && !halfWithFloat)
      throw poputil::poplibs_error(
          op + ": scale has element type " + scale->elementType().toString() + "; it must be " +
          t.elementType().toString() + (t.elementType() == HALF ? " or float" : ""));
    k = scale->reshape({});
    if (halfWithFloat) k = cast(graph, k, HALF, prog, {di, "scale"});
  }
  if (offs.numElements() == 0) return;
  const Tensor base2d = asRows(t, dims);
  const std::string family = updateOp == UpdateOp::Add    ? "popops::MultiUpdateAdd"
                             : updateOp == UpdateOp::None ? "popops::MultiUpdate"
                                                          : "popops::MultiUpdateOp";
  const std::string vertexType =
      updateOp == UpdateOp::Add   ? poputil::templateVertex(family, t.elementType(), false)
      : updateOp == UpdateOp::Max ? poputil::templateVertex(family, t.elementType(), false,
                                                            "popops::expr::BinaryOpType::MAXIMUM")
      : updateOp == UpdateOp::Mul ? poputil::templateVertex(family, t.elementType(), false,
                                                            "popops::expr::BinaryOpType::MULTIPLY")
                                  : poputil::templateVertex(family, t.elementType());
  const unsigned workers = graph.getTarget().getNumWorkerContexts();
  const auto cols = poplibs_support::tileMapping(graph, base2d[0], op);
  const std::size_t numBase = base2d.dim(0);
  std::vector<unsigned> tiles;
  for (unsigned tile = 0; tile < cols.size(); ++tile)
    if (!cols[tile].empty()) tiles.push_back(tile);
  const Tensor local = offsetsPerTile(graph, offs, tiles, prog, di);
  const ColumnBlocks baseBlock(base2d), subBlock(sub2d);
  const ComputeSet cs = graph.addComputeSet(di);
  for (std::size_t ti = 0; ti < tiles.size(); ++ti) {
    const unsigned tile = tiles[ti];
    // The workers share out the base rows: each vertex applies only the offsets that fall in
    // its rows, so no two vertices write one element and repeated offsets apply in order.
    const std::size_t rowParts =
        std::min<std::size_t>(numBase, std::max<std::size_t>(1, workers / cols[tile].size()));
    for (const auto& piece : cols[tile]) {
      const Tensor base = baseBlock(piece), sub = subBlock(piece).flatten();
      for (std::size_t p = 0; p < rowParts; ++p) {
        const std::size_t r0 = numBase * p / rowParts, r1 = numBase * (p + 1) / rowParts;
        auto v = graph.addVertex(cs, vertexType);
        graph.connect(v["offsets"], local[ti]);
        graph.connect(v["baseT"], base.slice(r0, r1).flatten());
        graph.connect(v["subT"], sub);
        if (updateOp == UpdateOp::Add) graph.connect(v["scale"], k);
        graph.setInitialValue(v["baseOffset"], unsigned(r0));
        graph.setInitialValue(v["numBaseElements"], unsigned(r1 - r0));
        graph.setInitialValue(v["regionSize"], unsigned(piece.size()));
        graph.setTileMapping(v, tile);
      }
    }
  }
  prog.add(program::Execute(cs, di));
}

} // namespace

// --- creating tensors ---------------------------------------------------------------------------

Tensor createSliceableTensor(Graph& graph, const Type& type, const std::vector<size_t>& shape,
                             const std::vector<size_t>& dims, const std::vector<size_t>& sizes,
                             std::size_t minGrainSize, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "createSliceableTensor");
  const std::string op = "popops::createSliceableTensor";
  poplibs_support::checkType(type, kTypes, op, "type");
  checkDimsAndSizes(shape, dims, sizes, op);
  const auto perm = slicedFirst(shape.size(), dims);
  std::vector<std::size_t> permuted;
  std::size_t rows = 1;
  for (unsigned p : perm)
    permuted.push_back(shape[p]);
  for (std::size_t i = 0; i < dims.size(); ++i)
    rows *= permuted[i];
  const std::size_t total =
      std::accumulate(shape.begin(), shape.end(), std::size_t(1), std::multiplies<>());
  const auto cols = spreadColumns(graph, total / rows, minGrainSize);
  return addByColumns(graph, type, permuted, dims.size(), cols, {di, "sliceable"})
      .dimShuffle(inverse(perm));
}

Tensor createSliceableTensor(Graph& graph, const Type& type, const std::vector<size_t>& shape,
                             const std::vector<size_t>& dims, const std::vector<size_t>& sizes,
                             const SlicePlan& plan, const poplar::OptionFlags& options,
                             const DebugContext& debugContext) {
  poplibs_support::checkOptions(options, kSliceOptions, "popops::createSliceableTensor");
  (void)plan; // every plan lays the tensor out by columns
  return createSliceableTensor(graph, type, shape, dims, sizes, 0, debugContext);
}

namespace {
/// A new [numIndices, shape with dims of sizes] tensor mapped by the columns `cols`.
Tensor sliceTensorByColumns(Graph& graph, Type type, const std::vector<std::size_t>& shape,
                            const std::vector<std::size_t>& dims,
                            const std::vector<std::size_t>& sizes, std::size_t numIndices,
                            const TileColumns& cols, const DebugContext& di) {
  std::vector<std::size_t> full{numIndices};
  std::vector<std::size_t> fullDims{0};
  const auto sliced = slicedShape(shape, dims, sizes);
  full.insert(full.end(), sliced.begin(), sliced.end());
  for (auto d : dims)
    fullDims.push_back(d + 1);
  const auto perm = slicedFirst(full.size(), fullDims);
  std::vector<std::size_t> permuted;
  for (unsigned p : perm)
    permuted.push_back(full[p]);
  return addByColumns(graph, type, permuted, fullDims.size(), cols, di).dimShuffle(inverse(perm));
}
} // namespace

Tensor createSliceTensor(Graph& graph, const Tensor& t, const std::vector<size_t>& dims,
                         const std::vector<size_t>& sizes, std::size_t numIndices,
                         const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "createSliceTensor");
  const std::string op = "popops::createSliceTensor";
  checkBase(t, op, "t");
  checkDimsAndSizes(t.shape(), dims, sizes, op);
  const auto cols = poplibs_support::tileMapping(graph, asRows(t, dims)[0], op);
  return sliceTensorByColumns(graph, t.elementType(), t.shape(), dims, sizes, numIndices, cols,
                              {di, "slices"});
}

Tensor createSliceTensor(Graph& graph, const Type& type, const std::vector<std::size_t>& shape,
                         const std::vector<std::size_t>& dims,
                         const std::vector<std::size_t>& sizes, std::size_t numIndices,
                         const SlicePlan& plan, const poplar::OptionFlags& options,
                         const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "createSliceTensor");
  const std::string op = "popops::createSliceTensor";
  (void)plan;
  poplibs_support::checkOptions(options, kSliceOptions, op);
  poplibs_support::checkType(type, kTypes, op, "type");
  checkDimsAndSizes(shape, dims, sizes, op);
  std::size_t cols = 1;
  for (std::size_t d = 0; d < shape.size(); ++d)
    if (std::find(dims.begin(), dims.end(), d) == dims.end()) cols *= shape[d];
  return sliceTensorByColumns(graph, type, shape, dims, sizes, numIndices,
                              spreadColumns(graph, cols, 0), {di, "slices"});
}

Tensor createIndicesTensor(Graph& graph, const std::vector<std::size_t>& dims,
                           std::size_t numIndices, const SlicePlan& plan,
                           const poplar::OptionFlags& options, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "createIndicesTensor");
  (void)plan;
  poplibs_support::checkOptions(options, kSliceOptions, "popops::createIndicesTensor");
  if (dims.empty()) throw poputil::poplibs_error("popops::createIndicesTensor: dims is empty");
  const Tensor t = graph.addVariable(UNSIGNED_INT, {numIndices, dims.size()}, {di, "indices"});
  const auto cols = spreadColumns(graph, t.numElements(), 1);
  graph.setTileMapping(t, cols);
  return t;
}

Tensor createSliceableTensorFromSlice(Graph& graph, const Tensor& s,
                                      const std::vector<std::size_t>& dims,
                                      const std::vector<std::size_t>& numSlices,
                                      const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "createSliceableTensorFromSlice");
  const std::string op = "popops::createSliceableTensorFromSlice";
  checkBase(s, op, "s");
  checkDimsAndSizes(s.shape(), dims, std::vector<std::size_t>(dims.size(), 1), op);
  if (numSlices.size() != dims.size())
    throw poputil::poplibs_error(op + ": numSlices " + listToString(numSlices) + " and dims " +
                                 listToString(dims) + " differ in length");
  auto shape = s.shape();
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (numSlices[i] == 0) throw poputil::poplibs_error(op + ": numSlices has a 0");
    shape[dims[i]] *= numSlices[i];
  }
  const auto cols = poplibs_support::tileMapping(graph, asRows(s, dims)[0], op);
  const auto perm = slicedFirst(shape.size(), dims);
  std::vector<std::size_t> permuted;
  for (unsigned p : perm)
    permuted.push_back(shape[p]);
  return addByColumns(graph, s.elementType(), permuted, dims.size(), cols, {di, "sliceable"})
      .dimShuffle(inverse(perm));
}

Graph::TileToTensorMapping getSliceMapping(Graph& graph, const Tensor& t,
                                           const std::vector<std::size_t>& dims,
                                           const std::vector<std::size_t>& sizes) {
  const std::string op = "popops::getSliceMapping";
  checkBase(t, op, "t");
  checkDimsAndSizes(t.shape(), dims, sizes, op);
  const auto cols = poplibs_support::tileMapping(graph, asRows(t, dims)[0], op);
  std::vector<unsigned> tileOfColumn(t.numElements());
  for (unsigned tile = 0; tile < cols.size(); ++tile)
    for (const auto& c : cols[tile])
      for (std::size_t i = c.begin(); i < c.end(); ++i)
        tileOfColumn[i] = tile;
  const auto shape = slicedShape(t.shape(), dims, sizes);
  std::vector<bool> isSliced(shape.size(), false);
  for (auto d : dims)
    isSliced[d] = true;
  Graph::TileToTensorMapping mapping(graph.getTarget().getNumTiles());
  std::vector<std::size_t> index(shape.size(), 0);
  const std::size_t n =
      std::accumulate(shape.begin(), shape.end(), std::size_t(1), std::multiplies<>());
  for (std::size_t e = 0; e < n; ++e) {
    std::size_t column = 0;
    for (std::size_t d = 0; d < shape.size(); ++d)
      if (!isSliced[d]) column = column * shape[d] + index[d];
    auto& m = mapping[tileOfColumn[column]];
    if (!m.empty() && m.back().end() == e)
      m.back() = Interval(m.back().begin(), e + 1);
    else
      m.emplace_back(e, e + 1);
    for (std::size_t d = shape.size(); d-- > 0;) // next index, last dimension fastest
      if (++index[d] < shape[d])
        break;
      else
        index[d] = 0;
  }
  return mapping;
}

// --- dynamic slices and updates
// -------------------------------------------------------------------

Tensor dynamicSlice(Graph& graph, const Tensor& t, const Tensor& offset,
                    const std::vector<std::size_t>& dims, const std::vector<std::size_t>& sizes,
                    program::Sequence& prog, const DebugContext& debugContext,
                    const poplar::OptionFlags& options) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "dynamicSlice");
  checkDynamicOptions(options, "popops::dynamicSlice");
  return dynamicSliceImpl(graph, Tensor(), t, offset, dims, sizes, prog, di,
                          "popops::dynamicSlice");
}

Tensor createDynamicSliceOutput(Graph& graph, const Tensor& t, const Tensor& offset,
                                const std::vector<std::size_t>& dims,
                                const std::vector<std::size_t>& sizes,
                                const DebugContext& debugContext,
                                const poplar::OptionFlags& options) {
  poputil::PoplibsOpDebugInfo di(debugContext, {}, "createDynamicSliceOutput");
  const std::string op = "popops::createDynamicSliceOutput";
  checkDynamicOptions(options, op);
  checkDynamicArgs(t, offset, dims, sizes, op);
  // Laid out as dynamicSlice lays out its result, so dynamicSliceWithOutput needs no exchange.
  const Tensor out =
      graph.addVariable(t.elementType(), slicedShape(t.shape(), dims, sizes), {di, "output"});
  graph.setTileMapping(out, getSliceMapping(graph, t, dims, sizes));
  di.addOutput(out);
  return out;
}

void dynamicSliceWithOutput(Graph& graph, const Tensor& output, const Tensor& t,
                            const Tensor& offset, const std::vector<std::size_t>& dims,
                            const std::vector<std::size_t>& sizes, program::Sequence& prog,
                            const DebugContext& debugContext, const poplar::OptionFlags& options) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "dynamicSliceWithOutput");
  const std::string op = "popops::dynamicSliceWithOutput";
  checkDynamicOptions(options, op);
  poplibs_support::checkValid(output, op, "output");
  dynamicSliceImpl(graph, output, t, offset, dims, sizes, prog, di, op);
}

void dynamicUpdate(Graph& graph, const Tensor& t, const Tensor& s, const Tensor& offset,
                   const std::vector<std::size_t>& dims, const std::vector<std::size_t>& sizes,
                   program::Sequence& prog, const DebugContext& debugContext,
                   const poplar::OptionFlags& options) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "dynamicUpdate");
  const std::string op = "popops::dynamicUpdate";
  checkDynamicOptions(options, op);
  checkDynamicArgs(t, offset, dims, sizes, op);
  poplibs_support::checkValid(s, op, "s");
  const auto shape = slicedShape(t.shape(), dims, sizes);
  if (s.shape() != shape)
    throw poputil::poplibs_error(op + ": s has shape " + s.shapeToString() + "; it must be " +
                                 listToString(shape));
  if (s.elementType() != t.elementType())
    throw poputil::poplibs_error(op + ": s has element type " + s.elementType().toString() +
                                 " but t has " + t.elementType().toString());
  updateDims(graph, t, s, offset, dims, sizes, 0, prog, di, op);
}

// --- multi-slices ------------------------------------------------------------------------------

Tensor multiSlice(Graph& graph, const Tensor& t, const Tensor& offsets,
                  const std::vector<std::size_t>& dims, const std::vector<std::size_t>& sizes,
                  program::Sequence& prog, const SlicePlan& plan,
                  const poplar::OptionFlags& options, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "multiSlice");
  const std::string op = "popops::multiSlice";
  (void)plan;
  poplibs_support::checkOptions(options, kSliceOptions, op);
  if (isGenericMulti(t, dims, sizes, op))
    return detail::genericMultiSlice(graph, t, genericOffsets(offsets, dims, op), dims, sizes, prog,
                                     di);
  checkMultiArgs(t, dims, sizes, op);
  const Tensor offs = multiOffsets(offsets, dims, op);
  const std::size_t numOffsets = offs.numElements();
  const Tensor base2d = asRows(t, dims);
  const auto baseCols = poplibs_support::tileMapping(graph, base2d[0], op);
  auto outShape = slicedShape(t.shape(), dims, sizes);
  outShape.insert(outShape.begin(), numOffsets);
  const Tensor out2d = addByColumns(graph, t.elementType(), {numOffsets, base2d.dim(1)}, 1,
                                    baseCols, {di, "output"});
  if (numOffsets == 0) return out2d.reshape(outShape);
  std::vector<unsigned> tiles;
  for (unsigned tile = 0; tile < baseCols.size(); ++tile)
    if (!baseCols[tile].empty()) tiles.push_back(tile);
  const Tensor local = offsetsPerTile(graph, offs, tiles, prog, di);
  const unsigned workers = graph.getTarget().getNumWorkerContexts();
  const std::size_t offsetParts = std::min<std::size_t>(numOffsets, workers);
  const std::string vertexType = poputil::templateVertex("popops::MultiSlice", t.elementType());
  const ComputeSet cs = graph.addComputeSet(di);
  const ColumnBlocks baseBlock(base2d), outBlock(out2d);
  for (std::size_t ti = 0; ti < tiles.size(); ++ti)
    for (const auto& piece : baseCols[tiles[ti]]) {
      const Tensor base = baseBlock(piece).flatten(), out = outBlock(piece);
      // The workers share out the offsets: each writes its own rows of the result.
      for (std::size_t p = 0; p < offsetParts; ++p) {
        const std::size_t m0 = numOffsets * p / offsetParts;
        const std::size_t m1 = numOffsets * (p + 1) / offsetParts;
        auto v = graph.addVertex(cs, vertexType);
        graph.connect(v["offsets"], local[ti].slice(m0, m1));
        graph.connect(v["baseT"], base);
        graph.connect(v["subT"], out.slice(m0, m1).flatten());
        graph.setInitialValue(v["baseOffset"], 0u);
        graph.setInitialValue(v["numBaseElements"], unsigned(base2d.dim(0)));
        graph.setInitialValue(v["regionSize"], unsigned(piece.size()));
        graph.setTileMapping(v, tiles[ti]);
      }
    }
  prog.add(program::Execute(cs, di));
  return out2d.reshape(outShape);
}

void multiUpdate(Graph& graph, const Tensor& t, const Tensor& s, const Tensor& offsets,
                 const std::vector<std::size_t>& dims, const std::vector<std::size_t>& sizes,
                 program::Sequence& prog, const SlicePlan& plan, const poplar::OptionFlags& options,
                 const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "multiUpdate");
  (void)plan;
  const std::string op = "popops::multiUpdate";
  if (isGenericMulti(t, dims, sizes, op)) {
    poplibs_support::checkOptions(options, kSliceOptions, op);
    detail::genericMultiUpdate(graph, t, s, genericOffsets(offsets, dims, op), dims, sizes, prog,
                               di, op);
    return;
  }
  multiUpdateImpl(graph, t, s, offsets, nullptr, UpdateOp::None, dims, sizes, prog, options, di,
                  "popops::multiUpdate");
}

void multiUpdateAdd(Graph& graph, const Tensor& t, const Tensor& s, const Tensor& offsets,
                    const Tensor& scale, const std::vector<std::size_t>& dims,
                    const std::vector<std::size_t>& sizes, program::Sequence& prog,
                    const SlicePlan& plan, const poplar::OptionFlags& options,
                    const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "multiUpdateAdd");
  (void)plan;
  multiUpdateImpl(graph, t, s, offsets, &scale, UpdateOp::Add, dims, sizes, prog, options, di,
                  "popops::multiUpdateAdd");
}

void multiUpdateMax(Graph& graph, const Tensor& t, const Tensor& s, const Tensor& offsets,
                    const std::vector<std::size_t>& dims, const std::vector<std::size_t>& sizes,
                    program::Sequence& prog, const SlicePlan& plan,
                    const poplar::OptionFlags& options, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "multiUpdateMax");
  (void)plan;
  const std::string op = "popops::multiUpdateMax";
  multiUpdateImpl(graph, t, s, offsets, nullptr, UpdateOp::Max, dims, sizes, prog, options, di, op);
}

void multiUpdateMul(Graph& graph, const Tensor& t, const Tensor& s, const Tensor& offsets,
                    const std::vector<std::size_t>& dims, const std::vector<std::size_t>& sizes,
                    program::Sequence& prog, const SlicePlan& plan,
                    const poplar::OptionFlags& options, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "multiUpdateMul");
  (void)plan;
  const std::string op = "popops::multiUpdateMul";
  multiUpdateImpl(graph, t, s, offsets, nullptr, UpdateOp::Mul, dims, sizes, prog, options, di, op);
}

// --- embedding plans ---------------------------------------------------------------------------

namespace embedding {

SlicePlan plan(const Graph& graph, const Type& dataType, const std::size_t numEntries,
               const std::size_t outputSize, const std::vector<std::size_t>& numLookups,
               const poplar::OptionFlags& options) {
  (void)graph;
  const std::string op = "popops::embedding::plan";
  poplibs_support::checkOptions(options, kSliceOptions, op);
  poplibs_support::checkType(dataType, kTypes, op, "dataType");
  if (numEntries == 0 || outputSize == 0)
    throw poputil::poplibs_error(op + ": numEntries (" + std::to_string(numEntries) +
                                 ") and outputSize (" + std::to_string(outputSize) +
                                 ") must not be 0");
  std::unique_ptr<SlicePlanInternal> p(new SlicePlanInternal);
  p->planned = true;
  p->dataType = dataType;
  p->numEntries = numEntries;
  p->outputSize = outputSize;
  p->numLookups = numLookups;
  auto oneOf = [&](const std::string& name, const std::string& value,
                   std::initializer_list<const char*> allowed) {
    for (const char* a : allowed)
      if (value == a) return;
    std::string list;
    for (const char* a : allowed)
      list += (list.empty() ? "" : ", ") + std::string(a);
    throw poplar::invalid_option(op + ": option " + name + " is '" + value + "'; allowed: " + list);
  };
  for (const auto& [name, value] : options) {
    if (name == "usedForSlice" || name == "usedForUpdate" || name == "indicesAreSorted") {
      oneOf(name, value, {"true", "false"});
      if (name == "usedForSlice") p->usedForSlice = value == "true";
      if (name == "usedForUpdate") p->usedForUpdate = value == "true";
    } else if (name == "operationForUpdate") {
      oneOf(name, value, {"none", "add", "max", "mul"});
      p->operationForUpdate = value;
    } else if (name == "indicesDistribution") {
      oneOf(name, value, {"uniform", "onePoint"});
    } else if (name == "planMinimisationTarget") {
      oneOf(name, value, {"memory", "cycles"});
    } else if (name == "partialType") {
      oneOf(name, value, {"float", "half"});
    } else if (name == "availableMemoryProportion") {
      double v = -1;
      try {
        v = std::stod(value);
      } catch (const std::exception&) {
      }
      if (!(v > 0))
        throw poplar::invalid_option(op + ": option availableMemoryProportion is '" + value +
                                     "'; it must be a positive number");
    }
  }
  if (!p->usedForSlice && !p->usedForUpdate)
    throw poputil::poplibs_error(op + ": options usedForSlice and usedForUpdate are both false");
  return SlicePlan(std::move(p));
}

SlicePlan plan(const Graph& graph, const Type& dataType, const std::size_t groupSize,
               const std::size_t numEntries, const std::size_t outputSize,
               const std::vector<std::size_t>& numLookups, const poplar::OptionFlags& options) {
  if (groupSize == 0)
    throw poputil::poplibs_error("popops::embedding::plan: groupSize is 0; it must be at least 1");
  SlicePlan p = plan(graph, dataType, numEntries, outputSize, numLookups, options);
  p.getImpl().groupSize = groupSize;
  return p;
}

std::vector<SlicePlan> planMultiple(const std::vector<SlicePlanningParameters>& spds) {
  // PopLibs plans them in parallel; Tessera's plans are quick, so one after the other.
  std::vector<SlicePlan> plans;
  plans.reserve(spds.size());
  // A group size of 1 (the parameters' default) makes the plain plan, as plan() without a
  // group size does.
  for (const auto& p : spds)
    plans.push_back(p.groupSize == 1 ? plan(p.graph, p.dataType, p.numEntries, p.outputSize,
                                            p.numLookups, p.optionFlags)
                                     : plan(p.graph, p.dataType, p.groupSize, p.numEntries,
                                            p.outputSize, p.numLookups, p.optionFlags));
  return plans;
}

} // namespace embedding

} // namespace popops
